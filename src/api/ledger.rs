//! The ledger group (extension): a sleeve account's balances (one, or the rows of a page at
//! once), entries (paged, or every one as CSV) and holds; a deposit's postings; the day's
//! reconciliation; return files and the returned items they brought.

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::ledger::{
    Balances, DepositPostings, Hold, ReconciliationReport, ReturnAction, ReturnFileResult, ReturnItem,
};
use moneydesk_model::{paths, Envelope, Page};

use super::client::{envelope_data, Body};
use super::{ApiError, Client};

fn account_path(template: &str, account_id: &str) -> String {
    paths::fill(template, "accountId", account_id)
}

/// GET `…/ledger/accounts/{accountId}/balances`: posted, pending, available and held now.
pub fn balances(client: &Client, account_id: &str) -> impl Future<Output = Result<Balances, ApiError>> + 'static {
    client.get_data(&account_path(paths::LEDGER_BALANCES, account_id), &[])
}

/// GET `…/ledger/balances?accountIds=a,b`: the balances of a page's rows in one request.
pub fn balances_of(client: &Client, ids: &[String]) -> impl Future<Output = Result<Vec<Balances>, ApiError>> + 'static {
    client.get_data(paths::LEDGER_BALANCES_BATCH, &[("accountIds", &ids.join(","))])
}

/// GET `…/ledger/accounts/{accountId}/entries`: a page of entries, newest first, with `pairs`
/// (`page`, `size`, and the filters `from`, `to`, `kind`, `ledgerAccount`).
pub fn entries<T: serde::de::DeserializeOwned + 'static>(
    client: &Client,
    account_id: &str,
    pairs: &[(String, String)],
) -> impl Future<Output = Result<Page<T>, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(&account_path(paths::LEDGER_ENTRIES, account_id), &refs)
}

/// The same entries, every one, as the server's CSV (`format=csv`).
pub fn entries_csv(
    client: &Client,
    account_id: &str,
    filters: &[(String, String)],
) -> impl Future<Output = Result<String, ApiError>> + 'static {
    let mut refs: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    refs.push(("format", "csv"));
    let sent = client.send_raw(Method::GET, &account_path(paths::LEDGER_ENTRIES, account_id), &refs, None);
    async move { super::client::read_text(sent.await?).await }
}

/// GET `…/ledger/accounts/{accountId}/holds`: each tranche with its release day and state.
pub fn holds(client: &Client, account_id: &str) -> impl Future<Output = Result<Vec<Hold>, ApiError>> + 'static {
    client.get_data(&account_path(paths::LEDGER_HOLDS, account_id), &[])
}

/// GET `…/deposits/{id}/postings`.
pub fn deposit_postings(client: &Client, id: i64) -> impl Future<Output = Result<DepositPostings, ApiError>> + 'static {
    client.get_data(&paths::fill(paths::DEPOSIT_POSTINGS, "id", &id.to_string()), &[])
}

/// GET `…/ledger/reconciliation?date=`: a business day's report (today's without a date).
pub fn reconciliation(
    client: &Client,
    date: Option<&str>,
) -> impl Future<Output = Result<ReconciliationReport, ApiError>> + 'static {
    let q: Vec<(&str, &str)> = date.map(|d| ("date", d)).into_iter().collect();
    client.get_data(paths::LEDGER_RECONCILIATION, &q)
}

/// POST `…/deposits/returns?fileName=`: the return file's bytes as they are (X9 or ACH).
pub fn upload_returns(
    client: &Client,
    file_name: &str,
    file: &web_sys::Blob,
) -> impl Future<Output = Result<ReturnFileResult, ApiError>> + 'static {
    let body = Body::Raw(file.clone().into());
    let client = client.clone().with_header("Content-Type", "application/octet-stream");
    let sent = client.send::<Envelope<ReturnFileResult>>(
        Method::POST,
        paths::DEPOSIT_RETURNS,
        &[("fileName", file_name)],
        Some(body),
    );
    async move { envelope_data(sent.await?) }
}

/// GET `…/deposits/returns`: a page of returned items, newest first, `state` if given.
pub fn return_items(
    client: &Client,
    page: u64,
    size: u32,
    state: Option<&str>,
) -> impl Future<Output = Result<Page<ReturnItem>, ApiError>> + 'static {
    let (page, size) = (page.to_string(), size.to_string());
    let mut q = vec![("page", page.as_str()), ("size", size.as_str())];
    if let Some(s) = state {
        q.push(("state", s));
    }
    client.get_data(paths::DEPOSIT_RETURNS, &q)
}

/// POST `…/deposits/returns/{id}`: match an unmatched item to a deposit, or dismiss it.
pub fn act_on_return(
    client: &Client,
    id: i64,
    action: &ReturnAction,
) -> impl Future<Output = Result<ReturnItem, ApiError>> + 'static {
    let body = Body::json(action);
    let path = paths::fill(paths::DEPOSIT_RETURN_ITEM, "id", &id.to_string());
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<ReturnItem>>(Method::POST, &path, &[], Some(body?));
        envelope_data(sent.await?)
    }
}
