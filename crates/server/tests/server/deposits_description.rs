//! The check deposit as the description (4.5, section 7) writes it, over real HTTP on both
//! backends, with request and answer bodies written as JSON literals in the description's
//! names (issue 44): `amount` is optional (taken from the scan's MICR amount field, or a 400
//! naming `amount` that says why), `fee` is charged only for a token that may set fees (a 403
//! naming `fee` otherwise), an unknown payee or sleeve account is a 404 on create and list, and
//! a routing number the FedACH directory does not list is a 400 naming `bankRoutingNumber`.
//! The server reads the Fed's FedACH sample file, so the routing numbers here are real banks'.

use crate::common;

use std::path::PathBuf;

use base64::Engine;
use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

/// Bank of America, N.A. in the FedACH sample.
const IN_FEDACH: &str = "122000661";

struct Desk {
    server: Server,
    writer: String,
    sleeve: Account,
    payee: Account,
}

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(path)
}

async fn desk(backend: Backend) -> Desk {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.fedach_file = Some(shared("routing/FedACHdir.txt"));
    })
    .await;
    let accounts: Vec<Account> = Accounts::new(2, 17).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    Desk { server, writer, sleeve: accounts[0].clone(), payee: accounts[1].clone() }
}

/// A check deposit in the field table's names, images sent.
fn check_deposit(d: &Desk, check_number: &str) -> Value {
    json!({
        "amount": 125.50,
        "bankAccountNumber": "4820001234",
        "bankRoutingNumber": IN_FEDACH,
        "checkFrontImage": check_png(1),
        "checkBackImage": check_png(2),
        "checkNumber": check_number,
        "payeeAccountId": d.payee.id,
        "payeeUserId": "usr_0001",
    })
}

async fn post(d: &Desk, token: &str, path: &str, body: &Value) -> (u16, Value) {
    let r = d.server.client.post(d.server.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn scan(d: &Desk, file: &str, amount: &str) -> Value {
    let front = base64::engine::general_purpose::STANDARD.encode(std::fs::read(shared(file)).unwrap());
    let path = paths::DEPOSITS_CHECK_SCAN.replace("{smaSfid}", &d.sleeve.id);
    let (status, body) =
        post(d, &d.writer, &path, &json!({"amount": amount, "frontimage": front, "rearimage": front})).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// The envelope of an error: `code` is the status, `error` a string naming the field, the
/// first of `errors` is the field.
fn assert_envelope(status: u16, body: &Value, want: u16, field: &str) {
    assert_eq!(status, want, "{body}");
    assert_eq!(body["code"], want, "{body}");
    assert!(body["errorMessage"].is_string(), "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.contains(field)), "error names {field}: {body}");
    assert_eq!(body["errors"][0]["field"], field, "{body}");
    assert!(body["data"].is_null(), "{body}");
}

async fn total(d: &Desk) -> Value {
    json(d.server.get_auth(paths::DEPOSITS, &d.writer).await).await["data"]["totalElements"].clone()
}

on_both_backends!(
    without_an_amount_the_scans_micr_amount_is_taken_or_a_400_names_amount,
    a_fee_is_charged_only_for_a_token_that_may_set_fees,
    the_schedule_fee_is_priced_for_the_deposits_payer_as_the_fee_api_prices_it,
    an_unknown_payee_or_sleeve_account_is_a_404_on_create_and_list,
    a_routing_number_the_fedach_directory_does_not_list_is_a_400_naming_it,
);

async fn without_an_amount_the_scans_micr_amount_is_taken_or_a_400_names_amount(backend: Backend) {
    let d = desk(backend).await;
    // No amount and no scan: nothing to take it from.
    let mut body = check_deposit(&d, "501");
    body.as_object_mut().unwrap().remove("amount");
    let (status, e) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_envelope(status, &e, 400, "amount");
    assert!(e["errors"][0]["problem"].as_str().unwrap().contains("scanId"), "says how to do without: {e}");

    // The Citibank West check 1005 carries its amount in the MICR line (⑇0000000419⑇).
    let s = scan(&d, "checks/full/04_wikimedia_check1005_calfed.jpg", "4.19").await;
    assert_eq!(s["micr"]["amount"]["value"], "4.19", "{s}");
    let (status, record) = post(
        &d,
        &d.writer,
        paths::DEPOSITS_CHECK,
        &json!({"scanId": s["scanId"], "bankRoutingNumber": "322271779", "bankAccountNumber": "4192580",
            "checkNumber": "1005", "payeeAccountId": d.payee.id, "payeeUserId": "usr_0001"}),
    )
    .await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["amount"], json!(4.19), "the MICR amount field: {record}");
    assert_eq!(record["checkNumber"], "1005");

    // The Deluxe sample has no amount field: a 400 that names amount and says why.
    let s = scan(&d, "checks/full/07_tmannherz_check1_deluxe_sample.jpg", "20.00").await;
    assert!(s["micr"]["amount"].is_null(), "{s}");
    let (status, e) = post(
        &d,
        &d.writer,
        paths::DEPOSITS_CHECK,
        &json!({"scanId": s["scanId"], "bankRoutingNumber": IN_FEDACH, "bankAccountNumber": "12345678",
            "checkNumber": "101", "payeeAccountId": d.payee.id, "payeeUserId": "usr_0001"}),
    )
    .await;
    assert_envelope(status, &e, 400, "amount");
    assert!(e["errors"][0]["problem"].as_str().unwrap().contains("no amount field"), "{e}");
    assert_eq!(total(&d).await, 1, "only the check with a MICR amount was deposited");
}

async fn a_fee_is_charged_only_for_a_token_that_may_set_fees(backend: Backend) {
    let d = desk(backend).await;
    // A deposits:write token: the fee is refused, not ignored, and nothing is made.
    let mut body = check_deposit(&d, "601");
    body["fee"] = json!(1.75);
    let (status, e) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_envelope(status, &e, 403, "fee");
    assert_eq!(e["reason"], "forbidden");
    assert!(e["errorMessage"].as_str().unwrap().contains("fees:override"), "{e}");
    assert_eq!(total(&d).await, 0);

    // With fees:override the fee sent is the fee charged.
    let may_set = d.server.token(&[Scope::DepositsWrite, Scope::FeesOverride]).await;
    let (status, record) = post(&d, &may_set, paths::DEPOSITS_CHECK, &body).await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["feeApplied"], json!(1.75), "{record}");
    // An admin may waive it.
    let admin = d.server.token(&[Scope::Admin]).await;
    let mut waived = check_deposit(&d, "602");
    waived["fee"] = json!("0");
    let (status, record) = post(&d, &admin, paths::DEPOSITS_CHECK, &waived).await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["feeApplied"], json!(0.0), "{record}");
    // Without fee, the schedule's standard fee.
    let (status, record) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &check_deposit(&d, "603")).await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["feeApplied"], json!(0.25), "{record}");
}

