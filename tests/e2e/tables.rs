//! What the table pages' tests (accounts, permissions) read of a data table: its rows, a
//! column's cells, whether it shows the page in the URL, and the API beside it. Below them,
//! every table's selection, bulk bar and shortcuts, on the deposits table (issue 45).

use moneydesk_e2e::{Harness, Scope};
use serde_json::{json, Value};

/// The `data-id`s of the table's rows, in order.
pub(crate) async fn ids(h: &Harness) -> Vec<String> {
    let v = h.js("return [...document.querySelectorAll('tbody tr[data-id]')].map(tr => tr.dataset.id)", vec![]).await;
    serde_json::from_value(v).unwrap()
}

/// The texts of one column's cells.
pub(crate) async fn column(h: &Harness, key: &str) -> Vec<String> {
    let v = h
        .js(
            "return [...document.querySelectorAll(`tbody td[data-key='${arguments[0]}']`)].map(td => td.textContent)",
            vec![json!(key)],
        )
        .await;
    serde_json::from_value(v).unwrap()
}

/// True once no CSS transition or animation is running (a drawer has slid in).
pub(crate) const NO_ANIMATION: &str = "document.getAnimations().every(a => a.playState !== 'running')";

/// Waits until the table shows the page the URL asks for (`data-shown` is the view of the
/// rows on screen, in the table's own URL form) with no request in flight.
pub(crate) async fn settled(h: &Harness) {
    let shown = "(t => t && t.getAttribute('aria-busy') === 'false' && t.dataset.shown === location.search.slice(1))(document.querySelector('table.data-table'))";
    h.wait_js(shown, "the table shows the page in the URL").await;
}

/// GET an API path with the token, in the page (same origin), returning the JSON body.
pub(crate) async fn api(h: &Harness, token: &str, path: &str) -> Value {
    h.js(
        "return fetch(arguments[0], { headers: { Authorization: 'Bearer ' + arguments[1] } }).then(r => r.json())",
        vec![json!(path), json!(token)],
    )
    .await
}

/// `2400` → `2,400`, as the table writes totals.
pub(crate) fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(crate) fn query(url: &url::Url, key: &str) -> Option<String> {
    url.query_pairs().find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

/// Parses the CSV the export produced (no quoted newlines in the demo data).
pub(crate) fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.split("\r\n").filter(|l| !l.is_empty()).map(|l| l.split(',').map(str::to_string).collect()).collect()
}

/// POST `body` to an API path with the token, in the page: (status, JSON body).
pub(crate) async fn post(h: &Harness, token: &str, path: &str, body: Value) -> (u16, Value) {
    let answer = h
        .js_async(
            "const [path, token, body, done] = arguments;
            fetch(path, { method: 'POST', body: JSON.stringify(body),
                headers: { Authorization: 'Bearer ' + token, 'Content-Type': 'application/json' } })
                .then(async r => done([r.status, await r.json()]), e => done([0, String(e)]));",
            vec![json!(path), json!(token), body],
        )
        .await;
    (answer[0].as_u64().unwrap_or(0) as u16, answer[1].clone())
}

/// A check deposit's body: `amount` to `account`, check number `number`, the sample check's
/// images (a real check's front and back from ../shared/data).
pub(crate) fn check_deposit(account: &str, amount: &str, number: &str) -> Value {
    use base64::Engine;
    let image = |f: &str| {
        base64::engine::general_purpose::STANDARD.encode(std::fs::read(moneydesk_e2e::shared_data(f)).unwrap())
    };
    json!({
        "amount": amount, "bankRoutingNumber": "021090028", "bankAccountNumber": "4820001234",
        "checkNumber": number, "payeeAccountId": account, "payeeUserId": "usr_0001",
        "checkFrontImage": image("checks/full/02_finos_sample_check.png"),
        "checkBackImage": image("checks/full/04_wikimedia_check1005_calfed.jpg"),
    })
}

const DEPOSITS: &str = "/api/v2/services/money-movements/deposits";

/// `n` cash deposits of $1.00, $2.00, … to the demo's first account, all to confirm; their ids.
async fn cash_deposits(h: &Harness, token: &str, n: u32) -> Vec<String> {
    let (account, _) = crate::deposits::an_account(h).await;
    let mut ids = Vec::new();
    for i in 1..=n {
        let body = json!({"amount": format!("{i}.00"), "payeeAccountId": account, "payeeUserId": "usr_0001"});
        let (status, made) = post(h, token, &format!("{DEPOSITS}/cash"), body).await;
        assert_eq!(status, 201, "{made}");
        ids.push(made["id"].to_string().trim_matches('"').to_string());
    }
    ids
}

