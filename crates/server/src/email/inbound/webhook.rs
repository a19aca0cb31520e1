//! The webhook worker: claims due inbound messages, posts each to its route's URL as a signed
//! multipart/form-data request, and records every attempt.
//!
//! - A 2xx answer → `delivered`. Redirects are not followed: a 3xx is a failure like any
//!   other non-2xx (the URL is the customer's to fix, and a redirect would carry the signed
//!   body elsewhere).
//! - Anything else (non-2xx, refused, reset, timed out) → `pending` until now + the retry base
//!   doubled per attempt made, at most the retry maximum (plus up to a tenth of jitter), as
//!   long as that is within the retry window (3 days after receipt by default); after it,
//!   `failed`. With the defaults: 1, 2, 4, 8, 16, 32, 64 minutes, then every 2 hours until
//!   3 days have passed (about 40 attempts).
//! - A route deleted meanwhile → `failed` ("the domain's inbound route was deleted").
//!
//! **The restart rule**, as the outbox's: a claim lasts twice the POST timeout plus 30 s; a
//! process that dies mid-POST leaves the message `delivering` until then, and any instance
//! posts it again. The receiver may so see one delivery twice (if it answered 2xx just as the
//! process died); `Moneydesk-Delivery` is the same on both, for it to drop the repeat.

use std::time::{Duration, Instant};

use base64::Engine;
use chrono::Utc;
use hmac::{Hmac, Mac};
use moneydesk_model::email::inbound::{
    InboundState, ATTEMPT_HEADER, DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
use rand::RngCore;
use sha2::Sha256;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::parse::{self, Envelope};
use super::store::{Claimed, Outcome};
use super::{raw_path, InboundConfig};
use crate::AppState;

/// How often an idle worker looks for messages come due or queued by other instances.
const POLL: Duration = Duration::from_secs(1);
/// How much of the receiver's answer an attempt keeps.
const KEEP_ANSWER: usize = 500;
/// Attempts under way at once.
const PARALLEL: usize = 8;

/// `v1=` + hex(HMAC-SHA256(secret, `<timestamp>.<body>`)).
///
/// ```
/// use moneydesk_server::email::inbound::webhook::sign;
/// // RFC 4231 style check: the same key, timestamp and body always give the same signature.
/// let s = sign("whsec_test", 1700000000, b"body");
/// assert!(s.starts_with("v1=") && s.len() == 3 + 64);
/// assert_eq!(s, sign("whsec_test", 1700000000, b"body"));
/// assert_ne!(s, sign("whsec_test", 1700000001, b"body"));
/// assert_ne!(s, sign("whsec_other", 1700000000, b"body"));
/// ```
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!("v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// A new route secret: `whsec_` and 32 random bytes in unpadded base64url (43 characters).
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("whsec_{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The wait after attempt `attempt` failed: the outbox's schedule (`delivery::retry_delay`)
/// with inbound mail's base and maximum.
///
/// ```
/// use std::time::Duration;
/// use moneydesk_server::email::inbound::{webhook::backoff, InboundConfig};
/// let c = InboundConfig::default();
/// assert!(backoff(&c, 1) >= Duration::from_secs(60) && backoff(&c, 1) <= Duration::from_secs(66));
/// assert!(backoff(&c, 3) >= Duration::from_secs(240));
/// assert!(backoff(&c, 30) >= Duration::from_secs(7200) && backoff(&c, 30) <= Duration::from_secs(7920));
/// ```
pub fn backoff(c: &InboundConfig, attempt: u32) -> Duration {
    crate::email::delivery::retry_delay(c.retry_base, c.retry_max, attempt)
}

/// The running worker; [`Worker::stop`] ends it gracefully.
pub struct Worker {
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl Worker {
    pub async fn stop(self) {
        self.cancel.cancel();
        let _ = self.task.await;
    }
}

pub fn spawn(state: AppState) -> anyhow::Result<Worker> {
    let c = state.config.email.inbound.clone();
    let client = reqwest::Client::builder()
        .timeout(c.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("Moneydesk-Inbound/", env!("CARGO_PKG_VERSION")))
        .build()?;
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    let task = tokio::spawn(async move {
        let inbound = &state.inbound;
        loop {
            if stop.is_cancelled() {
                break;
            }
            let now = Utc::now();
            let until = now + chrono::Duration::from_std(c.claim()).unwrap_or(chrono::Duration::minutes(2));
            let claimed = match inbound.store.claim(&worker, now, until, PARALLEL * 4).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!(error = %e, "claiming inbound mail to deliver");
                    Vec::new()
                }
            };
            if claimed.is_empty() {
                tokio::select! {
                    _ = inbound.store.wake.notified() => {}
                    _ = tokio::time::sleep(POLL) => {}
                    _ = stop.cancelled() => break,
                }
                continue;
            }
            // PARALLEL at a time; a stop lets those under way finish and gives the rest back.
            let mut waiting = claimed.into_iter();
            loop {
                let batch: Vec<Claimed> =
                    if stop.is_cancelled() { Vec::new() } else { waiting.by_ref().take(PARALLEL).collect() };
                if batch.is_empty() {
                    break;
                }
                futures_util::future::join_all(batch.into_iter().map(|m| attempt(&state, &client, &worker, m))).await;
            }
            let unstarted: Vec<String> = waiting.map(|m| m.message.id).collect();
            if let Err(e) = inbound.store.release(&worker, &unstarted).await {
                tracing::warn!(error = %e, "giving back inbound claims");
            }
        }
    });
    Ok(Worker { cancel, task })
}

/// One POST of one message, its outcome recorded.
async fn attempt(state: &AppState, client: &reqwest::Client, worker: &str, m: Claimed) {
    let c = &state.config.email.inbound;
    let outcome = match post(state, client, &m).await {
        Ok((status, duration_ms, result)) if (200..300).contains(&status) => Outcome {
            state: InboundState::Delivered,
            status: Some(status),
            duration_ms: Some(duration_ms),
            result,
            next: None,
        },
        Ok((status, duration_ms, result)) => retry(c, &m, Some(status), Some(duration_ms), result),
        Err(Failure::Final(result)) => {
            Outcome { state: InboundState::Failed, status: None, duration_ms: None, result, next: None }
        }
        Err(Failure::Again(result)) => retry(c, &m, None, None, result),
    };
    crate::metrics::attempt("inbound", outcome.state.as_str());
    match state.inbound.store.finish(worker, &m, &outcome).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(id = %m.message.id, "an inbound message's claim was taken over before its outcome was recorded")
        }
        Err(e) => tracing::error!(id = %m.message.id, error = %e, "recording an inbound delivery"),
    }
}

