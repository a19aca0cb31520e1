//! The fee group over real HTTP: quotes from the query or a JSON body, validation in the fee
//! error body, the schedule without an amount, the per-token rate limit, and schedule
//! versions loaded by the endpoint and the CLI.

use crate::common;

use std::time::Duration;

use common::{json, Backend, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn fees_server() -> (Server, String) {
    let server = Server::start().await;
    let token = server.token(&[Scope::FeesRead]).await;
    (server, token)
}

async fn quote(server: &Server, token: &str, path: &str, query: &str) -> (u16, Value) {
    let r = server.get_auth(&format!("{path}?{query}"), token).await;
    let status = r.status().as_u16();
    (status, json(r).await)
}

/// Each entry's fee type and `fee_amount` as the JSON text has it (`2.00`, not 2.0).
fn fee_amounts(text: &str) -> Vec<(String, String)> {
    #[derive(serde::Deserialize)]
    struct Entry {
        fee_type: String,
        fee_amount: Box<serde_json::value::RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Body {
        data: Vec<Entry>,
    }
    let parsed: Body = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    parsed.data.into_iter().map(|e| (e.fee_type, e.fee_amount.get().to_string())).collect()
}

/// The answer's status and its text (a `Value` would read `2.00` as 2.0).
async fn quote_text(server: &Server, token: &str, path: &str, query: &str) -> (u16, String) {
    let r = server.get_auth(&format!("{path}?{query}"), token).await;
    let status = r.status().as_u16();
    (status, r.text().await.unwrap())
}

#[tokio::test]
async fn an_ach_quote_names_each_fee_type_its_tier_and_an_exact_amount() {
    let (server, token) = fees_server().await;
    let r = server.get_auth(&format!("{}?transferType=EFT&amount=5000", paths::FEES_ACH), &token).await;
    assert_eq!(r.status(), 200);
    assert!(r.headers().contains_key("ratelimit-remaining"), "{:?}", r.headers());
    let text = r.text().await.unwrap();
    assert_eq!(
        text,
        r#"{"status":"success","data":[{"fee_type":"standard","fee_amount":5.25,"description":"ACH standard, 1,000.00 to 9,999.99: 0.25 + 0.10 %, max 25.00"},{"fee_type":"express","fee_amount":2.00,"description":"ACH express, 0.00 to 9,999.99: 2.00"}]}"#
    );
    let (status, wire) =
        quote_text(&server, &token, paths::FEES_WIRE, "transferType=INTERNATIONAL_WIRE&amount=200000").await;
    assert_eq!(status, 200);
    assert_eq!(fee_amounts(&wire), [("standard".into(), "150.00".into()), ("express".into(), "200.00".into())]);
}

#[tokio::test]
async fn a_json_body_and_query_parameters_give_the_same_answer_but_not_both_at_once() {
    let (server, token) = fees_server().await;
    let (_, by_query) =
        quote_text(&server, &token, paths::FEES_ACH, "transferType=SAME_DAY_ACH&amount=1030.00&memo=Rent&payeeId=p-1")
            .await;
    let body = json!({"transferType": "SAME_DAY_ACH", "amount": "1030.00", "memo": "Rent", "payeeId": "p-1"});
    let r = server.client.get(server.url(paths::FEES_ACH)).bearer_auth(&token).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let by_body = r.text().await.unwrap();
    assert_eq!(by_body, by_query, "the same text, byte for byte");
    assert_eq!(fee_amounts(&by_body)[0].1, "1.52", "1.00 + 0.05 % of 1030 = 1.515, half-even to 1.52");
    let both = server
        .client
        .get(server.url(&format!("{}?transferType=EFT", paths::FEES_ACH)))
        .bearer_auth(&token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(both.status(), 400);
    assert!(json(both).await["message"].as_str().unwrap().contains("not both"));
}

#[tokio::test]
async fn every_bad_amount_is_a_400_in_the_fee_body_naming_the_amount_and_why() {
    let (server, token) = fees_server().await;
    for (amount, why) in [
        ("1e3", "plain decimal"),
        ("-5", "negative"),
        ("0", "greater than zero"),
        ("0.001", "3 decimal places"),
        ("abc", "plain decimal"),
        ("%2012", "spaces"),
        ("1234567890123456", "16 integer digits"),
    ] {
        let (status, body) =
            quote(&server, &token, paths::FEES_ACH, &format!("transferType=EFT&amount={amount}")).await;
        assert_eq!(status, 400, "{amount}: {body}");
        assert_eq!(body["status"], "error");
        assert_eq!(body["error_code"], "400");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with("amount: ") && message.contains(why), "{amount}: {message}");
    }
}

#[tokio::test]
async fn transfer_types_memo_ids_and_unknown_parameters_are_checked_by_name() {
    let (server, token) = fees_server().await;
    let cases = [
        (paths::FEES_ACH, "amount=5", "transferType: transferType is required: one of EFT, SAME_DAY_ACH"),
        (paths::FEES_ACH, "transferType=WIRE", "transferType \"WIRE\" is not known"),
        (
            paths::FEES_WIRE,
            "transferType=EFT",
            "is not a wire transfer type; use one of DOMESTIC_WIRE, INTERNATIONAL_WIRE",
        ),
        (paths::FEES_ACH, "transferType=EFT&memo=a%0Ab", "memo: memo has a control character at position 2"),
        (paths::FEES_ACH, "transferType=EFT&payerId=", "payerId: payerId must not be empty when given"),
        (paths::FEES_ACH, "transferType=EFT&ammount=5", "unknown parameter \"ammount\""),
        (paths::FEES_ACH, "transferType=EFT&amount=5&amount=6", "amount is given more than once"),
    ];
    for (path, query, expected) in cases {
        let (status, body) = quote(&server, &token, path, query).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body["message"].as_str().unwrap().contains(expected), "{query}: {body}");
    }
    let long_memo = "m".repeat(141);
    let (status, body) = quote(&server, &token, paths::FEES_ACH, &format!("transferType=EFT&memo={long_memo}")).await;
    assert_eq!(
        (status, body["message"].as_str().unwrap()),
        (400, "memo: memo has 141 characters; at most 140 are allowed")
    );
}

#[tokio::test]
async fn without_an_amount_the_transfer_types_whole_schedule_is_listed_with_ranges() {
    let (server, token) = fees_server().await;
    let (status, body) = quote(&server, &token, paths::FEES_WIRE, "transferType=DOMESTIC_WIRE").await;
    assert_eq!(status, 200);
    let described: Vec<&str> =
        body["data"].as_array().unwrap().iter().map(|e| e["description"].as_str().unwrap()).collect();
    assert_eq!(
        described,
        [
            "Wire standard, 0.00 to 99,999.99: 15.00",
            "Wire standard, 100,000.00 and above: 25.00",
            "Wire express, any amount: 35.00"
        ]
    );
}

#[tokio::test]
async fn past_the_rate_limit_a_429_says_when_to_retry_and_then_quotes_again() {
    let server =
        Server::start_with(|c| c.fees_rate = moneydesk_server::rate_limit::Quota { per_second: 1, burst: 2 }).await;
    let token = server.token(&[Scope::FeesRead]).await;
    let other = server.token(&[Scope::FeesRead]).await;
    let path = format!("{}?transferType=EFT&amount=10", paths::FEES_ACH);
    for remaining in ["1", "0"] {
        let r = server.get_auth(&path, &token).await;
        assert_eq!(r.status(), 200);
        assert_eq!(r.headers()["ratelimit-limit"], "2");
        assert_eq!(r.headers()["ratelimit-remaining"], remaining);
    }
    let refused = server.get_auth(&path, &token).await;
    assert_eq!(refused.status(), 429);
    let retry: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert_eq!(retry, 1, "up to a second (one request a second), rounded up to whole seconds");
    let body = json(refused).await;
    assert_eq!((body["status"].as_str(), body["error_code"].as_str()), (Some("error"), Some("429")));
    assert!(body["message"].as_str().unwrap().contains("retry after 1 s"), "{body}");
    // Another token has its own bucket.
    assert_eq!(server.get_auth(&path, &other).await.status(), 200);
    tokio::time::sleep(Duration::from_secs(retry)).await;
    assert_eq!(server.get_auth(&path, &token).await.status(), 200);
}

#[tokio::test]
async fn both_fee_paths_refuse_missing_invalid_and_unscoped_tokens_in_the_fee_body() {
    let server = Server::start().await;
    let unscoped = server.token(&[Scope::RoutingRead]).await;
    for path in [paths::FEES_ACH, paths::FEES_WIRE, paths::FEE_SCHEDULE_VERSIONS] {
        let none = server.get(path).await;
        assert_eq!(none.status(), 401);
        assert_eq!(json(none).await["error_code"], "401");
        let bad = server.get_auth(path, "mdk_not-a-real-token").await;
        assert_eq!(bad.status(), 401);
        assert_eq!(json(bad).await["error_code"], "600");
        let denied = server.get_auth(path, &unscoped).await;
        assert_eq!(denied.status(), 403);
        let body = json(denied).await;
        assert_eq!((body["status"].as_str(), body["error_code"].as_str()), (Some("error"), Some("403")), "{path}");
    }
}

/// Posts a fee schedule version as `media` (also used by `fees_payers`: one test binary).
pub(crate) async fn post_schedule(server: &Server, token: &str, media: &str, body: String) -> (u16, Value) {
    let r = server
        .client
        .post(server.url(paths::FEE_SCHEDULE_VERSIONS))
        .bearer_auth(token)
        .header("content-type", media)
        .body(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), json(r).await)
}

