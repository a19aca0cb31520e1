//! The ledger over real HTTP on both backends: a check deposit's money from confirmation
//! (pending, held) through the hold's release (available), settlement (posted, the account
//! record's marketValue) and a return (reversed, fees charged); a rejection that reverses
//! everything; manual adjustments; and the database refusing what the books forbid.

use crate::common;

use base64::Engine;
use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::ledger::Books;
use rust_decimal::Decimal;
use serde_json::{json, Value};

struct Bank {
    server: Server,
    writer: String,
    reader: String,
    admin: String,
    sleeve: Account,
}

async fn bank(backend: Backend) -> Bank {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(8, 7).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let sleeve = accounts.iter().find(|a| a.market_value.is_some_and(|v| v > Decimal::from(100))).unwrap().clone();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let reader = server.token(&[Scope::LedgerRead]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Bank { server, writer, reader, admin, sleeve }
}

fn png() -> String {
    let img = image::GrayImage::from_fn(600, 250, |x, y| image::Luma([((x + y) as u8) | 0x80]));
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn post(b: &Bank, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = b.server.client.post(b.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn get(b: &Bank, token: &str, path: &str) -> Value {
    let r = b.server.get_auth(path, token).await;
    assert_eq!(r.status().as_u16(), 200, "GET {path}");
    json(r).await
}

/// A $1,000.00 check deposit to the sleeve account; its id and fee.
async fn deposit(b: &Bank, check_number: &str) -> (i64, Decimal) {
    let png = png();
    let body = json!({
        "amount": "1000.00", "bankAccountNumber": "000123456789", "bankRoutingNumber": "021090028",
        "checkFrontImage": png, "checkBackImage": png, "checkNumber": check_number,
        "payeeAccountId": b.sleeve.id, "payeeUserId": "usr-1",
    });
    let (s, rec) = post(b, &b.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_eq!(s, 201, "{rec}");
    (rec["id"].as_i64().unwrap(), dec(&rec["feeApplied"]))
}

async fn act(b: &Bank, token: &str, id: i64, action: &str, reason: Option<&str>) {
    let path = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    let (s, body) = post(b, token, &path, &json!({"action": action, "reason": reason})).await;
    assert_eq!(s, 200, "{action}: {body}");
}

fn dec(v: &Value) -> Decimal {
    v.to_string().trim_matches('"').parse().unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

/// (posted, pending, available, held)
async fn balances(b: &Bank) -> (Decimal, Decimal, Decimal, Decimal) {
    let v = get(b, &b.reader, &paths::LEDGER_BALANCES.replace("{accountId}", &b.sleeve.id)).await;
    let d = &v["data"];
    (dec(&d["posted"]), dec(&d["pending"]), dec(&d["available"]), dec(&d["held"]))
}

async fn market_value(b: &Bank) -> Decimal {
    let admin = &b.admin;
    let v = get(b, admin, &format!("{}?size=100", paths::ACCOUNTS)).await;
    let list = v["data"]["content"].as_array().cloned().unwrap_or_default();
    let a = list.iter().find(|a| a["id"] == b.sleeve.id.as_str()).expect("the sleeve account is listed");
    dec(&a["marketValue"])
}

/// The books with their clock `days` ahead.
fn books_ahead(b: &Bank, days: i64) -> Books {
    let mut c = (*b.server.running.state.config).clone();
    c.ledger.clock_offset_seconds = days * 86_400;
    Books::new(&c)
}

async fn assert_books_balance(b: &Bank) {
    let (mismatches, unbalanced) = b.server.running.state.stores.ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]), "every balance row equals its entries");
}

on_both_backends!(
    a_check_is_pending_and_held_then_available_then_posted_and_a_return_takes_it_back_with_fees,
    a_rejected_confirmation_is_reversed_whole,
    an_adjustment_needs_admin_and_a_reason_and_never_overdraws_available,
    the_database_refuses_unbalanced_or_changed_books,
    sending_the_days_ach_file_moves_its_confirmed_pulls_to_ach_clearing,
);

async fn a_check_is_pending_and_held_then_available_then_posted_and_a_return_takes_it_back_with_fees(backend: Backend) {
    let b = bank(backend).await;
    let opening = b.sleeve.market_value.unwrap();
    assert_eq!(balances(&b).await, (opening, opening, opening, Decimal::ZERO), "the market value opens the books");
    let (id, fee) = deposit(&b, "7001").await;
    assert_eq!(balances(&b).await.1, opening, "an unconfirmed deposit posts nothing");
    let before = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    act(&b, &b.writer, id, "confirm", None).await;
    let net = Decimal::from(1000) - fee;
    assert_eq!(balances(&b).await, (opening, opening + net, opening, net), "confirmed: pending and held");
    let path = format!("{}?asOf={before}", paths::LEDGER_BALANCES.replace("{accountId}", &b.sleeve.id));
    let then = get(&b, &b.reader, &path.replace('+', "%2B")).await;
    assert_eq!(dec(&then["data"]["pending"]), opening, "as of before the confirmation: {then}");
    let holds = get(&b, &b.reader, &paths::LEDGER_HOLDS.replace("{accountId}", &b.sleeve.id)).await;
    let tranches = holds["data"].as_array().unwrap();
    assert!(tranches.len() >= 2, "next-day part and the rest: {holds}");
    assert_eq!(tranches.iter().map(|t| dec(&t["amount"])).sum::<Decimal>(), net);

    let store = &b.server.running.state.stores.ledger;
    let released = moneydesk_server::ledger::jobs::release_due(store, &books_ahead(&b, 12)).await.unwrap();
    assert_eq!(released as usize, tranches.len());
    assert_eq!(moneydesk_server::ledger::jobs::release_due(store, &books_ahead(&b, 12)).await.unwrap(), 0, "once");
    assert_eq!(balances(&b).await, (opening, opening + net, opening + net, Decimal::ZERO), "released: available");

    act(&b, &b.admin, id, "send", None).await;
    act(&b, &b.admin, id, "settle", Some("the Fed's advice came early")).await;
    assert_eq!(balances(&b).await.0, opening + net, "settled: posted");
    assert_eq!(market_value(&b).await, opening + net, "marketValue is the posted balance");
    let accounts = &b.server.running.state.stores.accounts;
    assert!(accounts.sync_value_keys().await.unwrap() >= 1, "the list's order follows the books");
    assert_eq!(accounts.sync_value_keys().await.unwrap(), 0, "and has nothing left to bring up");

    act(&b, &b.writer, id, "return", Some("R01 insufficient funds")).await;
    let after = opening - fee - Decimal::from(15);
    assert_eq!(balances(&b).await, (after, after, after, Decimal::ZERO), "returned: the credit reversed, fees charged");
    let postings = get(&b, &b.writer, &paths::DEPOSIT_POSTINGS.replace("{id}", &id.to_string())).await;
    let kinds: Vec<&str> =
        postings["data"]["transactions"].as_array().unwrap().iter().filter_map(|t| t["kind"].as_str()).collect();
    let mut expected = vec!["deposit_confirmed"];
    expected.extend(std::iter::repeat("hold_released").take(tranches.len()));
    expected.extend(["deposit_sent", "deposit_settled", "deposit_returned"]);
    assert_eq!(kinds, expected, "each move's transaction, oldest first");
    let settled = &postings["data"]["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["kind"] == "deposit_settled")
        .unwrap()
        .clone();
    assert!(settled["memo"].as_str().unwrap().starts_with("settled by hand (exception)"), "{settled}");
    let entries =
        get(&b, &b.reader, &format!("{}?size=5", paths::LEDGER_ENTRIES.replace("{accountId}", &b.sleeve.id))).await;
    assert!(entries["data"]["totalElements"].as_u64().unwrap() >= 8, "{entries}");
    assert_books_balance(&b).await;
}

async fn a_rejected_confirmation_is_reversed_whole(backend: Backend) {
    let b = bank(backend).await;
    let opening = b.sleeve.market_value.unwrap();
    let (id, _) = deposit(&b, "7101").await;
    act(&b, &b.writer, id, "confirm", None).await;
    act(&b, &b.writer, id, "reject", Some("the signature is missing")).await;
    assert_eq!(balances(&b).await, (opening, opening, opening, Decimal::ZERO));
    let holds = get(&b, &b.reader, &paths::LEDGER_HOLDS.replace("{accountId}", &b.sleeve.id)).await;
    assert!(holds["data"].as_array().unwrap().iter().all(|h| h["state"] == "cancelled"), "{holds}");
    let postings = get(&b, &b.writer, &paths::DEPOSIT_POSTINGS.replace("{id}", &id.to_string())).await;
    let txs = postings["data"]["transactions"].as_array().unwrap();
    assert_eq!(txs[1]["kind"], "deposit_reversed");
    assert_eq!(txs[1]["reverses"], txs[0]["id"], "the reversal names what it reverses");
    assert_books_balance(&b).await;
}

async fn an_adjustment_needs_admin_and_a_reason_and_never_overdraws_available(backend: Backend) {
    let b = bank(backend).await;
    let opening = b.sleeve.market_value.unwrap();
    let posted = format!("sma:{}:posted", b.sleeve.id);
    let body = json!({"debit": posted, "credit": "bank:adjustments", "amount": "10.00", "reason": "courtesy fee"});
    let (s, _) = post(&b, &b.writer, paths::LEDGER_ADJUSTMENTS, &body).await;
    assert_eq!(s, 403, "adjustments are admin's");
    let no_reason = json!({"debit": posted, "credit": "bank:adjustments", "amount": "10.00", "reason": " "});
    let (s, e) = post(&b, &b.admin, paths::LEDGER_ADJUSTMENTS, &no_reason).await;
    assert_eq!((s, e["errors"][0]["field"].as_str()), (400, Some("reason")), "{e}");
    let keyed = |key: &str, body: &Value| {
        let req = b.server.client.post(b.server.url(paths::LEDGER_ADJUSTMENTS)).bearer_auth(&b.admin);
        req.header("Idempotency-Key", key).json(body).send()
    };
    let r = keyed("adj-1", &body).await.unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let first = json(r).await;
    let r = keyed("adj-1", &body).await.unwrap();
    assert_eq!(r.status().as_u16(), 200, "a retry answers the first");
    assert_eq!(json(r).await["data"]["id"], first["data"]["id"]);
    let other = json!({"debit": posted, "credit": "bank:adjustments", "amount": "11.00", "reason": "courtesy fee"});
    assert_eq!(keyed("adj-1", &other).await.unwrap().status().as_u16(), 409, "same key, another body");
    assert_eq!(balances(&b).await.0, opening - Decimal::from(10));
    let too_much = json!({"debit": posted, "credit": "bank:adjustments", "amount": opening.to_string(), "reason": "x"});
    let (s, e) = post(&b, &b.admin, paths::LEDGER_ADJUSTMENTS, &too_much).await;
    assert_eq!((s, e["reason"].as_str()), (409, Some("insufficient_available")), "{e}");
    assert_eq!(balances(&b).await.0, opening - Decimal::from(10), "the refused adjustment left nothing");
    assert_books_balance(&b).await;
}

async fn the_database_refuses_unbalanced_or_changed_books(backend: Backend) {
    let b = bank(backend).await;
    let db = &b.server.running.state.stores.ledger.database().clone();
    // An entry whose transaction never comes fails at COMMIT (the deferred foreign key).
    let mut tx = db.begin().await.unwrap();
    let q = db.sql("INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) SELECT 999999, id, 5, 5, 0 FROM ledger_accounts LIMIT 1");
    tx.exec().execute(&q).await.unwrap();
    assert!(tx.commit().await.is_err(), "an entry without its transaction is refused");
    // A transaction whose entries do not sum to zero is refused.
    let mut tx = db.begin().await.unwrap();
    let q = db.sql("INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) SELECT 999998, id, 5, 5, 0 FROM ledger_accounts LIMIT 2");
    tx.exec().execute(&q).await.unwrap();
    let q = db.sql("INSERT INTO ledger_transactions (id, kind, at_ms, actor) VALUES (999998, 'adjustment', 0, 'test')");
    assert!(tx.exec().execute(&q).await.is_err(), "unbalanced");
    drop(tx);
    assert!(db.execute("UPDATE ledger_entries SET amount = amount + 1").await.is_err(), "entries are never updated");
    assert!(db.execute("DELETE FROM ledger_transactions").await.is_err(), "nor deleted");
    assert_books_balance(&b).await;
}

async fn sending_the_days_ach_file_moves_its_confirmed_pulls_to_ach_clearing(backend: Backend) {
    let b = bank(backend).await;
    let day = (chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive()
        + chrono::Duration::days(1))
    .to_string();
    let pull = |amount: &str| {
        json!({
            "amount": amount, "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
            "accountType": "checking", "vendorName": "Acme Supplies", "effectiveDate": day,
            "payeeAccountId": b.sleeve.id, "payeeUserId": "usr-1", "memo": "October invoices",
        })
    };
    let (s, first) = post(&b, &b.writer, paths::DEPOSITS_ELECTRONIC, &pull("250.00")).await;
    assert_eq!(s, 201, "{first}");
    let (_, second) = post(&b, &b.writer, paths::DEPOSITS_ELECTRONIC, &pull("40.00")).await;
    let first = first["id"].as_i64().unwrap();
    act(&b, &b.writer, first, "confirm", None).await;
    let send = |token: &str| {
        let url = b.server.url(&format!("{}?effectiveDate={day}", paths::DEPOSITS_ACH_FILE_SEND));
        b.server.client.post(url).bearer_auth(token).send()
    };
    let r = send(&b.writer).await.unwrap();
    assert_eq!(r.status().as_u16(), 403, "sending is admin's: {}", r.text().await.unwrap());
    let r = send(&b.admin).await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let file = r.text().await.unwrap();
    assert!(file.contains("0000025000") && !file.contains("0000004000"), "only the confirmed pull is sent:\n{file}");
    let detail = get(&b, &b.writer, &paths::DEPOSIT.replace("{id}", &first.to_string())).await;
    assert_eq!(detail["data"]["record"]["status"], "Sent_3");
    let unconfirmed = get(&b, &b.writer, &paths::DEPOSIT.replace("{id}", &second["id"].to_string())).await;
    assert_eq!(unconfirmed["data"]["record"]["status"], "In_Progress_1");
    let chart = get(&b, &b.reader, paths::LEDGER_ACCOUNTS).await;
    let clearing = chart["data"].as_array().unwrap().iter().find(|a| a["code"] == "bank:clearing_ach").unwrap().clone();
    assert_eq!(dec(&clearing["balance"]), Decimal::from(250), "{clearing}");
    assert_eq!(send(&b.admin).await.unwrap().status().as_u16(), 404, "nothing confirmed is left to send");
    assert_books_balance(&b).await;
}
