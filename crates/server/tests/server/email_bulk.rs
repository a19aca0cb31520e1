//! Bulk actions on email (issue 45) over real HTTP, on both backends: outbox messages resent
//! or cancelled, inbound messages redelivered to a real receiver — by ids or by the list's
//! filter, each message on its own (partial success in the answer, an audit record each), an
//! `Idempotency-Key` replay answering the first answer, 403 without `email:send`, 400 for a
//! malformed request.

use crate::common;
use crate::email_inbound_support;

use common::{json, Backend, Server};
use email_inbound_support::{post_raw, route, wait_state, Receiver};
use moneydesk_model::{paths, Scope};
use reqwest::Method;
use serde_json::{json, Value};

async fn call(s: &Server, path: &str, token: &str, body: &Value, key: Option<&str>) -> (u16, bool, Value) {
    let mut r = s.client.request(Method::POST, s.url(path)).bearer_auth(token).json(body);
    if let Some(k) = key {
        r = r.header("Idempotency-Key", k);
    }
    let r = r.send().await.unwrap();
    let replayed = r.headers().get("idempotent-replayed").is_some_and(|v| v == "true");
    (r.status().as_u16(), replayed, json(r).await)
}

async fn outbox(s: &Server, token: &str, body: Value) -> Value {
    let (status, _, b) = call(s, paths::EMAIL_MESSAGES_BULK, token, &body, None).await;
    assert_eq!(status, 200, "{b}");
    b["data"].clone()
}

