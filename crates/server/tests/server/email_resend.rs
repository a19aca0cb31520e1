//! Resending a failed message (POST …/messages/{id}/resend) over real HTTP, delivered to a real
//! SMTP relay (aiosmtpd, `common::smtp`): only a failed message goes back in the queue, with
//! its attempts kept and the resend in its log, and arrives once the relay takes it.

use crate::common;

use std::time::{Duration, Instant};

use common::smtp::SmtpSink;
use common::{json, Backend, Server};
use moneydesk_model::{paths, Scope};
use reqwest::Method;
use serde_json::{json, Value};

async fn start(backend: Backend, sink: &SmtpSink, max_attempts: u32) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let relay = sink.url();
    Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.retry_base = Duration::from_millis(200);
        c.email.retry_max = Duration::from_millis(400);
        c.email.max_attempts = max_attempts;
    })
    .await
}

async fn send(s: &Server, token: &str, body: &Value) -> String {
    let (status, b) = call(s, Method::POST, paths::EMAIL_SEND, token, Some(body)).await;
    assert_eq!(status, 202, "{b}");
    b["data"][0].as_str().unwrap().to_string()
}

async fn call(s: &Server, method: Method, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
    let mut r = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(b) = body {
        r = r.json(b);
    }
    let r = r.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

async fn resend(s: &Server, token: &str, id: &str) -> (u16, Value) {
    call(s, Method::POST, &paths::EMAIL_MESSAGE_RESEND.replace("{messageId}", id), token, None).await
}

fn to(address: &str) -> Value {
    json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Statement", "content": [{"type": "text/plain", "value": "Your statement"}],
        "personalizations": [{"to": [{"email": address}]}]})
}

/// The attempt log as `number outcome` lines, a resend as `number queued by token/user`.
fn log(detail: &Value) -> Vec<String> {
    detail["attemptLog"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| match a["resentBy"].as_object() {
            Some(by) => format!(
                "{} {} by {}/{}",
                a["number"],
                a["outcome"].as_str().unwrap(),
                by["token"].as_str().unwrap(),
                by["user"].as_str().unwrap()
            ),
            None => format!("{} {}", a["number"], a["outcome"].as_str().unwrap()),
        })
        .collect()
}

async fn a_refused_message_resent_once_the_relay_takes_it_arrives_once(backend: Backend) {
    let sink = SmtpSink::start();
    sink.control(json!({"reject": {"zoe@client.example": 550}}));
    let s = start(backend, &sink, 5).await;
    let t = s.running.create_token_for("ops-desk", "alice", &[Scope::EmailSend]).await.unwrap();
    let id = send(&s, &t, &to("zoe@client.example")).await;
    let failed = common::wait_message_state(&s, &t, &id, "failed").await;
    assert!(failed["lastReply"].as_str().unwrap().starts_with("550"), "{failed}");

    // The relay now takes it; the resend queues the same message again.
    sink.control(json!({}));
    let (status, b) = resend(&s, &t, &id).await;
    assert_eq!(status, 202, "{b}");
    assert_eq!((b["code"].as_u64(), b["data"]["id"].as_str()), (Some(202), Some(id.as_str())), "{b}");
    assert_eq!(b["data"]["state"], "queued", "{b}");

    let sent = common::wait_message_state(&s, &t, &id, "sent").await;
    assert_eq!(log(&sent), ["1 failed", "1 queued by ops-desk/alice", "2 sent"]);
    assert_eq!(sent["attempts"], 2);
    assert_eq!(sent["messageId"], failed["messageId"], "the same Message-ID");
    let got = sink.wait_for(1, 10).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.received().len(), 1, "exactly one copy arrives");
    assert_eq!(got[0].rcpt_tos, ["zoe@client.example"]);
    assert_eq!(
        Some(format!("<{}>", got[0].parsed().message_id().unwrap())),
        sent["messageId"].as_str().map(String::from)
    );

    // Sent now: a second resend is refused, naming the state.
    let (status, b) = resend(&s, &t, &id).await;
    assert_eq!(status, 409, "{b}");
    assert_eq!(b["errorMessage"], format!("Message {id} is sent: only a failed message can be resent"), "{b}");
}

async fn only_a_failed_message_can_be_resent_and_only_with_email_send(backend: Backend) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink, 5).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut later = to("later@client.example");
    later["send_at"] = json!(chrono::Utc::now().timestamp() + 3600);
    let scheduled = send(&s, &t, &later).await;
    let (status, b) = resend(&s, &t, &scheduled).await;
    assert_eq!(status, 409, "{b}");
    assert!(b["errorMessage"].as_str().unwrap().contains("is scheduled"), "{b}");
    assert!(b["data"].is_null() && b["requestId"].is_string(), "the API's error body: {b}");
    assert_eq!(
        common::wait_message_state(&s, &t, &scheduled, "scheduled").await["attemptLog"],
        json!([]),
        "nothing recorded"
    );

    let (status, b) = resend(&s, &t, "msg_nosuchmessage").await;
    assert_eq!(status, 404, "{b}");
    assert_eq!(b["errorMessage"], "No message msg_nosuchmessage", "{b}");

    let verifier = s.token(&[Scope::EmailVerify, Scope::VaultWrite]).await;
    let (status, b) = resend(&s, &verifier, &scheduled).await;
    assert_eq!(status, 403, "{b}");
}

/// A message that used up its attempts gets a whole new round after a resend: the limit counts
/// from the resend, and the numbering goes on.
async fn a_resent_message_gets_a_new_round_of_attempts(backend: Backend) {
    let sink = SmtpSink::start();
    sink.control(json!({"defer": {"busy@client.example": 451}}));
    let s = start(backend, &sink, 2).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let id = send(&s, &t, &to("busy@client.example")).await;
    let failed = common::wait_message_state(&s, &t, &id, "failed").await;
    assert_eq!(log(&failed), ["1 deferred", "2 failed"]);
    let (status, b) = resend(&s, &t, &id).await;
    assert_eq!(status, 202, "{b}");
    // Still busy: two more attempts, then failed again, and resendable again.
    let deadline = Instant::now() + Duration::from_secs(20);
    let again = loop {
        let d = common::wait_message_state(&s, &t, &id, "failed").await;
        if d["attempts"] == 4 || Instant::now() > deadline {
            break d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(log(&again), ["1 deferred", "2 failed", "2 queued by test/test", "3 deferred", "4 failed"]);
    assert!(again["lastReply"].as_str().unwrap().contains("gave up after 2 attempts"), "{again}");
    sink.control(json!({}));
    assert_eq!(resend(&s, &t, &id).await.0, 202);
    let sent = common::wait_message_state(&s, &t, &id, "sent").await;
    assert_eq!(log(&sent).last().map(String::as_str), Some("5 sent"));
    assert_eq!(sink.wait_for(1, 10).await.len(), 1);
}

on_both_backends!(
    a_refused_message_resent_once_the_relay_takes_it_arrives_once,
    only_a_failed_message_can_be_resent_and_only_with_email_send,
    a_resent_message_gets_a_new_round_of_attempts,
);
