//! The delivery worker: claims due messages, sends them over SMTP (lettre's client on
//! `relay.rs`'s connections, one a lane, `MONEYDESK_EMAIL_CONNECTIONS` lanes) or into the
//! development mailbox, and records each attempt and its outcome. The worker is the queues'
//! one (`storage::queue::Worker`: lanes, group commit, give-backs, graceful stop); what is
//! the outbox's is here: its lanes' connections and its attempt.
//!
//! - A 2xx reply → `sent`, with the relay's reply kept.
//! - A 4xx reply, or no answer (refused, reset, timed out) → `deferred` until now + the
//!   retry base doubled per attempt (up to the retry maximum, plus a tenth of jitter so a
//!   relay coming back is not hit by every message at once; `storage::queue::Retry`); after
//!   the last allowed attempt, `failed`.
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
//! and the outcomes ready at once are committed together (`storage::queue::recorder`), so an outcome waits
//! for at most the commit under way and then its own. A graceful stop finishes the attempts
//! under way, their outcomes committed, and gives back the claims not yet started. A claimed
//! message whose claim has less than half its time left when its turn comes is given back
//! untried too (a slow relay could otherwise keep it waiting until another instance took it
//! over while this one still meant to send it).

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use moneydesk_model::email::MessageState;

use super::mime;
use super::relay::{Lane, Relay};
use super::store::delivery::{Claimed, Outcome};
use super::store::EmailStore;
/// The running worker ([`spawn`]); `stop` ends it gracefully.
pub use crate::storage::queue::Worker;
use crate::storage::queue::{GiveUp, Options, Queue, Retry};
use crate::AppState;

/// How often an idle worker looks for due messages queued by other instances, scheduled
/// ones coming due and deferred ones whose time came.
const POLL: Duration = Duration::from_secs(1);

/// Messages claimed at a time, per connection. A claim holds SQLite's one write lock, and
/// the outcomes waiting meanwhile wait in its busy handler; fewer, larger claims cost less
/// (Python's sqlite3 on this schema, 10,000 queued: 1.4 ms a claim of 128, 0.5 ms one of 32),
/// and 4 lanes send 128 messages to a local relay in a tenth of a second, far within a claim.
const CLAIM_PER_LANE: usize = 32;

/// The outbox as the queue worker drives it: a lane a connection to the relay (none: the
/// development mailbox).
struct Outbox {
    state: AppState,
    relay: Option<Arc<Relay>>,
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
    let worker = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    tracing::info!(%worker, relay = relay.is_some(), "email delivery worker starting");
    let options = Options {
        lanes: c.connections,
        per_lane: CLAIM_PER_LANE,
        lease: c.claim,
        poll: POLL,
        wake: state.stores.email.wake.clone(),
    };
    Ok(Worker::spawn(Outbox { state, relay }, worker, options))
}

impl Queue for Outbox {
    type Claimed = Claimed;
    type Lane = Option<Lane>;
    type Store = EmailStore;
    const KIND: &'static str = "email";

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
        let mut claimed = self.state.stores.email.claim(worker, now, until, limit).await?;
        // The lists again (an address may have bounced since acceptance). A failure to read
        // them leaves the acceptance's screening standing: the claim is not lost for it.
        if let Err(e) = crate::email::suppressions::screen::rescreen(&self.state.stores.email, &mut claimed).await {
            tracing::warn!(error = %e.message, "email delivery: reading the suppression lists");
        }
        Ok(claimed)
    }

    async fn attempt(&self, lane: &mut Option<Lane>, m: &Claimed) -> Outcome {
        let outcome = attempt(&self.state, self.relay.as_deref(), lane, m).await;
        crate::metrics::attempt("email", outcome.state.as_str());
        outcome
    }

    async fn release(&self, worker: &str, ids: &[String]) -> anyhow::Result<()> {
        self.state.stores.email.release(worker, ids).await?;
        Ok(())
    }

    fn store(&self) -> EmailStore {
        self.state.stores.email.clone()
    }
}

/// Builds and sends the message (or stores it in the development mailbox) and says what came
/// of it.
async fn attempt(state: &AppState, relay: Option<&Relay>, lane: &mut Option<Lane>, m: &Claimed) -> Outcome {
    let c = &state.config.email;
    let domain = from_domain(&m.message.from.email);
    let r = &m.message.recipients;
    if m.recipients.is_some() && r.to.is_empty() && r.cc.is_empty() && r.bcc.is_empty() {
        return Outcome {
            id: m.message.id.clone(),
            attempt: m.attempt,
            state: MessageState::Failed,
            reply: format!(
                "not sent: every recipient was put on the suppression list of {domain} after the message was accepted"
            ),
            next: None,
            mailbox: None,
            recipients: m.recipients.clone(),
        };
    }
    // Whether the sender's domain is an active sending domain: a failure to read it is
    // temporary (the message is deferred), never a reason to send unsigned or to give up.
    let signers = state.domains.signers_for(domain).await;
    let unsubscribe = crate::email::suppressions::unsubscribe::header_value(c, &m.message);
    let built = match (&signers, mime::build_with_blobs(&state.blobs, &m.message, unsubscribe.as_deref()).await) {
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
    let outcome = |state: MessageState, reply: String| Outcome {
        id: m.message.id.clone(),
        attempt: m.attempt,
        state,
        reply,
        next: None,
        mailbox: None,
        recipients: m.recipients.clone(),
    };
    // A temporary failure: deferred, or failed after the last allowed attempt.
    let retry = |reply: String| {
        let schedule = Retry { base: c.retry_base, max: c.retry_max, give_up: GiveUp::After(c.max_attempts) };
        match schedule.next(m.tries, Utc::now()) {
            Some(next) => Outcome { next: Some(next), ..outcome(MessageState::Deferred, reply) },
            None => outcome(MessageState::Failed, format!("{reply} (gave up after {} attempts)", m.tries)),
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

/// The domain of a stored sender address (ASCII already).
fn from_domain(address: &str) -> &str {
    address.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
}
