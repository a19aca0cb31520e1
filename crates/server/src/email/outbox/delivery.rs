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
//! the message's final dot, or after the commit) delivers each message exactly once. That
//! instant is kept short: a lane has its outcome committed before it takes its next message,
//! and the outcomes ready at once are committed together (`recorder`), so an outcome waits
//! for at most the commit under way and then its own. A graceful stop finishes the attempts
//! under way, their outcomes committed, and gives back the claims not yet started. A claimed
//! message whose claim has less than half its time left when its turn comes is given back
//! untried too (a slow relay could otherwise keep it waiting until another instance took it
//! over while this one still meant to send it).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use moneydesk_model::email::MessageState;
use rand::Rng;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::config::EmailConfig;
use super::mime;
use super::recorder::Recorder;
use super::relay::{Lane, Relay};
use super::store::delivery::{Claimed, Outcome};
use crate::AppState;

/// How often an idle worker looks for due messages queued by other instances, scheduled
/// ones coming due and deferred ones whose time came.
const POLL: Duration = Duration::from_secs(1);

/// Messages claimed at a time, per connection. A claim holds SQLite's one write lock, and
/// the outcomes waiting meanwhile wait in its busy handler; fewer, larger claims cost less
/// (Python's sqlite3 on this schema, 10,000 queued: 1.4 ms a claim of 128, 0.5 ms one of 32),
/// and 4 lanes send 128 messages to a local relay in a tenth of a second, far within a claim.
const CLAIM_PER_LANE: usize = 32;

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

/// What the lanes share: the messages claimed and not yet taken, topped up by whichever lane
/// finds them running low, one claim at a time. No lane waits for the others between claims
/// (a round of claimed messages used to end with every lane waiting for the slowest, then
/// for the next claim).
struct Queue {
    /// Each with the time its claim runs out (`Queue::stale`).
    waiting: Mutex<VecDeque<(Claimed, DateTime<Utc>)>>,
    claiming: tokio::sync::Mutex<()>,
    /// Claimed at most at once, and the level at or below which the next claim is made (a
    /// message a lane, so the others keep sending during the claim).
    batch: usize,
    low: usize,
}

/// Where a lane runs: the worker's name, the relay (none: the development mailbox), the
/// committer of outcomes and the queue.
struct Ctx<'a> {
    state: &'a AppState,
    relay: Option<&'a Relay>,
    worker: &'a str,
    stop: &'a CancellationToken,
    recorder: &'a Recorder,
    queue: &'a Queue,
}

/// Starts the worker of this process (`MONEYDESK_SMTP_URL` and `MONEYDESK_SMTP_CA_FILE` are
/// checked here: a bad one stops the server from starting).
pub fn spawn(state: AppState) -> anyhow::Result<Worker> {
    let c = &state.config.email;
    let relay = c
        .smtp_url
        .as_deref()
        .map(|url| Relay::parse(url)?.trusting(c.smtp_ca_file.as_deref()))
        .transpose()?
        .map(Arc::new);
    let cancel = CancellationToken::new();
    let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    let stop = cancel.clone();
    let task = tokio::spawn(async move {
        let connections = state.config.email.connections;
        tracing::info!(%worker, relay = relay.is_some(), "email delivery worker started");
        // Outcomes are committed by one committer, in groups (`recorder`): one writer, so the
        // lanes never meet in SQLite's busy handler (which sleeps 1, 2, 5, 10… ms between
        // tries), and the time between a relay's 250 and its record stays short.
        let (recorder, committer) = Recorder::start(state.email.clone(), worker.clone());
        let queue = Queue {
            waiting: Mutex::new(VecDeque::new()),
            claiming: tokio::sync::Mutex::new(()),
            batch: connections * CLAIM_PER_LANE,
            low: connections,
        };
        let ctx = Ctx {
            state: &state,
            relay: relay.as_deref(),
            worker: &worker,
            stop: &stop,
            recorder: &recorder,
            queue: &queue,
        };
        futures_util::future::join_all((0..connections).map(|_| run_lane(&ctx))).await;
        // A stop lets the attempts under way finish, their outcomes committed (the committer
        // ends once its last handle is dropped), and gives back the claims not started.
        drop(recorder);
        let _ = committer.await;
        let unstarted: Vec<String> =
            queue.waiting.into_inner().expect("not poisoned").into_iter().map(|(m, _)| m.message.id).collect();
        if let Err(e) = state.email.release(&worker, &unstarted).await {
            tracing::warn!(error = %e, "giving back email claims");
        }
        tracing::info!(%worker, "email delivery worker stopped");
    });
    Ok(Worker { cancel, task })
}

/// One lane: its connection (kept across messages), taking claimed messages one at a time
/// until the worker stops.
async fn run_lane(ctx: &Ctx<'_>) {
    let q = ctx.queue;
    let mut lane: Option<Lane> = None;
    while !ctx.stop.is_cancelled() {
        let (next, left) = {
            let mut waiting = q.waiting.lock().expect("not poisoned");
            (waiting.pop_front(), waiting.len())
        };
        match next {
            Some((m, until)) => {
                if stale(until, ctx.state.config.email.claim) {
                    give_back(ctx, m).await;
                    continue;
                }
                if left <= q.low {
                    // Unless another lane is claiming already.
                    if let Ok(_claiming) = q.claiming.try_lock() {
                        claim(ctx).await;
                    }
                }
                deliver(ctx, &mut lane, m).await;
            }
            None => {
                // Wait for a claim under way, or make one; with nothing due, wait for a wake,
                // the poll or the stop (the other lanes wait for this one).
                let _claiming = q.claiming.lock().await;
                if ctx.stop.is_cancelled() || !q.waiting.lock().expect("not poisoned").is_empty() {
                    continue;
                }
                if claim(ctx).await == 0 {
                    tokio::select! {
                        _ = ctx.state.email.wake.notified() => {}
                        _ = tokio::time::sleep(POLL) => {}
                        _ = ctx.stop.cancelled() => {}
                    }
                }
            }
        }
    }
}

