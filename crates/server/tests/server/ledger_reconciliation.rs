//! The ledger's daily reconciliation, batch balances, returned-item fee and `ledger verify`
//! over real HTTP on both backends: a check confirmed and sent keeps clearing open (the item
//! listed with its dates) until it settles; electronic and cash deposits post by the same
//! rules (cash at once, electronic held to the next business day); the batch answers each
//! account in order; a return charges the fee of the schedule in force; the CLI proves the
//! balance rows equal the entries and names the one (or the part of a bank account's) that
//! does not.

use crate::common;

use chrono::NaiveDate;
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
    accounts: Vec<Account>,
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
    Bank { server, writer, reader, admin, accounts, sleeve }
}

async fn post(b: &Bank, token: &str, path: &str, body: &Value, key: Option<&str>) -> (u16, Value) {
    let mut req = b.server.client.post(b.server.url(path)).bearer_auth(token).json(body);
    if let Some(k) = key {
        req = req.header("Idempotency-Key", k);
    }
    let r = req.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn get(b: &Bank, token: &str, path: &str) -> (u16, Value) {
    let r = b.server.get_auth(path, token).await;
    (r.status().as_u16(), json(r).await)
}

async fn act(b: &Bank, token: &str, id: i64, action: &str, reason: Option<&str>) {
    let path = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    let (s, body) = post(b, token, &path, &json!({"action": action, "reason": reason}), None).await;
    assert_eq!(s, 200, "{action}: {body}");
}

fn dec(v: &Value) -> Decimal {
    v.to_string().trim_matches('"').parse().unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

/// A check deposit of `amount` to the sleeve account: its id and fee.
async fn check(b: &Bank, amount: &str, number: &str) -> (i64, Decimal) {
    let png = common::check_png(number.parse().unwrap());
    let body = json!({
        "amount": amount, "bankAccountNumber": "000123456789", "bankRoutingNumber": "021090028",
        "checkFrontImage": png, "checkBackImage": png, "checkNumber": number,
        "payeeAccountId": b.sleeve.id, "payeeUserId": "usr-1",
    });
    let (s, rec) = post(b, &b.writer, paths::DEPOSITS_CHECK, &body, None).await;
    assert_eq!(s, 201, "{rec}");
    (rec["id"].as_i64().unwrap(), dec(&rec["feeApplied"]))
}

/// (posted, pending, available, held)
async fn balances(b: &Bank) -> (Decimal, Decimal, Decimal, Decimal) {
    let (_, v) = get(b, &b.reader, &paths::LEDGER_BALANCES.replace("{accountId}", &b.sleeve.id)).await;
    let d = &v["data"];
    (dec(&d["posted"]), dec(&d["pending"]), dec(&d["available"]), dec(&d["held"]))
}

fn books(b: &Bank) -> &Books {
    &b.server.running.state.books
}

/// The books with their clock `days` ahead.
fn books_ahead(b: &Bank, days: i64) -> Books {
    let mut c = (*b.server.running.state.config).clone();
    c.ledger.clock_offset_seconds = days * 86_400;
    Books::new(&c)
}

async fn report(b: &Bank, date: Option<NaiveDate>) -> Value {
    let path = match date {
        Some(d) => format!("{}?date={d}", paths::LEDGER_RECONCILIATION),
        None => paths::LEDGER_RECONCILIATION.to_string(),
    };
    let (s, v) = get(b, &b.reader, &path).await;
    assert_eq!(s, 200, "{v}");
    v["data"].clone()
}

fn line<'a>(report: &'a Value, code: &str) -> &'a Value {
    report["lines"].as_array().unwrap().iter().find(|l| l["code"] == code).unwrap_or_else(|| panic!("{code}"))
}

on_both_backends!(
    a_sent_check_keeps_clearing_open_until_it_settles,
    electronic_and_cash_deposits_post_by_the_same_rules,
    the_batch_answers_each_account_in_order_and_names_the_unknown,
    a_return_charges_the_returned_item_fee_of_the_schedule_in_force,
    ledger_verify_proves_the_balance_rows_equal_the_entries,
);

