//! The operator's day (`GET /api/v2/services/overview`) over real HTTP on both backends: each
//! figure is the total of the list it links to, a member is there only when the token's
//! scopes open its group, and the answer is kept a few seconds per (user, scopes).

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    admin: String,
    payee: Account,
}

async fn desk(backend: Backend) -> Desk {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(2, 9).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Desk { server, writer, admin, payee: accounts[0].clone() }
}

async fn post(d: &Desk, path: &str, body: &Value) -> Value {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(&d.writer).json(body).send().await.unwrap();
    let status = r.status().as_u16();
    let body = json(r).await;
    assert!(status == 200 || status == 201, "{path}: {status} {body}");
    body
}

/// A cash deposit of `amount`, confirmed when asked.
async fn cash(d: &Desk, amount: &str, confirm: bool) -> i64 {
    let body = json!({"amount": amount, "payeeAccountId": d.payee.id, "payeeUserId": "usr-1", "memo": "Till"});
    let id = post(d, paths::DEPOSITS_CASH, &body).await["id"].as_i64().expect("an id");
    if confirm {
        post(d, &paths::fill(paths::DEPOSIT_ACTIONS, "id", &id.to_string()), &json!({"action": "confirm"})).await;
    }
    id
}

async fn pull(d: &Desk, amount: &str) {
    let tomorrow =
        chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive() + chrono::Duration::days(1);
    let body = json!({
        "amount": amount, "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
        "accountType": "checking", "vendorName": "Acme Supplies", "effectiveDate": tomorrow.to_string(),
        "payeeAccountId": d.payee.id, "payeeUserId": "usr-1", "memo": "October invoices",
    });
    post(d, paths::DEPOSITS_ELECTRONIC, &body).await;
}

async fn overview(d: &Desk, token: &str) -> (reqwest::header::HeaderMap, Value) {
    let r = d.server.get_auth(paths::OVERVIEW, token).await;
    assert_eq!(r.status(), 200);
    let headers = r.headers().clone();
    (headers, json(r).await["data"].clone())
}

/// The list a figure links to, read as the portal would: its total, and the sum of its amounts.
async fn list_total(d: &Desk, figure: &Value) -> (u64, f64) {
    let list = &figure["list"];
    let (path, query) = (list["path"].as_str().unwrap(), list["query"].as_str().unwrap());
    let sep = if query.is_empty() { "" } else { "&" };
    // A deposit list item carries its amount when asked (`fields`).
    let fields = if path == paths::DEPOSITS { "&fields=amount" } else { "" };
    let page = json(d.server.get_auth(&format!("{path}?size=100{fields}{sep}{query}"), &d.admin).await).await;
    let rows = page["data"]["content"].as_array().unwrap_or_else(|| panic!("{path}?{query}: {page}"));
    let sum = rows.iter().filter_map(|r| r["amount"].as_f64()).fold(0.0, |a, b| a + b);
    (page["data"]["totalElements"].as_u64().unwrap(), sum)
}

async fn assert_matches_its_list(d: &Desk, name: &str, figure: &Value) {
    let (total, sum) = list_total(d, figure).await;
    assert_eq!(figure["count"].as_u64(), Some(total), "{name}: {figure}");
    if let Some(amount) = figure["amount"].as_f64() {
        assert!((amount - sum).abs() < 0.001, "{name}: {amount} against the list's {sum}: {figure}");
    }
}

on_both_backends!(
    every_deposit_figure_is_the_total_of_the_list_it_links_to,
    a_member_is_there_only_when_the_scopes_open_its_group,
    the_answer_is_kept_a_few_seconds_per_user_and_scopes_and_says_so,
    the_routing_directory_is_stale_once_the_books_clock_is_past_its_refresh_window,
);

async fn every_deposit_figure_is_the_total_of_the_list_it_links_to(backend: Backend) {
    let d = desk(backend).await;
    cash(&d, "100.00", true).await;
    cash(&d, "20.25", false).await;
    cash(&d, "5.00", false).await;
    pull(&d, "300.00").await;
    let (_, o) = overview(&d, &d.admin).await;

    let today = &o["depositsToday"];
    assert_eq!(today["total"]["count"], 4, "{o}");
    assert_eq!(today["total"]["amount"].as_f64(), Some(425.25), "{o}");
    assert_matches_its_list(&d, "total", &today["total"]).await;
    let states: Vec<&str> =
        today["byStatus"].as_array().unwrap().iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(states, ["In_Progress_1", "Confirmed_2"], "{o}");
    for s in today["byStatus"].as_array().unwrap() {
        assert_matches_its_list(&d, s["status"].as_str().unwrap(), &s["figure"]).await;
    }
    let rails: Vec<&str> =
        today["byRail"].as_array().unwrap().iter().map(|r| r["serviceType"].as_str().unwrap()).collect();
    assert_eq!(rails, ["Cash", "Electronic_Deposit"], "{o}");
    for rail in today["byRail"].as_array().unwrap() {
        assert_matches_its_list(&d, rail["serviceType"].as_str().unwrap(), &rail["figure"]).await;
        let parts: u64 =
            rail["byStatus"].as_array().unwrap().iter().map(|s| s["figure"]["count"].as_u64().unwrap()).sum();
        assert_eq!(Some(parts), rail["figure"]["count"].as_u64(), "a rail's states add up to the rail: {rail}");
        for s in rail["byStatus"].as_array().unwrap() {
            assert_matches_its_list(&d, "a rail's state", &s["figure"]).await;
        }
    }

    let waiting = &o["waiting"];
    assert_eq!(waiting["toConfirm"]["count"], 3, "two cash deposits and the pull wait: {o}");
    for name in ["toConfirm", "returned", "unmatched"] {
        assert_matches_its_list(&d, name, &waiting[name]).await;
    }
    assert_eq!(o["nextCashLetter"]["holds"]["count"], 0, "cash never goes in a cash letter: {o}");

    // The confirmed cash credited its sleeve today: the ledger's moves, each linking its entries.
    let moves = o["ledger"]["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{o}");
    for m in moves {
        assert_matches_its_list(&d, m["code"].as_str().unwrap(), &m["entries"]).await;
    }
    assert_eq!(o["vault"]["files"], 0, "{o}");
    assert_eq!(o["webhooks"]["failing"]["count"], 0, "{o}");
    assert!(o["routingDirectory"]["loadedAt"].is_string(), "{o}");
}

