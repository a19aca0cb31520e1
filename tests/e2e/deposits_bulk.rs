//! Bulk actions on the Check deposits page (issue 45), as an operator with `deposits:write`
//! (not admin) does them: rows ticked by a click and a shift-click range, cancelled in one
//! request, each row then showing its own outcome — a refused one among them, with why — and
//! the server's state following; a selected row exported as the server's CSV.

use moneydesk_e2e::{Harness, Scope};
use serde_json::json;

use crate::tables::{api, post, settled};

const DEPOSITS: &str = "/api/v2/services/money-movements/deposits";

/// `n` cash deposits of $1.00, $2.00, … to the demo's first account; their ids.
async fn cash_deposits(h: &Harness, token: &str, n: u32) -> Vec<String> {
    let (account, _) = crate::deposits::an_account(h).await;
    let mut ids = Vec::new();
    for i in 1..=n {
        let body = json!({"amount": format!("{i}.00"), "payeeAccountId": account, "payeeUserId": "usr_0001"});
        let (status, made) = post(h, token, &format!("{DEPOSITS}/cash"), body).await;
        assert_eq!(status, 201, "{made}");
        ids.push(made["id"].to_string());
    }
    ids
}

/// The ids of the rows whose box is ticked.
async fn ticked(h: &Harness) -> Vec<String> {
    let v = h.js("return [...document.querySelectorAll('tbody tr[data-id]')].filter(tr => tr.querySelector('input[data-select]').checked).map(tr => tr.dataset.id)", vec![]).await;
    serde_json::from_value(v).unwrap()
}

async fn status_of(h: &Harness, token: &str, id: &str) -> String {
    let detail = api(h, token, &format!("{DEPOSITS}/{id}")).await;
    detail["data"]["record"]["status"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn a_shift_clicked_range_is_cancelled_in_one_request_and_each_row_shows_its_outcome() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let operator = h.token(&[Scope::AccountsRead, Scope::DepositsRead, Scope::DepositsWrite]).await;
    h.sign_in(&operator).await;
    let made = cash_deposits(&h, &operator, 5).await;
    // Cancelled already: the bulk cancel refuses it and does the others.
    let (status, body) =
        post(&h, &operator, &format!("{DEPOSITS}/{}/actions", made[2]), json!({"action": "cancel"})).await;
    assert_eq!(status, 200, "{body}");

    h.goto("/deposits?sort=amount,asc").await;
    settled(&h).await;
    h.click("tr[data-row='0'] input[data-select]").await;
    h.wait_for_text(".bulk-count", "1 of 5 deposits selected").await;
    let shift_click = "document.querySelector(\"tr[data-row='3'] input[data-select]\")
        .dispatchEvent(new MouseEvent('click', { shiftKey: true, bubbles: true, cancelable: true }))";
    h.js(shift_click, vec![]).await;
    h.wait_for_text(".bulk-count", "4 of 5 deposits selected").await;
    assert_eq!(ticked(&h).await, made[..4], "the range from the first click to the shift-click");

    h.click("[data-bulk-action=cancel]").await;
    h.wait_for_text(".bulk-confirm p", "Cancel the selected deposits?").await;
    h.click("[data-bulk=yes]").await;
    h.wait_for_text("[data-testid=bulk-summary] p", "3 cancelled, 1 refused.").await;
    settled(&h).await;
    for done in [&made[0], &made[1], &made[3]] {
        h.wait_for_text(&format!("tr[data-id='{done}'] .bulk-outcome"), "Done").await;
    }
    // The refused row says why: the state machine's words, naming the state it is in.
    h.wait_for_text(&format!("tr[data-id='{}'] .bulk-outcome", made[2]), "Refused: ").await;
    let why = h.text(&format!("tr[data-id='{}'] .bulk-outcome", made[2])).await;
    assert!(why.contains("Cancelled_7"), "{why}");
    assert_eq!(h.count(&format!("tr[data-id='{}'] .bulk-outcome", made[4])).await, 0, "not selected, no outcome");

    // The server moved exactly the selected deposits.
    assert_eq!(status_of(&h, &operator, &made[0]).await, "Cancelled_7");
    assert_eq!(status_of(&h, &operator, &made[3]).await, "Cancelled_7");
    assert_eq!(status_of(&h, &operator, &made[4]).await, "In_Progress_1");
    h.wait_for_text(&format!("tr[data-id='{}'] td[data-key=status]", made[1]), "Cancelled").await;

    // The export saves the server's CSV of the selected deposit.
    h.js(
        "window.__csv = null; const make = URL.createObjectURL;
         URL.createObjectURL = b => { b.text().then(t => { window.__csv = t; }); return make.call(URL, b); };",
        vec![],
    )
    .await;
    h.click(&format!("tr[data-id='{}'] input[data-select]", made[4])).await;
    h.wait_for_text(".bulk-count", "1 of 5 deposits selected").await;
    h.click("[data-bulk-action=export]").await;
    h.wait_js("typeof window.__csv === 'string'", "the export was saved").await;
    let csv = h.js("return window.__csv", vec![]).await;
    let lines: Vec<&str> = csv.as_str().unwrap().lines().collect();
    assert!(lines[0].starts_with("id,acId,name,"), "the record's names as header: {csv}");
    assert_eq!(lines.len(), 2, "the header and the one deposit selected: {csv}");
    assert!(lines[1].starts_with(&format!("{},", made[4])) && lines[1].contains("5.00"), "{csv}");
    h.finish().await;
}
