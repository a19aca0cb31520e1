//! The delivering side: the dispatcher (event outbox → deliveries, every 200 ms or when woken)
//! and the worker, the queues' one (`storage::queue::Worker`: lanes, group commit, give-backs,
//! graceful stop), posting each claimed delivery once.
//!
//! - Body: the event as JSON (`moneydesk_model::events::Event`); headers `Moneydesk-Webhook-Id`
//!   (the event id: at-least-once, so a receiver drops repeats by it),
//!   `Moneydesk-Webhook-Timestamp` and `Moneydesk-Webhook-Signature` (`signing`).
//! - A 2xx answer → delivered. Redirects are not followed (a 3xx is a failure: a redirect would
//!   carry the signed body elsewhere). Anything else → tried again after the configured base
//!   doubled per attempt, at most the maximum, plus jitter, while within the retry window
//!   (3 days by default); then failed.
//! - The URL is checked again at every attempt (`url`): an IP literal here, names by the
//!   client's resolver.
//! - An endpoint disabled or deleted meanwhile → the delivery fails at once.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use moneydesk_model::events::{Event, EventType};
use moneydesk_model::webhooks::{ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use tokio_util::sync::CancellationToken;

use super::store::{Claimed, Outcome, WebhookStore};
use super::url::{Allow, Resolver};
use crate::config::webhooks::WebhookConfig;
use crate::storage::queue::{GiveUp, Options, Queue, Retry};
use crate::AppState;

/// How often the dispatcher looks at the outbox, and the worker for deliveries come due.
const DISPATCH_POLL: Duration = Duration::from_millis(200);
const POLL: Duration = Duration::from_secs(1);
/// How often the dispatcher makes pending the deliveries a race left waiting
/// (`WebhookStore::promote_orphans`).
const SWEEP: Duration = Duration::from_secs(5);
/// How much of the receiver's answer an attempt keeps.
const KEEP_ANSWER: usize = 4096;
const CLAIM_PER_LANE: usize = 4;

/// The running dispatcher and worker; [`Delivery::stop`] ends both gracefully.
pub struct Delivery {
    worker: crate::storage::queue::Worker,
    stop: CancellationToken,
    dispatcher: tokio::task::JoinHandle<()>,
}

impl Delivery {
    pub async fn stop(self) {
        self.stop.cancel();
        let _ = self.dispatcher.await;
        self.worker.stop().await;
    }
}

struct Webhooks {
    store: WebhookStore,
    config: WebhookConfig,
    allow: Allow,
    client: reqwest::Client,
}

/// Starts the dispatcher and the worker.
pub fn spawn(state: &AppState) -> anyhow::Result<Delivery> {
    let config = state.config.webhooks.clone();
    let store = state.stores.webhooks.clone().with_alerts(super::alert::Alerts::new(&state.config));
    let allow = Allow(std::sync::Arc::new(config.allow.clone()));
    let client = reqwest::Client::builder()
        .timeout(config.timeout)
        .redirect(reqwest::redirect::Policy::none())
        .dns_resolver(std::sync::Arc::new(Resolver(allow.clone())))
        .user_agent(concat!("Moneydesk-Webhooks/", env!("CARGO_PKG_VERSION")))
        .build()?;
    let options = Options {
        lanes: super::store::LANES,
        per_lane: CLAIM_PER_LANE,
        lease: config.claim(),
        poll: POLL,
        wake: store.deliver.clone(),
    };
    let stop = CancellationToken::new();
    let dispatcher = tokio::spawn(dispatch_loop(store.clone(), config.retry_for, stop.clone()));
    let name = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    let worker = crate::storage::queue::Worker::spawn(Webhooks { store, config, allow, client }, name, options);
    Ok(Delivery { worker, stop, dispatcher })
}

async fn dispatch_loop(store: WebhookStore, retry_for: Duration, stop: CancellationToken) {
    let mut swept = Instant::now();
    while !stop.is_cancelled() {
        if swept.elapsed() >= SWEEP {
            swept = Instant::now();
            match store.promote_orphans().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(n, "webhook deliveries left waiting behind a finished one made pending"),
                Err(e) => tracing::warn!(error = %e, "sweeping webhook deliveries left waiting"),
            }
        }
        let more = match store.dispatch(retry_for).await {
            Ok(d) => d.events > 0,
            Err(e) => {
                tracing::warn!(error = %e, "dispatching events to webhook endpoints");
                false
            }
        };
        if more {
            continue;
        }
        tokio::select! {
            _ = store.wake.notified() => {}
            _ = tokio::time::sleep(DISPATCH_POLL) => {}
            _ = stop.cancelled() => {}
        }
    }
}

impl Queue for Webhooks {
    type Claimed = Claimed;
    type Lane = ();
    type Store = WebhookStore;
    const KIND: &'static str = "webhooks";

    fn id(d: &Claimed) -> &str {
        &d.id
    }

    async fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> anyhow::Result<Vec<Claimed>> {
        Ok(self.store.claim(worker, now, until, limit).await?)
    }

