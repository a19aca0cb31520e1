//! Delivery to a real SMTP relay (aiosmtpd, `common::smtp`): the MIME that arrives, parsed
//! back; a relay that is down, refuses or defers; several instances on one database.

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::{json, Backend, Server};
use mail_parser::{MimeHeaders, PartType};
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn start(backend: Backend, sink: &SmtpSink, tweak: impl FnOnce(&mut moneydesk_server::Config)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    start_in(dir, url, sink, tweak).await
}

/// Another instance on the PostgreSQL database `url`.
async fn start_on(url: String, sink: &SmtpSink, tweak: impl FnOnce(&mut moneydesk_server::Config)) -> Server {
    start_in(tempfile::tempdir().unwrap(), url, sink, tweak).await
}

/// Keeps `dir` (a SQLite database lives there) as long as the server.
async fn start_in(
    dir: tempfile::TempDir,
    url: String,
    sink: &SmtpSink,
    tweak: impl FnOnce(&mut moneydesk_server::Config),
) -> Server {
    let relay = sink.url();
    Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.retry_base = Duration::from_millis(200);
        c.email.retry_max = Duration::from_millis(400);
        tweak(c);
    })
    .await
}

async fn send(s: &Server, token: &str, body: &Value) -> Vec<String> {
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(token).json(body).send().await.unwrap();
    let status = r.status().as_u16();
    let body = json(r).await;
    assert_eq!(status, 202, "{body}");
    body["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect()
}

fn simple(to: &str) -> Value {
    json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Hello", "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": to}]}]})
}

async fn a_sent_message_arrives_with_its_mime_structure(backend: Backend) {
    let sink = SmtpSink::start();
    let s =
        start(backend, &sink, |c| c.email.list_unsubscribe = Some("<mailto:unsubscribe@moneydesk.test>".into())).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let png = b"\x89PNG\r\n\x1a\n-logo-";
    let body = json!({
        "from": {"email": "ops@moneydesk.test", "name": "Opérations Zoë"},
        "reply_to": {"email": "help@moneydesk.test"},
        "subject": "Relevé de compte — novembre",
        "content": [{"type": "text/plain", "value": "Bonjour Zoë"}, {"type": "text/html", "value": "<p>Bonjour <b>Zoë</b></p><img src=\"cid:logo\">"}],
        "attachments": [
            {"content": encode_base64(b"%PDF-1.7 releve"), "filename": "relevé.pdf", "type": "application/pdf"},
            {"content": encode_base64(png), "filename": "logo.png", "type": "image/png", "disposition": "inline", "content_id": "logo"}
        ],
        "personalizations": [{"to": [{"email": "zoe@client.example", "name": "Zoë Client"}], "cc": [{"email": "cc@client.example"}], "bcc": [{"email": "audit@client.example"}]}]
    });
    let ids = send(&s, &t, &body).await;
    let detail = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    assert!(detail["lastReply"].as_str().unwrap().starts_with("250"), "{detail}");

    let got = sink.wait_for(1, 10).await;
    assert_eq!(got.len(), 1);
    let r = &got[0];
    assert_eq!(r.mail_from, "ops@moneydesk.test");
    let mut rcpt = r.rcpt_tos.clone();
    rcpt.sort();
    assert_eq!(rcpt, ["audit@client.example", "cc@client.example", "zoe@client.example"], "Bcc is in the envelope");
    let raw = String::from_utf8_lossy(&r.raw);
    assert!(!raw.to_ascii_lowercase().contains("\nbcc:"), "no Bcc header:\n{raw}");
    assert!(raw.contains("=?utf-8?"), "non-ASCII headers are RFC 2047 encoded:\n{raw}");
    assert!(r.raw.is_ascii(), "the MIME is 7-bit");

    let m = r.parsed();
    assert_eq!(m.subject(), Some("Relevé de compte — novembre"));
    assert_eq!(m.from().unwrap().first().unwrap().name(), Some("Opérations Zoë"));
    assert_eq!(m.to().unwrap().first().unwrap().name(), Some("Zoë Client"));
    assert_eq!(m.message_id(), Some(detail["messageId"].as_str().unwrap().trim_matches(['<', '>'])));
    assert_eq!(m.header_raw("List-Unsubscribe").map(str::trim), Some("<mailto:unsubscribe@moneydesk.test>"));
    assert!(m.date().is_some());
    // mixed [ alternative [ plain, related [ html, logo ] ], relevé.pdf ]
    assert_eq!(m.content_type().map(|c| c.subtype()), Some(Some("mixed")));
    assert_eq!(m.body_text(0).as_deref().map(str::trim_end), Some("Bonjour Zoë"));
    assert!(m.body_html(0).unwrap().contains("<b>Zoë</b>"));
    let kinds: Vec<String> = m
        .parts
        .iter()
        .map(|p| p.content_type().map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or(""))).unwrap_or_default())
        .collect();
    for kind in [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        "application/pdf",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "{kind} in {kinds:?}");
    }
    let logo = m.parts.iter().find(|p| p.content_id() == Some("logo")).expect("the inline image has its Content-ID");
    assert!(matches!(&logo.body, PartType::InlineBinary(b) | PartType::Binary(b) if &b[..] == png));
    let pdf = m
        .attachments()
        .find(|a| a.attachment_name() == Some("relevé.pdf"))
        .expect("the attachment with its encoded name");
    assert_eq!(pdf.contents(), b"%PDF-1.7 releve");
}

