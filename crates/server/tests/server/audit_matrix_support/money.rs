//! Recipes of the groups that move money: deposits and their moves, returns, the day's ACH
//! file, cash letters, ledger adjustments, fee schedules, the routing directory.

use base64::Engine;
use moneydesk_model::paths;
use reqwest::Method;
use serde_json::{json, Value};

use super::{Answer, Body, Desk, Recipe};
use crate::common::{check_png, schedule_toml};

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::DEPOSITS_CHECK, recipe!(create_check_deposit)),
        (Method::POST, paths::DEPOSITS_CASH, recipe!(create_cash_deposit)),
        (Method::POST, paths::DEPOSITS_ELECTRONIC, recipe!(create_electronic_deposit)),
        (Method::POST, paths::DEPOSITS_CHECK_SCAN, recipe!(scan_check)),
        (Method::POST, paths::DEPOSIT_ACTIONS, recipe!(move_deposit)),
        (Method::POST, paths::DEPOSITS_BULK, recipe!(bulk_deposits)),
        (Method::POST, paths::DEPOSIT_RETURNS, recipe!(upload_returns)),
        (Method::POST, paths::DEPOSIT_RETURN_ITEM, recipe!(act_on_return)),
        (Method::POST, paths::DEPOSITS_ACH_FILE_SEND, recipe!(send_day_ach_file)),
        (Method::POST, paths::CASH_LETTERS, recipe!(create_cash_letter)),
        (Method::POST, paths::LEDGER_ADJUSTMENTS, recipe!(adjust)),
        (Method::POST, paths::FEE_SCHEDULE_VERSIONS, recipe!(load_version)),
        (Method::POST, paths::ROUTING_DIRECTORY_REFRESH, recipe!(directory_refresh)),
    ]
}

fn today() -> chrono::NaiveDate {
    chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive()
}

pub fn check_body(d: &Desk) -> Value {
    let n = d.unique() as u32;
    json!({
        "amount": "125.00", "bankRoutingNumber": "021090028", "bankAccountNumber": format!("4820{n:04}"),
        "checkNumber": format!("{}", 3000 + n), "payeeAccountId": d.accounts[0].id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(n), "checkBackImage": check_png(n + 1000),
        "checkDate": (today() - chrono::Duration::days(2)).to_string(),
    })
}

/// A confirmed check deposit's id.
pub async fn confirmed_check(d: &Desk) -> i64 {
    let id = d.setup(Method::POST, paths::DEPOSITS_CHECK, Body::Json(check_body(d)), 201).await["id"].as_i64().unwrap();
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    d.setup(Method::POST, &actions, Body::Json(json!({"action": "confirm"})), 200).await;
    id
}

async fn create_check_deposit(d: &Desk) -> Answer {
    d.write(Method::POST, paths::DEPOSITS_CHECK, Body::Json(check_body(d))).await
}

/// A bulk confirm of one new cash deposit: one record, the deposit's (issue 45).
async fn bulk_deposits(d: &Desk) -> Answer {
    let body = json!({"amount": "81.00", "payeeAccountId": d.accounts[0].id, "payeeUserId": "usr-1"});
    let id = d.setup(Method::POST, paths::DEPOSITS_CASH, Body::Json(body), 201).await["id"].to_string();
    d.write(Method::POST, paths::DEPOSITS_BULK, Body::Json(json!({"action": "confirm", "select": {"ids": [id]}}))).await
}

/// The CSV of the deposits selected (a read asked with a POST, for its body).
pub async fn export_deposits(d: &Desk) -> Answer {
    d.write(Method::POST, paths::DEPOSITS_EXPORT, Body::Json(json!({"select": {"filter": {}}}))).await
}

async fn create_cash_deposit(d: &Desk) -> Answer {
    let body = json!({"amount": "80.00", "payeeAccountId": d.accounts[0].id, "payeeUserId": "usr-1", "memo": "Till"});
    d.write(Method::POST, paths::DEPOSITS_CASH, Body::Json(body)).await
}

fn pull(d: &Desk) -> Value {
    json!({
        "amount": "250.00", "bankRoutingNumber": "021090028", "bankAccountNumber": format!("7445{:05}", d.unique()),
        "accountType": "checking", "vendorName": "Acme Supplies",
        "effectiveDate": (today() + chrono::Duration::days(1)).to_string(),
        "payeeAccountId": d.accounts[1].id, "payeeUserId": "usr-1", "memo": "October invoices",
    })
}

