//! Returned items over real HTTP on both backends: an X9 return file (written with our own
//! writer) against a real cash letter — a match returns its deposit with the fees, an unknown
//! sequence number is kept unmatched, the same item again is a duplicate, a damaged record is
//! reported with its number and never posted, and the same file twice answers its first result;
//! an ACH return (R01) and a notification of change (C01) against the day's ACH file; the
//! operator's return with a reason code; items matched and dismissed by hand; the watched folder.

mod common;

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

on_both_backends!(
    an_x9_return_file_returns_its_match_keeps_the_rest_and_is_read_once,
    an_ach_return_and_a_notification_of_change_return_and_correct_the_pull,
    an_operators_return_takes_a_known_reason_code_only,
    unmatched_items_are_dismissed_or_matched_by_hand,
    the_watched_folder_reads_what_is_dropped_in_it,
);

async fn an_x9_return_file_returns_its_match_keeps_the_rest_and_is_read_once(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let opening = balances(&d, 0).await.0;
    let (first, fee) = check(&d, 1, 12_550, 0).await;
    let (second, _) = check(&d, 2, 30_000, 1).await;
    cash_letter(&d, &[first, second]).await;

    let (f, s) = (first.to_string(), second.to_string());
    let items = [
        returned(1, 12_550, 'A', &f),
        returned(2, 777, 'D', "999999"),
        returned(3, 12_550, 'A', &f),
        returned(4, 30_000, 'B', &s),
    ];
    let mut bytes = x9_file(&items);
    // Records: 01, 10, 20, then each item's 31 and 32 (4, 6, 8, 10). The last one's return
    // reason (position 42) becomes '0', which is no code.
    let at = record_at(&bytes, 10);
    assert_eq!(&bytes[at..at + 2], b"31");
    bytes[at + 41] = b'0';

    let (status, result) = upload(&d, bytes.clone(), "returns-1.x937", "application/octet-stream").await;
    assert_eq!(status, 201, "{result}");
    let file_id = result["data"]["fileId"].as_i64().unwrap();
    assert_eq!(
        (result["data"]["format"].as_str(), result["data"]["fileName"].as_str()),
        (Some("x9"), Some("returns-1.x937"))
    );
    assert_eq!(result["data"]["items"].as_array().unwrap().len(), 4, "nothing dropped: {result}");
    let matched = by_record(&result, 4);
    assert_eq!((matched["state"].as_str(), matched["depositId"].as_i64()), (Some("matched"), Some(first)), "{matched}");
    assert_eq!((matched["reasonCode"].as_str(), matched["reason"].as_str()), (Some("A"), Some("Not Sufficient Funds")));
    assert_eq!(matched["reference"], f.as_str());
    let unknown = by_record(&result, 6);
    assert_eq!(unknown["state"], "unmatched", "{unknown}");
    assert!(unknown["note"].as_str().unwrap().contains("999999"), "{unknown}");
    assert_eq!(by_record(&result, 8)["state"], "duplicate", "the same item again posts nothing");
    let damaged = by_record(&result, 10);
    assert_eq!((damaged["state"].as_str(), damaged["depositId"].as_i64()), (Some("unmatched"), None), "{damaged}");
    let errors = result["data"]["errors"].as_array().unwrap();
    assert!(
        errors.iter().any(|e| e["recordNumber"] == 10 && e["field"] == "Return Reason"),
        "the damaged record is named: {errors:?}"
    );

    let returned = detail(&d, first).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    let last = returned["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["reason"], format!("A Not Sufficient Funds (return file {file_id}, record 4)"));
    assert_eq!(detail(&d, second).await["record"]["status"], "Sent_3", "a damaged record is never posted");
    let after = opening - fee - Decimal::from(15);
    assert_eq!(
        balances(&d, 0).await,
        (after, after, after, Decimal::ZERO),
        "credit reversed, fee and returned-item fee charged"
    );

    let (status, again) = upload(&d, bytes, "other-name.x937", "application/octet-stream").await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"], result["data"], "the same file answers its first result");
    assert_eq!(balances(&d, 0).await.0, after, "and posts nothing");

    let (status, refused) = upload(&d, b"hello, this is not a return file".to_vec(), "x.txt", "text/plain").await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused.to_string().contains("neither an X9.100-187 file"), "{refused}");
    let (mismatches, unbalanced) = d.server.running.state.stores.ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]));
}