on_both_backends!(
    a_loaded_version_takes_effect_at_its_time_and_not_a_moment_before,
    a_bad_schedule_file_is_refused_whole_with_every_problem_and_nothing_changes,
    a_version_still_to_come_can_be_replaced_and_the_cli_loads_one_too,
);

/// The server binary's CLI on the server's own data dir and database.
async fn a_loaded_version_takes_effect_at_its_time_and_not_a_moment_before(backend: Backend) {
    let server = Server::start_on(backend).await;
    let admin = server.token(&[Scope::Admin]).await;
    let at = chrono::Utc::now() + chrono::Duration::seconds(3);
    let at_text = at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let at = chrono::DateTime::parse_from_rfc3339(&at_text).unwrap();
    let (status, body) =
        post_schedule(&server, &admin, "application/toml", common::schedule_toml(&at_text, "7.77")).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        (body["data"][0]["in_force"].as_bool(), body["data"][0]["loaded_by"].as_str()),
        (Some(false), Some("test"))
    );
    let (_, listed) = quote(&server, &admin, paths::FEE_SCHEDULE_VERSIONS, "").await;
    let flags: Vec<bool> =
        listed["data"].as_array().unwrap().iter().map(|v| v["in_force"].as_bool().unwrap()).collect();
    assert_eq!(flags, [true, false], "the default in force, the new one to come");
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let asked = chrono::Utc::now();
        let (_, body) = quote_text(&server, &admin, paths::FEES_ACH, "transferType=EFT&amount=10").await;
        let answered = chrono::Utc::now();
        let fee = &fee_amounts(&body)[0].1;
        if fee == "7.77" {
            assert!(answered >= at, "the new price was quoted before its time ({answered} < {at})");
            break;
        }
        assert_eq!(fee, "0.25", "the old price until then");
        assert!(asked < at + chrono::Duration::seconds(1), "still the old price a second after {at}");
        assert!(std::time::Instant::now() < deadline, "the new version never took effect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_bad_schedule_file_is_refused_whole_with_every_problem_and_nothing_changes(backend: Backend) {
    let server = Server::start_on(backend).await;
    let admin = server.token(&[Scope::Admin]).await;
    let future = (chrono::Utc::now() + chrono::Duration::days(30)).format("%Y-%m-%d").to_string();
    let bad = common::schedule_toml(&future, "-1").replace("transfer_type = \"SAME_DAY_ACH\"", "transfer_type = \"SEPA\"")
        + "[[fees]]\nrail = \"wire\"\ntransfer_type = \"DOMESTIC_WIRE\"\nfee_type = \"standard\"\nfrom = \"0\"\npercent = \"250\"\n";
    let (status, body) = post_schedule(&server, &admin, "application/toml", bad).await;
    assert_eq!(status, 400, "{body}");
    let message = body["message"].as_str().unwrap();
    for needle in
        ["fees[0].flat", "must not be negative", "fees[1].transfer_type", "fees[4].percent", "between 0 and 100"]
    {
        assert!(message.contains(needle), "{needle:?} missing: {message}");
    }
    let (_, listed) = quote(&server, &admin, paths::FEE_SCHEDULE_VERSIONS, "").await;
    assert_eq!(listed["data"].as_array().unwrap().len(), 1, "nothing was stored");

    let (status, body) = post_schedule(&server, &admin, "application/json", "{\"effective_from\":".into()).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("line 1"), "{body}");
    let (status, body) =
        post_schedule(&server, &admin, "application/toml", common::schedule_toml("2020-01-01", "1.00")).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("is in the past"), "{body}");
    let (status, _) = post_schedule(&server, &admin, "text/plain", common::schedule_toml(&future, "1.00")).await;
    assert_eq!(status, 415);
    let reader = server.token(&[Scope::FeesRead]).await;
    let (status, body) =
        post_schedule(&server, &reader, "application/toml", common::schedule_toml(&future, "1.00")).await;
    assert_eq!((status, body["error_code"].as_str()), (403, Some("403")));
}

