//! Email's performance targets (issue #14), in one run against the server in this process
//! (SQLite) and a real SMTP server (aiosmtpd, `tests/smtp/sink.py`, counting only):
//! - accepting a bulk send of 1000 personalizations with a template, over real HTTP: p50/p95
//!   of the time to the 202 (target p95 < 500 ms);
//! - delivering 10,000 queued messages to the local SMTP server: messages per second, beside a
//!   bare client (lettre's SMTP client on the same kind of connection, messages built ahead, no
//!   outbox) sending 10,000 such messages over as many connections to the same server in the
//!   same run (target: the worker at >= 50 % of the bare client's rate).
//!
//! Run: `scripts/bench-email` (or `cargo bench -p moneydesk-server --profile server --bench email`);
//! `EMAIL_BENCH_MESSAGES=2000` for a shorter run.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lettre::Message;
use moneydesk_model::{paths, Scope};
use moneydesk_server::email::outbox::relay::Relay;
use moneydesk_server::{start, Config};
use serde_json::{json, Value};

const CONNECTIONS: usize = 4;

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(run());
}

/// The SMTP sink on a free port, counting only (no files); killed on drop.
// The temp dir lives as long as the sink (it holds its control file).
struct Sink(std::process::Child, u16, #[allow(dead_code)] tempfile::TempDir);

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn sink() -> Sink {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("control.json"), r#"{"store": false}"#).unwrap();
    let script = std::path::PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into()),
    )
    .join("tests/smtp/sink.py");
    let python = if std::path::Path::new("/usr/bin/python3").exists() { "/usr/bin/python3" } else { "python3" };
    let mut child = Command::new(python)
        .arg(script)
        .arg(port.to_string())
        .arg(dir.path())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with aiosmtpd (scripts/setup)");
    let mut line = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    assert_eq!(line.trim(), "ready", "the SMTP sink started");
    std::mem::forget(out);
    Sink(child, port, dir)
}

async fn run() {
    let messages: usize = std::env::var("EMAIL_BENCH_MESSAGES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let relay = sink();
    let tmp = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(tmp.path());
    config.email.smtp_url = Some(format!("smtp://127.0.0.1:{}", relay.1));
    config.email.connections = CONNECTIONS;
    config.email.worker = false;
    let server = start(config).await.unwrap();
    let base = server.base_url();
    let token = server.create_token("bench", &[Scope::Admin]).await.unwrap();
    let http = reqwest::Client::new();

    // 1. Accepting bulk sends of 1000 personalizations with a template.
    let created: Value = http
        .post(format!("{base}{}", paths::EMAIL_TEMPLATES))
        .bearer_auth(&token)
        .json(&json!({"name": "Notice", "subject": "Notice for {{name}}", "text": "Dear {{name}}, your balance is {{balance}}.", "html": "<p>Dear {{name}},</p><p>your balance is <b>{{balance}}</b>.</p>"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let template = created["data"]["id"].as_str().unwrap().to_string();
    let bulk = |round: usize| {
        let personalizations: Vec<Value> = (0..1000)
            .map(|i| json!({"to": [{"email": format!("r{round}-{i}@client.example"), "name": format!("Client {i}")}], "dynamic_template_data": {"name": format!("Client {i}"), "balance": "1,234.56"}}))
            .collect();
        json!({"from": {"email": "ops@moneydesk.test", "name": "Operations"}, "template_id": template, "personalizations": personalizations})
    };
    let rounds = (messages / 1000).max(10);
    let mut times = Vec::new();
    for round in 0..rounds {
        let body = bulk(round);
        let t = Instant::now();
        let r = http.post(format!("{base}{}", paths::EMAIL_SEND)).bearer_auth(&token).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 202);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    println!(
        "accept a bulk send of 1000 personalizations with a template ({rounds} requests): p50 {:.1} ms, p95 {:.1} ms (target p95 < 500 ms)",
        percentile(times.clone(), 0.5),
        percentile(times, 0.95)
    );
    let queued = rounds * 1000;
    server.stop().await;

    // 2. The bare client: lettre's SMTP client on the same kind of connection (TCP_NODELAY,
    // `email::relay`), as many connections, the same relay, messages built ahead: no outbox.
    let relay_url = format!("smtp://127.0.0.1:{}", relay.1);
    let bare_relay = Relay::parse(&relay_url).unwrap();
    let bare_count = messages;
    let built: Vec<(lettre::address::Envelope, Vec<u8>)> = (0..bare_count)
        .map(|i| {
            let m = Message::builder()
                .from("Operations <ops@moneydesk.test>".parse().unwrap())
                .to(format!("Client {i} <b{i}@client.example>").parse().unwrap())
                .subject(format!("Notice for Client {i}"))
                .multipart(lettre::message::MultiPart::alternative_plain_html(
                    format!("Dear Client {i}, your balance is 1,234.56."),
                    format!("<p>Dear Client {i},</p><p>your balance is <b>1,234.56</b>.</p>"),
                ))
                .unwrap();
            (m.envelope().clone(), m.formatted())
        })
        .collect();
    let queue = std::sync::Mutex::new(built.iter());
    let t = Instant::now();
    let lanes = (0..CONNECTIONS).map(|_| async {
        let mut lane = None;
        loop {
            let Some((envelope, raw)) = queue.lock().unwrap().next() else { break };
            bare_relay.send(&mut lane, envelope, raw).await.expect("the relay takes it");
        }
    });
    futures_util::future::join_all(lanes).await;
    let bare = bare_count as f64 / t.elapsed().as_secs_f64();

    // 3. The worker delivering the queue (restarted with its worker on).
    let mut config = Config::for_tests(tmp.path());
    config.email.smtp_url = Some(format!("smtp://127.0.0.1:{}", relay.1));
    config.email.connections = CONNECTIONS;
    config.email.worker = true;
    let t = Instant::now();
    let server = start(config).await.unwrap();
    let base = server.base_url();
    let to_send = queued.min(messages);
    loop {
        let page: Value = http
            .get(format!("{base}{}?state=sent&size=1", paths::EMAIL_MESSAGES))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let sent = page["data"]["totalElements"].as_u64().unwrap_or(0) as usize;
        if sent >= to_send {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let worker = to_send as f64 / t.elapsed().as_secs_f64();
    println!(
        "deliver {to_send} queued messages over {CONNECTIONS} connections: worker {worker:.0} msg/s, bare client {bare:.0} msg/s = {:.0} % (target >= 50 %)",
        worker / bare * 100.0
    );
    server.stop().await;
}