    async fn attempt(&self, _: &mut (), d: &Claimed) -> Outcome {
        let attempt = d.attempts.max(0) as u32;
        let o = |state, outcome, status, ms, response, result: String| Outcome {
            id: d.id.clone(),
            attempt,
            endpoint_id: d.endpoint_id.clone(),
            object_type: d.object_type.clone(),
            object_id: d.object_id.clone(),
            state,
            outcome,
            status,
            duration_ms: ms,
            response,
            result,
            next: None,
            receiver_failed: true,
            disable_after: self.config.disable_after,
        };
        let outcome = match self.post(d).await {
            Ok(p) if (200..300).contains(&p.status) => {
                o("delivered", "delivered", Some(p.status), Some(p.ms), Some(p.body), p.result)
            }
            Ok(p) => self.retry(d, o("pending", "retrying", Some(p.status), Some(p.ms), Some(p.body), p.result)),
            Err(Failure::Final(why)) => {
                Outcome { receiver_failed: false, ..o("failed", "failed", None, None, None, why) }
            }
            Err(Failure::Again(why)) => self.retry(d, o("pending", "retrying", None, None, None, why)),
        };
        crate::metrics::attempt("webhooks", outcome.outcome);
        outcome
    }

    async fn release(&self, worker: &str, ids: &[String]) -> anyhow::Result<()> {
        Ok(self.store.release(worker, ids).await?)
    }

    fn store(&self) -> WebhookStore {
        self.store.clone()
    }
}

enum Failure {
    Final(String),
    Again(String),
}

struct Posted {
    status: u16,
    ms: u64,
    body: String,
    result: String,
}

impl Webhooks {
    /// A failed attempt: tried again later, or failed once the next try falls after the window.
    fn retry(&self, d: &Claimed, failed: Outcome) -> Outcome {
        let give_up = crate::storage::time::parse(&d.retry_until).map_or(GiveUp::After(u32::MAX), GiveUp::At);
        let schedule = Retry { base: self.config.retry_base, max: self.config.retry_max, give_up };
        match schedule.next(failed.attempt, Utc::now()) {
            Some(next) => Outcome { next: Some(next), ..failed },
            None => Outcome {
                state: "failed",
                outcome: "failed",
                result: format!(
                    "{} (gave up after {} attempts: the retry window closed at {})",
                    failed.result, failed.attempt, d.retry_until
                ),
                ..failed
            },
        }
    }

    async fn post(&self, d: &Claimed) -> Result<Posted, Failure> {
        let (Some(url), Some(secret), Some(enabled)) = (&d.url, &d.secret, d.enabled) else {
            return Err(Failure::Final("the endpoint was deleted".into()));
        };
        if enabled == 0 {
            return Err(Failure::Final("the endpoint is disabled".into()));
        }
        super::url::parse(url, &self.allow).map_err(Failure::Final)?;
        let body = body(d).map_err(Failure::Final)?;
        let now = Utc::now();
        let mut secrets = vec![secret.as_str()];
        let overlap =
            d.previous_secret_until.as_deref().is_some_and(|u| u > crate::storage::time::millis(now).as_str());
        if let (Some(previous), true) = (&d.previous_secret, overlap) {
            secrets.push(previous);
        }
        let timestamp = now.timestamp();
        let started = Instant::now();
        let sent = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(ID_HEADER, d.event_id.as_str())
            .header(TIMESTAMP_HEADER, timestamp.to_string())
            .header(SIGNATURE_HEADER, super::signing::header(&secrets, timestamp, &body))
            .body(body)
            .send()
            .await;
        let answer = sent.map_err(|e| Failure::Again(crate::http::client::failure_text(&e, self.config.timeout)))?;
        let status = answer.status();
        let bytes = answer.bytes().await.unwrap_or_default();
        let ms = started.elapsed().as_millis() as u64;
        let kept = String::from_utf8_lossy(&bytes[..bytes.len().min(KEEP_ANSWER)]).into_owned();
        let result = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or("")).trim_end().to_string();
        Ok(Posted { status: status.as_u16(), ms, body: kept, result })
    }
}

/// The event as posted.
fn body(d: &Claimed) -> Result<Vec<u8>, String> {
    let kind = EventType::parse(&d.event_type).ok_or_else(|| format!("unknown event type {}", d.event_type))?;
    let data = d.data.as_deref().ok_or("the event is gone")?;
    let event = Event {
        id: d.event_id.clone(),
        kind,
        created: d.event_created.clone().unwrap_or_default(),
        api_version: d.api_version.clone().unwrap_or_default(),
        object_type: d.object_type.clone(),
        object_id: d.object_id.clone(),
        data: serde_json::from_str(data).map_err(|e| format!("the stored event is not JSON: {e}"))?,
    };
    serde_json::to_vec(&event).map_err(|e| e.to_string())
}

/// An endpoint the server just disabled (its owner's email queued with it, when there is
/// someone to tell): logged.
pub fn disabled(endpoint: &str, owner: &str, alerted: bool) {
    tracing::warn!(%endpoint, %owner, alerted, "webhook endpoint disabled after days of failed deliveries");
}