/// The ids of the rows whose box is ticked.
async fn ticked(h: &Harness) -> Vec<String> {
    let v = h.js("return [...document.querySelectorAll('tbody tr[data-id]')].filter(tr => tr.querySelector('input[data-select]').checked).map(tr => tr.dataset.id)", vec![]).await;
    serde_json::from_value(v).unwrap()
}

async fn status_of(h: &Harness, token: &str, id: &str) -> String {
    api(h, token, &format!("{DEPOSITS}/{id}")).await["data"]["record"]["status"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn rows_selected_by_click_range_page_and_filter_are_confirmed_and_each_outcome_is_shown() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let made = cash_deposits(&h, &token, 12).await;
    // Two cancelled first: a confirm refuses them, and does the other ten.
    for id in [&made[3], &made[11]] {
        let (status, body) = post(&h, &token, &format!("{DEPOSITS}/{id}/actions"), json!({"action": "cancel"})).await;
        assert_eq!(status, 200, "{body}");
    }
    h.goto("/deposits?sort=amount,asc").await;
    settled(&h).await;
    assert_eq!(ids(&h).await, made[..10], "the ten smallest on the first page");
    assert_eq!(h.count("[data-testid=bulk-bar]:not([hidden])").await, 0, "no bar before a row is ticked");

    // A click ticks a row, a shift-click the rows from it; the row's drawer stays closed.
    h.click("tr[data-row='1'] input[data-select]").await;
    h.wait_for_text(".bulk-count", "1 of 12 deposits selected").await;
    let shift_click = "document.querySelector(\"tr[data-row='4'] input[data-select]\")
        .dispatchEvent(new MouseEvent('click', { shiftKey: true, bubbles: true, cancelable: true }))";
    h.js(shift_click, vec![]).await;
    h.wait_for_text(".bulk-count", "4 of 12 deposits selected").await;
    assert_eq!(ticked(&h).await, made[1..5]);
    assert_eq!(h.count(".drawer").await, 0);

    // The header box ticks the page; then every deposit matching, on both pages.
    h.click("th input[data-select-page]").await;
    h.wait_for_text(".bulk-count", "10 of 12 deposits selected").await;
    h.wait_for_text("[data-bulk=all]", "Select all 12 matching").await;
    h.click("[data-bulk=all]").await;
    h.wait_for_text(".bulk-count", "All 12 deposits are selected").await;

    // Confirm asks first; the answer counts both outcomes and names the refused.
    h.click("[data-bulk-action=confirm]").await;
    h.wait_for_text(".bulk-confirm p", "Confirm the selected deposits? It applies to 12 deposits.").await;
    h.click("[data-bulk=yes]").await;
    h.wait_for_text("[data-testid=bulk-summary] p", "10 confirmed, 2 refused.").await;
    h.click("[data-bulk=show-refused]").await;
    let refused = h.wait_for_text(".bulk-refused", &made[3]).await;
    assert!(refused.contains(&made[3]) && refused.contains(&made[11]), "{refused}");
    settled(&h).await;
    h.wait_for_text(&format!("tr[data-id='{}'] .bulk-outcome", made[0]), "Done").await;
    h.wait_for_text(&format!("tr[data-id='{}'] .bulk-outcome", made[3]), "Refused").await;
    // The server did it, beyond the page shown too (the filter was sent, not the page's ids).
    assert_eq!(status_of(&h, &token, &made[10]).await, "Confirmed_2");
    assert_eq!(status_of(&h, &token, &made[0]).await, "Confirmed_2");
    assert_eq!(status_of(&h, &token, &made[11]).await, "Cancelled_7");
    assert_eq!(h.count("[data-testid=bulk-bar]:not([hidden])").await, 0, "the selection is cleared");

    // Reject asks for one reason for all and sends it.
    h.click(&format!("tr[data-id='{}'] input[data-select]", made[0])).await;
    h.click("[data-bulk-action=reject]").await;
    h.type_into("#deposits-bulk-reason", "Duplicate scan").await;
    h.click("[data-bulk=reasoned]").await;
    h.wait_for_text("[data-testid=bulk-summary] p", "1 rejected, 0 refused.").await;
    let detail = api(&h, &token, &format!("{DEPOSITS}/{}", made[0])).await;
    assert_eq!(detail["data"]["record"]["status"], "Rejected_6", "{detail}");
    assert!(detail.to_string().contains("Duplicate scan"), "the reason is recorded: {detail}");
    h.finish().await;
}

#[tokio::test]
async fn the_keyboard_moves_selects_and_opens_rows_and_never_takes_keys_from_a_field() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let made = cash_deposits(&h, &token, 3).await;
    h.goto("/deposits?sort=amount,asc").await;
    settled(&h).await;
    let active = "return document.activeElement.closest('tr')?.dataset.id ?? document.activeElement.id";
    let browser = &h;
    let press = move |keys: &'static str| async move {
        browser.client().active_element().await.unwrap().send_keys(keys).await.unwrap();
    };
    h.js("document.activeElement.blur()", vec![]).await;

    // j from the page: the first row; j again the second; k back to the first.
    h.client().find(fantoccini::Locator::Css("body")).await.unwrap().send_keys("j").await.unwrap();
    assert_eq!(h.js(active, vec![]).await, json!(made[0]));
    press("j").await;
    assert_eq!(h.js(active, vec![]).await, json!(made[1]));
    press("jk").await;
    assert_eq!(h.js(active, vec![]).await, json!(made[1]));

    // x ticks the focused row; Enter opens it; Escape closes it.
    press("x").await;
    h.wait_for_text(".bulk-count", "1 of 3 deposits selected").await;
    assert_eq!(ticked(&h).await, [made[1].clone()]);
    press("\u{E007}").await; // Enter
    h.wait_for(".drawer[role=dialog]").await;
    press("j").await;
    assert_eq!(h.count(".drawer[role=dialog]").await, 1, "j is not a shortcut inside the drawer");
    press("\u{E00C}").await; // Escape
    h.wait_gone(".drawer").await;

    // / goes to the first filter; keys there are the field's.
    press("/").await;
    assert_eq!(h.js(active, vec![]).await, json!("deposits-filter-status"));
    press("x?j").await;
    assert_eq!(h.js(active, vec![]).await, json!("deposits-filter-status"), "focus stays in the field");
    assert_eq!(ticked(&h).await, [made[1].clone()], "x in the field ticks nothing");
    assert_eq!(h.count("dialog.shortcuts-dialog[open]").await, 0, "? in the field opens nothing");

    // ? lists the shortcuts; Escape closes the list.
    h.click(&format!("tr[data-id='{}'] td[data-key=amount]", made[2])).await;
    h.wait_for(".drawer[role=dialog]").await;
    press("\u{E00C}").await;
    h.wait_gone(".drawer").await;
    press("?").await;
    h.wait_for("dialog.shortcuts-dialog[open]").await;
    let list = h.text("dialog.shortcuts-dialog").await;
    assert!(list.contains("Next row") && list.contains("Select or unselect the row"), "{list}");
    press("\u{E00C}").await;
    h.wait_gone("dialog.shortcuts-dialog[open]").await;
    h.finish().await;
}