/// The RDFI's return file: line 3 an R01 of `trace` for `cents`, line 7 a C01 for it.
fn ach_return_file(trace: moneydesk_nacha::TraceNumber, cents: u64) -> String {
    use moneydesk_nacha::*;
    let day = Date::from_ymd(2026, 1, 6).unwrap();
    let (us, rdfi) = ("021090028", "031300012");
    let mut builder = FileBuilder::new(FileInfo::new(us, rdfi, day));
    let entry = |amount| EntryInfo::new(TransactionCode::CheckingDebitReturn, us, "744567899", amount, "Acme Supplies");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: trace,
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: String::new(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder.return_batch(
        BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi),
        vec![(entry(cents), r01)],
    );
    let c01 = ReturnOrNoc::Noc(NocAddenda {
        change_code: "C01".into(),
        original_entry_trace: trace,
        original_receiving_dfi: 3130001,
        corrected_data: "1918171614".into(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder
        .return_batch(BatchInfo::new(Sec::Cor, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi), vec![(entry(0), c01)]);
    write(&builder.build().unwrap()).unwrap()
}

async fn an_ach_return_and_a_notification_of_change_return_and_correct_the_pull(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let day = (chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive()
        + chrono::Duration::days(1))
    .to_string();
    let body = json!({
        "amount": "2500.00", "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
        "accountType": "checking", "vendorName": "Acme Supplies", "effectiveDate": day,
        "payeeAccountId": d.accounts[0].id, "payeeUserId": "usr-1",
    });
    let (status, record) = post(&d, &d.writer, paths::DEPOSITS_ELECTRONIC, &body).await;
    assert_eq!(status, 201, "{record}");
    let id = record["id"].as_i64().unwrap();
    act(&d, &d.writer, id, json!({"action": "confirm"}), 200).await;
    let r = d.server.get_auth(&format!("{}?effectiveDate={day}", paths::DEPOSITS_ACH_FILE), &d.writer).await;
    let sent_file = moneydesk_nacha::parse(&r.text().await.unwrap()).file.unwrap();
    let trace = sent_file.entries().next().unwrap().1.detail.trace_number;
    act(&d, &d.admin, id, json!({"action": "send"}), 200).await;

    let (status, result) =
        upload(&d, ach_return_file(trace, 250_000).into_bytes(), "ach-returns.txt", "text/plain").await;
    assert_eq!(status, 201, "{result}");
    assert_eq!(result["data"]["errors"], json!([]), "{result}");
    let r01 = by_record(&result, 3);
    assert_eq!((r01["state"].as_str(), r01["depositId"].as_i64()), (Some("matched"), Some(id)), "{r01}");
    assert_eq!(
        (r01["reference"].as_str(), r01["reason"].as_str()),
        (Some(trace.to_string().as_str()), Some("Insufficient Funds"))
    );
    let c01 = by_record(&result, 7);
    assert_eq!(
        (c01["state"].as_str(), c01["correctedData"].as_str()),
        (Some("corrected"), Some("1918171614")),
        "{c01}"
    );

    let after = detail(&d, id).await;
    assert_eq!(after["record"]["status"], "Returned_5");
    assert_eq!(after["record"]["fullBankAccountNumber"], "1918171614", "the payer's account corrected");
    let history = after["history"].as_array().unwrap();
    let corrected = history.iter().find(|e| e["action"] == "correct").expect("the correction is in the history");
    assert!(corrected["reason"].as_str().unwrap().contains("account number 744567899 → 1918171614"), "{corrected}");
}

async fn an_operators_return_takes_a_known_reason_code_only(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let (id, _) = check(&d, 5, 4_200, 0).await;
    let e = act(&d, &d.writer, id, json!({"action": "confirm", "reasonCode": "R02"}), 400).await;
    assert!(e.to_string().contains("reasonCode"), "{e}");
    act(&d, &d.admin, id, json!({"action": "send"}), 200).await;
    let e = act(&d, &d.writer, id, json!({"action": "return", "reasonCode": "R99"}), 400).await;
    assert!(e.to_string().contains("\\\"R99\\\" is neither"), "{e}");
    assert_eq!(detail(&d, id).await["record"]["status"], "Sent_3", "an unknown code returns nothing");

    let moved =
        act(&d, &d.writer, id, json!({"action": "return", "reasonCode": "R02", "reason": "closed in May"}), 200).await;
    assert_eq!(moved["data"]["record"]["status"], "Returned_5");
    let last = moved["data"]["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["reason"], "R02 Account Closed: closed in May");
    let listed = get(&d, &d.writer, &format!("{}?state=matched", paths::DEPOSIT_RETURNS)).await;
    let item = &listed["data"]["content"][0];
    assert_eq!((item["source"].as_str(), item["depositId"].as_i64()), (Some("operator"), Some(id)), "{listed}");
    assert_eq!((item["reasonCode"].as_str(), dec(&item["amount"])), (Some("R02"), Decimal::new(4_200, 2)));

    // Without a code, a return still needs a reason, as before.
    let (other, _) = check(&d, 6, 1_000, 1).await;
    act(&d, &d.admin, other, json!({"action": "send"}), 200).await;
    act(&d, &d.writer, other, json!({"action": "return"}), 400).await;
    act(&d, &d.writer, other, json!({"action": "return", "reason": "refer to maker"}), 200).await;
}

async fn unmatched_items_are_dismissed_or_matched_by_hand(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let (id, _) = check(&d, 7, 5_000, 0).await;
    cash_letter(&d, &[id]).await;
    // As a form, the file in its part `file`, named by the part.
    let bytes = x9_file(&[returned(1, 5_000, 'C', "424242"), returned(2, 100, 'D', "434343")]);
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name("from-the-fed.x937"));
    let r = d.server.client.post(d.server.url(paths::DEPOSIT_RETURNS)).bearer_auth(&d.writer).multipart(form);
    let r = r.send().await.unwrap();
    let (status, result) = (r.status().as_u16(), json(r).await);
    assert_eq!((status, result["data"]["fileName"].as_str()), (201, Some("from-the-fed.x937")), "{result}");
    let (stop, closed) = (by_record(&result, 4)["id"].as_i64().unwrap(), by_record(&result, 6)["id"].as_i64().unwrap());
    let listed = get(&d, &d.writer, &format!("{}?state=unmatched", paths::DEPOSIT_RETURNS)).await;
    assert_eq!(listed["data"]["totalElements"], 2, "{listed}");
    let item = |n: i64| paths::DEPOSIT_RETURN_ITEM.replace("{id}", &n.to_string());

    let (s, e) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss"})).await;
    assert_eq!(s, 400, "a dismissal needs a note: {e}");
    let (s, e) = post(&d, &d.writer, &item(closed), &json!({"action": "frobnicate"})).await;
    assert!(s == 400 && e.to_string().contains("match or dismiss"), "{e}");
    let (s, v) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss", "note": "not ours"})).await;
    assert_eq!(
        (s, v["data"]["state"].as_str(), v["data"]["note"].as_str()),
        (200, Some("dismissed"), Some("not ours")),
        "{v}"
    );
    let (s, _) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss", "note": "again"})).await;
    assert_eq!(s, 409, "only an unmatched item is acted on");

    let (s, v) = post(&d, &d.writer, &item(stop), &json!({"action": "match", "depositId": 987654})).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = post(&d, &d.writer, &item(stop), &json!({"action": "match", "depositId": id})).await;
    assert_eq!(
        (s, v["data"]["state"].as_str(), v["data"]["depositId"].as_i64()),
        (200, Some("resolved"), Some(id)),
        "{v}"
    );
    let returned = detail(&d, id).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    let reason = returned["history"].as_array().unwrap().last().unwrap()["reason"].clone();
    assert!(reason.as_str().unwrap().starts_with("C Stop Payment (return file"), "{reason}");
    let listed = get(&d, &d.writer, &format!("{}?state=unmatched", paths::DEPOSIT_RETURNS)).await;
    assert_eq!(listed["data"]["totalElements"], 0, "{listed}");
    let r = d.server.get_auth(&format!("{}?state=lost", paths::DEPOSIT_RETURNS), &d.writer).await;
    assert_eq!(r.status(), 400);
}

async fn the_watched_folder_reads_what_is_dropped_in_it(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let drop_dir = dir.path().join("returns");
    std::fs::create_dir_all(&drop_dir).unwrap();
    std::fs::write(drop_dir.join("junk.txt"), "not a return file").unwrap();
    std::fs::write(drop_dir.join(".half-written"), "ignored until renamed").unwrap();
    let url = backend.database_url(dir.path()).await;
    let folder_dir = drop_dir.clone();
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.returns.dir = Some(folder_dir);
    })
    .await;
    // The job reads the folder when the server starts.
    let failed = drop_dir.join("failed");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !failed.join("junk.txt.error.txt").exists() {
        assert!(std::time::Instant::now() < deadline, "the job did not read the folder");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(failed.join("junk.txt").exists() && drop_dir.join(".half-written").exists());
    let why = std::fs::read_to_string(failed.join("junk.txt.error.txt")).unwrap();
    assert!(why.contains("cannot be read"), "{why}");

    let d = desk_on(server).await;
    let (id, _) = check(&d, 8, 6_100, 0).await;
    cash_letter(&d, &[id]).await;
    std::fs::write(drop_dir.join("fed-returns.x937"), x9_file(&[returned(1, 6_100, 'A', &id.to_string())])).unwrap();
    let state = DepositsState::from_ref(&d.server.running.state);
    // The job's next run may take it first: either way it is read once and moved.
    let swept = folder::sweep(&state, &drop_dir).await.unwrap();
    assert_eq!(swept.failed, 0);
    assert!(drop_dir.join("processed/fed-returns.x937").exists() && !drop_dir.join("fed-returns.x937").exists());
    let returned = detail(&d, id).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    assert_eq!(returned["history"].as_array().unwrap().last().unwrap()["actor"], folder::ACTOR);
    assert_eq!(folder::sweep(&state, &drop_dir).await.unwrap(), folder::Swept::default(), "nothing left to read");
}