fn retry(c: &InboundConfig, m: &Claimed, status: Option<u16>, duration_ms: Option<u64>, result: String) -> Outcome {
    let next = Utc::now() + chrono::Duration::from_std(backoff(c, m.attempt)).unwrap_or(chrono::Duration::hours(1));
    let until = crate::email::store::parse_time(&m.message.retry_until).unwrap_or(next);
    if next > until {
        let result = format!(
            "{result} (gave up after {} attempts: the retry window closed at {})",
            m.attempt, m.message.retry_until
        );
        return Outcome { state: InboundState::Failed, status, duration_ms, result, next: None };
    }
    Outcome { state: InboundState::Pending, status, duration_ms, result, next: Some(next) }
}

enum Failure {
    /// Will not get better by trying again.
    Final(String),
    Again(String),
}

/// Builds the form from the stored raw message and posts it: `(status, ms, result)`.
async fn post(state: &AppState, client: &reqwest::Client, m: &Claimed) -> Result<(u16, u64, String), Failure> {
    let Some((url, secret)) = &m.route else {
        return Err(Failure::Final("the domain's inbound route was deleted".into()));
    };
    let raw = match state.blobs.get(&raw_path(&m.message.raw_sha256)).await {
        Ok(r) => r.bytes().await.map_err(|e| Failure::Again(format!("reading the stored message: {e}")))?,
        Err(object_store::Error::NotFound { .. }) => return Err(Failure::Final("the stored message is gone".into())),
        Err(e) => return Err(Failure::Again(format!("reading the stored message: {e}"))),
    };
    let parsed = parse::parse(&raw).map_err(Failure::Final)?;
    let envelope = Envelope {
        from: m.message.mail_from.clone(),
        to: serde_json::from_str(&m.message.rcpt_to).unwrap_or_default(),
    };
    let (boundary, body) = parse::form(&parsed, &envelope);
    let timestamp = Utc::now().timestamp();
    let signature = sign(secret, timestamp, &body);
    let started = Instant::now();
    let sent = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, format!("multipart/form-data; boundary={boundary}"))
        .header(TIMESTAMP_HEADER, timestamp.to_string())
        .header(SIGNATURE_HEADER, signature)
        .header(DELIVERY_HEADER, m.message.id.as_str())
        .header(ATTEMPT_HEADER, m.attempt.to_string())
        .body(body)
        .send()
        .await;
    let answer = match sent {
        Ok(a) => a,
        Err(e) => return Err(Failure::Again(failure_text(&e, state.config.email.inbound.timeout))),
    };
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    let ms = started.elapsed().as_millis() as u64;
    let mut result = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or("")).trim_end().to_string();
    let text = text.trim();
    if !text.is_empty() {
        result.push_str(": ");
        result.extend(text.chars().take(KEEP_ANSWER));
    }
    Ok((status.as_u16(), ms, result))
}

/// Why a POST got no answer, in words.
fn failure_text(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("no answer within {} s", timeout.as_secs());
    }
    let mut text = if e.is_connect() { "could not connect".to_string() } else { "the request failed".to_string() };
    let mut source = std::error::Error::source(e);
    let mut last = String::new();
    while let Some(s) = source {
        last = s.to_string();
        source = s.source();
    }
    if !last.is_empty() {
        text.push_str(": ");
        text.push_str(&last);
    }
    text
}
