//! The fee request's payeeId, payeeBankId, payerId and memo (description 4.1) against a
//! schedule version with waivers and a payer's own schedule, loaded by the CLI and by the
//! versions endpoint, on both backends: a waived party's quote is 0.00, a payer with its own
//! schedule gets it, any other payer the version's own tiers; the memo prices nothing.

use crate::common;
use crate::fees::post_schedule;

use std::time::Duration;

use common::{json, Backend, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

on_both_backends!(
    waivers_and_a_payer_schedule_loaded_by_the_cli_price_the_request_fields,
    the_versions_endpoint_loads_and_shows_them_and_refuses_bad_ones_at_their_place,
);

/// A complete schedule (EFT standard 0.25, every other type 1.00) with a payer schedule for
/// `acme-payroll` on EFT and two waivers.
fn schedule_with_parties(effective_from: &str) -> String {
    common::schedule_toml(effective_from, "0.25")
        + r#"
[[payer_schedules]]
payer_id = "acme-payroll"
[[payer_schedules.fees]]
rail = "ach"
transfer_type = "EFT"
fee_type = "standard"
from = "0.00"
to = "1000.00"
flat = "0.10"
[[payer_schedules.fees]]
rail = "ach"
transfer_type = "EFT"
fee_type = "standard"
from = "1000.00"
percent = "0.01"
fee_min = "0.50"

[[waivers]]
payer_id = "city-food-bank"
reason = "Non-profit"

[[waivers]]
payee_bank_id = "021000021"
"#
}

/// A GET with the fields as query parameters: the status and the body's text.
async fn get(server: &Server, token: &str, path: &str, query: &str) -> (u16, String) {
    let r = server.get_auth(&format!("{path}?{query}"), token).await;
    (r.status().as_u16(), r.text().await.unwrap())
}

/// A GET with the fields as a JSON body (description 4.1: "a JSON body with these fields").
async fn get_json(server: &Server, token: &str, path: &str, body: Value) -> (u16, String) {
    let r = server.client.get(server.url(path)).bearer_auth(token).json(&body).send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

/// Waits until the version in force has waivers (the CLI's version is picked up within 5 s).
async fn wait_in_force(server: &Server, token: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let listed = json(server.get_auth(paths::FEE_SCHEDULE_VERSIONS, token).await).await;
        let in_force = listed["data"].as_array().unwrap().iter().find(|v| v["in_force"] == true).cloned();
        if in_force.is_some_and(|v| v["schedule"]["waivers"].as_array().is_some_and(|w| !w.is_empty())) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "the version with waivers never came into force: {listed}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn waivers_and_a_payer_schedule_loaded_by_the_cli_price_the_request_fields(backend: Backend) {
    let server = Server::start_on(backend).await;
    let token = server.token(&[Scope::FeesRead]).await;
    let at = (chrono::Utc::now() + chrono::Duration::seconds(2)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let file = server.dir.path().join("parties.toml");
    std::fs::write(&file, schedule_with_parties(&at)).unwrap();
    let out = server.cli(&["fees", "load", file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    wait_in_force(&server, &token).await;

    // A waived payer: every fee type 0.00, the description and `pricing` say why.
    let waived = json!({"payeeId": "p-77", "payeeBankId": "011000015", "payerId": "city-food-bank",
        "transferType": "EFT", "amount": "5000.00", "memo": "March rent"});
    assert_eq!(
        get_json(&server, &token, paths::FEES_ACH, waived).await,
        (
            200,
            r#"{"status":"success","data":[{"fee_type":"standard","fee_amount":0.00,"description":"ACH standard, any amount: waived for payerId city-food-bank (Non-profit)"}],"pricing":{"basis":"waiver","field":"payerId","id":"city-food-bank","reason":"Non-profit"}}"#
                .into()
        )
    );
    // A waived payee's bank (an on-us wire), from query parameters.
    let (status, on_us) =
        get(&server, &token, paths::FEES_WIRE, "transferType=DOMESTIC_WIRE&amount=250000&payeeBankId=021000021").await;
    assert_eq!(status, 200);
    let on_us: Value = serde_json::from_str(&on_us).unwrap();
    assert_eq!(on_us["data"][0]["fee_amount"], json!(0.0));
    assert_eq!(on_us["pricing"], json!({"basis": "waiver", "field": "payeeBankId", "id": "021000021"}));

    // The payer with its own schedule: 0.01 % of 5,000.00 = 0.50 (its minimum), not 0.25.
    let (status, acme) =
        get(&server, &token, paths::FEES_ACH, "transferType=EFT&amount=5000.00&payerId=acme-payroll").await;
    assert_eq!(
        (status, acme.as_str()),
        (
            200,
            r#"{"status":"success","data":[{"fee_type":"standard","fee_amount":0.50,"description":"ACH standard, 1,000.00 and above: 0.01 %, min 0.50 (schedule of payerId acme-payroll)"}],"pricing":{"basis":"payer_schedule","field":"payerId","id":"acme-payroll"}}"#
        )
    );
    // Its schedule lists EFT only: same-day ACH is the version's own price, without `pricing`.
    let (_, same_day) =
        get(&server, &token, paths::FEES_ACH, "transferType=SAME_DAY_ACH&amount=5000.00&payerId=acme-payroll").await;
    assert_eq!(
        same_day,
        r#"{"status":"success","data":[{"fee_type":"standard","fee_amount":1.00,"description":"ACH standard, any amount: 1.00"}]}"#
    );
    // Without an amount: the payer's whole schedule.
    let (_, listed) = get(&server, &token, paths::FEES_ACH, "transferType=EFT&payerId=acme-payroll").await;
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed["data"].as_array().unwrap().len(), 2, "{listed}");
    assert_eq!(
        listed["data"][0]["description"],
        "ACH standard, 0.00 to 999.99: 0.10 (schedule of payerId acme-payroll)"
    );

    // An unknown payer, a payee and a memo change nothing: the version's own price, byte for
    // byte the answer to the bare request.
    let (_, bare) = get(&server, &token, paths::FEES_ACH, "transferType=EFT&amount=5000.00").await;
    assert_eq!(
        bare,
        r#"{"status":"success","data":[{"fee_type":"standard","fee_amount":0.25,"description":"ACH standard, any amount: 0.25"}]}"#
    );
    let unknown = json!({"payeeId": "p-77", "payeeBankId": "011000015", "payerId": "somebody-else",
        "transferType": "EFT", "amount": "5000.00", "memo": "A memo is never priced"});
    assert_eq!(get_json(&server, &token, paths::FEES_ACH, unknown).await, (200, bare));
}

async fn the_versions_endpoint_loads_and_shows_them_and_refuses_bad_ones_at_their_place(backend: Backend) {
    let server = Server::start_on(backend).await;
    let admin = server.token(&[Scope::Admin]).await;
    let future = (chrono::Utc::now() + chrono::Duration::days(30)).format("%Y-%m-%d").to_string();
    let (status, body) = post_schedule(&server, &admin, "application/toml", schedule_with_parties(&future)).await;
    assert_eq!(status, 201, "{body}");
    let schedule = &body["data"][0]["schedule"];
    assert_eq!(
        schedule["waivers"],
        json!([{"payer_id": "city-food-bank", "reason": "Non-profit"}, {"payee_bank_id": "021000021"}])
    );
    assert_eq!(schedule["payer_schedules"][0]["payer_id"], "acme-payroll");
    assert_eq!(schedule["payer_schedules"][0]["tiers"].as_array().unwrap().len(), 2);
    // Read back from the database, as stored.
    let listed = json(server.get_auth(paths::FEE_SCHEDULE_VERSIONS, &admin).await).await;
    assert_eq!(listed["data"][1]["schedule"]["waivers"], schedule["waivers"], "{listed}");
    // The version in force (the default) has none: a waived payer still pays until the new one.
    let (_, still) = get(&server, &admin, paths::FEES_ACH, "transferType=EFT&amount=10&payerId=city-food-bank").await;
    assert!(still.contains(r#""fee_amount":0.25"#) && !still.contains("pricing"), "{still}");

    let bad = common::schedule_toml(&future, "1.00")
        + "[[waivers]]\npayer_id = \"a\"\npayee_id = \"b\"\n[[waivers]]\npayee_id = \" b\"\n"
        + "[[payer_schedules]]\npayer_id = \"p\"\n[[payer_schedules.fees]]\nrail = \"ach\"\ntransfer_type = \"EFT\"\nfee_type = \"standard\"\nfrom = \"5\"\nflat = \"1\"\n";
    let (status, body) = post_schedule(&server, &admin, "application/toml", bad).await;
    assert_eq!((status, body["status"].as_str()), (400, Some("error")), "{body}");
    let message = body["message"].as_str().unwrap();
    for needle in [
        "waivers[0]: a waiver names exactly one of payer_id, payee_id, payee_bank_id",
        "waivers[1].payee_id: payee_id has spaces around it",
        "payer_schedules[0].fees[0]: ach EFT standard: the first tier starts at 5; it must start at 0.00",
    ] {
        assert!(message.contains(needle), "{needle:?} missing: {message}");
    }
}
