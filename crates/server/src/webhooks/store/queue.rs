//! Deliveries as the worker's queue (`storage::queue`): a claim answers the endpoint (URL,
//! secrets, enabled) and the event at that moment; an outcome is recorded only while the claim
//! holds, and in the same transaction it
//!
//! - makes the next `waiting` delivery of the same endpoint and object `pending` once this one
//!   is finished (delivered or failed): delivery in order per object;
//! - keeps the endpoint's failure streak (`failing_since`, cleared by a success) and disables
//!   the endpoint when the streak is older than the configured days, with the reason, and
//!   queues the email telling its owner (`alert.rs`).

use chrono::{DateTime, Utc};

use super::WebhookStore;
use crate::storage::queue::{AttemptTable, Cap, Claimable, Outcomes, QueueTable, UNCLAIMED};
use crate::storage::sql::{Arg, Conn};
use crate::storage::time::millis;
use crate::webhooks::alert::Disabled;

const DELIVERIES: QueueTable = QueueTable {
    table: "webhook_deliveries",
    id: "id",
    state: "state",
    due: &["pending"],
    in_flight: "delivering",
    released: "'pending'",
    returning: "id, endpoint_id, event_id, event_type, object_type, object_id, attempts, retry_until, \
        (SELECT w.url FROM webhook_endpoints w WHERE w.id = webhook_deliveries.endpoint_id) AS url, \
        (SELECT w.secret FROM webhook_endpoints w WHERE w.id = webhook_deliveries.endpoint_id) AS secret, \
        (SELECT w.previous_secret FROM webhook_endpoints w WHERE w.id = webhook_deliveries.endpoint_id) AS previous_secret, \
        (SELECT w.previous_secret_until FROM webhook_endpoints w WHERE w.id = webhook_deliveries.endpoint_id) AS previous_secret_until, \
        (SELECT w.enabled FROM webhook_endpoints w WHERE w.id = webhook_deliveries.endpoint_id) AS enabled, \
        (SELECT e.created FROM events e WHERE e.seq = webhook_deliveries.event_seq) AS event_created, \
        (SELECT e.api_version FROM events e WHERE e.seq = webhook_deliveries.event_seq) AS api_version, \
        (SELECT e.data FROM events e WHERE e.seq = webhook_deliveries.event_seq) AS data",
    attempts: AttemptTable {
        table: "webhook_attempts",
        key: "delivery_id",
        outcome: "outcome",
        in_flight: "delivering",
        note: "result",
        taken_over: crate::email::outbox::store::delivery::TAKEN_OVER,
        extra: &["endpoint_id", "url"],
    },
};

/// The lanes of a worker: deliveries posted at once by one instance.
pub const LANES: usize = 8;

/// Two caps on an endpoint's deliveries in flight (issue 43):
///
/// - A failing endpoint (its last attempt failed: `failing_since` is set) has at most two, across
///   every instance. A receiver that stalls until the timeout fails its attempts, so after its
///   first failure it holds at most two lanes, where before it could hold every lane for a
///   timeout each.
/// - Any endpoint, healthy too, has at most [`LANES`] − 2 claimed by one worker: two lanes of
///   every instance are always left for the other endpoints. Before, a receiver answering 2xx
///   after 200 ms held all eight lanes of a backlog, and a fast endpoint's deliveries drained
///   at the slow one's pace (`scripts/bench-webhooks`, bench/results/webhooks.md: 38 events/s
///   for both). The cost: an endpoint alone with a backlog is posted to by six lanes, not eight.
const ENDPOINT: Cap = Cap {
    column: "endpoint_id",
    most: "SELECT CASE WHEN w.failing_since IS NOT NULL THEN 2 END FROM webhook_endpoints w WHERE w.id = {key}",
    per_worker: Some(LANES as u32 - 2),
};

/// A delivery as a claim answers it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: String,
    pub endpoint_id: String,
    pub event_id: String,
    pub event_type: String,
    pub object_type: String,
    pub object_id: String,
    pub attempts: i64,
    pub retry_until: String,
    pub url: Option<String>,
    pub secret: Option<String>,
    pub previous_secret: Option<String>,
    pub previous_secret_until: Option<String>,
    pub enabled: Option<i64>,
    pub event_created: Option<String>,
    pub api_version: Option<String>,
    pub data: Option<String>,
}

impl Claimable for Claimed {
    fn id(&self) -> &str {
        &self.id
    }

    fn attempt(&self) -> i64 {
        self.attempts
    }

    fn attempt_values(&self) -> Vec<Arg> {
        vec![self.endpoint_id.clone().into(), self.url.clone().unwrap_or_default().into()]
    }
}

/// An attempt's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub id: String,
    pub attempt: u32,
    pub endpoint_id: String,
    pub object_type: String,
    pub object_id: String,
    /// The delivery's state after it: `pending` (tried again at `next`), `delivered`, `failed`.
    pub state: &'static str,
    /// The attempt's: `delivered`, `retrying`, `failed`.
    pub outcome: &'static str,
    pub status: Option<u16>,
    pub duration_ms: Option<u64>,
    pub response: Option<String>,
    pub result: String,
    pub next: Option<DateTime<Utc>>,
    /// Whether the receiver failed (not the endpoint disabled or deleted): counts toward the
    /// endpoint's failure streak.
    pub receiver_failed: bool,
    /// How long a streak disables the endpoint.
    pub disable_after: std::time::Duration,
}

