//! The bench's receivers: axum servers on loopback that check each POST's signature with the
//! example receiver's own code, answer as told (at once, after a delay, or 500 always), and
//! dedupe by event id: each event's first arrival is kept, repeats counted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};

#[path = "../../../../examples/webhook-receiver/src/verify.rs"]
#[allow(dead_code)]
mod verify;

#[derive(Debug, Clone, Copy)]
pub enum Behaviour {
    Fast,
    Slow(Duration),
    Failing,
}

/// An event's first arrival.
#[derive(Debug, Clone)]
pub struct First {
    pub at: Instant,
}

#[derive(Default)]
struct Seen {
    first: HashMap<String, First>,
    /// 2xx answers to an event already handled (at-least-once's repeats).
    duplicates: u64,
}

struct Shared {
    behaviour: Behaviour,
    secret: Mutex<String>,
    seen: Mutex<Seen>,
    requests: AtomicU64,
    bad_signatures: AtomicU64,
}

/// What a receiver counted.
#[derive(Debug, Clone)]
pub struct Counts {
    pub requests: u64,
    pub unique: u64,
    pub duplicates: u64,
    pub bad_signatures: u64,
    pub first: Option<Instant>,
    pub last: Option<Instant>,
}

pub struct Receiver {
    pub name: &'static str,
    pub url: String,
    shared: Arc<Shared>,
}

async fn receive(State(s): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> (StatusCode, &'static str) {
    s.requests.fetch_add(1, Ordering::Relaxed);
    let signature = headers.get("moneydesk-webhook-signature").and_then(|v| v.to_str().ok()).unwrap_or("");
    let secret = s.secret.lock().unwrap().clone();
    if verify::verify(&[&secret], signature, &body, chrono::Utc::now().timestamp()).is_err() {
        s.bad_signatures.fetch_add(1, Ordering::Relaxed);
        return (StatusCode::BAD_REQUEST, "bad signature");
    }
    match s.behaviour {
        Behaviour::Failing => return (StatusCode::INTERNAL_SERVER_ERROR, "always failing"),
        Behaviour::Slow(d) => tokio::time::sleep(d).await,
        Behaviour::Fast => {}
    }
    let id = headers.get("moneydesk-webhook-id").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let mut seen = s.seen.lock().unwrap();
    if seen.first.contains_key(&id) {
        seen.duplicates += 1;
    } else {
        seen.first.insert(id, First { at: Instant::now() });
    }
    (StatusCode::OK, "ok")
}

impl Receiver {
    pub async fn start(name: &'static str, behaviour: Behaviour) -> anyhow::Result<Receiver> {
        let shared = Arc::new(Shared {
            behaviour,
            secret: Mutex::default(),
            seen: Mutex::default(),
            requests: AtomicU64::new(0),
            bad_signatures: AtomicU64::new(0),
        });
        let app = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/hook", listener.local_addr()?);
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(Receiver { name, url, shared })
    }

    /// The endpoint's secret, once the server made it.
    pub fn set_secret(&self, secret: &str) {
        *self.shared.secret.lock().unwrap() = secret.to_string();
    }

    pub fn unique(&self) -> u64 {
        self.shared.seen.lock().unwrap().first.len() as u64
    }

    pub fn counts(&self) -> Counts {
        let seen = self.shared.seen.lock().unwrap();
        Counts {
            requests: self.shared.requests.load(Ordering::Relaxed),
            unique: seen.first.len() as u64,
            duplicates: seen.duplicates,
            bad_signatures: self.shared.bad_signatures.load(Ordering::Relaxed),
            first: seen.first.values().map(|f| f.at).min(),
            last: seen.first.values().map(|f| f.at).max(),
        }
    }

    /// Every event's first arrival.
    pub fn firsts(&self) -> HashMap<String, First> {
        self.shared.seen.lock().unwrap().first.clone()
    }
}
