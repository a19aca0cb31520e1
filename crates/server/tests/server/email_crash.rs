//! `kill -9` of the server binary while it delivers a queue to a real SMTP relay, then a
//! restart on the same data: every message arrives and ends `sent`. A message can reach the
//! relay twice only if the kill fell between the relay's 250 and its record (the restart rule
//! of `email::delivery`; SMTP cannot close that window, RFC 1047): at most the attempts under
//! way at the kill, and then as the very same bytes (Message-ID, Date), which receivers
//! collapse. Measured here: 0 to 4 such copies of 300 with 4 connections (debug build). Also
//! with two instances on one PostgreSQL database, one killed: the other finishes the queue.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::json;
use common::process::Process;
use common::smtp::SmtpSink;
use moneydesk_model::paths;
use serde_json::json;

const CONNECTIONS: usize = 4;

async fn start(data_dir: &Path, relay: &str) -> Process {
    start_on(data_dir, relay, None).await
}

/// `database`: a PostgreSQL URL several instances share (SQLite in `data_dir` otherwise).
async fn start_on(data_dir: &Path, relay: &str, database: Option<&str>) -> Process {
    let mut env = vec![
        ("MONEYDESK_SMTP_URL", relay.to_string()),
        ("MONEYDESK_EMAIL_CONNECTIONS", CONNECTIONS.to_string()),
        // A claim left by the killed process runs out quickly, so the test need not wait.
        ("MONEYDESK_EMAIL_CLAIM", "2s".to_string()),
    ];
    env.extend(database.map(|url| ("MONEYDESK_DATABASE_URL", url.to_string())));
    common::process::start(data_dir, &env).await
}

#[tokio::test]
async fn a_kill_mid_queue_loses_nothing_and_sends_nothing_twice_after_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start();
    // A relay slow to take each recipient: the kill lands while messages are being handed over.
    sink.control(json!({"rcpt_delay_ms": 15}));
    let out = common::cli(dir.path(), &["token", "create", "--name", "ops", "--scope", "email:send"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();

    let mut server = start(dir.path(), &sink.url()).await;
    send_to_300(&server.base, &token).await;

    let before = sink.wait_for(60, 30).await.len();
    // Not the instant a message was written (that is the relay's 250, the one window the
    // restart rule cannot close): a moment later, wherever the deliveries are then.
    tokio::time::sleep(Duration::from_millis(7)).await;
    assert!((60..300).contains(&before), "the kill lands mid-queue ({before} delivered)");
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let at_kill = sink.received().len();

    let server = start(dir.path(), &sink.url()).await;
    sink.wait_for(300, 60).await;
    // Every message ends `sent`: one the relay took just before the kill is still claimed by
    // the dead process until its claim runs out (2 s), then sent again (the same bytes) and
    // recorded. Only then are the copies counted.
    let deadline = Instant::now() + Duration::from_secs(30);
    let page = loop {
        let page = json(
            reqwest::Client::new()
                .get(format!("{}{}?state=sent", server.base, paths::EMAIL_MESSAGES))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap(),
        )
        .await;
        if page["data"]["totalElements"] == 300 || Instant::now() > deadline {
            break page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(page["data"]["totalElements"], 300, "{page}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = sink.received();
    let mut ids: Vec<String> = got.iter().map(|r| r.parsed().message_id().unwrap().to_string()).collect();
    ids.sort();
    let received = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), 300, "every message arrived ({at_kill} before the kill)");
    let duplicates = received - 300;
    // A message sent again is the same message: same Message-ID, Date and bytes, so the
    // receiver collapses the copies.
    let mut by_id: std::collections::HashMap<String, &[u8]> = std::collections::HashMap::new();
    for r in &got {
        let id = r.parsed().message_id().unwrap().to_string();
        let first = *by_id.entry(id.clone()).or_insert(&r.raw);
        assert!(first == &r.raw[..], "the copies of {id} differ");
    }
    assert!(duplicates <= CONNECTIONS, "{duplicates} copies: at most the {CONNECTIONS} attempts under way at the kill");
    eprintln!("kill after {at_kill} of 300 delivered; {duplicates} copies after the restart");
    let mut child = server.child;
    let _ = child.kill();
    let _ = child.wait();
}

/// Two instances on one PostgreSQL database deliver a queue; one is killed mid-queue and the
/// other takes over its claims once they run out: every message arrives, at most the killed
/// instance's attempts under way twice (the same bytes), and all end `sent`.
#[tokio::test]
async fn a_kill_of_one_of_two_instances_loses_nothing_and_the_other_finishes_the_queue() {
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let url = common::postgres::fresh_database().await;
    let sink = SmtpSink::start();
    sink.control(json!({"rcpt_delay_ms": 15}));
    let a = start_on(dir_a.path(), &sink.url(), Some(&url)).await;
    let b = start_on(dir_b.path(), &sink.url(), Some(&url)).await;
    let out = Command::new(env!("CARGO_BIN_EXE_moneydesk-server"))
        .args(["token", "create", "--name", "ops", "--scope", "email:send"])
        .env_clear()
        .env("MONEYDESK_DATA_DIR", dir_a.path())
        .env("MONEYDESK_DATABASE_URL", &url)
        .env("MONEYDESK_LOG", "warn")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    send_to_300(&a.base, &token).await;

    let before = sink.wait_for(60, 30).await.len();
    tokio::time::sleep(Duration::from_millis(7)).await;
    assert!(before < 300, "the kill lands mid-queue ({before} delivered)");
    let mut killed = a.child;
    killed.kill().unwrap();
    killed.wait().unwrap();

    let got = sink.wait_for(300, 60).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let got = if got.len() >= 300 { sink.received() } else { got };
    let mut ids: Vec<String> = got.iter().map(|r| r.parsed().message_id().unwrap().to_string()).collect();
    ids.sort();
    let received = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), 300, "every message arrived");
    assert!(
        received - 300 <= CONNECTIONS,
        "{} copies: at most the killed instance's attempts under way",
        received - 300
    );
    let page = json(
        reqwest::Client::new()
            .get(format!("{}{}?state=sent", b.base, paths::EMAIL_MESSAGES))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(page["data"]["totalElements"], 300, "{page}");
    let mut child = b.child;
    let _ = child.kill();
    let _ = child.wait();
}

/// One send to 300 recipients through the server at `base`, accepted (202).
async fn send_to_300(base: &str, token: &str) {
    let personalizations: Vec<_> =
        (0..300).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect();
    let body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Notice", "content": [{"type": "text/plain", "value": "Hello"}], "personalizations": personalizations});
    let r = reqwest::Client::new()
        .post(format!("{base}{}", paths::EMAIL_SEND))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
}