impl WebhookStore {
    pub async fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> sqlx::Result<Vec<Claimed>> {
        let claimed = DELIVERIES.claim_within::<Claimed>(&self.db, worker, now, until, limit, Some(&ENDPOINT)).await?;
        crate::metrics::taken_over("webhooks", claimed.taken_over);
        Ok(claimed.rows)
    }

    /// Records outcomes in one transaction, each only while its claim is still `worker`'s;
    /// the endpoints disabled by them: `(id, owner, alert queued)`.
    pub async fn record(
        &self,
        worker: &str,
        outcomes: &[Outcome],
    ) -> sqlx::Result<(Vec<bool>, Vec<(String, String, bool)>)> {
        let now = Utc::now();
        let mut tx = self.db.begin().await?;
        let mut recorded = Vec::with_capacity(outcomes.len());
        let mut disabled = Vec::new();
        for o in outcomes {
            let mut q = self
                .db
                .sql(&format!(
                    "UPDATE webhook_deliveries AS m SET state = ?, last_result = ?, next_attempt_at = ?, {UNCLAIMED} WHERE m.id = ?"
                ))
                .arg(o.state)
                .arg(o.result.as_str())
                .arg(o.next.map(millis))
                .arg(o.id.as_str());
            DELIVERIES.still_mine(&mut q, "m", worker);
            let mine = tx.exec().execute(&q).await? > 0;
            recorded.push(mine);
            if !mine {
                continue;
            }
            let q = self
                .db
                .sql("UPDATE webhook_attempts SET outcome = ?, status = ?, duration_ms = ?, response = ?, result = ? WHERE delivery_id = ? AND number = ?")
                .arg(o.outcome)
                .arg(o.status.map(i64::from))
                .arg(o.duration_ms.map(|d| d as i64))
                .arg(o.response.as_deref())
                .arg(o.result.as_str())
                .arg(o.id.as_str())
                .arg(i64::from(o.attempt));
            tx.exec().execute(&q).await?;
            if o.state != "pending" {
                let q = self
                    .db
                    .sql(
                        "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ? WHERE id = \
                         (SELECT id FROM webhook_deliveries WHERE endpoint_id = ? AND object_type = ? AND object_id = ? \
                         AND state = 'waiting' ORDER BY event_seq, created_at, id LIMIT 1)",
                    )
                    .arg(millis(now))
                    .arg(o.endpoint_id.as_str())
                    .arg(o.object_type.as_str())
                    .arg(o.object_id.as_str());
                if tx.exec().execute(&q).await? > 0 {
                    self.deliver.notify_one();
                }
            }
            if o.outcome == "delivered" {
                let q = self
                    .db
                    .sql("UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL")
                    .arg(o.endpoint_id.as_str());
                tx.exec().execute(&q).await?;
            } else if o.receiver_failed {
                disabled.extend(self.streak(&mut tx, o, now).await?);
            }
        }
        tx.commit_unrecorded().await?;
        Ok((recorded, disabled))
    }

    /// Starts or lengthens the endpoint's failure streak; disables it when the streak began
    /// `disable_after` ago or earlier, queuing its owner's email in the same transaction.
    /// When it was disabled now: the endpoint, its owner, and whether an email was queued.
    async fn streak(
        &self,
        tx: &mut crate::storage::sql::Tx,
        o: &Outcome,
        now: DateTime<Utc>,
    ) -> sqlx::Result<Option<(String, String, bool)>> {
        let q = self
            .db
            .sql("UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?")
            .arg(millis(now))
            .arg(o.endpoint_id.as_str());
        tx.exec().execute(&q).await?;
        let since = now - chrono::Duration::from_std(o.disable_after).unwrap_or(chrono::Duration::days(3));
        let days = o.disable_after.as_secs_f64() / 86_400.0;
        let reason = format!(
            "disabled by the server: every delivery failed since {} ({days:.1} days or more); last: {}",
            millis(since),
            o.result.chars().take(300).collect::<String>()
        );
        let q = self
            .db
            .sql(
                "UPDATE webhook_endpoints SET enabled = 0, disabled_at = ?, disabled_reason = ?, updated_at = ? \
                 WHERE id = ? AND enabled = 1 AND failing_since <= ? RETURNING id, url, created_by, disabled_reason",
            )
            .arg(millis(now))
            .arg(reason)
            .arg(millis(now))
            .arg(o.endpoint_id.as_str())
            .arg(millis(since));
        let Some(d): Option<Disabled> = tx.exec().row(&q).await? else { return Ok(None) };
        let message = self.alerts.as_ref().and_then(|a| a.message(&d));
        if let Some(m) = &message {
            crate::email::outbox::store::outbox::insert_in(tx, std::slice::from_ref(m)).await?;
        }
        Ok(Some((d.id, d.created_by, message.is_some())))
    }

    pub async fn release(&self, worker: &str, ids: &[String]) -> sqlx::Result<()> {
        DELIVERIES.release(&self.db, worker, ids).await.map(|_| ())
    }
}

impl Outcomes for WebhookStore {
    type Outcome = Outcome;

    fn id(outcome: &Outcome) -> &str {
        &outcome.id
    }

    async fn record(&self, _held: &mut Option<Conn>, worker: &str, outcomes: &[Outcome]) -> anyhow::Result<Vec<bool>> {
        let (recorded, disabled) = WebhookStore::record(self, worker, outcomes).await?;
        for (endpoint, owner, alerted) in disabled {
            crate::webhooks::delivery::disabled(&endpoint, &owner, alerted);
        }
        Ok(recorded)
    }
}