async fn a_sent_check_keeps_clearing_open_until_it_settles(backend: Backend) {
    let b = bank(backend).await;
    let today = books(&b).today();
    let quiet = report(&b, None).await;
    assert_eq!((quiet["date"].as_str(), quiet["clearingClosed"].as_bool()), (Some(&*today.to_string()), Some(true)));
    assert_eq!(quiet["clearingHistory"].as_array().unwrap().len(), 30);
    let (id, _) = check(&b, "1000.00", "8001").await;
    act(&b, &b.writer, id, "confirm", None).await;
    let confirmed = report(&b, Some(today)).await;
    assert_eq!(confirmed["openItems"][0]["ledgerAccount"], "bank:items_in_process", "{confirmed}");
    assert_eq!(confirmed["openItems"][0]["sentOn"], Value::Null, "not sent yet");

    act(&b, &b.admin, id, "send", None).await;
    let sent = report(&b, Some(today)).await;
    assert_eq!(sent["clearingClosed"], false);
    let settles_on = books(&b).calendar.add_business_days(today, books(&b).settlement_days);
    let item = json!({"depositId": id, "ledgerAccount": "bank:clearing_x9", "amount": 1000.00,
        "sentOn": today.to_string(), "settlesOn": settles_on.to_string()});
    assert_eq!(sent["openItems"], json!([item]), "the sent check, with its dates");
    let x9 = line(&sent, "bank:clearing_x9");
    assert_eq!((dec(&x9["opening"]), dec(&x9["debits"]), dec(&x9["credits"])), (Decimal::ZERO, 1000.into(), 0.into()));
    assert_eq!(dec(&x9["closing"]), Decimal::from(1000));
    let iip = line(&sent, "bank:items_in_process");
    assert_eq!((dec(&iip["debits"]), dec(&iip["credits"]), dec(&iip["closing"])), (1000.into(), 1000.into(), 0.into()));
    assert_eq!(dec(&sent["clearingHistory"][29]["clearingX9"]), Decimal::from(1000));
    assert_eq!(sent["booksBalanced"], true);

    let later = books_ahead(&b, 10);
    let deposits = &b.server.running.state.stores.deposits;
    assert_eq!(moneydesk_server::deposits::settlement::settle_due(deposits, &later).await.unwrap(), 1);
    let settled = report(&b, Some(later.today())).await;
    assert_eq!((settled["clearingClosed"].as_bool(), settled["openItems"].clone()), (Some(true), json!([])));
    let x9 = line(&settled, "bank:clearing_x9");
    assert_eq!((dec(&x9["opening"]), dec(&x9["closing"])), (1000.into(), 0.into()), "{settled}");
    let history = settled["clearingHistory"].as_array().unwrap();
    let day = |d: NaiveDate| history.iter().find(|h| h["date"] == d.to_string()).unwrap().clone();
    assert_eq!(dec(&day(today)["clearingX9"]), Decimal::from(1000), "open at the end of the day it was sent");
    assert_eq!(dec(&day(later.today())["clearingX9"]), Decimal::ZERO);
    assert_eq!(dec(&line(&settled, "bank:settlement")["closing"]), Decimal::from(1000));
    assert_eq!(report(&b, Some(today)).await["clearingClosed"], false, "the sent day stays as it closed");
    let (s, e) = get(&b, &b.reader, &format!("{}?date=yesterday", paths::LEDGER_RECONCILIATION)).await;
    assert_eq!((s, e["errors"][0]["field"].as_str()), (400, Some("date")), "{e}");
}

