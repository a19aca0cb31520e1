//! The delivery worker: claims due messages, sends them over SMTP (lettre's client on
//! `relay.rs`'s connections, one a lane, `MONEYDESK_EMAIL_CONNECTIONS` lanes) or into the
//! development mailbox, and records each attempt and its outcome.
//!
//! - A 2xx reply → `sent`, with the relay's reply kept.
//! - A 4xx reply, or no answer (refused, reset, timed out) → `deferred` until now + the
//!   retry base doubled per attempt (up to the retry maximum, plus a tenth of jitter so a
//!   relay coming back is not hit by every message at once); after the last allowed attempt,
//!   `failed`.
//! - A 5xx reply → `failed` at once: the relay refused the message for good.
//!
//! **The restart rule.** A message is claimed (`sending`) for `MONEYDESK_EMAIL_CLAIM` before
//! it is sent. If the process dies during the attempt, the message stays `sending` until the
//! claim runs out; then any instance takes it over and sends it again, with the same
//! Message-ID and Date (the MIME is built from what was stored at acceptance). SMTP cannot
//! do better than this: the relay takes responsibility when it sends its final 250, and a
//! process that dies between reading that 250 and recording it cannot know it was sent
//! (RFC 1047), so only a death in that instant can make the relay see a message twice, and
//! receivers collapse such duplicates by their Message-ID. A death at any other moment (before
//! the message's final dot, or after the commit) delivers each message exactly once. A
//! graceful stop finishes the attempts under way and gives back the claims not yet started.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use moneydesk_model::email::MessageState;
use rand::Rng;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::config::EmailConfig;
use super::mime;
use super::relay::{Lane, Relay};
use super::store::delivery::Claimed;
use crate::AppState;

/// How often an idle worker looks for due messages queued by other instances, scheduled
/// ones coming due and deferred ones whose time came.
const POLL: Duration = Duration::from_secs(1);

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

/// What a round's lanes share: the claimed messages not yet taken, and the ones taken.
struct Round {
    waiting: Mutex<VecDeque<Claimed>>,
    started: Mutex<Vec<String>>,
}

/// Starts the worker of this process (`MONEYDESK_SMTP_URL` and `MONEYDESK_SMTP_CA_FILE` are
/// checked here: a bad one stops the server from starting).
pub fn spawn(state: AppState) -> anyhow::Result<Worker> {
    let c = &state.config.email;
    let relay = c.smtp_url.as_deref().map(|url| Relay::parse(url)?.trusting(c.smtp_ca_file.as_deref())).transpose()?.map(Arc::new);
    let cancel = CancellationToken::new();
    let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    let stop = cancel.clone();
    // Outcomes are recorded one at a time, queued here rather than in SQLite's busy handler
    // (which sleeps 1, 2, 5, 10… ms between tries): the time between the relay's 250 and its
    // record, the only moment a crash can make a message go twice, stays a commit long.
    let recording = Arc::new(tokio::sync::Mutex::new(()));
    let task = tokio::spawn(async move {
        let c = state.config.email.clone();
        tracing::info!(%worker, relay = relay.is_some(), "email delivery worker started");
        // One connection a lane, kept across rounds.
        let mut lanes: Vec<Option<Lane>> = (0..c.connections).map(|_| None).collect();
        loop {
            if stop.is_cancelled() {
                break;
            }
            let now = Utc::now();
            let until = now + chrono::Duration::from_std(c.claim).unwrap_or(chrono::Duration::minutes(5));
            let claimed = match state.email.claim(&worker, now, until, c.connections * 8).await {
                Ok(claimed) => claimed,
                Err(e) => {
                    tracing::warn!(error = %e, "claiming email to deliver");
                    Vec::new()
                }
            };
            if claimed.is_empty() {
                tokio::select! {
                    _ = state.email.wake.notified() => {}
                    _ = tokio::time::sleep(POLL) => {}
                    _ = stop.cancelled() => break,
                }
                continue;
            }
            let round = Round { waiting: Mutex::new(claimed.into()), started: Mutex::new(Vec::new()) };
            let runs = lanes.iter_mut().map(|lane| {
                let (state, relay, worker, stop, recording, round) = (&state, relay.as_deref(), worker.as_str(), &stop, &recording, &round);
                async move {
                    // A stop lets the attempts under way finish and leaves the rest.
                    while !stop.is_cancelled() {
                        let Some(m) = round.waiting.lock().expect("not poisoned").pop_front() else { break };
                        round.started.lock().expect("not poisoned").push(m.message.id.clone());
                        deliver(state, relay, lane, worker, recording, m).await;
                    }
                }
            });
            futures_util::future::join_all(runs).await;
            if stop.is_cancelled() {
                let unstarted: Vec<String> = round.waiting.into_inner().expect("not poisoned").into_iter().map(|m| m.message.id).collect();
                if let Err(e) = state.email.release(&worker, &unstarted).await {
                    tracing::warn!(error = %e, "giving back email claims");
                }
                break;
            }
        }
        tracing::info!(%worker, "email delivery worker stopped");
    });
    Ok(Worker { cancel, task })
}

