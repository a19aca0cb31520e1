//! Webhooks over real HTTP, a real server and a real receiver (checking with the example
//! receiver's code): signatures (a wrong secret refused), retries with backoff, order per
//! object, auto-disable, replay, the URL rule, rotation's two signatures, the log and stats.

use crate::common;
use crate::webhooks_support;

use std::time::Duration;

use common::Backend;
use moneydesk_model::events::EventType;
use moneydesk_model::paths;
use reqwest::Method;
use serde_json::{json, Value};
use webhooks_support::*;

async fn signed_in_order_with_retries(backend: Backend) {
    let receiver = Receiver::start(2, false).await;
    let s = start(backend, |_| {}).await;
    let t = token(&s).await;
    let (id, secret) =
        endpoint(&s, &t, &receiver.url, json!(["deposit.created", "deposit.sent", "deposit.settled"])).await;
    assert!(secret.starts_with("whsec_"));
    let got = get(&s, &t, &path(paths::WEBHOOK_ENDPOINT, &id)).await;
    assert!(!got.to_string().contains(&secret), "the secret is never answered again: {got}");

    let created = event(&s, EventType::DepositCreated, "1", json!({"id": 1, "status": "CREATED"})).await;
    let sent = event(&s, EventType::DepositSent, "1", json!({"id": 1, "status": "SENT"})).await;
    let settled = event(&s, EventType::DepositSettled, "1", json!({"id": 1, "status": "SETTLED"})).await;
    event(&s, EventType::DepositRejected, "2", json!({"id": 2})).await; // not a type it takes
    let other = event(&s, EventType::DepositCreated, "3", json!({"id": 3})).await;

    let ok = receiver.wait_accepted(4).await;
    let hits = receiver.hits();
    assert_eq!(hits.iter().filter(|h| h.status == 500).count(), 2, "{hits:?}");
    for h in &hits {
        assert!(h.verifies(&[&secret]), "the receiver's check passes: {h:?}");
        assert!(!h.verifies(&["whsec_wrong"]), "a wrong secret is refused");
        assert_eq!(h.event["id"], h.id.as_str(), "the id header is the event's");
    }
    let order: Vec<&str> = ok.iter().filter(|h| h.event["objectId"] == "1").map(|h| h.id.as_str()).collect();
    assert_eq!(order, [created.as_str(), sent.as_str(), settled.as_str()], "in order per object");
    assert!(ok.iter().any(|h| h.id == other));
    assert_eq!(ok[0].event["type"].as_str().map(|t| t.starts_with("deposit.")), Some(true));

    // The retries waited: each failed attempt's next try of the same event came after the base.
    for (i, h) in hits.iter().enumerate().filter(|(_, h)| h.status == 500) {
        let next = hits[i + 1..].iter().find(|n| n.id == h.id).expect("tried again");
        assert!(next.at - h.at >= Duration::from_millis(140), "backoff: {:?}", next.at - h.at);
    }

    // The log: every attempt, the failures `retrying` with the receiver's answer.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let log = get(&s, &t, &format!("{}?size=50", path(paths::WEBHOOK_ENDPOINT_DELIVERIES, &id))).await;
    let rows = log["data"]["content"].as_array().unwrap();
    assert_eq!(rows.len(), 6, "{log}");
    assert_eq!(rows.iter().filter(|r| r["status"] == "retrying").count(), 2, "{log}");
    let failed = rows.iter().find(|r| r["status"] == "retrying").unwrap();
    assert_eq!(failed["responseCode"], 500);
    assert_eq!(failed["response"], "try later");
    assert!(rows.iter().any(|r| r["attempt"] == 3 || r["attempt"] == 2), "{log}");
    let stats = get(&s, &t, &path(paths::WEBHOOK_ENDPOINT_STATS, &id)).await;
    let days = stats["data"]["days"].as_array().unwrap();
    assert_eq!(days.len(), 7);
    assert_eq!(days[6]["delivered"], 4, "{stats}");
    assert_eq!(days[6]["failed"], 2, "{stats}");
    assert!(days[6]["p95Ms"].is_u64(), "{stats}");
    s.running.stop().await;
}