/// A schedule version waiving the fees of one payer (the sleeve account), in force within
/// seconds: its check deposits carry no fee, any other deposit the standard 0.25.
async fn the_schedule_fee_is_priced_for_the_deposits_payer_as_the_fee_api_prices_it(backend: Backend) {
    let d = desk(backend).await;
    let admin = d.server.token(&[Scope::Admin]).await;
    let at = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let schedule = common::schedule_toml(&at, "0.25")
        + &format!("\n[[waivers]]\npayer_id = \"{}\"\nreason = \"Staff account\"\n", d.sleeve.id);
    let r = d
        .server
        .client
        .post(d.server.url(paths::FEE_SCHEDULE_VERSIONS))
        .bearer_auth(&admin)
        .header("content-type", "application/toml")
        .body(schedule)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut n = 7000;
    let waived = loop {
        n += 1;
        let mut body = check_deposit(&d, &n.to_string());
        body["payerId"] = json!(d.sleeve.id);
        let (status, record) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
        assert_eq!(status, 201, "{record}");
        if record["feeApplied"] == json!(0.0) || std::time::Instant::now() > deadline {
            break record;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    };
    assert_eq!(waived["feeApplied"], json!(0.0), "the waived payer's deposit: {waived}");
    let (status, other) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &check_deposit(&d, "799")).await;
    assert_eq!(status, 201, "{other}");
    assert_eq!(other["feeApplied"], json!(0.25), "a deposit naming no payer: {other}");
}

async fn an_unknown_payee_or_sleeve_account_is_a_404_on_create_and_list(backend: Backend) {
    let d = desk(backend).await;
    let mut body = check_deposit(&d, "701");
    body["payeeAccountId"] = json!("no-such-account");
    let (status, e) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_envelope(status, &e, 404, "payeeAccountId");
    assert_eq!(e["reason"], "not_found");

    let mut body = check_deposit(&d, "702");
    body["payerId"] = json!("no-such-sleeve");
    let (status, e) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_envelope(status, &e, 404, "payerId");
    assert!(e["errorMessage"].as_str().unwrap().contains("no-such-sleeve"), "{e}");
    assert_eq!(total(&d).await, 0);

    for list in [paths::DEPOSITS, paths::DEPOSIT_RECORDS] {
        let r = d.server.get_auth(&format!("{list}?payeeAccountId=no-such-account"), &d.writer).await;
        let status = r.status().as_u16();
        assert_envelope(status, &json(r).await, 404, "payeeAccountId");
        let r = d.server.get_auth(&format!("{list}?payeeAccountId={}", d.payee.id), &d.writer).await;
        assert_eq!(r.status(), 200, "a known account without deposits is an empty page");
    }

    // The scan answers the same for an unknown sleeve account.
    let path = paths::DEPOSITS_CHECK_SCAN.replace("{smaSfid}", "no-such-sleeve");
    let (status, e) =
        post(&d, &d.writer, &path, &json!({"amount": 1, "frontimage": check_png(1), "rearimage": check_png(2)})).await;
    assert_eq!((status, e["code"].as_u64()), (404, Some(404)), "{e}");
}

async fn a_routing_number_the_fedach_directory_does_not_list_is_a_400_naming_it(backend: Backend) {
    let d = desk(backend).await;
    // The Deluxe sample check's number passes the ABA checksum but names no bank.
    let mut body = check_deposit(&d, "801");
    body["bankRoutingNumber"] = json!("000067894");
    let (status, e) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_envelope(status, &e, 400, "bankRoutingNumber");
    assert!(e["errors"][0]["problem"].as_str().unwrap().contains("not in the FedACH directory"), "{e}");
    assert_eq!(total(&d).await, 0);
    // The same deposit at a bank the directory lists is made, named from the directory.
    body["bankRoutingNumber"] = json!(IN_FEDACH);
    let (status, record) = post(&d, &d.writer, paths::DEPOSITS_CHECK, &body).await;
    assert_eq!(status, 201, "{record}");
    assert_eq!(record["bankName"], "BANK OF AMERICA, N.A.", "{record}");
}
