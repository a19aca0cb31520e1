//! Inbound mail over real HTTP and real SMTP: routes, raw MIME in (multipart with
//! attachments, non-UTF-8 charsets, encoded words, a malformed message), the signed
//! multipart/form-data POST at a local receiver whose signature check passes, retries on the
//! documented schedule against a failing receiver, redelivery, secret rotation, and SMTP into
//! the listener (250 for a routed domain, 550 for an unknown one, 552 for an oversize message).

use crate::common;

use crate::email_inbound_support;

use std::time::{Duration, Instant};

use common::Backend;
use email_inbound_support::*;
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn raw_mime_in_arrives_signed_with_every_part(backend: Backend) {
    let receiver = Receiver::start(&[]).await;
    let s = start(backend, |_| {}).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let secret = route(&s, &t, "in.bank.example", &receiver.url).await;
    assert!(secret.starts_with("whsec_") && secret.len() == 49, "{secret}");

    let (status, b) = post_raw(&s, &t, "", &statement_notice("ops@in.bank.example")).await;
    assert_eq!(status, 202, "{b}");
    let ids = b["data"]["ids"].as_array().unwrap().clone();
    assert_eq!(ids.len(), 1, "one message: the Cc's domain has no route");
    let id = ids[0].as_str().unwrap();

    let hits = receiver.wait_for(1).await;
    assert_eq!(hits.len(), 1);
    let hit = &hits[0];
    assert!(signature_holds(hit, &secret), "the receiver's check passes");
    assert!(!signature_holds(hit, "whsec_someone-else"), "and fails with another secret");
    assert_eq!(hit.headers["moneydesk-delivery"], id);
    assert_eq!(hit.headers["moneydesk-attempt"], "1");
    let stamp: i64 = hit.headers["moneydesk-timestamp"].to_str().unwrap().parse().unwrap();
    assert!((stamp - chrono::Utc::now().timestamp()).abs() < 60);

    let p = parts(hit).await;
    let names: Vec<&str> = p.iter().map(|x| x.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "headers",
            "text",
            "html",
            "from",
            "to",
            "cc",
            "subject",
            "envelope",
            "charsets",
            "spam_score",
            "attachments",
            "attachment-info",
            "attachment1",
            "attachment2"
        ]
    );
    assert!(text(&p, "headers").contains("Message-ID: <n1@corp.example>"));
    assert_eq!(
        text(&p, "text").trim_end(),
        "Café crème: votre relevé est joint.",
        "ISO-8859-1 quoted-printable, sent as UTF-8"
    );
    assert!(text(&p, "html").contains("<p>Café crème"));
    assert_eq!(text(&p, "from"), "Société Générale <notices@corp.example>");
    assert_eq!(text(&p, "to"), "Operations <ops@in.bank.example>");
    assert_eq!(text(&p, "cc"), "archive@elsewhere.example");
    assert_eq!(text(&p, "subject"), "Relevé de compte");
    let envelope: Value = serde_json::from_str(&text(&p, "envelope")).unwrap();
    assert_eq!(envelope, json!({"from": "notices@corp.example", "to": ["ops@in.bank.example"]}));
    let charsets: Value = serde_json::from_str(&text(&p, "charsets")).unwrap();
    assert_eq!(charsets["text"], "iso-8859-1");
    assert_eq!(charsets["html"], "utf-8");
    assert_eq!(charsets["subject"], "iso-8859-1");
    assert_eq!(charsets["from"], "utf-8");
    assert_eq!(text(&p, "spam_score"), "1.5");
    assert_eq!(text(&p, "attachments"), "2");
    let info: Value = serde_json::from_str(&text(&p, "attachment-info")).unwrap();
    assert_eq!(info["attachment1"], json!({"filename": "statement.pdf", "type": "application/pdf", "size": PDF.len()}));
    assert_eq!(info["attachment2"]["filename"], "résumé.png");
    assert_eq!(info["attachment2"]["content-id"], "logo@corp.example");
    let a1 = part(&p, "attachment1").unwrap();
    assert_eq!((a1.1.as_deref(), a1.2.as_deref()), (Some("statement.pdf"), Some("application/pdf")));
    assert_eq!(a1.3, PDF, "the attachment's bytes, exactly");
    assert_eq!(part(&p, "attachment2").unwrap().1.as_deref(), Some("résumé.png"));

    let d = wait_state(&s, &t, id, "delivered").await;
    assert_eq!(d["subject"], "Relevé de compte");
    assert_eq!(d["receivedBy"], "api");
    assert_eq!(d["rcptTo"], json!(["ops@in.bank.example"]));
    assert_eq!(d["attemptsMade"][0]["status"], 200);
    assert_eq!(d["attemptsMade"][0]["url"], receiver.url.as_str());
    assert_eq!(d["attemptsMade"][0]["result"], "200 OK: receiver says 200");
    assert_eq!(d["attachments"][0]["filename"], "statement.pdf");

    let (status, list) =
        call(&s, reqwest::Method::GET, &format!("{}?domain=in.bank.example", paths::EMAIL_INBOUND_MESSAGES), &t, None)
            .await;
    assert_eq!(status, 200);
    assert_eq!(list["data"][0]["id"], id);
    let (_, routes) = call(&s, reqwest::Method::GET, paths::EMAIL_INBOUND_ROUTES, &t, None).await;
    assert_eq!(routes["data"][0]["received"], 1);
    assert_eq!(routes["data"][0]["mxHost"], "mx.moneydesk.test");
    assert_eq!(routes["data"][0]["secretHint"], &secret[secret.len() - 4..]);
    assert!(routes["data"][0].get("secret").is_none(), "lists never show the secret");
}

