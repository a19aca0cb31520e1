//! Bounces, complaints and deliverability (issue 46) over real HTTP and real SMTP: an active
//! sending domain's mail goes to a real relay (aiosmtpd, `common::smtp`) with its VERP return
//! path; delivery status notifications and ARF complaints come back through the inbound SMTP
//! listener (or are posted); what the relay receives afterwards is what is checked.

use crate::common;

use std::time::Duration;

use common::dns::DnsServer;
use common::smtp::SmtpSink;
use common::{call, Backend, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

const DOMAIN: &str = "notices.bank.example";

async fn start(backend: Backend, sink: &SmtpSink, dns: Option<&DnsServer>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let relay = sink.url();
    let dns = dns.map(|d| d.addr);
    Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.inbound.smtp = Some("127.0.0.1:0".parse().unwrap());
        c.email.verify.dns_server = dns;
        c.email.verify.dns_timeout = Duration::from_millis(500);
        c.email.auto_activate_domains = true;
    })
    .await
}

/// Registers `DOMAIN`, installs its records in the tests' DNS server and verifies it (active
/// at once: automatic activation).
async fn active_domain(s: &Server, dns: &DnsServer, t: &str) {
    let (_, b) = call(s, reqwest::Method::POST, paths::EMAIL_DOMAINS, t, Some(json!({"domain": DOMAIN}))).await;
    let d = &b["data"];
    for r in d["records"].as_array().unwrap().iter().chain(d["serviceRecords"].as_array().unwrap()) {
        let (host, value) = (r["host"].as_str().unwrap(), r["value"].as_str().unwrap());
        match r["type"].as_str().unwrap() {
            "CNAME" => dns.cname(host, value),
            _ => dns.txt(host, value),
        };
    }
    let (_, b) = call(s, reqwest::Method::POST, &paths::EMAIL_DOMAIN_VERIFY.replace("{domain}", DOMAIN), t, None).await;
    assert_eq!(b["data"]["state"], "active", "{b}");
}

