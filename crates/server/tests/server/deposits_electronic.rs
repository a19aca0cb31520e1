//! Electronic deposits (ACH pulls) over real HTTP on both backends: a pull made, retried with
//! its key, refused as a duplicate, listed as an electronic deposit, and found in the day's
//! NACHA file, which our own reader (moneydesk-nacha) reads back without a problem; and every
//! refusal naming its field; and cash deposits recorded once.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_nacha::TransactionCode;
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Desk {
    server: Server,
    writer: String,
    sleeve: Account,
}

async fn desk(backend: Backend) -> Desk {
    let server = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(2, 9).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    Desk { server, writer, sleeve: accounts[0].clone() }
}

fn tomorrow() -> String {
    (chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive() + chrono::Duration::days(1))
        .to_string()
}

fn pull(d: &Desk, amount: &str, account_type: &str) -> Value {
    json!({
        "amount": amount, "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
        "accountType": account_type, "vendorName": "Acme Supplies", "effectiveDate": tomorrow(),
        "payeeAccountId": d.sleeve.id, "payeeUserId": "usr-1", "memo": "October invoices",
    })
}

async fn post(d: &Desk, body: &Value, key: Option<&str>) -> (u16, Value) {
    let mut req = d.server.client.post(d.server.url(paths::DEPOSITS_ELECTRONIC)).bearer_auth(&d.writer).json(body);
    if let Some(k) = key {
        req = req.header("Idempotency-Key", k);
    }
    let r = req.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

on_both_backends!(
    a_pull_is_made_once_listed_and_written_in_the_days_ach_file,
    a_pull_refuses_what_it_cannot_collect_and_names_the_field,
);

async fn a_pull_is_made_once_listed_and_written_in_the_days_ach_file(backend: Backend) {
    let d = desk(backend).await;
    let (status, record) = post(&d, &pull(&d, "2500.00", "checking"), Some("pull-1")).await;
    assert_eq!(status, 201, "{record}");
    let id = record["id"].as_i64().unwrap();
    assert_eq!(record["bankName"], "ACME COMMUNITY BANK, N.A.", "the vendor's bank from the directory");
    assert_eq!(record["sleeveAccountId"], d.sleeve.id);
    let (status, again) = post(&d, &pull(&d, "2500.00", "checking"), Some("pull-1")).await;
    assert_eq!((status, again["id"].as_i64()), (200, Some(id)), "a retry answers the same deposit");
    let (status, duplicate) = post(&d, &pull(&d, "2500.00", "checking"), Some("pull-2")).await;
    assert_eq!(status, 409, "{duplicate}");
    assert!(duplicate.to_string().contains(&format!("deposit {id}")), "{duplicate}");
    let (status, _) = post(&d, &pull(&d, "12.34", "savings"), None).await;
    assert_eq!(status, 201);

    let listed =
        json(d.server.get_auth(&format!("{}?serviceType=Electronic_Deposit", paths::DEPOSIT_RECORDS), &d.writer).await)
            .await;
    assert_eq!(listed["data"]["totalElements"], 2, "{listed}");

    let r = d.server.get_auth(&format!("{}?effectiveDate={}", paths::DEPOSITS_ACH_FILE, tomorrow()), &d.writer).await;
    assert_eq!(r.status(), 200);
    let text = r.text().await.unwrap();
    let parsed = moneydesk_nacha::parse(&text);
    assert!(parsed.problems.is_empty(), "our file reads back without a problem: {:#?}", parsed.problems);
    let file = parsed.file.unwrap();
    let entries: Vec<_> = file.entries().map(|(_, e)| e.detail.clone()).collect();
    assert_eq!(entries.len(), 2);
    assert_eq!((entries[0].transaction_code, entries[0].amount), (TransactionCode::CheckingDebit, 250_000));
    assert_eq!((entries[1].transaction_code, entries[1].amount), (TransactionCode::SavingsDebit, 1_234));
    assert_eq!((entries[0].receiving_dfi, entries[0].check_digit), (2109002, 8));
    assert_eq!(entries[0].individual_name.trim(), "ACME SUPPLIES");
    assert_eq!(text.lines().count() % 10, 0, "blocked to tens");
}

async fn a_pull_refuses_what_it_cannot_collect_and_names_the_field(backend: Backend) {
    let d = desk(backend).await;
    let cases: [(&str, Value, &str); 4] = [
        ("bankRoutingNumber", json!("021090027"), "checksum"),
        ("accountType", json!("brokerage"), "checking or savings"),
        ("amount", json!("100000000.00"), "99,999,999.99"),
        ("effectiveDate", json!("2020-01-02"), "in the past"),
    ];
    for (field, value, why) in cases {
        let mut body = pull(&d, "10.00", "checking");
        body[field] = value;
        let (status, e) = post(&d, &body, None).await;
        assert_eq!(status, 400, "{field}: {e}");
        assert_eq!(e["errors"][0]["field"], field, "{e}");
        assert!(e.to_string().contains(why), "{field}: {e}");
    }
    let mut body = pull(&d, "10.00", "checking");
    body["bankRoutingNumber"] = json!("000067894");
    let (status, e) = post(&d, &body, None).await;
    assert_eq!(status, 404, "a valid checksum, but no bank the directory lists (CONTRACT.md point 9): {e}");
    assert_eq!(e["errors"][0]["field"], "bankRoutingNumber", "{e}");
    let r = d.server.get_auth(&format!("{}?effectiveDate={}", paths::DEPOSITS_ACH_FILE, tomorrow()), &d.writer).await;
    assert_eq!(r.status(), 404, "no pulls that day");
    let r = d.server.get_auth(paths::DEPOSITS_ACH_FILE, &d.writer).await;
    assert_eq!(r.status(), 400, "the day is required");
}

on_both_backends!(cash_is_recorded_once_with_its_amount_and_listed_as_cash);

async fn cash_is_recorded_once_with_its_amount_and_listed_as_cash(backend: Backend) {
    let d = desk(backend).await;
    let body = json!({"amount": 0.1, "payeeAccountId": d.sleeve.id, "payeeUserId": "usr-1", "memo": "Till, Friday"});
    let send = |key: &'static str, body: Value| {
        let req = d
            .server
            .client
            .post(d.server.url(paths::DEPOSITS_CASH))
            .bearer_auth(&d.writer)
            .header("Idempotency-Key", key)
            .json(&body);
        async move {
            let r = req.send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, text) = send("cash-1", body.clone()).await;
    assert_eq!(status, 201, "{text}");
    assert!(text.contains(r#""amount":0.10"#), "exactly two decimals: {text}");
    let (status, _) = send("cash-1", body.clone()).await;
    assert_eq!(status, 200, "a retry answers the same deposit");
    let listed =
        json(d.server.get_auth(&format!("{}?serviceType=Cash", paths::DEPOSIT_RECORDS), &d.writer).await).await;
    assert_eq!(listed["data"]["totalElements"], 1, "{listed}");
    let (status, text) = send("cash-2", json!({"amount": "-5", "payeeAccountId": "nobody"})).await;
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("amount") && text.contains("payeeUserId is required"), "{text}");
}