async fn a_failing_receiver_gets_retries_on_the_documented_schedule(backend: Backend) {
    let receiver = Receiver::start(&[503, 500]).await;
    let base = Duration::from_millis(400);
    let s = start(backend, move |c| {
        c.email.inbound.retry_base = base;
        c.email.inbound.retry_max = Duration::from_secs(10);
    })
    .await;
    let t = s.token(&[Scope::EmailSend]).await;
    route(&s, &t, "in.bank.example", &receiver.url).await;
    let (status, b) = post_raw(
        &s,
        &t,
        "to=ops@in.bank.example&from=bounce@corp.example",
        b"From: a@corp.example\r\nSubject: retry me\r\n\r\nhello\r\n",
    )
    .await;
    assert_eq!(status, 202, "{b}");
    let id = b["data"]["ids"][0].as_str().unwrap().to_string();

    let hits = receiver.wait_for(3).await;
    assert_eq!(hits.len(), 3, "503, 500, then 200");
    // The documented schedule: the base after the first failure, doubled after the second.
    assert!(hits[1].at - hits[0].at >= base, "{:?}", hits[1].at - hits[0].at);
    assert!(hits[2].at - hits[1].at >= base * 2, "{:?}", hits[2].at - hits[1].at);
    let attempts: Vec<&str> = hits.iter().map(|h| h.headers["moneydesk-attempt"].to_str().unwrap()).collect();
    assert_eq!(attempts, ["1", "2", "3"]);
    assert!(
        hits.iter().all(|h| h.headers["moneydesk-delivery"] == id.as_str()),
        "the same delivery id on every attempt"
    );
    let envelope: Value = serde_json::from_str(&text(&parts(&hits[0]).await, "envelope")).unwrap();
    assert_eq!(envelope, json!({"from": "bounce@corp.example", "to": ["ops@in.bank.example"]}));

    let d = wait_state(&s, &t, &id, "delivered").await;
    let statuses: Vec<Value> = d["attemptsMade"].as_array().unwrap().iter().map(|a| a["status"].clone()).collect();
    assert_eq!(statuses, [json!(503), json!(500), json!(200)]);
    assert_eq!(d["attemptsMade"][0]["result"], "503 Service Unavailable: receiver says 503");
    assert_eq!(d["attempts"], 3);

    // Redelivery posts it once more; a second redelivery while it is pending is refused.
    let redeliver = paths::EMAIL_INBOUND_REDELIVER.replace("{messageId}", &id);
    receiver.script.lock().unwrap().push_back(500);
    let (status, b) = call(&s, reqwest::Method::POST, &redeliver, &t, None).await;
    assert_eq!(status, 202, "{b}");
    let (status, _) = call(&s, reqwest::Method::POST, &redeliver, &t, None).await;
    assert_eq!(status, 409, "still being delivered");
    receiver.wait_for(5).await;
    let d = wait_state(&s, &t, &id, "delivered").await;
    assert_eq!(d["attempts"], 5, "{d}");
}

on_both_backends!(
    raw_mime_in_arrives_signed_with_every_part,
    a_failing_receiver_gets_retries_on_the_documented_schedule,
    a_message_read_while_it_is_retried_agrees_with_its_attempts,
    smtp_into_the_listener_is_delivered_and_unknown_domains_and_oversize_mail_are_refused
);

