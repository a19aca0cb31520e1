//! Suppression lists, one-click unsubscribe and scheduled batches (issue 46), over real HTTP
//! with the delivery worker running and a real SMTP relay (aiosmtpd, `common::smtp`): what the
//! relay receives is what is checked.

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::{call, Backend, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

const ORIGIN: &str = "https://mail.bank.example";

async fn start(backend: Backend, sink: &SmtpSink) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let relay = sink.url();
    Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.list_unsubscribe = Some("<mailto:unsubscribe@moneydesk.test>".into());
        c.email.unsubscribe_url = Some(ORIGIN.into());
        c.email.unsubscribe_secret = Some("a test secret of at least thirty-two characters".into());
    })
    .await
}

fn list_path(domain: &str) -> String {
    paths::EMAIL_SUPPRESSIONS.replace("{domain}", domain)
}

fn mail(personalizations: Value) -> Value {
    json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Statement", "content": [{"type": "text/plain", "value": "Hi"}],
        "personalizations": personalizations})
}

/// The event types written since `seq`, and the audit records' operations since `id`.
async fn written(s: &Server, (id, seq): (i64, i64)) -> (Vec<String>, Vec<String>) {
    let db = &s.running.state.stores.database;
    let mut c = db.acquire().await.unwrap();
    let q = db.sql("SELECT type FROM events WHERE seq > ? ORDER BY seq").arg(seq);
    let events = c.exec().texts(&q).await.unwrap();
    let q = db.sql("SELECT operation FROM audit_records WHERE id > ? AND outcome = 'succeeded' ORDER BY id").arg(id);
    (events, c.exec().texts(&q).await.unwrap())
}

async fn mark(s: &Server) -> (i64, i64) {
    let db = &s.running.state.stores.database;
    let mut c = db.acquire().await.unwrap();
    let a = c.exec().int(&db.sql("SELECT COALESCE(MAX(id), 0) FROM audit_records")).await.unwrap();
    let e = c.exec().int(&db.sql("SELECT COALESCE(MAX(seq), 0) FROM events")).await.unwrap();
    (a, e)
}

async fn the_list_is_added_to_filtered_paged_and_removed_from_by_an_admin(backend: Backend) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let admin = s.token(&[Scope::Admin]).await;
    let path = list_path("Bank.Example");
    let (status, body) = call(
        &s,
        reqwest::Method::POST,
        &path,
        &t,
        Some(json!({"entries": [{"email": "a@x.example"}, {"email": "not an address"}]})),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["errors"][0]["field"], "entries[1].email", "{body}");

    let before = mark(&s).await;
    let entries = json!({"entries": [{"email": "Zed@Client.example"}, {"email": "ann@client.example", "category": "news"}, {"email": "bob@other.example"}]});
    let (status, body) = call(&s, reqwest::Method::POST, &path, &t, Some(entries.clone())).await;
    assert_eq!(status, 201, "{body}");
    let added = body["data"].as_array().unwrap();
    assert_eq!(added.len(), 3);
    assert_eq!(added[0]["email"], "zed@client.example", "stored lowercase");
    assert_eq!(added[0]["domain"], "bank.example");
    assert_eq!((added[1]["reason"].as_str(), added[1]["category"].as_str()), (Some("manual"), Some("news")));
    assert_eq!(added[0]["source"], "manual:test");
    let (events, records) = written(&s, before).await;
    assert_eq!(events, ["email.suppression.added"; 3]);
    assert_eq!(records, ["add_email_suppressions"]);

    // Again: the same entries, nothing new.
    let before = mark(&s).await;
    let (status, again) = call(&s, reqwest::Method::POST, &path, &t, Some(entries)).await;
    assert_eq!(status, 201);
    assert_eq!(again["data"][0]["id"], added[0]["id"]);
    assert!(written(&s, before).await.0.is_empty(), "no event for entries already listed");

    let (_, page) = call(&s, reqwest::Method::GET, &format!("{path}?size=2"), &t, None).await;
    let emails: Vec<&str> =
        page["data"]["content"].as_array().unwrap().iter().map(|e| e["email"].as_str().unwrap()).collect();
    assert_eq!(emails, ["ann@client.example", "bob@other.example"], "by address, paged");
    assert_eq!(page["data"]["totalElements"], 3);
    let (_, page) = call(&s, reqwest::Method::GET, &format!("{path}?prefix=Z"), &t, None).await;
    assert_eq!(page["data"]["totalElements"], 1);
    let (_, page) = call(&s, reqwest::Method::GET, &format!("{path}?reason=bounce&reason=unsubscribe"), &t, None).await;
    assert_eq!(page["data"]["totalElements"], 0);
    let (status, _) = call(&s, reqwest::Method::GET, &format!("{path}?reason=lost"), &t, None).await;
    assert_eq!(status, 400);
    let (_, other) = call(&s, reqwest::Method::GET, &list_path("other.example"), &t, None).await;
    assert_eq!(other["data"]["totalElements"], 0, "a list is the domain's own");

    let one = paths::EMAIL_SUPPRESSION
        .replace("{domain}", "bank.example")
        .replace("{suppressionId}", added[0]["id"].as_str().unwrap());
    let (status, _) = call(&s, reqwest::Method::DELETE, &one, &t, None).await;
    assert_eq!(status, 403, "removing takes admin");
    let before = mark(&s).await;
    let (status, _) = call(&s, reqwest::Method::DELETE, &one, &admin, None).await;
    assert_eq!(status, 204);
    let (events, records) = written(&s, before).await;
    assert_eq!(
        (events, records),
        (vec!["email.suppression.removed".to_string()], vec!["remove_email_suppression".to_string()])
    );
    let (status, _) = call(&s, reqwest::Method::DELETE, &one, &admin, None).await;
    assert_eq!(status, 404);
}