/// Sends one message per address in one request (one batch); their ids.
async fn send(s: &Server, token: &str, subject: &str, addresses: &[&str]) -> Vec<String> {
    let personalizations: Vec<Value> = addresses.iter().map(|a| json!({"to": [{"email": a}]})).collect();
    let body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": subject,
        "content": [{"type": "text/plain", "value": "Hello"}], "personalizations": personalizations});
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(token).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 202);
    json(r).await["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

async fn state_of(s: &Server, token: &str, id: &str) -> Value {
    let d = json(s.get_auth(&paths::EMAIL_MESSAGE.replace("{messageId}", id), token).await).await;
    d["data"]["state"].clone()
}

/// Each item's `id outcome reason` line.
fn outcomes(result: &Value) -> Vec<String> {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "{} {} {}",
                i["id"].as_str().unwrap(),
                i["outcome"].as_str().unwrap(),
                i["reason"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

async fn queued_messages_are_cancelled_one_by_one_and_a_refusal_leaves_the_others_done(backend: Backend) {
    let s = Server::start_on(backend).await;
    let t = s.token(&[Scope::EmailSend, Scope::AuditRead]).await;
    let ids = send(&s, &t, "Statement", &["a@client.example", "b@client.example", "c@client.example"]).await;
    let (a, b, c) = (&ids[0], &ids[1], &ids[2]);

    let r = outbox(&s, &t, json!({"action": "cancel", "select": {"ids": [a, "msg_nosuch", b]}})).await;
    assert_eq!(outcomes(&r), [format!("{a} done -"), "msg_nosuch refused not_found".into(), format!("{b} done -")]);
    assert_eq!((r["matched"].as_u64(), r["done"].as_u64(), r["refused"].as_u64()), (Some(3), Some(2), Some(1)));
    assert_eq!(state_of(&s, &t, a).await, "failed", "cancelled: failed without an attempt");
    assert_eq!(state_of(&s, &t, c).await, "queued", "the one not selected is untouched");

    // A cancelled message is failed: it cannot be cancelled again, and it can be resent; a
    // queued one cannot be resent.
    let r = outbox(&s, &t, json!({"action": "resend", "select": {"ids": [a, c]}})).await;
    assert_eq!(outcomes(&r), [format!("{a} done -"), format!("{c} refused invalid_state")]);
    assert!(r["items"][1]["problem"].as_str().unwrap().contains("only a failed message can be resent"), "{r}");
    assert_eq!(state_of(&s, &t, a).await, "queued");
    let r = outbox(&s, &t, json!({"action": "cancel", "select": {"ids": [b]}})).await;
    assert_eq!(outcomes(&r), [format!("{b} refused invalid_state")]);

    // One audit record per message changed, each naming its message.
    for (id, n) in [(a, 2), (b, 1), (c, 0)] {
        let q = format!("{}?targetType=email_message&targetId={id}", paths::AUDIT_RECORDS);
        let records = json(s.get_auth(&q, &t).await).await;
        assert_eq!(records["data"]["content"].as_array().map(Vec::len), Some(n), "{id}: {records}");
    }
}

async fn a_filter_selects_what_the_list_shows_for_it_when_the_request_runs(backend: Backend) {
    let s = Server::start_on(backend).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let march = send(&s, &t, "March statement", &["a@client.example", "b@client.example"]).await;
    let april = send(&s, &t, "April statement", &["a@client.example"]).await;

    let r = outbox(
        &s,
        &t,
        json!({"action": "cancel", "select": {"filter": {"q": "march", "state": "queued,deferred", "page": "2"}}}),
    )
    .await;
    assert_eq!((r["matched"].as_u64(), r["done"].as_u64()), (Some(2), Some(2)), "{r}");
    let mut cancelled: Vec<String> =
        r["items"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap().into()).collect();
    cancelled.sort();
    let mut expected = march.clone();
    expected.sort();
    assert_eq!(cancelled, expected);
    assert_eq!(state_of(&s, &t, &april[0]).await, "queued");

    // The same filter again matches nothing queued any more.
    let r = outbox(&s, &t, json!({"action": "cancel", "select": {"filter": {"q": "march", "state": "queued"}}})).await;
    assert_eq!((r["matched"].as_u64(), r["items"].as_array().map(Vec::len)), (Some(0), Some(0)));
}

async fn a_bulk_request_replayed_with_its_key_answers_the_first_answer(backend: Backend) {
    let s = Server::start_on(backend).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let ids = send(&s, &t, "Statement", &["a@client.example"]).await;
    let body = json!({"action": "cancel", "select": {"ids": [ids[0]]}});
    let (status, replayed, first) = call(&s, paths::EMAIL_MESSAGES_BULK, &t, &body, Some("bulk-cancel-1")).await;
    assert_eq!((status, replayed), (200, false), "{first}");
    assert_eq!(first["data"]["done"], 1);
    let (status, replayed, again) = call(&s, paths::EMAIL_MESSAGES_BULK, &t, &body, Some("bulk-cancel-1")).await;
    assert_eq!((status, replayed), (200, true));
    assert_eq!(again, first, "the first answer, not a second run (which would refuse: already failed)");
}

async fn bulk_actions_need_email_send_and_a_well_formed_request(backend: Backend) {
    let s = Server::start_on(backend).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let other = s.token(&[Scope::EmailVerify, Scope::VaultWrite]).await;
    let ok = json!({"action": "resend", "select": {"ids": ["msg_a"]}});
    for path in [paths::EMAIL_MESSAGES_BULK, paths::EMAIL_INBOUND_MESSAGES_BULK] {
        let body = if path == paths::EMAIL_MESSAGES_BULK {
            ok.clone()
        } else {
            json!({"action": "redeliver", "select": {"ids": ["x"]}})
        };
        let (status, _, b) = call(&s, path, &other, &body, None).await;
        assert_eq!(status, 403, "{path}: {b}");
    }
    let malformed = [
        json!({"action": "resend", "select": {"ids": ["msg_a"], "filter": {"state": "failed"}}}),
        json!({"action": "resend", "select": {}}),
        json!({"action": "resend", "select": {"ids": []}}),
        json!({"action": "resend", "select": {"filter": {"colour": "red"}}}),
        json!({"action": "resend", "select": {"filter": {"state": "lost"}}}),
        json!({"action": "delete", "select": {"ids": ["msg_a"]}}),
        json!({"select": {"ids": ["msg_a"]}}),
    ];
    for body in malformed {
        let (status, _, b) = call(&s, paths::EMAIL_MESSAGES_BULK, &t, &body, None).await;
        assert_eq!(status, 400, "{body}: {b}");
    }
    let (status, _, b) = call(
        &s,
        paths::EMAIL_INBOUND_MESSAGES_BULK,
        &t,
        &json!({"action": "redeliver", "select": {"filter": {"before": "x", "colour": "red"}}}),
        None,
    )
    .await;
    assert_eq!(status, 400, "{b}");
    assert!(b["error"].as_str().unwrap().contains("select.filter.colour"), "{b}");
}

async fn inbound_messages_are_redelivered_by_filter_and_by_ids(backend: Backend) {
    let ok = Receiver::start(&[]).await;
    let failing = Receiver::start(&[500; 100]).await;
    let s = email_inbound_support::start(backend, |_| {}).await;
    let t = s.token(&[Scope::EmailSend]).await;
    route(&s, &t, "in.bank.example", &ok.url).await;
    route(&s, &t, "slow.bank.example", &failing.url).await;
    let mut delivered = Vec::new();
    for n in 0..2 {
        let raw = format!("From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: n{n}\r\n\r\nhello\r\n");
        let (_, b) = post_raw(&s, &t, "", raw.as_bytes()).await;
        delivered.push(b["data"]["ids"][0].as_str().unwrap().to_string());
    }
    let (_, b) =
        post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@slow.bank.example\r\nSubject: s\r\n\r\nhi\r\n").await;
    let pending = b["data"]["ids"][0].as_str().unwrap().to_string();
    for id in &delivered {
        wait_state(&s, &t, id, "delivered").await;
    }

    let filter = json!({"action": "redeliver", "select": {"filter": {"domain": "in.bank.example", "state": "delivered", "limit": "1"}}});
    let (status, _, r) = call(&s, paths::EMAIL_INBOUND_MESSAGES_BULK, &t, &filter, None).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!((r["data"]["matched"].as_u64(), r["data"]["done"].as_u64()), (Some(2), Some(2)), "{r}");
    assert_eq!(ok.wait_for(4).await.len(), 4, "each delivered message posted once more");
    for id in &delivered {
        wait_state(&s, &t, id, "delivered").await;
    }

    let unknown = uuid::Uuid::new_v4().to_string();
    let body = json!({"action": "redeliver", "select": {"ids": [delivered[0], pending, "not-a-uuid", unknown]}});
    let (status, _, r) = call(&s, paths::EMAIL_INBOUND_MESSAGES_BULK, &t, &body, None).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        outcomes(&r["data"]),
        [
            format!("{} done -", delivered[0]),
            format!("{pending} refused invalid_state"),
            "not-a-uuid refused not_found".to_string(),
            format!("{unknown} refused not_found"),
        ]
    );
    assert_eq!(ok.wait_for(5).await.len(), 5);
}

on_both_backends!(
    queued_messages_are_cancelled_one_by_one_and_a_refusal_leaves_the_others_done,
    a_filter_selects_what_the_list_shows_for_it_when_the_request_runs,
    a_bulk_request_replayed_with_its_key_answers_the_first_answer,
    bulk_actions_need_email_send_and_a_well_formed_request,
    inbound_messages_are_redelivered_by_filter_and_by_ids,
);