#[tokio::test]
async fn a_receiver_that_never_accepts_fails_when_the_retry_window_closes_and_can_be_redelivered() {
    let receiver = Receiver::start(&[500; 100]).await;
    let s = start(Backend::Sqlite, |c| {
        c.email.inbound.retry_base = Duration::from_millis(200);
        c.email.inbound.retry_for = Duration::from_secs(1);
    })
    .await;
    let t = s.token(&[Scope::EmailSend]).await;
    route(&s, &t, "in.bank.example", &receiver.url).await;
    let (_, b) =
        post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: x\r\n\r\nhello\r\n").await;
    let id = b["data"]["ids"][0].as_str().unwrap().to_string();
    let d = wait_state(&s, &t, &id, "failed").await;
    let made = d["attemptsMade"].as_array().unwrap();
    assert!(made.len() >= 2, "{d}");
    assert!(d["lastResult"].as_str().unwrap().contains("gave up after"), "{d}");
    let (_, routes) = call(&s, reqwest::Method::GET, paths::EMAIL_INBOUND_ROUTES, &t, None).await;
    assert_eq!(routes["data"][0]["failed"], 1);

    receiver.script.lock().unwrap().clear();
    let (status, _) =
        call(&s, reqwest::Method::POST, &paths::EMAIL_INBOUND_REDELIVER.replace("{messageId}", &id), &t, None).await;
    assert_eq!(status, 202);
    let d = wait_state(&s, &t, &id, "delivered").await;
    assert_eq!(d["attemptsMade"].as_array().unwrap().last().unwrap()["status"], 200);
}

