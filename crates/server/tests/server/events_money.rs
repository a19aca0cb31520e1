//! The money groups on record (issue 43), over real HTTP on both backends, read straight from
//! the `events` and `audit_records` tables: a deposit's life (create, confirm, send, settle,
//! return) tells its events in order, each carrying the record GET answered right after the
//! write, and leaves one audit record per write naming the deposit and its status change; a
//! refused write leaves neither. A cash letter, a manual adjustment, a return file, a routing
//! refresh and the jobs (hold release, settlement) are told and recorded the same way.

use crate::common;

use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::ledger::Books;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    admin: String,
    accounts: Vec<Account>,
}

async fn desk(backend: Backend) -> Desk {
    let server = Server::start_on(backend).await;
    let mut accounts: Vec<Account> = Accounts::new(4, 11).collect();
    accounts.sort_by_key(|a| std::cmp::Reverse(a.market_value));
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Desk { server, writer, admin, accounts }
}

async fn post(d: &Desk, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

async fn get(d: &Desk, path: &str) -> Value {
    let r = d.server.get_auth(path, &d.admin).await;
    assert_eq!(r.status().as_u16(), 200, "GET {path}");
    json(r).await["data"].clone()
}

async fn deposit_record(d: &Desk, id: i64) -> Value {
    get(d, &paths::DEPOSIT.replace("{id}", &id.to_string())).await["record"].clone()
}

/// Every event of an object, oldest first: (type, data).
async fn events_of(d: &Desk, object_type: &str, object_id: &str) -> Vec<(String, Value)> {
    let db = &d.server.running.state.stores.database;
    let q = db
        .sql("SELECT type, data FROM events WHERE object_type = ? AND object_id = ? ORDER BY seq")
        .arg(object_type)
        .arg(object_id);
    let rows: Vec<(String, String)> = db.acquire().await.unwrap().exec().rows(&q).await.unwrap();
    rows.into_iter().map(|(t, data)| (t, serde_json::from_str(&data).unwrap())).collect()
}

/// An audit record as the test reads it.
#[derive(Debug, sqlx::FromRow)]
struct Record {
    operation: String,
    outcome: String,
    token_name: Option<String>,
    changes: String,
}

impl Record {
    fn change(&self, field: &str) -> (Value, Value) {
        let changes: Value = serde_json::from_str(&self.changes).unwrap();
        let c = changes.as_array().unwrap().iter().find(|c| c["field"] == field);
        let c = c.unwrap_or_else(|| panic!("no change of {field}: {self:?}"));
        (c["before"].clone(), c["after"].clone())
    }
}

/// The audit records naming a target, oldest first.
async fn records_of(d: &Desk, target_type: &str, target_id: &str) -> Vec<Record> {
    let db = &d.server.running.state.stores.database;
    let q = db
        .sql(
            "SELECT operation, outcome, token_name, changes FROM audit_records \
             WHERE target_type = ? AND target_id = ? ORDER BY id",
        )
        .arg(target_type)
        .arg(target_id);
    db.acquire().await.unwrap().exec().rows(&q).await.unwrap()
}

/// How many events and audit records there are.
async fn totals(d: &Desk) -> (i64, i64) {
    let db = &d.server.running.state.stores.database;
    let events = db.acquire().await.unwrap().exec().int(&db.sql("SELECT count(*) FROM events")).await.unwrap();
    let records = db
        .acquire()
        .await
        .unwrap()
        .exec()
        .int(&db.sql("SELECT count(*) FROM audit_records WHERE outcome = 'succeeded'"))
        .await
        .unwrap();
    (events, records)
}

/// A write that must succeed with `status` and leave exactly one audit record.
async fn write(d: &Desk, token: &str, path: &str, body: Value, status: u16) -> Value {
    let (_, records) = totals(d).await;
    let (s, v) = post(d, token, path, &body).await;
    assert_eq!(s, status, "POST {path} {body}: {v}");
    assert_eq!(totals(d).await.1, records + 1, "one audit record for POST {path} {body}");
    v
}

async fn move_deposit(d: &Desk, token: &str, id: i64, body: Value) {
    write(d, token, &paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string()), body, 200).await;
}

