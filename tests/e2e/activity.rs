//! The audit trail in the portal: a check deposit made and confirmed through the API is on the
//! Activity page (filtered to it by the URL), newest first, by the token that made it; its
//! confirmation's drawer shows the status before → after and the record's place in the chain,
//! and the chain verifies. The deposit's own drawer lists the same records under its Activity
//! tab, and the server's CSV of the same filters names the deposit.

use std::time::Duration;

use moneydesk_e2e::{Harness, Scope};
use moneydesk_model::paths;
use serde_json::{json, Value};

use crate::tables::{api, check_deposit, post};

/// A GET's status and body as text (the CSV).
async fn get_text(h: &Harness, token: &str, path: &str) -> (u16, String) {
    let v = h
        .js(
            "return fetch(arguments[0], { headers: { Authorization: 'Bearer ' + arguments[1] } }) \
             .then(async r => [r.status, await r.text()])",
            vec![json!(path), json!(token)],
        )
        .await;
    (v[0].as_u64().unwrap_or_default() as u16, v[1].as_str().unwrap_or_default().to_string())
}

/// A $250.00 check deposited to the first account, then confirmed; its id.
async fn deposit_and_confirm(h: &Harness, token: &str) -> i64 {
    let first = api(h, token, &format!("{}?size=1", paths::ACCOUNTS)).await["data"]["content"][0].clone();
    let account = first["id"].as_str().expect("an account").to_string();
    let body = check_deposit(&account, "250.00", "1043");
    let (status, made) = post(h, token, paths::DEPOSITS_CHECK, body).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_i64().unwrap();
    let actions = paths::fill(paths::DEPOSIT_ACTIONS, "id", &id.to_string());
    let (status, moved) = post(h, token, &actions, json!({"action": "confirm"})).await;
    assert!((200..300).contains(&status), "{status} {moved}");
    id
}

/// Waits until the sealer has chained every record of the deposit (a second or so).
async fn wait_sealed(h: &Harness, token: &str, records: &str) -> Vec<Value> {
    for _ in 0..100 {
        let page = api(h, token, records).await;
        let content = page["data"]["content"].as_array().cloned().unwrap_or_default();
        if content.len() >= 2 && content.iter().all(|r| r["hash"].is_string()) {
            return content;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the deposit's records were not chained: {}", api(h, token, records).await);
}

#[tokio::test]
async fn a_confirmed_deposit_is_on_the_activity_page_with_its_status_before_and_after() {
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    let id = deposit_and_confirm(&h, &token).await;
    let filters = format!("targetType=deposit&targetId={id}");
    let records = wait_sealed(&h, &token, &format!("{}?{filters}", paths::AUDIT_RECORDS)).await;
    let newest = records[0]["id"].as_i64().unwrap();

    // Its creation and its confirmation, newest first, by this token.
    h.goto(&format!("/activity?{filters}")).await;
    h.wait_for("#activity tbody tr[data-id]").await;
    assert_eq!(h.count("#activity tbody tr[data-id]").await, 2, "the deposit made and confirmed");
    let row = format!("#activity tbody tr[data-id='{newest}']");
    h.wait_for_text(&format!("{row} td[data-key=target]"), &format!("deposit {id}")).await;
    h.wait_for_text(&format!("{row} td[data-key=who]"), "e2e").await;
    h.wait_for_text(&format!("{row} td[data-key=outcome]"), "Succeeded").await;

    // The chain holds.
    h.wait_for("[data-testid=audit-chain] .chain-banner[data-verdict=ok]").await;

    // The confirmation's drawer: the status before → after, and its place in the chain.
    h.click(&format!("{row} td[data-key=operation]")).await;
    let status = "[data-testid=audit-record] [data-testid=audit-changes] tr[data-field=status]";
    h.wait_for(status).await;
    let before = h.text(&format!("{status} .audit-before")).await;
    let after = h.text(&format!("{status} .audit-after")).await;
    assert!(before != "—" && after != "—" && before != after, "status {before} → {after}");
    let hash = h.text("[data-testid=audit-chain-fields] [data-key=hash]").await;
    assert!(hash.len() == 64 && hash.chars().all(|c| c.is_ascii_hexdigit()), "a SHA-256 in hex: {hash}");
    let seq = h.text("[data-testid=audit-chain-fields] [data-key=seq]").await;
    assert!(seq.parse::<i64>().is_ok(), "a seq: {seq}");

    // The server's CSV of the same filters names the deposit.
    let (code, csv) = get_text(&h, &token, &format!("{}?{filters}&format=csv", paths::AUDIT_RECORDS)).await;
    assert_eq!(code, 200, "{csv}");
    assert!(csv.lines().count() >= 3 && csv.contains(&id.to_string()), "a header and two rows: {csv}");

    // The deposit's own drawer, Activity tab: the same two records, the status among them.
    h.goto("/deposits").await;
    h.click(&format!("tbody tr[data-id='{id}']")).await;
    h.wait_for("[data-testid=deposit-detail]").await;
    h.click("#activity-deposit-activity-tab").await;
    h.wait_for(&format!("[data-testid=activity-records] .activity-entry[data-id='{newest}']")).await;
    assert_eq!(h.count("[data-testid=activity-records] .activity-entry").await, 2);
    h.wait_for("[data-testid=activity-records] tr[data-field=status] .audit-after").await;
    h.finish().await;
}