#[tokio::test]
async fn a_rotated_secret_signs_the_next_posts_and_an_unreachable_receiver_is_recorded() {
    let receiver = Receiver::start(&[]).await;
    let s = start(Backend::Sqlite, |c| c.email.inbound.retry_base = Duration::from_millis(200)).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let old = route(&s, &t, "in.bank.example", &receiver.url).await;
    let (status, b) = call(
        &s,
        reqwest::Method::POST,
        &paths::EMAIL_INBOUND_ROUTE_SECRET.replace("{domain}", "in.bank.example"),
        &t,
        None,
    )
    .await;
    assert_eq!(status, 200, "{b}");
    let new = b["data"]["secret"].as_str().unwrap().to_string();
    assert_ne!(old, new);
    post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: x\r\n\r\nhello\r\n").await;
    let hit = receiver.wait_for(1).await[0].clone();
    assert!(signature_holds(&hit, &new));
    assert!(!signature_holds(&hit, &old), "the old secret stopped at once");

    // A URL nobody listens on: refused connections are attempts too, retried.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/inbound", closed.local_addr().unwrap());
    drop(closed);
    let (status, b) = call(
        &s,
        reqwest::Method::PUT,
        &paths::EMAIL_INBOUND_ROUTE.replace("{domain}", "in.bank.example"),
        &t,
        Some(json!({"url": dead})),
    )
    .await;
    assert_eq!(status, 200, "{b}");
    let (_, b) =
        post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: y\r\n\r\nhello\r\n").await;
    let id = b["data"]["ids"][0].as_str().unwrap().to_string();
    // Waiting for a second attempt and the message pending again (the third is 400 ms off:
    // a slow poll may see it under way, which is no failure).
    let until = Instant::now() + Duration::from_secs(20);
    let d = loop {
        let d = detail(&s, &t, &id).await;
        let retried = d["attemptsMade"].as_array().unwrap().len() >= 2 && d["state"] == "pending";
        if retried || Instant::now() > until {
            break d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(d["state"], "pending", "{d}");
    assert!(d["attemptsMade"].as_array().unwrap().len() >= 2, "{d}");
    let last = d["attemptsMade"].as_array().unwrap().last().unwrap().clone();
    assert_ne!(last["result"], "delivering", "a pending message's attempts are all over: {d}");
    assert!(d["attemptsMade"][0]["status"].is_null());
    assert!(d["attemptsMade"][0]["result"].as_str().unwrap().starts_with("could not connect"), "{d}");
}

#[tokio::test]
async fn routes_are_checked_and_only_an_administrator_deletes_one() {
    let s = start(Backend::Sqlite, |_| {}).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let admin = s.token(&[Scope::Admin]).await;
    for (body, field) in [
        (json!({"domain": "not a domain", "url": "https://hooks.bank.example/in"}), "domain"),
        (json!({"domain": "in.bank.example", "url": "ftp://hooks.bank.example/in"}), "url"),
        (json!({"domain": "in.bank.example", "url": "https://user:pw@hooks.bank.example/in"}), "url"),
    ] {
        let (status, b) = call(&s, reqwest::Method::POST, paths::EMAIL_INBOUND_ROUTES, &t, Some(body)).await;
        assert_eq!((status, b["errors"][0]["field"].as_str()), (400, Some(field)), "{b}");
    }
    route(&s, &t, "In.Bank.Example", "https://hooks.bank.example/in").await;
    let (status, _) = call(
        &s,
        reqwest::Method::POST,
        paths::EMAIL_INBOUND_ROUTES,
        &t,
        Some(json!({"domain": "in.bank.example", "url": "https://x.example/"})),
    )
    .await;
    assert_eq!(status, 409, "one route a domain");
    let path = paths::EMAIL_INBOUND_ROUTE.replace("{domain}", "in.bank.example");
    assert_eq!(call(&s, reqwest::Method::DELETE, &path, &t, None).await.0, 403);
    assert_eq!(call(&s, reqwest::Method::DELETE, &path, &admin, None).await.0, 204);
    assert_eq!(call(&s, reqwest::Method::GET, &path, &t, None).await.0, 404);
}

#[tokio::test]
async fn a_malformed_message_is_refused_and_damaged_mime_is_taken_as_far_as_it_reads() {
    let receiver = Receiver::start(&[]).await;
    let s = start(Backend::Sqlite, |_| {}).await;
    let t = s.token(&[Scope::EmailSend]).await;
    route(&s, &t, "in.bank.example", &receiver.url).await;
    let (status, b) = post_raw(&s, &t, "to=ops@in.bank.example", b"no header section here, only words").await;
    assert_eq!((status, b["errors"][0]["field"].as_str()), (400, Some("message")), "{b}");
    assert!(b["errorMessage"].as_str().unwrap().contains("header section"), "{b}");
    let (status, b) = post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@nowhere.example\r\n\r\nhi\r\n").await;
    assert_eq!(status, 404, "{b}");
    assert!(b["errorMessage"].as_str().unwrap().contains("No inbound route for nowhere.example"), "{b}");
    let (status, b) = post_raw(&s, &t, "", b"From: a@corp.example\r\nSubject: to nobody\r\n\r\nhi\r\n").await;
    assert_eq!((status, b["errors"][0]["field"].as_str()), (400, Some("to")), "{b}");

    // A multipart whose closing boundary never comes, with a broken base64 attachment.
    let damaged = b"From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: damaged\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nthe text\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"x.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC!!!not base64";
    let (status, b) = post_raw(&s, &t, "", damaged).await;
    assert_eq!(status, 202, "{b}");
    let p = parts(&receiver.wait_for(1).await[0]).await;
    assert_eq!(text(&p, "subject"), "damaged");
    assert_eq!(text(&p, "text").trim_end(), "the text");
    assert_eq!(text(&p, "attachments"), "1");
}

async fn smtp_into_the_listener_is_delivered_and_unknown_domains_and_oversize_mail_are_refused(backend: Backend) {
    let receiver = Receiver::start(&[]).await;
    let s = start(backend, |c| c.email.inbound.max_size = 16 * 1024).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let secret = route(&s, &t, "in.bank.example", &receiver.url).await;
    let smtp = s.running.inbound_smtp_addr().expect("the listener runs");

    // Dot-stuffing: a body line that starts with a dot arrives with its dot. (lettre ends
    // the data with CRLF . CRLF itself, so the last line has no CRLF of its own here.)
    let raw = b"From: Sender <sender@corp.example>\r\nTo: ops@in.bank.example\r\nSubject: over SMTP\r\n\r\n.leading dot\r\nlast line";
    smtp_send(smtp, "sender@corp.example", "ops@in.bank.example", raw).await.expect("250");
    let hit = receiver.wait_for(1).await[0].clone();
    assert!(signature_holds(&hit, &secret));
    let p = parts(&hit).await;
    assert_eq!(text(&p, "subject"), "over SMTP");
    assert_eq!(text(&p, "text"), ".leading dot\r\nlast line\r\n");
    assert!(text(&p, "headers").starts_with("Received: from "), "a trace field first: {}", text(&p, "headers"));
    let envelope: Value = serde_json::from_str(&text(&p, "envelope")).unwrap();
    assert_eq!(envelope, json!({"from": "sender@corp.example", "to": ["ops@in.bank.example"]}));

    // A relay that never read the 250 sends the same delivery again: answered 250, and kept
    // once (the list below). The same bytes from another envelope sender are a message of
    // their own.
    smtp_send(smtp, "sender@corp.example", "ops@in.bank.example", raw).await.expect("250 for the retry");
    smtp_send(smtp, "other@corp.example", "ops@in.bank.example", raw).await.expect("250");
    let hit = receiver.wait_for(2).await[1].clone();
    let envelope: Value = serde_json::from_str(&text(&parts(&hit).await, "envelope")).unwrap();
    assert_eq!(envelope["from"], "other@corp.example", "the second message posted is the other sender's");

    assert_eq!(
        smtp_send(smtp, "sender@corp.example", "ops@unknown.example", raw).await,
        Err(Some(550)),
        "unknown domain refused at RCPT"
    );
    let big = [&raw[..], &vec![b'x'; 20 * 1024][..], b"\r\n"].concat();
    assert_eq!(
        smtp_send(smtp, "sender@corp.example", "ops@in.bank.example", &big).await,
        Err(Some(552)),
        "oversize refused after DATA"
    );

    // SIZE= announced in MAIL is refused before the message is sent.
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let stream = tokio::net::TcpStream::connect(smtp).await.unwrap();
    let (r, mut w) = stream.into_split();
    let mut lines = BufReader::new(r).lines();
    assert!(lines.next_line().await.unwrap().unwrap().starts_with("220 "));
    w.write_all(b"EHLO test.example\r\n").await.unwrap();
    let mut ehlo = Vec::new();
    loop {
        let l = lines.next_line().await.unwrap().unwrap();
        let last = l.starts_with("250 ");
        ehlo.push(l);
        if last {
            break;
        }
    }
    assert!(ehlo.iter().any(|l| l == "250-SIZE 16384"), "{ehlo:?}");
    w.write_all(b"MAIL FROM:<sender@corp.example> SIZE=999999\r\n").await.unwrap();
    assert!(lines.next_line().await.unwrap().unwrap().starts_with("552 5.3.4"));
    w.write_all(b"RCPT TO:<ops@in.bank.example>\r\n").await.unwrap();
    assert!(lines.next_line().await.unwrap().unwrap().starts_with("503 "), "no MAIL was taken");
    w.write_all(b"QUIT\r\n").await.unwrap();
    assert!(lines.next_line().await.unwrap().unwrap().starts_with("221 "));

    assert_eq!(receiver.hits().len(), 2, "the two messages taken, each posted once");
    let (_, list) = call(&s, reqwest::Method::GET, paths::EMAIL_INBOUND_MESSAGES, &t, None).await;
    let senders: Vec<&str> = list["data"].as_array().unwrap().iter().map(|m| m["mailFrom"].as_str().unwrap()).collect();
    assert_eq!(senders.len(), 2, "the retry kept once: {list}");
    assert!(senders.contains(&"sender@corp.example") && senders.contains(&"other@corp.example"), "{senders:?}");
    assert_eq!(list["data"][0]["receivedBy"], "smtp");
}

async fn a_message_read_while_it_is_retried_agrees_with_its_attempts(backend: Backend) {
    // Retried every few milliseconds at an address nobody listens on, read as fast as it
    // goes: every answer's state must match its attempts (under way exactly when the last
    // attempt is), which two reads one after the other did not always (seen in CI).
    let s = start(backend, |c| {
        c.email.inbound.retry_base = Duration::from_millis(1);
        c.email.inbound.retry_max = Duration::from_millis(5);
    })
    .await;
    let t = s.token(&[Scope::EmailSend]).await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/inbound", closed.local_addr().unwrap());
    drop(closed);
    route(&s, &t, "in.bank.example", &dead).await;
    let (_, b) =
        post_raw(&s, &t, "", b"From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: z\r\n\r\nhello\r\n").await;
    let id = b["data"]["ids"][0].as_str().unwrap().to_string();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..1000 {
        let d = detail(&s, &t, &id).await;
        let attempts = d["attemptsMade"].as_array().unwrap();
        let last_under_way = attempts.last().is_some_and(|a| a["result"] == "delivering");
        assert_eq!(d["state"] == "delivering", last_under_way, "{d}");
        assert_eq!(d["attempts"].as_u64().unwrap() as usize, attempts.len(), "{d}");
        seen.insert(d["state"].as_str().unwrap().to_string());
    }
    assert!(seen.len() > 1 || seen.contains("pending"), "the message was retried while read: {seen:?}");
}