/// A table's own words in Spanish (issue 45): the pager, the totals, the bulk bar, its question
/// and the drawer come from the components' catalogue, loaded with the shell's Spanish.
#[tokio::test]
async fn a_table_its_bulk_bar_and_its_drawer_speak_spanish_with_the_portal() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    cash_deposits(&h, &token, 3).await;
    h.goto("/deposits").await;
    settled(&h).await;
    h.select("select#language", "es").await;
    h.wait_for_text("main h1", "Depósitos de cheques").await;
    settled(&h).await;

    h.wait_for_text("label[for=deposits-size]", "Filas por página").await;
    h.wait_for_text("[data-page=next]", "Siguiente").await;
    h.wait_for_text("[data-action=export]", "Exportar CSV").await;
    h.wait_for_text(".table-total", "depósitos").await;
    assert!(h.text(".table-total").await.contains(" de "), "“1–10 de N depósitos”");

    // The bulk bar: the count, the action's question and its answer buttons.
    h.click("tr[data-row='0'] input[data-select]").await;
    h.wait_for_text(".bulk-count", "depósitos en la selección").await;
    h.wait_for_text("[data-bulk=clear]", "Quitar la selección").await;
    h.click("[data-bulk-action=confirm]").await;
    h.wait_for_text("[data-bulk=yes]", "Sí, confirmar").await;
    h.wait_for_text(".bulk-confirm p", "Se aplica a 1 ").await;
    h.click("[data-bulk=no]").await;
    h.click("[data-bulk=clear]").await;

    // A row's drawer: its close button is named in Spanish.
    h.click("tr[data-row='0'] td:not(.select)").await;
    let close = h.wait_for(".drawer-close").await;
    assert_eq!(close.attr("aria-label").await.unwrap().as_deref(), Some("Cerrar"));

    h.finish().await;
}