async fn a_suppressed_recipient_is_reported_and_not_delivered_while_the_others_are(backend: Backend) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let add = json!({"entries": [{"email": "gone@client.example"}, {"email": "left@client.example"}, {"email": "news-off@client.example", "category": "news"}]});
    assert_eq!(call(&s, reqwest::Method::POST, &list_path("moneydesk.test"), &t, Some(add)).await.0, 201);

    let body = mail(json!([
        {"to": [{"email": "ada@client.example"}], "cc": [{"email": "Gone@client.example"}, {"email": "news-off@client.example"}]},
        {"to": [{"email": "left@client.example"}]}
    ]));
    let (status, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body)).await;
    assert_eq!(status, 202, "{answer}");
    let ids: Vec<String> = answer["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
    let suppressed = answer["suppressed"].as_array().unwrap();
    assert_eq!(suppressed.len(), 2, "the category entry does not apply to a send without it: {answer}");
    assert_eq!(
        (suppressed[0]["messageId"].as_str(), suppressed[0]["field"].as_str()),
        (Some(ids[0].as_str()), Some("cc"))
    );
    assert_eq!((suppressed[0]["reason"].as_str(), suppressed[0]["bypassed"].as_bool()), (Some("manual"), Some(false)));
    assert_eq!(suppressed[1]["index"], 1);

    let sent = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    assert_eq!(sent["suppressed"][0]["email"], "Gone@client.example");
    assert_eq!(sent["cc"], json!(["news-off@client.example"]));
    let nobody = common::wait_message_state(&s, &t, &ids[1], "failed").await;
    assert!(nobody["lastReply"].as_str().unwrap().contains("suppression list of moneydesk.test"), "{nobody}");
    assert_eq!(nobody["attempts"], 0, "never tried");

    let got = sink.wait_for(1, 10).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = if sink.received().len() > got.len() { sink.received() } else { got };
    assert_eq!(got.len(), 1, "only the message with someone left");
    let mut rcpt = got[0].rcpt_tos.clone();
    rcpt.sort();
    assert_eq!(rcpt, ["ada@client.example", "news-off@client.example"]);
    assert!(!String::from_utf8_lossy(&got[0].raw).to_lowercase().contains("gone@"), "not in the headers either");

    // Transactional mail goes anyway, and says so.
    let mut body = mail(json!([{"to": [{"email": "gone@client.example"}]}]));
    body["mail_settings"] = json!({"bypass_list_management": {"enable": true}});
    let (_, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body)).await;
    assert_eq!(answer["suppressed"][0]["bypassed"], true, "{answer}");
    let id = answer["data"][0].as_str().unwrap();
    let sent = common::wait_message_state(&s, &t, id, "sent").await;
    assert_eq!(sent["suppressed"][0]["bypassed"], true);
    let got = sink.wait_for(2, 10).await;
    assert_eq!(got[1].rcpt_tos, ["gone@client.example"]);
}

