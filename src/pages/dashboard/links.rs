//! Where a figure's list opens in the portal: the server names the list by its API path and
//! the query of its filters (`ListQuery`); each list's page takes that query as its URL query
//! (the data tables, the outbox, the returned items), beside the page's own view key.

use moneydesk_model::overview::ListQuery;
use moneydesk_model::paths;

/// The portal path (from the base) and query that show `list`.
pub fn place(list: &ListQuery) -> String {
    let path = list.path.as_str();
    let (page, view, keep) = match path {
        p if p == paths::DEPOSITS => ("/deposits", "", true),
        p if p == paths::DEPOSIT_RETURNS => ("/ledger", "view=returns", true),
        p if p == paths::CASH_LETTERS => ("/cash_letters", "", false),
        p if p == paths::EMAIL_MESSAGES => ("/email", "tab=outbox", true),
        p if p == paths::ROUTING_DIRECTORY => ("/routing", "", false),
        p if p == paths::WEBHOOK_ENDPOINTS => ("/webhooks", "", false),
        p if p.starts_with("/api/v1/cores/document-vault/") => ("/vault", "", false),
        // A ledger account's entries have no page of their own: the day's reconciliation
        // shows the bank's accounts and what moved them.
        p if p.starts_with("/api/v2/services/money-movements/ledger/") => ("/ledger", "view=reconciliation", false),
        _ => ("/", "", false),
    };
    let query = if keep { list.query.as_str() } else { "" };
    let joined: Vec<&str> = [view, query].into_iter().filter(|q| !q.is_empty()).collect();
    if joined.is_empty() {
        page.to_string()
    } else {
        format!("{page}?{}", joined.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn each_list_opens_on_its_page_with_its_filters() {
        let deposits = ListQuery::new(paths::DEPOSITS, &[("status", "In_Progress_1")]);
        assert_eq!(place(&deposits), "/deposits?status=In_Progress_1");
        let returns = ListQuery::new(paths::DEPOSIT_RETURNS, &[("state", "unmatched")]);
        assert_eq!(place(&returns), "/ledger?view=returns&state=unmatched");
        let failed = ListQuery::new(paths::EMAIL_MESSAGES, &[("state", "failed")]);
        assert_eq!(place(&failed), "/email?tab=outbox&state=failed");
        assert_eq!(place(&ListQuery::new(paths::EMAIL_MESSAGES, &[])), "/email?tab=outbox");
        assert_eq!(place(&ListQuery::new(paths::ROUTING_DIRECTORY, &[])), "/routing");
        let usage = paths::fill(paths::VAULT_USAGE, "userId", "ada");
        assert_eq!(place(&ListQuery::new(&usage, &[])), "/vault");
    }
}
