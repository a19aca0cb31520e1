//! A webhook receiver for the tests: an axum server on loopback that checks each POST with the
//! example receiver's own code (`examples/webhook-receiver/src/verify.rs`), answers as the
//! test scripts it (fail the first N, or always), and keeps every request.
#![allow(dead_code)]

#[path = "../../../../../examples/webhook-receiver/src/verify.rs"]
pub mod verify;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use moneydesk_model::Scope;
use serde_json::{json, Value};

use crate::common::{json as body_json, Backend, Server};

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Hit {
    pub at: Instant,
    pub id: String,
    pub signature: String,
    pub body: Vec<u8>,
    pub event: Value,
    /// What the receiver answered.
    pub status: u16,
}

impl Hit {
    pub fn verifies(&self, secrets: &[&str]) -> bool {
        verify::verify(secrets, &self.signature, &self.body, chrono::Utc::now().timestamp()).is_ok()
    }
}

#[derive(Default)]
struct Shared {
    hits: Mutex<Vec<Hit>>,
    /// Answer 500 to this many requests first.
    fail_first: AtomicUsize,
    always_fail: std::sync::atomic::AtomicBool,
}

pub struct Receiver {
    pub url: String,
    shared: Arc<Shared>,
}

async fn receive(State(s): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> (StatusCode, String) {
    let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let fail = s.always_fail.load(Ordering::SeqCst)
        || s.fail_first.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok();
    let status = if fail { 500 } else { 200 };
    s.hits.lock().unwrap().push(Hit {
        at: Instant::now(),
        id: h("moneydesk-webhook-id"),
        signature: h("moneydesk-webhook-signature"),
        event: serde_json::from_slice(&body).unwrap_or(Value::Null),
        body: body.to_vec(),
        status,
    });
    (StatusCode::from_u16(status).unwrap(), if fail { "try later".into() } else { "ok".into() })
}

impl Receiver {
    pub async fn start(fail_first: usize, always_fail: bool) -> Receiver {
        let shared = Arc::new(Shared::default());
        shared.fail_first.store(fail_first, Ordering::SeqCst);
        shared.always_fail.store(always_fail, Ordering::SeqCst);
        let app = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(shared.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Receiver { url, shared }
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.shared.hits.lock().unwrap().clone()
    }

    /// The 2xx-answered hits, once there are `n` (at most 20 s).
    pub async fn wait_accepted(&self, n: usize) -> Vec<Hit> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ok: Vec<Hit> = self.hits().into_iter().filter(|h| h.status == 200).collect();
            if ok.len() >= n || Instant::now() > deadline {
                assert!(ok.len() >= n, "{} of {n} accepted: {:?}", ok.len(), self.hits());
                return ok;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A server that delivers webhooks fast, with 127.0.0.1 allowed; `tweak` adjusts more.
pub async fn start(backend: Backend, tweak: impl FnOnce(&mut moneydesk_server::Config)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.webhooks.worker = true;
        c.webhooks.allow = vec![moneydesk_server::config::webhooks::Allowed::Host("127.0.0.1".into())];
        c.webhooks.retry_base = Duration::from_millis(150);
        c.webhooks.retry_max = Duration::from_millis(600);
        tweak(c);
    })
    .await
}

pub async fn token(s: &Server) -> String {
    s.token(&[Scope::WebhooksWrite]).await
}

pub async fn send(s: &Server, t: &str, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
    crate::common::call(s, method, path, t, body).await
}

/// Creates an endpoint; `(id, secret)`.
pub async fn endpoint(s: &Server, t: &str, url: &str, types: Value) -> (String, String) {
    let (status, b) = send(
        s,
        t,
        reqwest::Method::POST,
        moneydesk_model::paths::WEBHOOK_ENDPOINTS,
        Some(json!({"url": url, "eventTypes": types})),
    )
    .await;
    assert_eq!(status, 201, "{b}");
    (b["data"]["endpoint"]["id"].as_str().unwrap().to_string(), b["data"]["secret"].as_str().unwrap().to_string())
}

/// Writes an event as a store does (in its own transaction); its id.
pub async fn event(s: &Server, kind: moneydesk_model::events::EventType, object_id: &str, data: Value) -> String {
    let mut tx = s.running.state.stores.database.begin().await.unwrap();
    let id = moneydesk_server::storage::events::append(&mut tx, kind, "deposit", object_id, &data).await.unwrap();
    tx.commit().await.unwrap();
    id
}

pub fn path(template: &str, id: &str) -> String {
    template.replace("{id}", id)
}

pub async fn get(s: &Server, t: &str, p: &str) -> Value {
    body_json(s.get_auth(p, t).await).await
}