/// The token of the one-click link in a received message's `List-Unsubscribe`.
fn link_token(raw: &[u8]) -> (String, String) {
    let m = mail_parser::MessageParser::default().parse(raw).unwrap();
    // Unfolded (a long value is folded onto a second line).
    let list = m.header_raw("List-Unsubscribe").expect("List-Unsubscribe").replace(['\r', '\n'], "").trim().to_string();
    let post = m.header_raw("List-Unsubscribe-Post").map(|v| v.trim().to_string()).unwrap_or_default();
    assert_eq!(post, "List-Unsubscribe=One-Click", "{list}");
    let prefix = format!("<{ORIGIN}{}", paths::EMAIL_UNSUBSCRIBE.replace("{token}", ""));
    assert!(list.starts_with(&prefix) && list.ends_with(", <mailto:unsubscribe@moneydesk.test>"), "{list}");
    let token = list[prefix.len()..].split('>').next().unwrap().to_string();
    (token, list)
}

async fn a_bulk_send_carries_one_click_unsubscribe_and_the_link_records_the_address(backend: Backend) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let mut body = mail(json!([{"to": [{"email": "Reader@client.example"}]}]));
    body["categories"] = json!(["news"]);
    let (_, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body.clone())).await;
    let id = answer["data"][0].as_str().unwrap().to_string();
    common::wait_message_state(&s, &t, &id, "sent").await;
    let got = sink.wait_for(1, 10).await;
    let (token, list) = link_token(&got[0].raw);
    assert!(!list.to_lowercase().contains("reader"), "the link names no address: {list}");

    let page_path = paths::EMAIL_UNSUBSCRIBE.replace("{token}", &token);
    let page = s.client.get(s.url(&page_path)).send().await.unwrap();
    assert_eq!(page.status().as_u16(), 200, "no bearer token needed");
    assert!(page.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<form method=\"post\">") && html.contains("r***@client.example") && html.contains("news"),
        "{html}"
    );
    let forged = format!("{}x", &token[..token.len() - 1]);
    let r = s.client.post(s.url(&paths::EMAIL_UNSUBSCRIBE.replace("{token}", &forged))).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 404, "an altered token is refused");

    let r = s
        .client
        .post(s.url(&page_path))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let (_, listed) =
        call(&s, reqwest::Method::GET, &format!("{}?reason=unsubscribe", list_path("moneydesk.test")), &t, None).await;
    let entry = &listed["data"]["content"][0];
    assert_eq!(
        (entry["email"].as_str(), entry["category"].as_str()),
        (Some("reader@client.example"), Some("news")),
        "{listed}"
    );
    assert_eq!(entry["source"], format!("unsubscribe:{id}"));

    // The next news goes to nobody; other mail still reaches the reader, without the link.
    let (_, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body)).await;
    assert_eq!(answer["suppressed"][0]["reason"], "unsubscribe", "{answer}");
    let plain = mail(json!([{"to": [{"email": "reader@client.example"}]}]));
    let (_, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(plain)).await;
    assert!(answer.get("suppressed").is_none(), "{answer}");
    common::wait_message_state(&s, &t, answer["data"][0].as_str().unwrap(), "sent").await;
    let got = sink.wait_for(2, 10).await;
    let m = got[1].parsed();
    assert_eq!(m.header_raw("List-Unsubscribe").map(str::trim), Some("<mailto:unsubscribe@moneydesk.test>"));
    assert!(m.header_raw("List-Unsubscribe-Post").is_none());
}

