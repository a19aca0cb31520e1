//! Returned items over real HTTP on both backends: an X9 return file (written with our own
//! writer) against a real cash letter — a match returns its deposit with the fees, an unknown
//! sequence number is kept unmatched, the same item again is a duplicate, a damaged record is
//! reported with its number and never posted, and the same file twice answers its first result;
//! an ACH return (R01) and a notification of change (C01) against the day's ACH file; the
//! operator's return with a reason code; items matched and dismissed by hand; the watched folder.

use crate::common;

use axum::extract::FromRef;
use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::returns::folder;
use moneydesk_server::deposits::DepositsState;
use moneydesk_x9::*;
use rust_decimal::Decimal;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    admin: String,
    reader: String,
    accounts: Vec<Account>,
}

async fn desk_on(server: Server) -> Desk {
    let mut accounts: Vec<Account> = Accounts::new(8, 7).collect();
    // The richest first: a return's fees never take them below zero.
    accounts.sort_by_key(|a| std::cmp::Reverse(a.market_value));
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let admin = server.token(&[Scope::Admin]).await;
    let reader = server.token(&[Scope::LedgerRead]).await;
    Desk { server, writer, admin, reader, accounts }
}

async fn post(d: &Desk, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn upload(d: &Desk, bytes: Vec<u8>, name: &str, content_type: &str) -> (u16, Value) {
    let url = d.server.url(&format!("{}?fileName={name}", paths::DEPOSIT_RETURNS));
    let req = d.server.client.post(url).bearer_auth(&d.writer).header("content-type", content_type).body(bytes);
    let r = req.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn get(d: &Desk, token: &str, path: &str) -> Value {
    let r = d.server.get_auth(path, token).await;
    assert_eq!(r.status().as_u16(), 200, "GET {path}");
    json(r).await
}

/// A check deposit of `cents` to account `to`, confirmed; its id and fee.
async fn check(d: &Desk, n: u32, cents: u32, to: usize) -> (i64, Decimal) {
    let body = json!({
        "amount": format!("{}.{:02}", cents / 100, cents % 100),
        "bankRoutingNumber": "021090028", "bankAccountNumber": format!("4820{n:04}"), "checkNumber": format!("{}", 1000 + n),
        "payeeAccountId": d.accounts[to].id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(n), "checkBackImage": check_png(n + 100),
    });
    let (status, record) = post(d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_eq!(status, 201, "{record}");
    let id = record["id"].as_i64().unwrap();
    act(d, &d.writer, id, json!({"action": "confirm"}), 200).await;
    (id, dec(&record["feeApplied"]))
}

async fn act(d: &Desk, token: &str, id: i64, body: Value, status: u16) -> Value {
    let (s, v) = post(d, token, &paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string()), &body).await;
    assert_eq!(s, status, "{body}: {v}");
    v
}

/// The deposits sent in one cash letter.
async fn cash_letter(d: &Desk, ids: &[i64]) {
    let (status, made) = post(d, &d.admin, paths::CASH_LETTERS, &json!({"depositIds": ids})).await;
    assert_eq!(status, 201, "{made}");
}

async fn detail(d: &Desk, id: i64) -> Value {
    get(d, &d.writer, &paths::DEPOSIT.replace("{id}", &id.to_string())).await["data"].clone()
}

fn dec(v: &Value) -> Decimal {
    v.to_string().trim_matches('"').parse().unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

/// (posted, pending, available, held) of account `i`.
async fn balances(d: &Desk, i: usize) -> (Decimal, Decimal, Decimal, Decimal) {
    let v = get(d, &d.reader, &paths::LEDGER_BALANCES.replace("{accountId}", &d.accounts[i].id)).await;
    let b = &v["data"];
    (dec(&b["posted"]), dec(&b["pending"]), dec(&b["available"]), dec(&b["held"]))
}

/// A returned check: `seq` the returning bank's sequence number, `ours` the sequence number our
/// cash letter gave it (carried in the return addendum A).
fn returned(seq: u64, cents: u64, reason: char, ours: &str) -> ReturnItem {
    let mut detail = ReturnRecord {
        on_us: "48200001/1001".into(),
        item_amount: cents,
        return_reason: reason,
        forward_bundle_date: "20260105".into(),
        ece_institution_item_sequence_number: format!("{seq:015}"),
        ..ReturnRecord::default()
    };
    detail.set_payor_bank_routing("021090028");
    let a = ReturnAddendumA {
        bofd_routing_number: "021090028".into(),
        bofd_business_date: "20260105".into(),
        bofd_item_sequence_number: format!("{:0>15}", ours),
        payee_name: "SLEEVE".into(),
        ..ReturnAddendumA::default()
    };
    ReturnItem { detail, addenda_a: vec![a], ..ReturnItem::default() }
}

fn x9_file(items: &[ReturnItem]) -> Vec<u8> {
    let (us, them, day) = ("021090028", "011000015", "20260106");
    let header = FileHeader {
        immediate_destination_routing_number: us.into(),
        immediate_origin_routing_number: them.into(),
        file_creation_date: day.into(),
        file_creation_time: "0930".into(),
        ..FileHeader::default()
    };
    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &header).unwrap();
    w.start_cash_letter(&CashLetterHeader {
        collection_type_indicator: "03".into(),
        destination_routing_number: us.into(),
        ece_institution_routing_number: them.into(),
        cash_letter_business_date: day.into(),
        cash_letter_creation_date: day.into(),
        cash_letter_creation_time: "0930".into(),
        cash_letter_id: "RET1".into(),
        ..CashLetterHeader::default()
    })
    .unwrap();
    w.start_bundle(&BundleHeader {
        collection_type_indicator: "03".into(),
        destination_routing_number: us.into(),
        ece_institution_routing_number: them.into(),
        bundle_business_date: day.into(),
        bundle_creation_date: day.into(),
        bundle_id: "R1".into(),
        ..BundleHeader::default()
    })
    .unwrap();
    for item in items {
        w.add_return(item).unwrap();
    }
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    w.finish(FileControl::default()).unwrap()
}

/// Where record `n` (1-based) starts in a written file, after its length.
fn record_at(bytes: &[u8], n: usize) -> usize {
    let mut at = 0;
    for _ in 1..n {
        at += 4 + u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    }
    at + 4
}

fn by_record(result: &Value, record: i64) -> Value {
    let items = result["data"]["items"].as_array().unwrap();
    items.iter().find(|i| i["recordNumber"] == record).unwrap_or_else(|| panic!("record {record}: {result}")).clone()
}

mod ach;
mod by_hand;
mod x9;