async fn a_version_still_to_come_can_be_replaced_and_the_cli_loads_one_too(backend: Backend) {
    let server = Server::start_on(backend).await;
    let admin = server.token(&[Scope::Admin]).await;
    let future = (chrono::Utc::now() + chrono::Duration::days(30)).format("%Y-%m-%d").to_string();
    let (first, _) = post_schedule(&server, &admin, "application/toml", common::schedule_toml(&future, "1.00")).await;
    let (second, body) =
        post_schedule(&server, &admin, "application/toml", common::schedule_toml(&future, "2.00")).await;
    assert_eq!((first, second), (201, 201));
    assert_eq!(body["data"][0]["schedule"]["tiers"][0]["flat"], json!(2.00));
    let (_, listed) = quote(&server, &admin, paths::FEE_SCHEDULE_VERSIONS, "").await;
    assert_eq!(listed["data"].as_array().unwrap().len(), 2, "replaced, not added");

    let later = (chrono::Utc::now() + chrono::Duration::days(60)).format("%Y-%m-%d").to_string();
    let file = server.dir.path().join("next.toml");
    std::fs::write(&file, common::schedule_toml(&later, "3.00")).unwrap();
    let out = server.cli(&["fees", "load", file.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(&file, common::schedule_toml(&later, "-3.00")).unwrap();
    let refused = server.cli(&["fees", "load", file.to_str().unwrap()]).await;
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("fees[0].flat"));
    let shown = server.cli(&["fees", "show"]).await;
    let shown: Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(shown.as_array().unwrap().len(), 3);
}