/// One attempt of one message, its outcome recorded.
async fn deliver(state: &AppState, relay: Option<&Relay>, lane: &mut Option<Lane>, worker: &str, recording: &tokio::sync::Mutex<()>, m: Claimed) {
    let c = &state.config.email;
    let domain = from_domain(&m.message.from.email);
    // Whether the sender's domain is an active sending domain: a failure to read it is
    // temporary (the message is deferred), never a reason to send unsigned or to give up.
    let signers = state.domains.signers_for(domain).await;
    let built = match (&signers, mime::build_with_blobs(&state.blobs, &m.message, c.list_unsubscribe.as_deref()).await) {
        (Err(_), _) => None,
        (_, Err(e)) => Some(Err(e)),
        (Ok(None), Ok((raw, message))) => Some(Ok((raw, message.envelope().clone()))),
        // From an active sending domain: DKIM-signed with its keys, and the envelope sender on
        // the domain's return-path host (`mdbounce.<domain>`, which its CNAME points at the
        // service's bounce host), so bounces come back to the service and SPF aligns.
        (Ok(Some(s)), Ok((raw, message))) => Some(s.sign(&raw).map_err(crate::error::Error::internal).map(|signed| {
            let envelope = return_path(message.envelope(), &m.message.id, domain);
            (signed, envelope)
        })),
    };
    let sent = match (&built, relay) {
        (Some(Ok((raw, envelope))), Some(r)) => Some(r.send(lane, envelope, raw).await),
        _ => None,
    };
    let _turn = recording.lock().await;
    let recorded = match (built, sent) {
        (None, _) => {
            let why = format!("the sending domain {domain} could not be read: {}", signers.err().map(|e| e.message).unwrap_or_default());
            if m.tries >= c.max_attempts {
                state.email.finish(worker, &m, MessageState::Failed, &format!("{why} (gave up after {} attempts)", m.tries), None).await
            } else {
                state.email.finish(worker, &m, MessageState::Deferred, &why, Some(Utc::now() + backoff(c, m.tries))).await
            }
        }
        (Some(Err(e)), _) => state.email.finish(worker, &m, MessageState::Failed, &format!("the message could not be built: {}", e.message), None).await,
        // No relay: the development mailbox.
        (Some(Ok((raw, _))), None) => state.email.deliver_to_mailbox(worker, &m, &String::from_utf8_lossy(&raw)).await,
        (Some(Ok(_)), Some(Ok(reply))) => {
            let text = format!("{} {}", reply.code(), reply.message().collect::<Vec<_>>().join(" "));
            state.email.finish(worker, &m, MessageState::Sent, &text, None).await
        }
        (Some(Ok(_)), Some(Err(e))) if e.is_permanent() => state.email.finish(worker, &m, MessageState::Failed, &e.reply_text(), None).await,
        (Some(Ok(_)), Some(Err(e))) if m.tries >= c.max_attempts => {
            let text = format!("{} (gave up after {} attempts)", e.reply_text(), m.tries);
            state.email.finish(worker, &m, MessageState::Failed, &text, None).await
        }
        (Some(Ok(_)), Some(Err(e))) => {
            let next = Utc::now() + backoff(c, m.tries);
            state.email.finish(worker, &m, MessageState::Deferred, &e.reply_text(), Some(next)).await
        }
    };
    match recorded {
        Ok(true) => {}
        Ok(false) => tracing::warn!(id = %m.message.id, "an email's claim was taken over before its outcome was recorded"),
        Err(e) => tracing::error!(id = %m.message.id, error = %e, "recording an email's outcome"),
    }
}

/// The envelope of a message from an active sending domain: the same recipients, the sender
/// `bounces+<message id>@mdbounce.<domain>` (the id tells which message bounced).
fn return_path(envelope: &lettre::address::Envelope, id: &str, domain: &str) -> lettre::address::Envelope {
    let local: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect();
    let from = format!("bounces+{local}@{}.{domain}", moneydesk_model::email::domains::RETURN_PATH_LABEL).parse().ok();
    match from {
        Some(from) => lettre::address::Envelope::new(Some(from), envelope.to().to_vec()).unwrap_or_else(|_| envelope.clone()),
        None => envelope.clone(),
    }
}

/// The wait before attempt `attempt + 1`: the base doubled per attempt made, at most the
/// maximum, plus up to a tenth of jitter.
fn backoff(c: &EmailConfig, attempt: u32) -> chrono::Duration {
    chrono::Duration::from_std(retry_delay(c.retry_base, c.retry_max, attempt)).unwrap_or(chrono::Duration::hours(1))
}

/// The wait after failed attempt `attempt`: `base` doubled per attempt made, at most `max`,
/// plus up to a tenth of jitter (so a receiver coming back is not hit by everything at once).
/// The outbox's and the inbound webhook's schedule.
pub fn retry_delay(base: Duration, max: Duration, attempt: u32) -> Duration {
    let base = base.saturating_mul(1u32 << attempt.saturating_sub(1).min(20)).min(max);
    let jitter = rand::thread_rng().gen_range(0..=base.as_millis() as u64 / 10);
    base + Duration::from_millis(jitter)
}

/// The domain of a stored sender address (ASCII already).
fn from_domain(address: &str) -> &str {
    address.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
}
