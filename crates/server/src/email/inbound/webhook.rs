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
//! The worker is the queues' one (`storage::queue::Worker`: lanes, group commit, give-backs,
//! graceful stop); what is inbound mail's is here: its POST and its retry window.
//!
//! **The restart rule**, as the outbox's: a claim lasts twice the POST timeout plus 30 s; a
//! process that dies mid-POST leaves the message `delivering` until then, and any instance
//! posts it again. The receiver may so see one delivery twice (if it answered 2xx just as the
//! process died); `Moneydesk-Delivery` is the same on both, for it to drop the repeat.

use std::time::{Duration, Instant};

use base64::Engine;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use moneydesk_model::email::inbound::{
    InboundState, ATTEMPT_HEADER, DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
use rand::RngCore;
use sha2::Sha256;

use super::parse::{self, Envelope};
use super::raw_path;
use super::store::{Claimed, InboundStore, Outcome};
use crate::config::inbound::InboundConfig;
/// The running worker ([`spawn`]); `stop` ends it gracefully.
pub use crate::storage::queue::Worker;
use crate::storage::queue::{retry, GiveUp, Options, Queue, Retry};
use crate::AppState;

/// How often an idle worker looks for messages come due or queued by other instances.
const POLL: Duration = Duration::from_secs(1);
/// How much of the receiver's answer an attempt keeps.
const KEEP_ANSWER: usize = 500;
/// Attempts under way at once, and messages claimed at a time per attempt.
const PARALLEL: usize = 8;
const CLAIM_PER_LANE: usize = 4;

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

/// The wait after attempt `attempt` failed: the queues' schedule (`storage::queue::Retry`)
/// with inbound mail's base and maximum, and its jitter.
///
/// ```
/// use std::time::Duration;
/// use moneydesk_server::{config::inbound::InboundConfig, email::inbound::webhook::backoff};
/// let c = InboundConfig::default();
/// assert!(backoff(&c, 1) >= Duration::from_secs(60) && backoff(&c, 1) <= Duration::from_secs(66));
/// assert!(backoff(&c, 3) >= Duration::from_secs(240));
/// assert!(backoff(&c, 30) >= Duration::from_secs(7200) && backoff(&c, 30) <= Duration::from_secs(7920));
/// ```
pub fn backoff(c: &InboundConfig, attempt: u32) -> Duration {
    retry::retry_delay(c.retry_base, c.retry_max, attempt)
}

/// Inbound mail as the queue worker drives it.
struct Webhooks {
    state: AppState,
    client: reqwest::Client,
}

pub fn spawn(state: AppState) -> anyhow::Result<Worker> {
    let c = &state.config.email.inbound;
    let client = reqwest::Client::builder()
        .timeout(c.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("Moneydesk-Inbound/", env!("CARGO_PKG_VERSION")))
        .build()?;
    let options = Options {
        lanes: PARALLEL,
        per_lane: CLAIM_PER_LANE,
        lease: c.claim(),
        poll: POLL,
        wake: state.inbound.store.wake.clone(),
    };
    let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    Ok(Worker::spawn(Webhooks { state, client }, worker, options))
}

impl Queue for Webhooks {
    type Claimed = Claimed;
    type Lane = ();
    type Store = InboundStore;
    const KIND: &'static str = "inbound";

    fn id(m: &Claimed) -> &str {
        &m.message.id
    }

    async fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> anyhow::Result<Vec<Claimed>> {
        Ok(self.state.inbound.store.claim(worker, now, until, limit).await?)
    }

    /// One POST of one message.
    async fn attempt(&self, _: &mut (), m: &Claimed) -> Outcome {
        let c = &self.state.config.email.inbound;
        let outcome = |state, status, duration_ms, result| Outcome {
            id: m.message.id.clone(),
            attempt: m.attempt,
            state,
            status,
            duration_ms,
            result,
            next: None,
        };
        let outcome = match post(&self.state, &self.client, m).await {
            Ok((status, ms, result)) if (200..300).contains(&status) => {
                outcome(InboundState::Delivered, Some(status), Some(ms), result)
            }
            Ok((status, ms, result)) => retry(c, m, outcome(InboundState::Pending, Some(status), Some(ms), result)),
            Err(Failure::Final(result)) => outcome(InboundState::Failed, None, None, result),
            Err(Failure::Again(result)) => retry(c, m, outcome(InboundState::Pending, None, None, result)),
        };
        crate::metrics::attempt("inbound", outcome.state.as_str());
        outcome
    }

    async fn release(&self, worker: &str, ids: &[String]) -> anyhow::Result<()> {
        Ok(self.state.inbound.store.release(worker, ids).await?)
    }

    fn store(&self) -> InboundStore {
        self.state.inbound.store.clone()
    }
}

/// A failed attempt: pending until its next try, or failed when that would fall after the
/// retry window.
fn retry(c: &InboundConfig, m: &Claimed, failed: Outcome) -> Outcome {
    let now = Utc::now();
    // An unreadable window (never written so) gives no reason to stop.
    let give_up = crate::storage::time::parse(&m.message.retry_until).map_or(GiveUp::After(u32::MAX), GiveUp::At);
    let schedule = Retry { base: c.retry_base, max: c.retry_max, give_up };
    match schedule.next(m.attempt, now) {
        Some(next) => Outcome { next: Some(next), ..failed },
        None => Outcome {
            state: InboundState::Failed,
            result: format!(
                "{} (gave up after {} attempts: the retry window closed at {})",
                failed.result, m.attempt, m.message.retry_until
            ),
            ..failed
        },
    }
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
        Err(e) => {
            return Err(Failure::Again(crate::http::client::failure_text(&e, state.config.email.inbound.timeout)))
        }
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