async fn a_relay_that_is_down_defers_and_the_message_goes_once_it_is_back(backend: Backend) {
    let mut sink = SmtpSink::start();
    sink.stop();
    let s = start(backend, &sink, |_| {}).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let ids = send(&s, &t, &simple("a@client.example")).await;
    let deferred = common::wait_message_state(&s, &t, &ids[0], "deferred").await;
    assert!(deferred["lastReply"].as_str().unwrap().starts_with("relay not reached"), "{deferred}");
    assert!(deferred["nextAttemptAt"].is_string());
    sink.resume();
    let sent = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    assert!(sent["attempts"].as_u64().unwrap() >= 2);
    assert_eq!(sent["attemptLog"][0]["outcome"], "deferred");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.received().len(), 1, "delivered once");
}

async fn a_permanent_refusal_fails_at_once_and_a_temporary_one_after_the_last_attempt(backend: Backend) {
    let sink = SmtpSink::start();
    sink.control(json!({"reject": {"gone@client.example": 550}, "defer": {"busy@client.example": 451}}));
    let s = start(backend, &sink, |c| c.email.max_attempts = 3).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let gone = send(&s, &t, &simple("gone@client.example")).await;
    let busy = send(&s, &t, &simple("busy@client.example")).await;
    let failed = common::wait_message_state(&s, &t, &gone[0], "failed").await;
    assert_eq!(failed["attempts"], 1, "a 5xx is not retried: {failed}");
    assert!(failed["lastReply"].as_str().unwrap().starts_with("550"), "{failed}");
    let failed = common::wait_message_state(&s, &t, &busy[0], "failed").await;
    assert_eq!(failed["attempts"], 3, "{failed}");
    let outcomes: Vec<&str> =
        failed["attemptLog"].as_array().unwrap().iter().map(|a| a["outcome"].as_str().unwrap()).collect();
    assert_eq!(outcomes, ["deferred", "deferred", "failed"]);
    assert!(failed["lastReply"].as_str().unwrap().contains("451"), "{failed}");
    assert!(sink.received().is_empty());
}

/// The lanes' outcomes are committed in groups (`email::recorder`): each message still gets
/// its own outcome, its own relay reply and one attempt, whichever commit carried it.
async fn every_message_sent_over_several_lanes_is_recorded_once_with_its_own_reply(backend: Backend) {
    let sink = SmtpSink::start();
    // Every tenth recipient refused for good, so refusals and 250s share commits.
    let refused: serde_json::Map<String, Value> =
        (0..200).step_by(10).map(|i| (format!("r{i}@client.example"), json!(550))).collect();
    sink.control(json!({"reject": refused}));
    let s = start(backend, &sink, |c| c.email.connections = 4).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut body = simple("x@client.example");
    body["personalizations"] =
        json!((0..200).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect::<Vec<_>>());
    let ids = send(&s, &t, &body).await;
    let got = sink.wait_for(180, 60).await;
    assert_eq!(got.len(), 180);
    let queued_as: std::collections::HashMap<String, String> =
        got.iter().map(|r| (r.parsed().message_id().unwrap().to_string(), r.queued_as.clone())).collect();
    assert_eq!(queued_as.len(), 180, "each message arrived once");
    for (i, id) in ids.iter().enumerate() {
        let expected = if i % 10 == 0 { "failed" } else { "sent" };
        let m = common::wait_message_state(&s, &t, id, expected).await;
        assert_eq!(m["attempts"], 1, "{m}");
        let log = m["attemptLog"].as_array().unwrap();
        assert_eq!(log.len(), 1, "{m}");
        assert_eq!(log[0]["outcome"], expected, "{m}");
        assert_eq!(log[0]["reply"], m["lastReply"], "the attempt has the message's own reply: {m}");
        let reply = m["lastReply"].as_str().unwrap();
        if expected == "failed" {
            assert!(reply.starts_with("550"), "{m}");
            continue;
        }
        let queued = &queued_as[m["messageId"].as_str().unwrap().trim_matches(['<', '>'])];
        assert!(
            reply.starts_with("250") && reply.ends_with(&format!("queued as {queued}")),
            "{reply} is the relay's reply to this message ({queued})"
        );
    }
}