async fn a_cancelled_batch_is_never_sent_and_a_paused_one_waits_for_its_resume(backend: Backend) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let (status, made) = call(&s, reqwest::Method::POST, paths::EMAIL_BATCHES, &t, None).await;
    assert_eq!(status, 201, "{made}");
    let batch = made["data"]["batchId"].as_str().unwrap().to_string();
    let at = chrono::Utc::now().timestamp() + 3;
    let mut body = mail(json!([{"to": [{"email": "one@client.example"}]}, {"to": [{"email": "two@client.example"}]}]));
    body["send_at"] = json!(at);
    body["batch_id"] = json!(batch);
    let (status, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body.clone())).await;
    assert_eq!(status, 202, "{answer}");
    let cancelled: Vec<String> =
        answer["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
    let mut own = mail(json!([{"to": [{"email": "three@client.example"}]}]));
    own["send_at"] = json!(at);
    let (_, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(own)).await;
    let held = answer["data"][0].as_str().unwrap().to_string();
    let (_, detail) =
        call(&s, reqwest::Method::GET, &paths::EMAIL_MESSAGE.replace("{messageId}", &held), &t, None).await;
    let own_batch = detail["data"]["batchId"].as_str().unwrap().to_string();

    let batch_path = |template: &str, id: &str| template.replace("{batchId}", id);
    let (status, got) = call(&s, reqwest::Method::GET, &batch_path(paths::EMAIL_BATCH, &batch), &t, None).await;
    assert_eq!((status, got["data"]["waiting"].as_u64()), (200, Some(2)), "{got}");
    let before = mark(&s).await;
    let (status, got) = call(&s, reqwest::Method::POST, &batch_path(paths::EMAIL_BATCH_CANCEL, &batch), &t, None).await;
    assert_eq!((status, got["data"]["state"].as_str()), (200, Some("cancelled")), "{got}");
    let (events, records) = written(&s, before).await;
    assert_eq!(events, ["email.failed", "email.failed", "email.batch.changed"]);
    assert_eq!(records, ["cancel_email_batch"]);
    let (status, _) = call(&s, reqwest::Method::POST, &batch_path(paths::EMAIL_BATCH_CANCEL, &batch), &t, None).await;
    assert_eq!(status, 409, "cancelled already");
    let (status, refused) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body)).await;
    assert_eq!((status, refused["errors"][0]["field"].as_str()), (400, Some("batch_id")), "{refused}");
    let (status, _) = call(&s, reqwest::Method::GET, &batch_path(paths::EMAIL_BATCH, "batch_0nothing"), &t, None).await;
    assert_eq!(status, 404);

    let (status, got) =
        call(&s, reqwest::Method::POST, &batch_path(paths::EMAIL_BATCH_PAUSE, &own_batch), &t, None).await;
    assert_eq!((status, got["data"]["state"].as_str()), (200, Some("paused")), "{got}");
    let (_, list) =
        call(&s, reqwest::Method::GET, &format!("{}?batchId={own_batch}", paths::EMAIL_MESSAGES), &t, None).await;
    let row = &list["data"]["content"][0];
    assert_eq!((row["state"].as_str(), row["paused"].as_bool()), (Some("scheduled"), Some(true)), "{row}");
    assert!(row["sendAt"].is_string() && row["nextAttemptAt"].is_null(), "{row}");

    // Past the send time, with the worker running: nothing goes.
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(sink.received().is_empty(), "neither the cancelled nor the paused batch was sent");
    for id in &cancelled {
        let d = common::wait_message_state(&s, &t, id, "failed").await;
        assert_eq!(d["attempts"], 0);
        assert!(d["lastReply"].as_str().unwrap().contains(&batch), "{d}");
    }

    let (status, _) =
        call(&s, reqwest::Method::POST, &batch_path(paths::EMAIL_BATCH_RESUME, &own_batch), &t, None).await;
    assert_eq!(status, 200);
    common::wait_message_state(&s, &t, &held, "sent").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = sink.received();
    assert_eq!(got.len(), 1, "only the resumed batch");
    assert_eq!(got[0].rcpt_tos, ["three@client.example"]);
    let (status, _) =
        call(&s, reqwest::Method::POST, &batch_path(paths::EMAIL_BATCH_PAUSE, &own_batch), &t, None).await;
    assert_eq!(status, 409, "nothing left to pause");
}

on_both_backends!(
    the_list_is_added_to_filtered_paged_and_removed_from_by_an_admin,
    a_suppressed_recipient_is_reported_and_not_delivered_while_the_others_are,
    a_bulk_send_carries_one_click_unsubscribe_and_the_link_records_the_address,
    a_cancelled_batch_is_never_sent_and_a_paused_one_waits_for_its_resume,
);