async fn send(s: &Server, t: &str, from: &str, to: &[&str]) -> (Vec<String>, Value) {
    let personalizations: Vec<Value> = to.iter().map(|a| json!({"to": [{"email": a}]})).collect();
    let body = json!({"from": {"email": from}, "subject": "Statement", "content": [{"type": "text/plain", "value": "Hi"}],
        "personalizations": personalizations});
    let (status, answer) = call(s, reqwest::Method::POST, paths::EMAIL_SEND, t, Some(body)).await;
    assert_eq!(status, 202, "{answer}");
    (answer["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect(), answer)
}

/// A Postfix-shaped delivery status notification for `recipient`, returning the headers of
/// the message whose Message-ID is `message_id`.
fn dsn(recipient: &str, action: &str, status: &str, message_id: &str) -> Vec<u8> {
    format!(
        "From: MAILER-DAEMON@mx.client.example (Mail Delivery System)\r\n\
         Subject: Undelivered Mail Returned to Sender\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\r\n\
         --B1\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\
         --B1\r\nContent-Type: message/delivery-status\r\n\r\n\
         Reporting-MTA: dns; mx.client.example\r\n\r\n\
         Final-Recipient: rfc822; {recipient}\r\nAction: {action}\r\nStatus: {status}\r\n\
         Diagnostic-Code: smtp; {status_code} {status} <{recipient}>: Recipient address\r\n\t rejected: User unknown\r\n\r\n\
         --B1\r\nContent-Type: text/rfc822-headers\r\n\r\n\
         From: statements@{DOMAIN}\r\nTo: {recipient}\r\nMessage-ID: {message_id}\r\nSubject: Statement\r\n\r\n\
         --B1--\r\n",
        status_code = if status.starts_with('5') { 550 } else { 450 },
    )
    .into_bytes()
}

/// An ARF (RFC 5965) abuse report naming `recipient`.
fn arf(recipient: &str) -> Vec<u8> {
    format!(
        "From: feedback@fbl.mailbox.example\r\nSubject: Abuse report\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=feedback-report; boundary=\"A1\"\r\n\r\n\
         --A1\r\nContent-Type: text/plain\r\n\r\nA complaint.\r\n\
         --A1\r\nContent-Type: message/feedback-report\r\n\r\n\
         Feedback-Type: abuse\r\nUser-Agent: FBL/1.0\r\nVersion: 1\r\nOriginal-Rcpt-To: <{recipient}>\r\n\r\n\
         --A1\r\nContent-Type: message/rfc822\r\n\r\nFrom: statements@{DOMAIN}\r\nTo: {recipient}\r\nSubject: Statement\r\n\r\nHi\r\n\
         --A1--\r\n"
    )
    .into_bytes()
}

async fn post_report(s: &Server, token: &str, to: &str, raw: Vec<u8>) -> (u16, Value) {
    let r = s
        .client
        .post(s.url(paths::EMAIL_BOUNCE_REPORTS))
        .query(&[("to", to)])
        .bearer_auth(token)
        .header("content-type", "message/rfc822")
        .body(raw)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// The domain's suppression list: `email → (reason, source, detail)`.
async fn listed(s: &Server, t: &str, domain: &str) -> Vec<(String, String, String, String)> {
    let (_, b) = call(s, reqwest::Method::GET, &paths::EMAIL_SUPPRESSIONS.replace("{domain}", domain), t, None).await;
    b["data"]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let text = |k: &str| e[k].as_str().unwrap_or("").to_string();
            (text("email"), text("reason"), text("source"), text("detail"))
        })
        .collect()
}

async fn written_since(s: &Server, seq: i64) -> (Vec<String>, Vec<String>) {
    let db = &s.running.state.stores.database;
    let mut c = db.acquire().await.unwrap();
    let q = db.sql("SELECT type FROM events WHERE seq > ? ORDER BY seq").arg(seq);
    let events = c.exec().texts(&q).await.unwrap();
    let q = db.sql("SELECT operation FROM audit_records WHERE outcome = 'succeeded' ORDER BY id");
    (events, c.exec().texts(&q).await.unwrap())
}

async fn last_seq(s: &Server) -> i64 {
    let db = &s.running.state.stores.database;
    db.acquire().await.unwrap().exec().int(&db.sql("SELECT COALESCE(MAX(seq), 0) FROM events")).await.unwrap()
}

async fn a_hard_bounce_over_smtp_suppresses_the_address_and_a_soft_one_does_not(backend: Backend) {
    let sink = SmtpSink::start();
    let dns = DnsServer::start().await;
    let s = start(backend, &sink, Some(&dns)).await;
    let t = s.token(&[Scope::EmailSend]).await;
    active_domain(&s, &dns, &t).await;
    let from = format!("statements@{DOMAIN}");
    let (ids, _) = send(&s, &t, &from, &["Gone@client.example", "slow@client.example"]).await;
    for id in &ids {
        common::wait_message_state(&s, &t, id, "sent").await;
    }
    let got = sink.wait_for(2, 10).await;
    let verp = format!("bounces+{}@mdbounce.{DOMAIN}", ids[0]);
    let first = got.iter().find(|m| m.rcpt_tos == ["Gone@client.example"]).expect("sent to gone@");
    assert_eq!(first.mail_from, verp, "the VERP return path");
    let message_id = first.parsed().message_id().unwrap().to_string();

    // The hard bounce, to the return path over SMTP.
    let before = last_seq(&s).await;
    let smtp = s.running.inbound_smtp_addr().expect("the listener runs");
    let raw = dsn("gone@client.example", "failed", "5.1.1", &format!("<{message_id}>"));
    crate::email_inbound_support::smtp_send(smtp, "mailer-daemon@mx.client.example", &verp, &raw).await.expect("250");
    let list = listed(&s, &t, DOMAIN).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!((list[0].0.as_str(), list[0].1.as_str()), ("gone@client.example", "bounce"));
    assert_eq!(list[0].2, format!("bounce:{}", ids[0]));
    assert!(list[0].3.contains("5.1.1") && list[0].3.contains("User unknown"), "the diagnostic: {list:?}");
    let (events, audit) = written_since(&s, before).await;
    assert_eq!(events, ["email.suppression.added", "email.bounced"]);
    assert_eq!(audit.last().map(String::as_str), Some("job:email_bounce_report"));
    // The relay sends the same report again (after a 451 for another recipient of it, or a
    // 250 it never read): answered, and kept once: no second bounce, suppression or event.
    let before = last_seq(&s).await;
    crate::email_inbound_support::smtp_send(smtp, "mailer-daemon@mx.client.example", &verp, &raw).await.expect("250");
    assert_eq!(written_since(&s, before).await, (vec![], audit), "nothing written for the same delivery");
    assert_eq!(listed(&s, &t, DOMAIN).await.len(), 1);
    let detail = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    assert_eq!(detail["bounces"].as_array().map(Vec::len), Some(1), "{detail}");
    let b = &detail["bounces"][0];
    assert_eq!(
        (b["kind"].as_str(), b["status"].as_str(), b["suppressed"].as_bool()),
        (Some("hard"), Some("5.1.1"), Some(true)),
        "{detail}"
    );

    // A soft bounce (the VERP of the second message, matched by it alone): recorded, not suppressed.
    let verp2 = format!("bounces+{}@mdbounce.{DOMAIN}", ids[1]);
    let raw = dsn("slow@client.example", "delayed", "4.4.1", "<unknown@elsewhere.example>");
    crate::email_inbound_support::smtp_send(smtp, "mailer-daemon@mx.client.example", &verp2, &raw).await.expect("250");
    let detail = common::wait_message_state(&s, &t, &ids[1], "sent").await;
    assert_eq!(
        (detail["bounces"][0]["kind"].as_str(), detail["bounces"][0]["suppressed"].as_bool()),
        (Some("soft"), Some(false))
    );
    assert_eq!(listed(&s, &t, DOMAIN).await.len(), 1, "a soft bounce suppresses nobody");

    // The next send drops the bounced address; the relay receives the other only.
    let (ids, answer) = send(&s, &t, &from, &["gone@client.example", "slow@client.example"]).await;
    assert_eq!(answer["suppressed"][0]["reason"], "bounce", "{answer}");
    common::wait_message_state(&s, &t, &ids[1], "sent").await;
    common::wait_message_state(&s, &t, &ids[0], "failed").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = sink.received();
    assert_eq!(got.len(), 3, "only one more");
    assert_eq!(got[2].rcpt_tos, ["slow@client.example"]);

    // The figures: 4 accepted, 3 delivered, one hard bounce of 3 (33 %: over 2 %), one soft.
    let (status, f) = call(&s, reqwest::Method::GET, paths::EMAIL_DELIVERABILITY, &t, None).await;
    assert_eq!(status, 200, "{f}");
    let d = f["data"]["domains"].as_array().unwrap().iter().find(|d| d["domain"] == DOMAIN).unwrap().clone();
    assert_eq!((d["sent"].as_u64(), d["delivered"].as_u64()), (Some(4), Some(3)), "{d}");
    assert_eq!(
        (d["hardBounces"].as_u64(), d["softBounces"].as_u64(), d["complaints"].as_u64()),
        (Some(1), Some(1), Some(0))
    );
    assert_eq!((d["bounceRate"].as_str(), d["complaintRate"].as_str()), (Some("0.3333"), Some("0.0000")));
    assert_eq!(d["flags"], json!(["bounce_rate_high"]));
    assert_eq!(f["data"]["latest"].as_array().unwrap().len(), 2);
    let (status, _) =
        call(&s, reqwest::Method::GET, &format!("{}?from=2026-02-30", paths::EMAIL_DELIVERABILITY), &t, None).await;
    assert_eq!(status, 400);
    let (status, cut) = call(
        &s,
        reqwest::Method::GET,
        &format!("{}?from=2020-01-01&to=2026-01-01", paths::EMAIL_DELIVERABILITY),
        &t,
        None,
    )
    .await;
    assert_eq!((status, cut["data"]["from"].as_str()), (200, Some("2025-01-01")), "cut to its last 366 days: {cut}");
    let (status, _) = call(
        &s,
        reqwest::Method::GET,
        &format!("{}?from=2026-01-02&to=2026-01-01", paths::EMAIL_DELIVERABILITY),
        &t,
        None,
    )
    .await;
    assert_eq!(status, 400, "from after to");
}

async fn a_complaint_suppresses_and_mail_that_is_no_report_is_kept_as_unparseable(backend: Backend) {
    let sink = SmtpSink::start();
    let dns = DnsServer::start().await;
    let s = start(backend, &sink, Some(&dns)).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let admin = s.token(&[Scope::Admin]).await;
    active_domain(&s, &dns, &t).await;
    let (ids, _) = send(&s, &t, &format!("statements@{DOMAIN}"), &["reader@mailbox.example"]).await;
    common::wait_message_state(&s, &t, &ids[0], "sent").await;
    let verp = format!("bounces+{}@mdbounce.{DOMAIN}", ids[0]);

    let (status, _) = post_report(&s, &t, &verp, arf("reader@mailbox.example")).await;
    assert_eq!(status, 403, "posting a report takes admin");
    let before = last_seq(&s).await;
    let (status, r) = post_report(&s, &admin, &verp, arf("Reader@Mailbox.example")).await;
    assert_eq!(status, 201, "{r}");
    assert_eq!(
        (r["data"]["state"].as_str(), r["data"]["reportType"].as_str()),
        (Some("processed"), Some("feedback-report"))
    );
    assert_eq!(r["data"]["bounces"][0]["kind"], "complaint");
    let list = listed(&s, &t, DOMAIN).await;
    assert_eq!((list[0].0.as_str(), list[0].1.as_str()), ("reader@mailbox.example", "spam_complaint"), "{list:?}");
    let (events, audit) = written_since(&s, before).await;
    assert_eq!(events, ["email.suppression.added", "email.complained"]);
    assert_eq!(audit.last().map(String::as_str), Some("post_email_bounce_report"));

    // Not a report, over SMTP to the return path: taken (250), kept, said to be unparseable.
    let smtp = s.running.inbound_smtp_addr().expect("the listener runs");
    let ooo = b"From: reader@mailbox.example\r\nSubject: Out of office\r\n\r\nAway until Monday.\r\n";
    crate::email_inbound_support::smtp_send(smtp, "reader@mailbox.example", &verp, ooo).await.expect("250");
    let (status, r) =
        call(&s, reqwest::Method::GET, &format!("{}?state=unparseable", paths::EMAIL_BOUNCE_REPORTS), &t, None).await;
    assert_eq!(status, 200, "{r}");
    let kept = r["data"].as_array().unwrap();
    assert_eq!(kept.len(), 1, "{r}");
    assert_eq!((kept[0]["receivedBy"].as_str(), kept[0]["rcptTo"].as_str()), (Some("smtp"), Some(verp.as_str())));
    assert!(kept[0]["problem"].as_str().unwrap().contains("not multipart/report"), "{r}");
    // Posted, the same: 201, never a 500.
    let (status, r) = post_report(&s, &admin, "", b"just words, no header".to_vec()).await;
    assert_eq!((status, r["data"]["state"].as_str()), (201, Some("unparseable")), "{r}");

    // A return path of a domain that is not registered is refused at RCPT.
    assert_eq!(
        crate::email_inbound_support::smtp_send(smtp, "x@y.example", "bounces+msg_1@mdbounce.other.example", ooo).await,
        Err(Some(550))
    );
    let (_, f) = call(&s, reqwest::Method::GET, paths::EMAIL_DELIVERABILITY, &t, None).await;
    assert_eq!(f["data"]["unparseableReports"], 2, "{f}");
    let d = &f["data"]["domains"][0];
    assert_eq!((d["complaints"].as_u64(), d["complaintRate"].as_str()), (Some(1), Some("1.0000")));
    assert_eq!(d["flags"], json!(["complaint_rate_high"]));
}

async fn an_address_suppressed_after_acceptance_is_not_sent_to_and_a_message_left_with_nobody_is_not_resent(
    backend: Backend,
) {
    let sink = SmtpSink::start();
    let s = start(backend, &sink, None).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let at = chrono::Utc::now().timestamp() + 3;
    let body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Later", "content": [{"type": "text/plain", "value": "Hi"}],
        "send_at": at,
        "personalizations": [{"to": [{"email": "stays@client.example"}, {"email": "Leaves@client.example"}]}, {"to": [{"email": "alone@client.example"}]}]});
    let (status, answer) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(body)).await;
    assert_eq!(status, 202, "{answer}");
    let ids: Vec<String> = answer["data"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().into()).collect();
    // Suppressed while the messages wait for their time.
    let entries = json!({"entries": [{"email": "leaves@client.example"}, {"email": "alone@client.example"}]});
    let list = paths::EMAIL_SUPPRESSIONS.replace("{domain}", "moneydesk.test");
    assert_eq!(call(&s, reqwest::Method::POST, &list, &t, Some(entries)).await.0, 201);

    let sent = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    assert_eq!(sent["suppressed"][0]["email"], "Leaves@client.example", "{sent}");
    assert_eq!(sent["to"], json!(["stays@client.example"]));
    let nobody = common::wait_message_state(&s, &t, &ids[1], "failed").await;
    assert!(nobody["lastReply"].as_str().unwrap().contains("after the message was accepted"), "{nobody}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = sink.received();
    assert_eq!(got.len(), 1, "the message with nobody left never reached the relay");
    assert_eq!(got[0].rcpt_tos, ["stays@client.example"]);

    let resend = paths::EMAIL_MESSAGE_RESEND.replace("{messageId}", &ids[1]);
    let (status, b) = call(&s, reqwest::Method::POST, &resend, &t, None).await;
    assert_eq!(status, 409, "{b}");
    assert!(b["errorMessage"].as_str().unwrap().contains("every recipient is on the suppression list"), "{b}");
}

on_both_backends!(
    a_hard_bounce_over_smtp_suppresses_the_address_and_a_soft_one_does_not,
    a_complaint_suppresses_and_mail_that_is_no_report_is_kept_as_unparseable,
    an_address_suppressed_after_acceptance_is_not_sent_to_and_a_message_left_with_nobody_is_not_resent,
);
