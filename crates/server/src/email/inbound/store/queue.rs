//! Inbound messages as the webhook worker's queue (`storage::queue`): claims with the route's
//! URL and secret at that moment, outcomes recorded only while the claim holds, claims given
//! back on a graceful stop.

use chrono::{DateTime, Utc};
use moneydesk_model::email::inbound::InboundState;

use super::{InboundStore, MessageRow};
use crate::storage::queue::{AttemptTable, Claimable, Outcomes, QueueTable, UNCLAIMED};
use crate::storage::sql::{Arg, Conn};
use crate::storage::time::millis as time_text;

/// The inbound messages' queue: due when pending and `next_attempt_at` has come. A claim also
/// answers the route's URL and secret at that moment (none when the route is gone).
const INBOUND: QueueTable = QueueTable {
    table: "email_inbound_messages",
    id: "id",
    state: "state",
    due: &["pending"],
    in_flight: "delivering",
    released: "'pending'",
    returning: "id, domain, mail_from, rcpt_to, from_header, subject, size, raw_sha256, attachments, received_by, \
        received_at, state, attempts, next_attempt_at, retry_until, last_result, \
        (SELECT r.url FROM email_inbound_routes r WHERE r.domain = email_inbound_messages.domain) AS route_url, \
        (SELECT r.secret FROM email_inbound_routes r WHERE r.domain = email_inbound_messages.domain) AS route_secret",
    attempts: AttemptTable {
        table: "email_inbound_attempts",
        key: "message_id",
        outcome: "result",
        in_flight: "delivering",
        note: "result",
        taken_over: crate::email::outbox::store::delivery::TAKEN_OVER,
        extra: &["url"],
    },
};

/// A message as a claim answers it.
#[derive(Debug, Clone, sqlx::FromRow)]
struct ClaimedRow {
    #[sqlx(flatten)]
    message: MessageRow,
    route_url: Option<String>,
    route_secret: Option<String>,
}

impl Claimable for ClaimedRow {
    fn id(&self) -> &str {
        &self.message.id
    }

    fn attempt(&self) -> i64 {
        self.message.attempts
    }

    /// The attempt's URL: the route's (empty when it is gone).
    fn attempt_values(&self) -> Vec<Arg> {
        vec![self.route_url.clone().unwrap_or_default().into()]
    }
}

/// A claimed message: what to post, where, and which attempt this is.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub message: MessageRow,
    pub attempt: u32,
    /// The route's URL and secret at claim time; `None` when the route is gone.
    pub route: Option<(String, String)>,
}

/// An attempt's outcome: of message `id`'s attempt `attempt`.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub id: String,
    pub attempt: u32,
    pub state: InboundState,
    pub status: Option<u16>,
    pub duration_ms: Option<u64>,
    pub result: String,
    pub next: Option<DateTime<Utc>>,
}

impl InboundStore {
    /// Claims up to `limit` due messages for `worker` until `until`: pending ones whose time
    /// came, and `delivering` ones whose claim ran out (their process died mid-POST: posted
    /// again, with the same `Moneydesk-Delivery`). Each claim opens its attempt, recording
    /// the route's URL.
    pub async fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> sqlx::Result<Vec<Claimed>> {
        let claimed = INBOUND.claim::<ClaimedRow>(&self.db, worker, now, until, limit).await?;
        crate::metrics::taken_over("inbound", claimed.taken_over);
        Ok(claimed
            .rows
            .into_iter()
            .map(|r| Claimed {
                attempt: r.message.attempts as u32,
                route: r.route_url.zip(r.route_secret),
                message: r.message,
            })
            .collect())
    }

    /// Records attempts' outcomes in one transaction, each only if its claim is still
    /// `worker`'s: for each, whether it was.
    pub async fn record(&self, worker: &str, outcomes: &[Outcome]) -> sqlx::Result<Vec<bool>> {
        let mut tx = self.db.begin().await?;
        let mut recorded = Vec::with_capacity(outcomes.len());
        for o in outcomes {
            let mut q = self
                .db
                .sql(&format!("UPDATE email_inbound_messages AS m SET state = ?, last_result = ?, next_attempt_at = ?, {UNCLAIMED} WHERE m.id = ?"))
                .arg(o.state.as_str())
                .arg(o.result.as_str())
                .arg(o.next.map(time_text))
                .arg(o.id.as_str());
            INBOUND.still_mine(&mut q, "m", worker);
            let mine = tx.exec().execute(&q).await? > 0;
            recorded.push(mine);
            if !mine {
                continue;
            }
            let q = self
                .db
                .sql("UPDATE email_inbound_attempts SET status = ?, duration_ms = ?, result = ? WHERE message_id = ? AND number = ?")
                .arg(o.status.map(i64::from))
                .arg(o.duration_ms.map(|d| d as i64))
                .arg(o.result.as_str())
                .arg(o.id.as_str())
                .arg(o.attempt as i64);
            tx.exec().execute(&q).await?;
        }
        tx.commit().await?;
        Ok(recorded)
    }

    /// Gives back claims not started (a graceful stop): due again at once.
    pub async fn release(&self, worker: &str, ids: &[String]) -> sqlx::Result<()> {
        INBOUND.release(&self.db, worker, ids).await.map(|_| ())
    }
}

/// The webhook worker's outcomes, written in groups ([`InboundStore::record`]).
impl Outcomes for InboundStore {
    type Outcome = Outcome;

    fn id(outcome: &Outcome) -> &str {
        &outcome.id
    }

    async fn record(&self, _held: &mut Option<Conn>, worker: &str, outcomes: &[Outcome]) -> anyhow::Result<Vec<bool>> {
        Ok(InboundStore::record(self, worker, outcomes).await?)
    }
}