fn check_body(d: &Desk, n: u32, to: usize) -> Value {
    json!({
        "amount": "1250.00", "bankRoutingNumber": "021090028", "bankAccountNumber": format!("4820{n:04}"),
        "checkNumber": format!("{}", 3000 + n), "payeeAccountId": d.accounts[to].id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(n), "checkBackImage": check_png(n + 100),
    })
}

/// The books with their clock `days` ahead.
fn books_ahead(d: &Desk, days: i64) -> Books {
    let mut c = (*d.server.running.state.config).clone();
    c.ledger.clock_offset_seconds = days * 86_400;
    Books::new(&c)
}

on_both_backends!(
    a_deposits_life_is_told_in_order_and_each_write_is_on_record,
    cash_letters_adjustments_returns_refreshes_and_jobs_are_told_and_on_record,
);

async fn a_deposits_life_is_told_in_order_and_each_write_is_on_record(backend: Backend) {
    let d = desk(backend).await;
    let created = write(&d, &d.writer, paths::DEPOSITS_CHECK, check_body(&d, 1, 0), 201).await;
    let id = created["id"].as_i64().unwrap();
    let key = id.to_string();
    let mut told = vec![("deposit.created", deposit_record(&d, id).await)];
    assert_eq!(told[0].1, created, "the created event's record is what the creation answered");
    let steps = [
        ("deposit.confirmed", &d.writer, json!({"action": "confirm"})),
        ("deposit.sent", &d.admin, json!({"action": "send"})),
        ("deposit.settled", &d.admin, json!({"action": "settle", "reason": "advice came early"})),
        ("deposit.returned", &d.writer, json!({"action": "return", "reason": "account closed"})),
    ];
    for (kind, token, body) in steps {
        move_deposit(&d, token, id, body).await;
        told.push((kind, deposit_record(&d, id).await));
        let events = events_of(&d, "deposit", &key).await;
        let (last_kind, last_data) = events.last().unwrap();
        assert_eq!((last_kind.as_str(), last_data), (kind, &told.last().unwrap().1), "the event carries GET's record");
    }
    let events = events_of(&d, "deposit", &key).await;
    let kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(kinds, told.iter().map(|(k, _)| *k).collect::<Vec<_>>(), "in order, once each");

    let records = records_of(&d, "deposit", &key).await;
    assert_eq!(records.len(), 5, "one record per write: {records:?}");
    assert!(records.iter().all(|r| r.outcome == "succeeded" && r.token_name.as_deref() == Some("test")));
    assert_eq!(records[0].change("status"), (Value::Null, json!("In_Progress_1")));
    assert_eq!(records[0].change("amount").1, json!("1250.00"));
    let moves = ["In_Progress_1", "Confirmed_2", "Sent_3", "Settled_4", "Returned_5"];
    for (r, pair) in records[1..].iter().zip(moves.windows(2)) {
        assert_ne!(r.operation, records[0].operation, "a move is another operation than the creation");
        assert_eq!(r.change("status"), (json!(pair[0]), json!(pair[1])));
    }

    // Refused writes: an illegal move (409), a reject without a reason (400), a settle without
    // admin (403, refused by the handler), a retry and a key reused for another body (422).
    // Nothing is recorded and nothing is told.
    let before = totals(&d).await;
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &key);
    assert_eq!(post(&d, &d.writer, &actions, &json!({"action": "confirm"})).await.0, 409);
    let other = write(&d, &d.writer, paths::DEPOSITS_CHECK, check_body(&d, 2, 1), 201).await["id"].as_i64().unwrap();
    let before_other = totals(&d).await;
    assert_eq!(before_other, (before.0 + 1, before.1 + 1), "the second deposit: one event, one record");
    let other_actions = paths::DEPOSIT_ACTIONS.replace("{id}", &other.to_string());
    assert_eq!(post(&d, &d.writer, &other_actions, &json!({"action": "reject"})).await.0, 400);
    assert_eq!(post(&d, &d.writer, &other_actions, &json!({"action": "settle"})).await.0, 403);
    let keyed = |body: &Value| {
        let url = d.server.url(paths::DEPOSITS_CHECK);
        d.server.client.post(url).bearer_auth(&d.writer).header("Idempotency-Key", "k-1").json(body).send()
    };
    assert_eq!(keyed(&check_body(&d, 3, 1)).await.unwrap().status().as_u16(), 201);
    let after_keyed = totals(&d).await;
    assert_eq!(keyed(&check_body(&d, 3, 1)).await.unwrap().status().as_u16(), 200, "a retry answers again");
    assert_eq!(keyed(&check_body(&d, 4, 1)).await.unwrap().status().as_u16(), 422);
    let after = totals(&d).await;
    assert_eq!(after.0, after_keyed.0, "no event for a retry or a reused key");
    assert_eq!(after.1, after_keyed.1, "no record for a retry or a reused key");
    assert_eq!(records_of(&d, "deposit", &other.to_string()).await.len(), 1, "only its creation");
    // The settle refused inside the handler (send and settle need admin) changed nothing, and
    // is on record as denied, as the guard's refusals are.
    assert_eq!(after_keyed.1, before_other.1 + 1, "only the keyed deposit's record");
    let db = &d.server.running.state.stores.database;
    let q =
        db.sql("SELECT count(*) FROM audit_records WHERE outcome = 'denied' AND target_id = ?").arg(other.to_string());
    let mut denied = 0;
    for _ in 0..50 {
        denied = db.acquire().await.unwrap().exec().int(&q).await.unwrap();
        if denied > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(denied, 1, "the handler's 403 is on record as denied");
}