async fn a_member_is_there_only_when_the_scopes_open_its_group(backend: Backend) {
    let d = desk(backend).await;
    cash(&d, "10.00", false).await;
    let keys = |o: &Value| -> Vec<String> {
        let mut k: Vec<String> = o.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };

    let fees = d.server.token(&[Scope::FeesRead]).await;
    let (_, o) = overview(&d, &fees).await;
    assert_eq!(keys(&o), ["day", "generatedAt"], "a fees-only token sees no member at all: {o}");

    let (_, o) = overview(&d, &d.writer).await;
    assert_eq!(keys(&o), ["day", "depositsToday", "generatedAt", "nextCashLetter", "waiting"], "{o}");

    let mail = d.server.token(&[Scope::EmailSend, Scope::RoutingRead]).await;
    let (_, o) = overview(&d, &mail).await;
    assert_eq!(keys(&o), ["day", "generatedAt", "outbox", "routingDirectory"], "{o}");

    let (_, o) = overview(&d, &d.admin).await;
    let all = ["day", "depositsToday", "generatedAt", "ledger", "nextCashLetter", "outbox", "routingDirectory"];
    let all: Vec<&str> = all.into_iter().chain(["vault", "waiting", "webhooks"]).collect();
    assert_eq!(keys(&o), all, "admin opens every group: {o}");

    let r = d.server.client.get(d.server.url(paths::OVERVIEW)).send().await.unwrap();
    assert_eq!(r.status(), 401, "no token, no day");
}

async fn the_answer_is_kept_a_few_seconds_per_user_and_scopes_and_says_so(backend: Backend) {
    let d = desk(backend).await;
    cash(&d, "10.00", false).await;
    let (headers, first) = overview(&d, &d.admin).await;
    assert_eq!(headers.get("cache-control").unwrap(), "private, max-age=5");
    assert_eq!(first["depositsToday"]["total"]["count"], 1);

    cash(&d, "12.00", false).await;
    let (headers, again) = overview(&d, &d.admin).await;
    assert_eq!(headers.get("cache-control").unwrap(), "private, max-age=5");
    assert_eq!(again, first, "the same user and scopes within seconds: the answer kept");

    // Other scopes are another entry: read now, with the second deposit.
    let (_, other) = overview(&d, &d.writer).await;
    assert_eq!(other["depositsToday"]["total"]["count"], 2, "{other}");

    // `Cache-Control: no-cache` (the portal's Refresh) reads it afresh, and keeps that answer.
    let r = d.server.client.get(d.server.url(paths::OVERVIEW)).bearer_auth(&d.admin);
    let fresh = json(r.header("Cache-Control", "no-cache").send().await.unwrap()).await["data"].clone();
    assert_eq!(fresh["depositsToday"]["total"]["count"], 2, "asked past the cache: {fresh}");
    let (_, kept) = overview(&d, &d.admin).await;
    assert_eq!(kept, fresh, "the fresh answer is the one kept");
}

async fn the_routing_directory_is_stale_once_the_books_clock_is_past_its_refresh_window(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    // A drill three days ahead: the directory loaded at start is then 72 hours old.
    let server = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.ledger.clock_offset_seconds = 3 * 86_400;
    })
    .await;
    let token = server.token(&[Scope::RoutingRead]).await;
    let o = json(server.get_auth(paths::OVERVIEW, &token).await).await["data"].clone();
    let r = &o["routingDirectory"];
    assert_eq!(r["stale"], true, "{o}");
    assert!(r["ageHours"].as_u64().unwrap() >= 71, "{o}");
    assert_eq!(r["list"]["path"], paths::ROUTING_DIRECTORY);

    let fresh = Server::start_on(backend).await;
    let token = fresh.token(&[Scope::RoutingRead]).await;
    let o = json(fresh.get_auth(paths::OVERVIEW, &token).await).await["data"].clone();
    assert_eq!(o["routingDirectory"]["stale"], false, "just loaded: {o}");
}
