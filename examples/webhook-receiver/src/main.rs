//! An example receiver of Moneydesk webhooks.
//!
//! ```text
//! webhook-receiver --listen 127.0.0.1:9000 --secret whsec_… [--secret whsec_old…] [--out events.jsonl]
//! ```
//!
//! Each POST is checked (`verify.rs`): a bad or missing signature, or a timestamp more than 5
//! minutes away, is answered 400; an event id seen before is answered 200 and not handled again;
//! a new event is appended to `--out` as one JSON line (or printed), then answered 200.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use tokio::io::AsyncWriteExt;
use tokio::sync::Mutex;

mod verify;

struct Receiver {
    secrets: Vec<String>,
    out: Option<std::path::PathBuf>,
    seen: Mutex<verify::Seen>,
}

async fn receive(State(r): State<Arc<Receiver>>, headers: HeaderMap, body: Bytes) -> (StatusCode, String) {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let secrets: Vec<&str> = r.secrets.iter().map(String::as_str).collect();
    if let Err(why) = verify::verify(&secrets, header("moneydesk-webhook-signature"), &body, now) {
        return (StatusCode::BAD_REQUEST, why.to_string());
    }
    let Ok(event) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return (StatusCode::BAD_REQUEST, "the body is not JSON".into());
    };
    let id = event["id"].as_str().unwrap_or(header("moneydesk-webhook-id")).to_string();
    let mut seen = r.seen.lock().await;
    if !seen.first_time(&id) {
        return (StatusCode::OK, format!("duplicate {id}"));
    }
    let line = format!("{event}\n");
    match &r.out {
        None => print!("{line}"),
        Some(path) => {
            let file = tokio::fs::OpenOptions::new().create(true).append(true).open(path).await;
            if let Err(e) = async { file?.write_all(line.as_bytes()).await }.await {
                // Not handled: forget the id so the retry is handled.
                drop(seen);
                r.seen.lock().await.forget(&id);
                return (StatusCode::INTERNAL_SERVER_ERROR, format!("writing {}: {e}", path.display()));
            }
        }
    }
    (StatusCode::OK, format!("accepted {id}"))
}

fn usage() -> ! {
    eprintln!("usage: webhook-receiver --listen ADDR --secret SECRET [--secret OLD_SECRET] [--out FILE]");
    std::process::exit(2)
}

#[tokio::main]
async fn main() {
    let mut listen: SocketAddr = "127.0.0.1:9000".parse().expect("address");
    let (mut secrets, mut out) = (Vec::new(), None);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--listen" => listen = value.parse().unwrap_or_else(|_| usage()),
            "--secret" => secrets.push(value),
            "--out" => out = Some(value.into()),
            _ => usage(),
        }
    }
    if secrets.is_empty() {
        usage();
    }
    let receiver = Arc::new(Receiver { secrets, out, seen: Mutex::new(verify::Seen::new(100_000)) });
    let app = Router::new().route("/", post(receive)).route("/{*path}", post(receive)).with_state(receiver);
    let listener = tokio::net::TcpListener::bind(listen).await.expect("listening");
    eprintln!("webhook-receiver listening on {}", listener.local_addr().expect("address"));
    axum::serve(listener, app).await.expect("serving");
}