/// A group commit the database refuses because of one outcome (a trigger refuses that one
/// here) still records the others of the group: each is then written alone.
async fn an_outcome_the_database_refuses_costs_the_others_in_its_commit_nothing(backend: Backend) {
    use moneydesk_server::email::outbox::recorder::Recorder;
    use moneydesk_server::email::outbox::store::delivery::Outcome;
    let sink = SmtpSink::start();
    let s = start(backend, &sink, |c| c.email.worker = false).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut body = simple("x@client.example");
    body["personalizations"] =
        json!((0..4).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect::<Vec<_>>());
    send(&s, &t, &body).await;
    let state = &s.running.state;
    let now = chrono::Utc::now();
    let claimed = state.stores.email.claim("lanes", now, now + chrono::Duration::minutes(5), 10).await.unwrap();
    assert_eq!(claimed.len(), 4);
    let db = &state.stores.database;
    if backend == Backend::Sqlite {
        db.execute("CREATE TRIGGER refuse BEFORE UPDATE ON email_messages WHEN NEW.last_reply = 'refuse me' BEGIN SELECT RAISE(ABORT, 'refused'); END").await.unwrap();
    } else {
        db.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.last_reply = 'refuse me' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$").await.unwrap();
        db.execute("CREATE TRIGGER refuse BEFORE UPDATE ON email_messages FOR EACH ROW EXECUTE FUNCTION refuse()")
            .await
            .unwrap();
    }
    let (recorder, committer) = Recorder::start(state.stores.email.clone(), "lanes".into());
    let outcome = |i: usize, reply: &str| Outcome {
        id: claimed[i].message.id.clone(),
        attempt: claimed[i].attempt,
        state: moneydesk_model::email::MessageState::Sent,
        reply: reply.into(),
        next: None,
        mailbox: None,
        recipients: None,
    };
    // Handed over together, before the committer runs (the test's runtime has one thread):
    // one group.
    let recorded = futures_util::future::join_all([
        recorder.record(outcome(0, "250 first")),
        recorder.record(outcome(1, "refuse me")),
        recorder.record(outcome(2, "250 third")),
        recorder.record(outcome(3, "250 fourth")),
    ])
    .await;
    assert_eq!(recorded[0], Ok(true));
    assert!(recorded[1].as_ref().is_err_and(|e| e.contains("refused")), "{recorded:?}");
    assert_eq!(recorded[2..], [Ok(true), Ok(true)]);
    for (i, reply) in [(0, "250 first"), (2, "250 third"), (3, "250 fourth")] {
        let m = common::wait_message_state(&s, &t, &claimed[i].message.id, "sent").await;
        assert_eq!(m["lastReply"], reply);
        assert_eq!(m["attemptLog"][0]["reply"], reply);
    }
    // The refused one stays claimed, to be taken over when its claim runs out.
    common::wait_message_state(&s, &t, &claimed[1].message.id, "sending").await;
    drop(recorder);
    committer.await.unwrap();
}

on_both_backends!(
    a_sent_message_arrives_with_its_mime_structure,
    a_relay_that_is_down_defers_and_the_message_goes_once_it_is_back,
    a_permanent_refusal_fails_at_once_and_a_temporary_one_after_the_last_attempt,
    every_message_sent_over_several_lanes_is_recorded_once_with_its_own_reply,
    an_outcome_the_database_refuses_costs_the_others_in_its_commit_nothing,
);