async fn replay_one_and_a_range(backend: Backend) {
    let receiver = Receiver::start(0, false).await;
    let s = start(backend, |_| {}).await;
    let t = token(&s).await;
    let (id, _) = endpoint(&s, &t, &receiver.url, json!(["*"])).await;
    let from = chrono::Utc::now();
    let first = event(&s, EventType::DepositCreated, "7", json!({"id": 7})).await;
    event(&s, EventType::DepositSent, "7", json!({"id": 7})).await;
    receiver.wait_accepted(2).await;

    let replay = path(paths::WEBHOOK_ENDPOINT_REPLAY, &id);
    let (status, b) = send(&s, &t, Method::POST, &replay, Some(json!({"eventId": first}))).await;
    assert_eq!((status, b["data"]["queued"].clone()), (202, json!(1)), "{b}");
    let ok = receiver.wait_accepted(3).await;
    assert_eq!(ok.iter().filter(|h| h.id == first).count(), 2, "the same event id again: {ok:?}");

    let to = chrono::Utc::now() + chrono::Duration::seconds(1);
    let range = json!({"from": from.to_rfc3339(), "to": to.to_rfc3339()});
    let (status, b) = send(&s, &t, Method::POST, &replay, Some(range)).await;
    assert_eq!((status, b["data"]["queued"].clone()), (202, json!(2)), "{b}");
    receiver.wait_accepted(5).await;

    let (status, _) = send(&s, &t, Method::POST, &replay, Some(json!({"eventId": "evt_nope"}))).await;
    assert_eq!(status, 404);
    let (status, _) = send(&s, &t, Method::POST, &replay, Some(json!({"from": "2026-01-01"}))).await;
    assert_eq!(status, 400);
    s.running.stop().await;
}

on_both_backends!(signed_in_order_with_retries, replay_one_and_a_range);

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let s = start(Backend::Sqlite, |c| c.webhooks.allow.clear()).await;
    let t = token(&s).await;
    for (url, why) in [
        ("http://127.0.0.1:9/hook", "https"),
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.1.2.3/hook", "private"),
        ("https://169.254.169.254/latest", "link-local"),
        ("https://[::1]/hook", "loopback"),
        ("https://[fd12::1]/hook", "unique-local"),
        ("https://0.0.0.0/hook", "unspecified"),
        ("https://localhost/hook", "loopback"),
        ("ftp://bank.example/", "https"),
    ] {
        let (status, b) = send(&s, &t, Method::POST, paths::WEBHOOK_ENDPOINTS, Some(json!({"url": url}))).await;
        assert_eq!(status, 400, "{url}: {b}");
        assert!(b.to_string().contains(why), "{url}: {b}");
    }
    s.running.stop().await;

    let receiver = Receiver::start(0, false).await;
    let s = start(Backend::Sqlite, |_| {}).await;
    let t = token(&s).await;
    let (id, _) = endpoint(&s, &t, &receiver.url, json!(["*"])).await;
    // A change is checked too: another private address is still refused.
    let (status, b) =
        send(&s, &t, Method::PATCH, &path(paths::WEBHOOK_ENDPOINT, &id), Some(json!({"url": "https://192.168.1.1/"})))
            .await;
    assert_eq!(status, 400, "{b}");
    let (status, b) = send(
        &s,
        &t,
        Method::POST,
        paths::WEBHOOK_ENDPOINTS,
        Some(json!({"url": receiver.url, "eventTypes": ["deposit.nope"]})),
    )
    .await;
    assert_eq!(status, 400, "{b}");
    s.running.stop().await;
}

#[tokio::test]
async fn a_rotation_signs_with_both_secrets_during_the_overlap() {
    let receiver = Receiver::start(0, false).await;
    let s = start(Backend::Sqlite, |_| {}).await;
    let t = token(&s).await;
    let (id, old) = endpoint(&s, &t, &receiver.url, json!(["*"])).await;
    let rotate = path(paths::WEBHOOK_ENDPOINT_SECRET, &id);
    let (status, b) = send(&s, &t, Method::POST, &rotate, Some(json!({"overlapHours": 1}))).await;
    assert_eq!(status, 200, "{b}");
    let new = b["data"]["secret"].as_str().unwrap().to_string();
    assert_ne!(new, old);
    assert!(b["data"]["endpoint"]["previousSecretUntil"].is_string(), "{b}");

    let test = path(paths::WEBHOOK_ENDPOINT_TEST, &id);
    let (status, b) = send(&s, &t, Method::POST, &test, None).await;
    assert_eq!(status, 202, "{b}");
    let hit = &receiver.wait_accepted(1).await[0];
    assert_eq!(hit.event["type"], "webhook.test");
    assert_eq!(hit.signature.matches("v1=").count(), 2, "{}", hit.signature);
    assert!(hit.verifies(&[&new]) && hit.verifies(&[&old]), "either secret verifies");

    // Without an overlap the old secret stops at once.
    let (_, b) = send(&s, &t, Method::POST, &rotate, Some(json!({"overlapHours": 0}))).await;
    let newest = b["data"]["secret"].as_str().unwrap().to_string();
    send(&s, &t, Method::POST, &test, None).await;
    let hit = &receiver.wait_accepted(2).await[1];
    assert_eq!(hit.signature.matches("v1=").count(), 1, "{}", hit.signature);
    assert!(hit.verifies(&[&newest]) && !hit.verifies(&[&new]));
    let (status, _) = send(&s, &t, Method::POST, &rotate, Some(json!({"overlapHours": 500}))).await;
    assert_eq!(status, 400);
    // The body is optional: none, or `null`, is the default overlap (24 hours).
    for body in [None, Some(Value::Null)] {
        let (status, b) = send(&s, &t, Method::POST, &rotate, body).await;
        assert_eq!(status, 200, "{b}");
        assert!(b["data"]["endpoint"]["previousSecretUntil"].is_string(), "{b}");
    }
    let (status, _) = send(&s, &t, Method::POST, &rotate, Some(json!([1]))).await;
    assert_eq!(status, 400, "a body that is not an object is refused");
    s.running.stop().await;
}