async fn cash_letters_adjustments_returns_refreshes_and_jobs_are_told_and_on_record(backend: Backend) {
    let d = desk(backend).await;
    // A cash letter: its deposits' sent events, then its own, in the one transaction; one record.
    let id = write(&d, &d.writer, paths::DEPOSITS_CHECK, check_body(&d, 5, 0), 201).await["id"].as_i64().unwrap();
    move_deposit(&d, &d.writer, id, json!({"action": "confirm"})).await;
    let made = write(&d, &d.admin, paths::CASH_LETTERS, json!({"depositIds": [id]}), 201).await;
    let letter = made["data"]["id"].as_i64().unwrap().to_string();
    let got = get(&d, &paths::CASH_LETTER.replace("{id}", &letter)).await;
    let told = events_of(&d, "cash_letter", &letter).await;
    assert_eq!(told, vec![("cash_letter.created".into(), got.clone()), ("cash_letter.sent".into(), got)]);
    assert_eq!(events_of(&d, "deposit", &id.to_string()).await.last().unwrap().0, "deposit.sent");
    let records = records_of(&d, "cash_letter", &letter).await;
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].change("deposits").1, json!(id.to_string()));

    // The holds released by the job: the account's balances after, by the server.
    let ahead = books_ahead(&d, 12);
    let released = moneydesk_server::ledger::jobs::release_due(&d.server.running.state.stores.ledger, &ahead);
    assert!(released.await.unwrap() >= 1);
    let sleeve = &d.accounts[0].id;
    let told = events_of(&d, "ledger_account", sleeve).await;
    let (kind, balances) = told.last().expect("a release is told");
    assert_eq!(kind, "ledger.balance.available");
    let now = get(&d, &paths::LEDGER_BALANCES.replace("{accountId}", sleeve)).await;
    for field in ["posted", "pending", "available", "held"] {
        assert_eq!(balances[field], now[field], "{field}: {balances} vs {now}");
    }
    let records = records_of(&d, "ledger_account", sleeve).await;
    assert!(records.len() == told.len() && records.iter().all(|r| r.operation == "job:ledger-holds"));
    assert_eq!(records[0].token_name, None, "the server's own");

    // Settlement on schedule: told and recorded as the job's.
    let settle = moneydesk_server::deposits::settlement::settle_due(&d.server.running.state.stores.deposits, &ahead);
    assert_eq!(settle.await.unwrap(), 1);
    let key = id.to_string();
    let (kind, data) = events_of(&d, "deposit", &key).await.pop().unwrap();
    assert_eq!((kind.as_str(), data), ("deposit.settled", deposit_record(&d, id).await));
    let last = records_of(&d, "deposit", &key).await.pop().unwrap();
    assert_eq!((last.operation.as_str(), last.change("status").1), ("job:deposit-settlement", json!("Settled_4")));

    // A manual adjustment: told with the transaction as its GET answers it.
    let body = json!({"debit": "bank:fee_income", "credit": "bank:adjustments", "amount": 10.00, "reason": "refund"});
    let posted = write(&d, &d.admin, paths::LEDGER_ADJUSTMENTS, body, 201).await;
    let tx = posted["data"]["id"].as_i64().unwrap().to_string();
    let got = get(&d, &paths::LEDGER_TRANSACTION.replace("{id}", &tx)).await;
    assert_eq!(events_of(&d, "ledger_transaction", &tx).await, vec![("ledger.transaction.posted".into(), got)]);
    let records = records_of(&d, "ledger_transaction", &tx).await;
    assert_eq!((records.len(), records[0].change("amount").1.clone()), (1, json!("10.00")));
    let before = totals(&d).await;
    let overdraw = json!({"debit": format!("sma:{sleeve}:posted"), "credit": "bank:adjustments",
        "amount": 999_999_999.00, "reason": "too much"});
    assert_eq!(post(&d, &d.admin, paths::LEDGER_ADJUSTMENTS, &overdraw).await.0, 409);
    assert_eq!(totals(&d).await, before, "a refused adjustment leaves nothing");

    // A return file of one unknown item: processed, told with the upload's result.
    let url = d.server.url(&format!("{}?fileName=r.txt", paths::DEPOSIT_RETURNS));
    let (_, records_before) = totals(&d).await;
    let r = d.server.client.post(url).bearer_auth(&d.writer).body(ach_return()).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 201);
    let result = json(r).await["data"].clone();
    let file = result["fileId"].as_i64().unwrap().to_string();
    assert_eq!(events_of(&d, "return_file", &file).await, vec![("return_file.processed".into(), result)]);
    assert_eq!(totals(&d).await.1, records_before + 1);
    assert_eq!(records_of(&d, "return_file", &file).await.len(), 1);

    // A routing refresh: told with the status it answers.
    let status = write(&d, &d.admin, moneydesk_model::routing::ROUTING_DIRECTORY_REFRESH, json!({}), 200).await;
    let told = events_of(&d, "routing_directory", "directory").await;
    assert_eq!(told, vec![("routing.directory.refreshed".into(), status["data"].clone())]);
    assert_eq!(records_of(&d, "routing_directory", "directory").await.len(), 1);
}

/// A NACHA return file of one R01 return whose trace number no deposit has.
fn ach_return() -> Vec<u8> {
    use moneydesk_nacha::*;
    let day = Date::from_ymd(2026, 1, 6).unwrap();
    let (us, rdfi) = ("021090028", "031300012");
    let mut builder = FileBuilder::new(FileInfo::new(us, rdfi, day));
    let entry = EntryInfo::new(TransactionCode::CheckingDebitReturn, us, "744567899", 250_000, "Acme Supplies");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: TraceNumber { odfi: 2109002, sequence: 9_999_999 },
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: String::new(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder.return_batch(BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi), vec![(entry, r01)]);
    write(&builder.build().unwrap()).unwrap().into_bytes()
}