/// Several instances on one PostgreSQL database claim with `FOR UPDATE SKIP LOCKED`: every
/// message is delivered, none twice.
#[tokio::test]
async fn three_instances_on_one_database_deliver_each_message_once() {
    let sink = SmtpSink::start();
    let url = common::postgres::fresh_database().await;
    let a = start_on(url.clone(), &sink, |c| c.email.worker = false).await;
    let t = a.token(&[Scope::EmailSend]).await;
    let personalizations: Vec<Value> =
        (0..300).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect();
    let mut body = simple("x@client.example");
    body["personalizations"] = json!(personalizations);
    send(&a, &t, &body).await;
    let instances = [
        start_on(url.clone(), &sink, |_| {}).await,
        start_on(url.clone(), &sink, |_| {}).await,
        start_on(url, &sink, |_| {}).await,
    ];
    let got = sink.wait_for(300, 60).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got_after = sink.received();
    assert_eq!(got.len(), 300);
    assert_eq!(got_after.len(), 300, "no message twice");
    let mut ids: Vec<String> = got_after.iter().map(|r| r.parsed().message_id().unwrap().to_string()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 300);
    drop(instances);
}

/// A lane's claimed messages wait their turn; behind a slow relay the wait can outlast the
/// claim, and another instance would take them over while the first still meant to send them.
/// Claims with less than half their time left are given back untried instead: here one lane's
/// 16 claimed messages take 4 s at the relay's 250 ms each against a 2 s claim, a second
/// instance shares the queue, and each message still arrives once, sent on its first attempt.
#[tokio::test]
async fn a_claim_that_runs_low_while_waiting_its_turn_is_given_back_not_sent_twice() {
    let sink = SmtpSink::start();
    sink.control(json!({"delay_ms": 250}));
    let url = common::postgres::fresh_database().await;
    let short = |c: &mut moneydesk_server::Config| {
        c.email.connections = 1;
        c.email.claim = Duration::from_secs(2);
    };
    let a = start_on(url.clone(), &sink, short).await;
    let t = a.token(&[Scope::EmailSend]).await;
    let mut body = simple("x@client.example");
    body["personalizations"] =
        json!((0..16).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect::<Vec<_>>());
    let ids = send(&a, &t, &body).await;
    // The first instance has claimed all 16 (its worker is woken by the send) before the
    // second starts.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let b = start_on(url, &sink, short).await;
    let got = sink.wait_for(16, 60).await;
    for id in &ids {
        let m = common::wait_message_state(&a, &t, id, "sent").await;
        assert_eq!(m["attempts"], 1, "sent on its first attempt, a given-back claim not counted: {m}");
    }
    // Longer than a claim: a message taken over would have been sent again by now.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = sink.received();
    assert_eq!(got.len(), 16);
    let mut message_ids: Vec<String> = after.iter().map(|r| r.parsed().message_id().unwrap().to_string()).collect();
    message_ids.sort();
    message_ids.dedup();
    assert_eq!((after.len(), message_ids.len()), (16, 16), "each message arrived once");
    drop(b);
}

/// A message from an active sending domain leaves with the envelope sender on the domain's
/// return-path host (which its CNAME points at the service's bounce host), DKIM-signed.
#[tokio::test]
async fn mail_from_an_active_sending_domain_bounces_to_its_return_path_host() {
    let sink = SmtpSink::start();
    let s = start(Backend::Sqlite, &sink, |_| {}).await;
    let domains = &s.running.state.domains.store;
    let keys = moneydesk_server::email::domains::dkim::DomainKeys::generate().unwrap();
    domains.insert("notices.bank.example", &keys, "test").await.unwrap();
    domains.activate("notices.bank.example").await.unwrap();
    let t = s.token(&[Scope::EmailSend]).await;
    let mut body = simple("zoe@client.example");
    body["from"] = json!({"email": "ops@notices.bank.example"});
    let ids = send(&s, &t, &body).await;
    common::wait_message_state(&s, &t, &ids[0], "sent").await;
    let got = sink.wait_for(1, 10).await;
    assert_eq!(got[0].mail_from, format!("bounces+{}@mdbounce.notices.bank.example", ids[0]));
    assert_eq!(got[0].rcpt_tos, ["zoe@client.example"]);
    assert!(String::from_utf8_lossy(&got[0].raw).contains("DKIM-Signature:"), "signed");
}