#[tokio::test]
async fn an_endpoint_failing_for_days_is_disabled() {
    let receiver = Receiver::start(0, true).await;
    let other = Receiver::start(0, true).await;
    let s = start(Backend::Sqlite, |c| {
        c.webhooks.disable_after = Duration::from_millis(700);
        c.webhooks.alert_to = Some("ops@bank.example".into());
    })
    .await;
    // The owner of the first is an email address (told); of the second a plain user id
    // ("test": MONEYDESK_WEBHOOK_ALERT_TO is told).
    let scopes = [moneydesk_model::Scope::WebhooksWrite, moneydesk_model::Scope::EmailSend];
    let t = s.running.create_token_for("owner", "owner@bank.example", &scopes).await.unwrap();
    let (id, _) = endpoint(&s, &t, &receiver.url, json!(["*"])).await;
    let t2 = token(&s).await;
    let (id2, _) = endpoint(&s, &t2, &other.url, json!(["*"])).await;
    send(&s, &t, Method::POST, &path(paths::WEBHOOK_ENDPOINT_TEST, &id), None).await;
    send(&s, &t2, Method::POST, &path(paths::WEBHOOK_ENDPOINT_TEST, &id2), None).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let (e, e2) = loop {
        let e = get(&s, &t, &path(paths::WEBHOOK_ENDPOINT, &id)).await;
        let e2 = get(&s, &t2, &path(paths::WEBHOOK_ENDPOINT, &id2)).await;
        let both = e["data"]["enabled"] == false && e2["data"]["enabled"] == false;
        if both || std::time::Instant::now() > deadline {
            break (e, e2);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(e["data"]["enabled"], false, "{e}");
    assert_eq!(e2["data"]["enabled"], false, "{e2}");
    assert!(e["data"]["disabledReason"].as_str().unwrap().contains("failed"), "{e}");
    assert!(receiver.hits().len() >= 2, "tried more than once first");

    // Each owner's alert was queued with the disabling (the email worker is off: it stays
    // queued), naming the URL and the reason.
    for (to, url) in [("owner@bank.example", &receiver.url), ("ops@bank.example", &other.url)] {
        let list = get(&s, &t, &format!("{}?q={to}", paths::EMAIL_MESSAGES)).await;
        let messages = list["data"]["content"].as_array().unwrap_or_else(|| panic!("{list}"));
        assert_eq!(messages.len(), 1, "{to}: {list}");
        let m = &messages[0];
        assert_eq!(m["state"], "queued", "{m}");
        assert_eq!(m["to"], json!([to]), "{m}");
        let subject = m["subject"].as_str().unwrap();
        assert!(subject.contains(url.as_str()) && subject.contains("every delivery failed"), "{subject}");
    }

    // Nothing more is sent; enabling again clears the reason.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let before = receiver.hits().len();
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(receiver.hits().len(), before, "a disabled endpoint gets nothing");
    let (status, b) =
        send(&s, &t, Method::PATCH, &path(paths::WEBHOOK_ENDPOINT, &id), Some(json!({"enabled": true}))).await;
    assert_eq!(status, 200, "{b}");
    assert!(b["data"]["disabledReason"].is_null(), "{b}");
    let (status, _) = send(&s, &t, Method::DELETE, &path(paths::WEBHOOK_ENDPOINT, &id), None).await;
    assert_eq!(status, 204);
    let (status, _) = send(&s, &t, Method::GET, &path(paths::WEBHOOK_ENDPOINT, &id), None).await;
    assert_eq!(status, 404);
    s.running.stop().await;
}