/// Claims due messages up to the batch into the queue; how many.
async fn claim(ctx: &Ctx<'_>) -> usize {
    let c = &ctx.state.config.email;
    let room = ctx.queue.batch.saturating_sub(ctx.queue.waiting.lock().expect("not poisoned").len());
    if room == 0 || ctx.stop.is_cancelled() {
        return 0;
    }
    let now = Utc::now();
    let until = now + chrono::Duration::from_std(c.claim).unwrap_or(chrono::Duration::minutes(5));
    match ctx.state.email.claim(ctx.worker, now, until, room).await {
        Ok(claimed) => {
            let n = claimed.len();
            ctx.queue.waiting.lock().expect("not poisoned").extend(claimed.into_iter().map(|m| (m, until)));
            n
        }
        Err(e) => {
            tracing::warn!(error = %e, "claiming email to deliver");
            0
        }
    }
}

/// Whether a claim running out at `until` has too little time left for an attempt to start:
/// less than half of it. A claimed message waits in the queue while its lane sends those
/// before it; behind a relay that stalls until the SMTP timeout, that wait can outlast the
/// claim, and another instance would then take the message over while this one still meant
/// to send it — both would send.
fn stale(until: DateTime<Utc>, claim: Duration) -> bool {
    let half = chrono::Duration::from_std(claim / 2).unwrap_or(chrono::Duration::zero());
    Utc::now() + half > until
}

/// Gives a stale claim back untried (its claim undone, due again at once).
async fn give_back(ctx: &Ctx<'_>, m: Claimed) {
    tracing::debug!(id = %m.message.id, "an email's claim ran low before its attempt; given back");
    if let Err(e) = ctx.state.email.release(ctx.worker, std::slice::from_ref(&m.message.id)).await {
        tracing::warn!(id = %m.message.id, error = %e, "giving back an email's claim; it is taken again when the claim runs out");
    }
}

/// One attempt of one message, its outcome recorded before the lane goes on.
async fn deliver(ctx: &Ctx<'_>, lane: &mut Option<Lane>, m: Claimed) {
    let outcome = attempt(ctx, lane, &m).await;
    crate::metrics::attempt("email", outcome.state.as_str());
    match ctx.recorder.record(outcome).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(id = %m.message.id, "an email's claim was taken over before its outcome was recorded")
        }
        Err(e) => tracing::error!(id = %m.message.id, error = %e, "recording an email's outcome"),
    }
}

/// Builds and sends the message (or stores it in the development mailbox) and says what came
/// of it.
async fn attempt(ctx: &Ctx<'_>, lane: &mut Option<Lane>, m: &Claimed) -> Outcome {
    let (state, c) = (ctx.state, &ctx.state.config.email);
    let domain = from_domain(&m.message.from.email);
    // Whether the sender's domain is an active sending domain: a failure to read it is
    // temporary (the message is deferred), never a reason to send unsigned or to give up.
    let signers = state.domains.signers_for(domain).await;
    let built = match (&signers, mime::build_with_blobs(&state.blobs, &m.message, c.list_unsubscribe.as_deref()).await)
    {
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
    let sent = match (&built, ctx.relay) {
        (Some(Ok((raw, envelope))), Some(r)) => Some(r.send(lane, envelope, raw).await),
        _ => None,
    };
    let outcome = |state: MessageState, reply: String| Outcome {
        id: m.message.id.clone(),
        attempt: m.attempt,
        state,
        reply,
        next: None,
        mailbox: None,
    };
    // A temporary failure: deferred, or failed after the last allowed attempt.
    let retry = |reply: String| {
        if m.tries >= c.max_attempts {
            outcome(MessageState::Failed, format!("{reply} (gave up after {} attempts)", m.tries))
        } else {
            Outcome { next: Some(Utc::now() + backoff(c, m.tries)), ..outcome(MessageState::Deferred, reply) }
        }
    };
    match (built, sent) {
        (None, _) => retry(format!(
            "the sending domain {domain} could not be read: {}",
            signers.err().map(|e| e.message).unwrap_or_default()
        )),
        (Some(Err(e)), _) => outcome(MessageState::Failed, format!("the message could not be built: {}", e.message)),
        // No relay: the development mailbox.
        (Some(Ok((raw, _))), None) => Outcome {
            mailbox: Some(String::from_utf8_lossy(&raw).into_owned()),
            ..outcome(MessageState::Sent, "stored in the development mailbox".into())
        },
        (Some(Ok(_)), Some(Ok(reply))) => {
            outcome(MessageState::Sent, format!("{} {}", reply.code(), reply.message().collect::<Vec<_>>().join(" ")))
        }
        (Some(Ok(_)), Some(Err(e))) if e.is_permanent() => outcome(MessageState::Failed, e.reply_text()),
        (Some(Ok(_)), Some(Err(e))) => retry(e.reply_text()),
    }
}

/// The envelope of a message from an active sending domain: the same recipients, the sender
/// `bounces+<message id>@mdbounce.<domain>` (the id tells which message bounced).
fn return_path(envelope: &lettre::address::Envelope, id: &str, domain: &str) -> lettre::address::Envelope {
    let local: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect();
    let from = format!("bounces+{local}@{}.{domain}", moneydesk_model::email::domains::RETURN_PATH_LABEL).parse().ok();
    match from {
        Some(from) => {
            lettre::address::Envelope::new(Some(from), envelope.to().to_vec()).unwrap_or_else(|_| envelope.clone())
        }
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