async fn create_electronic_deposit(d: &Desk) -> Answer {
    d.write(Method::POST, paths::DEPOSITS_ELECTRONIC, Body::Json(pull(d))).await
}

async fn scan_check(d: &Desk) -> Answer {
    let path = format!(
        "{}/../../../shared/data/checks/full/07_tmannherz_check1_deluxe_sample.jpg",
        env!("CARGO_MANIFEST_DIR")
    );
    let front = base64::engine::general_purpose::STANDARD.encode(std::fs::read(&path).unwrap());
    let scan = paths::DEPOSITS_CHECK_SCAN.replace("{smaSfid}", &d.accounts[0].id);
    d.write(Method::POST, &scan, Body::Json(json!({"amount": "12.50", "frontimage": front, "rearimage": front}))).await
}

async fn move_deposit(d: &Desk) -> Answer {
    let id = d.setup(Method::POST, paths::DEPOSITS_CHECK, Body::Json(check_body(d)), 201).await["id"].as_i64().unwrap();
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    d.write(Method::POST, &actions, Body::Json(json!({"action": "confirm"}))).await
}

/// A NACHA return file of one R01 return whose trace number (`sequence`) no deposit has.
fn ach_return(sequence: u32) -> Vec<u8> {
    use moneydesk_nacha::*;
    let day = Date::from_ymd(2026, 1, 6).unwrap();
    let (us, rdfi) = ("021090028", "031300012");
    let mut builder = FileBuilder::new(FileInfo::new(us, rdfi, day));
    let entry = EntryInfo::new(TransactionCode::CheckingDebitReturn, us, "744567899", 250_000, "Acme Supplies");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: TraceNumber { odfi: 2109002, sequence: 9_000_000 + sequence },
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: String::new(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder.return_batch(BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi), vec![(entry, r01)]);
    write(&builder.build().unwrap()).unwrap().into_bytes()
}

fn returns_url(d: &Desk) -> String {
    format!("{}?fileName=returns-{}.txt", paths::DEPOSIT_RETURNS, d.unique())
}

async fn upload_returns(d: &Desk) -> Answer {
    d.write(Method::POST, &returns_url(d), Body::Raw("text/plain", ach_return(d.unique() as u32))).await
}

async fn act_on_return(d: &Desk) -> Answer {
    let file = ach_return(d.unique() as u32);
    let result = d.setup(Method::POST, &returns_url(d), Body::Raw("text/plain", file), 201).await;
    let item = result["data"]["items"][0]["id"].as_i64().unwrap_or_else(|| panic!("an unmatched item: {result}"));
    let path = paths::DEPOSIT_RETURN_ITEM.replace("{id}", &item.to_string());
    d.write(Method::POST, &path, Body::Json(json!({"action": "dismiss", "note": "not ours"}))).await
}

async fn send_day_ach_file(d: &Desk) -> Answer {
    let id = d.setup(Method::POST, paths::DEPOSITS_ELECTRONIC, Body::Json(pull(d)), 201).await["id"].as_i64().unwrap();
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    d.setup(Method::POST, &actions, Body::Json(json!({"action": "confirm"})), 200).await;
    let day = today() + chrono::Duration::days(1);
    d.write(Method::POST, &format!("{}?effectiveDate={day}", paths::DEPOSITS_ACH_FILE_SEND), Body::None).await
}

async fn create_cash_letter(d: &Desk) -> Answer {
    let id = confirmed_check(d).await;
    d.write(Method::POST, paths::CASH_LETTERS, Body::Json(json!({"depositIds": [id]}))).await
}

async fn adjust(d: &Desk) -> Answer {
    let body = json!({"debit": "bank:fee_income", "credit": "bank:adjustments", "amount": "10.00", "reason": "refund"});
    d.write(Method::POST, paths::LEDGER_ADJUSTMENTS, Body::Json(body)).await
}

async fn load_version(d: &Desk) -> Answer {
    let toml = schedule_toml("2099-01-01T00:00:00Z", "0.25").into_bytes();
    d.write(Method::POST, paths::FEE_SCHEDULE_VERSIONS, Body::Raw("application/toml", toml)).await
}

async fn directory_refresh(d: &Desk) -> Answer {
    d.write(Method::POST, paths::ROUTING_DIRECTORY_REFRESH, Body::Json(json!({}))).await
}