async fn electronic_and_cash_deposits_post_by_the_same_rules(backend: Backend) {
    let b = bank(backend).await;
    let opening = b.sleeve.market_value.unwrap();
    let effective = (books(&b).today() + chrono::Duration::days(1)).to_string();
    let pull = json!({
        "amount": "500.00", "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
        "accountType": "checking", "vendorName": "Acme Supplies", "effectiveDate": effective,
        "payeeAccountId": b.sleeve.id, "payeeUserId": "usr-1",
    });
    let (s, rec) = post(&b, &b.writer, paths::DEPOSITS_ELECTRONIC, &pull, Some("pull-1")).await;
    assert_eq!(s, 201, "{rec}");
    let (ach, ach_fee) = (rec["id"].as_i64().unwrap(), dec(&rec["feeApplied"]));
    act(&b, &b.writer, ach, "confirm", None).await;
    let net = Decimal::from(500) - ach_fee;
    assert_eq!(balances(&b).await, (opening, opening + net, opening, net), "electronic: pending and held");
    let (_, holds) = get(&b, &b.reader, &paths::LEDGER_HOLDS.replace("{accountId}", &b.sleeve.id)).await;
    let cal = &books(&b).calendar;
    let today = books(&b).today();
    let received = if cal.is_business_day(today) { today } else { cal.next_business_day(today) };
    let release_on = cal.add_business_days(received, 1);
    assert_eq!(holds["data"].as_array().unwrap().len(), 1, "{holds}");
    assert_eq!(holds["data"][0]["releaseOn"], release_on.to_string(), "the next business day");

    let cash = json!({"amount": "200.00", "payeeAccountId": b.sleeve.id, "payeeUserId": "usr-1", "memo": "Till"});
    let (s, rec) = post(&b, &b.writer, paths::DEPOSITS_CASH, &cash, Some("cash-1")).await;
    assert_eq!(s, 201, "{rec}");
    let (till, cash_fee) = (rec["id"].as_i64().unwrap(), dec(&rec["feeApplied"]));
    act(&b, &b.writer, till, "confirm", None).await;
    let posted = opening + Decimal::from(200) - cash_fee;
    assert_eq!(balances(&b).await, (posted, posted + net, posted, net), "cash: posted and available at once");

    let day = report(&b, None).await;
    assert_eq!(dec(&line(&day, "bank:cash_vault")["closing"]), Decimal::from(200));
    assert_eq!(dec(&line(&day, "bank:items_in_process")["closing"]), Decimal::from(500));
    act(&b, &b.admin, ach, "send", None).await;
    let day = report(&b, None).await;
    assert_eq!(day["openItems"].as_array().unwrap().len(), 1, "cash never clears: {day}");
    assert_eq!(
        (day["openItems"][0]["depositId"].as_i64(), day["openItems"][0]["ledgerAccount"].as_str()),
        (Some(ach), Some("bank:clearing_ach"))
    );

    let days = (release_on - today).num_days();
    let store = &b.server.running.state.stores.ledger;
    assert_eq!(moneydesk_server::ledger::jobs::release_due(store, &books_ahead(&b, days)).await.unwrap(), 1);
    assert_eq!(balances(&b).await, (posted, posted + net, posted + net, Decimal::ZERO), "released on its day");
}

async fn the_batch_answers_each_account_in_order_and_names_the_unknown(backend: Backend) {
    let b = bank(backend).await;
    let (id, fee) = check(&b, "300.00", "8101").await;
    act(&b, &b.writer, id, "confirm", None).await;
    let others: Vec<&str> = b.accounts.iter().map(|a| a.id.as_str()).filter(|a| *a != b.sleeve.id).take(2).collect();
    let ids = [others[0], b.sleeve.id.as_str(), others[1]];
    let (s, v) = get(&b, &b.reader, &format!("{}?accountIds={}", paths::LEDGER_BALANCES_BATCH, ids.join(","))).await;
    assert_eq!(s, 200, "{v}");
    let got = v["data"].as_array().unwrap();
    assert_eq!(got.iter().map(|x| x["accountId"].as_str().unwrap()).collect::<Vec<_>>(), ids, "in the order asked");
    for x in got {
        let path = paths::LEDGER_BALANCES.replace("{accountId}", x["accountId"].as_str().unwrap());
        let one = get(&b, &b.reader, &path).await.1["data"].clone();
        for k in ["posted", "pending", "available", "held", "negativeAvailable"] {
            assert_eq!(x[k], one[k], "{k} as the account's own balances");
        }
    }
    assert_eq!(dec(&got[1]["held"]), Decimal::from(300) - fee);
    let asked = format!("{}?accountIds={},nobody,{}", paths::LEDGER_BALANCES_BATCH, ids[0], "ghost");
    let (s, e) = get(&b, &b.reader, &asked).await;
    assert_eq!(s, 404, "unknown accounts, as for one account: {e}");
    let message = e.to_string();
    assert!(message.contains("nobody") && message.contains("ghost") && !message.contains(ids[0]), "{message}");
    let many = vec![ids[0]; 101].join(",");
    assert_eq!(get(&b, &b.reader, &format!("{}?accountIds={many}", paths::LEDGER_BALANCES_BATCH)).await.0, 400);
    assert_eq!(get(&b, &b.reader, paths::LEDGER_BALANCES_BATCH).await.0, 400);
    assert_eq!(get(&b, &b.writer, &asked).await.0, 403, "ledger:read");

    let doc = json(b.server.get_auth("/api/openapi.json", &b.admin).await).await;
    let tag = doc["tags"].as_array().unwrap().iter().find(|t| t["name"] == "ledger").cloned().unwrap();
    let text = tag["description"].as_str().unwrap();
    assert!(text.contains("| settled ") && text.contains("**available**"), "the chart and the balances: {text}");
}

