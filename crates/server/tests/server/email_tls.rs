//! Implicit TLS (`smtps://`) to a real relay: aiosmtpd speaking TLS from the first byte with a
//! certificate for 127.0.0.1 issued by a test CA made here (openssl). Trusted through
//! `MONEYDESK_SMTP_CA_FILE`, messages arrive over our own `TCP_NODELAY` socket; without it the
//! relay's certificate is refused and the message waits, deferred.

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::certificates::certificates;
use common::smtp::SmtpSink;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn start(sink: &SmtpSink, ca: Option<&Path>) -> Server {
    let (relay, ca) = (sink.url(), ca.map(Path::to_path_buf));
    Server::start_with(|c| {
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.smtp_ca_file = ca;
    })
    .await
}

async fn send(s: &Server, token: &str) -> String {
    let body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Over TLS", "content": [{"type": "text/plain", "value": "Sealed"}],
        "personalizations": [{"to": [{"email": "zoe@client.example"}]}]});
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(token).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 202);
    json(r).await["data"][0].as_str().unwrap().to_string()
}

/// Polls a message until `done` holds of it (at most 20 s).
async fn wait(s: &Server, token: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let d = json(s.get_auth(&paths::EMAIL_MESSAGE.replace("{messageId}", id), token).await).await["data"].clone();
        if done(&d) || Instant::now() > deadline {
            assert!(done(&d), "{d}");
            return d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_relay_speaking_implicit_tls_gets_the_messages_when_its_ca_is_trusted() {
    let certs = tempfile::tempdir().unwrap();
    certificates(certs.path());
    let sink = SmtpSink::start_tls(certs.path().join("server.pem"), certs.path().join("server.key"));
    assert!(sink.url().starts_with("smtps://"));
    let s = start(&sink, Some(&certs.path().join("ca.pem"))).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let ids = [send(&s, &t).await, send(&s, &t).await];
    for id in &ids {
        let sent = wait(&s, &t, id, |d| d["state"] == "sent").await;
        assert!(sent["lastReply"].as_str().unwrap().starts_with("250"), "{sent}");
    }
    let got = sink.wait_for(2, 10).await;
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].parsed().subject(), Some("Over TLS"));
}

#[tokio::test]
async fn a_relay_whose_certificate_is_not_trusted_is_not_sent_to() {
    let certs = tempfile::tempdir().unwrap();
    certificates(certs.path());
    let sink = SmtpSink::start_tls(certs.path().join("server.pem"), certs.path().join("server.key"));
    let s = start(&sink, None).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let id = send(&s, &t).await;
    let deferred = wait(&s, &t, &id, |d| d["state"] == "deferred").await;
    let reply = deferred["lastReply"].as_str().unwrap().to_ascii_lowercase();
    assert!(reply.starts_with("relay not reached") && reply.contains("certificate"), "{deferred}");
    assert!(sink.received().is_empty());
}

#[tokio::test]
async fn a_ca_file_without_a_certificate_stops_the_server_from_starting() {
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, "not a certificate\n").unwrap();
    let mut c = moneydesk_server::Config::for_tests(dir.path());
    c.email.worker = true;
    c.email.smtp_url = Some("smtps://127.0.0.1:465".into());
    c.email.smtp_ca_file = Some(ca);
    let err = match moneydesk_server::start(c).await {
        Ok(_) => panic!("the server started with a CA file holding no certificate"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("MONEYDESK_SMTP_CA_FILE") && err.contains("no PEM certificate"), "{err}");
}