async fn a_return_charges_the_returned_item_fee_of_the_schedule_in_force(backend: Backend) {
    let b = bank(backend).await;
    let at = chrono::Utc::now() + chrono::Duration::seconds(2);
    let at_text = at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let file = format!("returned_item_fee = \"27.50\"\n{}", common::schedule_toml(&at_text, "0.25"));
    let r = b.server.client.post(b.server.url(paths::FEE_SCHEDULE_VERSIONS)).bearer_auth(&b.admin);
    let r = r.header("content-type", "application/toml").body(file).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let listed = json(r).await;
    assert_eq!(dec(&listed["data"][0]["schedule"]["returned_item_fee"]), Decimal::new(2750, 2), "{listed}");
    assert_eq!(books(&b).returned_item_fee_cents(), 1_500, "the configured fee until the version is in force");
    let wait = (chrono::DateTime::parse_from_rfc3339(&at_text).unwrap().timestamp_millis()
        - chrono::Utc::now().timestamp_millis())
    .max(0) as u64;
    tokio::time::sleep(std::time::Duration::from_millis(wait + 200)).await;
    assert_eq!(books(&b).returned_item_fee_cents(), 2_750);

    let opening = b.sleeve.market_value.unwrap();
    let (id, fee) = check(&b, "1000.00", "8201").await;
    act(&b, &b.writer, id, "confirm", None).await;
    act(&b, &b.admin, id, "send", None).await;
    act(&b, &b.admin, id, "settle", Some("the Fed's advice came early")).await;
    act(&b, &b.writer, id, "return", Some("R01 insufficient funds")).await;
    let after = opening - fee - Decimal::new(2750, 2);
    assert_eq!(balances(&b).await.0, after, "the schedule's returned-item fee charged");
}

/// The server binary's CLI on the server's own data dir and database (either backend).
async fn ledger_verify_proves_the_balance_rows_equal_the_entries(backend: Backend) {
    let b = bank(backend).await;
    let (id, _) = check(&b, "400.00", "8301").await;
    act(&b, &b.writer, id, "confirm", None).await;
    let db = b.server.running.state.stores.ledger.database().clone();
    let count = |t: &str| db.sql(&format!("SELECT COUNT(*) FROM {t}"));
    let accounts = db.acquire().await.unwrap().exec().int(&count("ledger_accounts")).await.unwrap();
    let entries = db.acquire().await.unwrap().exec().int(&count("ledger_entries")).await.unwrap();
    let out = b.server.cli(&["ledger", "verify"]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.trim(), format!("ledger balanced: {accounts} accounts, {entries} entries"));

    // A bank account's balance is kept in parts: the confirmation moved one of the clearing
    // account's, and that part is named.
    let iip = "(SELECT id FROM ledger_accounts WHERE code = 'bank:items_in_process')";
    let parts = db.sql(&format!("SELECT part FROM ledger_balance_parts WHERE account_id = {iip}"));
    let parts = db.acquire().await.unwrap().exec().ints(&parts).await.unwrap();
    assert_eq!(parts.len(), 1, "one posting, one part: {parts:?}");
    db.execute(&format!("UPDATE ledger_balance_parts SET balance = balance + 1 WHERE account_id = {iip}"))
        .await
        .unwrap();
    let out = b.server.cli(&["ledger", "verify"]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let named = format!(
        "mismatch bank:items_in_process part {}: balance row -3999999, sum of entries -4000000, last running balance -4000000",
        parts[0]
    );
    assert!(stdout.contains(&named), "{stdout}");
    assert_eq!(report(&b, None).await["booksBalanced"], false);
}
