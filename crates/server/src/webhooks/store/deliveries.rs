//! Deliveries made: the dispatch of `event_outbox` rows to the endpoints, and replays.
//!
//! **Order per object**: a delivery is made `waiting` when its endpoint has one of the same
//! object not yet delivered or failed; the outcome that finishes that one makes the next
//! `pending` (`queue.rs`). So at most one delivery per endpoint and object is due or under way,
//! and they go in the order they were made — the events' order, the dispatcher taking the
//! outbox in `seq` order, one dispatcher at a time.
//!
//! On PostgreSQL a dispatch can make a delivery `waiting` behind one whose outcome commits
//! meanwhile: that outcome's promotion did not see the new row (not yet committed), so nothing
//! would make it `pending`. [`WebhookStore::promote_orphans`] (the dispatcher, every few
//! seconds) makes pending the first `waiting` delivery of each endpoint and object that has
//! nothing unfinished before it. (`scripts/bench-webhooks` found 60 of 30,000 left so.)

use chrono::{DateTime, Utc};
use moneydesk_model::events::EventType;
use moneydesk_model::webhooks::ALL_TYPES;

use super::{EndpointRow, WebhookStore, COLUMNS};
use crate::storage::sql::Tx;
use crate::storage::time::millis;
use crate::storage::{trail, Dialect, Sql};

/// Outbox rows a dispatch takes at a time.
const DISPATCH_BATCH: i64 = 500;
/// The PostgreSQL advisory lock that makes one dispatcher at a time across instances.
const DISPATCH_LOCK: i64 = 4_302_001;

#[derive(Debug, Clone, sqlx::FromRow)]
struct EventRef {
    seq: i64,
    id: String,
    #[sqlx(rename = "type")]
    kind: String,
    object_type: String,
    object_id: String,
    created: String,
}

/// What a dispatch did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dispatched {
    pub events: u64,
    pub deliveries: u64,
}

/// What a replay takes.
#[derive(Debug, Clone)]
pub enum ReplayOf {
    Event(String),
    /// Events created in `[from, to]` (millisecond texts).
    Range(String, String),
}

/// Whether an endpoint takes an event: of a type it names (the test event: about it).
fn wants(e: &EndpointRow, event: &EventRef) -> bool {
    if event.kind == EventType::WebhookTest.as_str() {
        return e.id == event.object_id;
    }
    e.types().iter().any(|t| t == ALL_TYPES || *t == event.kind)
}

/// Makes one delivery of `event` to `endpoint` in `tx`, `waiting` behind an unfinished one of
/// the same object.
async fn make(
    tx: &mut Tx,
    dialect: Dialect,
    endpoint: &str,
    event: &EventRef,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> sqlx::Result<()> {
    let q = Sql::new(
        dialect,
        "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_id, event_type, object_type, object_id, \
         state, attempts, next_attempt_at, retry_until, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, \
         CASE WHEN EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = ? AND d.object_type = ? \
         AND d.object_id = ? AND d.state IN ('waiting', 'pending', 'delivering')) THEN 'waiting' ELSE 'pending' END, \
         0, ?, ?, ?",
    )
    .arg(crate::webhooks::signing::new_id("whd_"))
    .arg(endpoint)
    .arg(event.seq)
    .arg(event.id.as_str())
    .arg(event.kind.as_str())
    .arg(event.object_type.as_str())
    .arg(event.object_id.as_str())
    .arg(endpoint)
    .arg(event.object_type.as_str())
    .arg(event.object_id.as_str())
    .arg(millis(now))
    .arg(millis(until))
    .arg(millis(now));
    tx.exec().execute(&q).await?;
    Ok(())
}

fn window_end(now: DateTime<Utc>, retry_for: std::time::Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(retry_for).unwrap_or(chrono::Duration::days(3))
}

impl WebhookStore {
    /// Hands the oldest outbox events to the endpoints that want them: their deliveries made
    /// and the outbox rows deleted in one transaction (bookkeeping, not recorded).
    pub async fn dispatch(&self, retry_for: std::time::Duration) -> sqlx::Result<Dispatched> {
        // A look first: on SQLite the dispatching transaction takes the write lock.
        let q = self.db.sql("SELECT event_seq FROM event_outbox ORDER BY event_seq LIMIT 1");
        if self.db.acquire().await?.exec().ints(&q).await?.is_empty() {
            return Ok(Dispatched::default());
        }
        let dialect = self.db.dialect();
        let mut tx = self.db.begin().await?;
        if dialect == Dialect::Postgres {
            tx.exec().execute(&Sql::new(dialect, "SELECT pg_advisory_xact_lock(?)").arg(DISPATCH_LOCK)).await?;
        }
        let q = self
            .db
            .sql(
                "SELECT e.seq, e.id, e.type, e.object_type, e.object_id, e.created FROM event_outbox o \
                 JOIN events e ON e.seq = o.event_seq ORDER BY o.event_seq LIMIT ?",
            )
            .arg(DISPATCH_BATCH);
        let events: Vec<EventRef> = tx.exec().rows(&q).await?;
        if events.is_empty() {
            return Ok(Dispatched::default());
        }
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE enabled = 1 ORDER BY id"));
        let endpoints: Vec<EndpointRow> = tx.exec().rows(&q).await?;
        let now = Utc::now();
        let until = window_end(now, retry_for);
        let mut made = 0;
        for e in &events {
            // Not the events from before the endpoint was made (still in the outbox then).
            for endpoint in endpoints.iter().filter(|p| wants(p, e) && e.created >= p.created_at) {
                make(&mut tx, dialect, &endpoint.id, e, now, until).await?;
                made += 1;
            }
        }
        let mut q = self.db.sql("DELETE FROM event_outbox WHERE event_seq IN (");
        q.bind_list(events.iter().map(|e| e.seq));
        q.push(")");
        tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await?;
        if made > 0 {
            self.deliver.notify_one();
        }
        Ok(Dispatched { events: events.len() as u64, deliveries: made })
    }

    /// Makes `pending` each `waiting` delivery with no earlier delivery of its endpoint and
    /// object still `waiting`, `pending` or `delivering` (in the order the promotion uses:
    /// event, then creation); how many. Bookkeeping, not recorded.
    pub async fn promote_orphans(&self) -> sqlx::Result<u64> {
        let q = self
            .db
            .sql(
                "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ? WHERE state = 'waiting' \
                 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = webhook_deliveries.endpoint_id \
                 AND d.object_type = webhook_deliveries.object_type AND d.object_id = webhook_deliveries.object_id \
                 AND (d.state IN ('pending', 'delivering') OR (d.state = 'waiting' AND (d.event_seq < webhook_deliveries.event_seq \
                 OR (d.event_seq = webhook_deliveries.event_seq AND (d.created_at < webhook_deliveries.created_at \
                 OR (d.created_at = webhook_deliveries.created_at AND d.id < webhook_deliveries.id)))))))",
            )
            .arg(millis(Utc::now()));
        let mut tx = self.db.begin().await?;
        let n = tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await?;
        if n > 0 {
            self.deliver.notify_one();
        }
        Ok(n)
    }

    /// Queues again, for `endpoint`, one event or the events of a time range it takes (in
    /// their order); how many. A recorded change (the replay request's).
    pub async fn replay(
        &self,
        endpoint: &EndpointRow,
        of: &ReplayOf,
        retry_for: std::time::Duration,
    ) -> sqlx::Result<u64> {
        let mut q = self.db.sql("SELECT seq, id, type, object_type, object_id, created FROM events WHERE ");
        match of {
            ReplayOf::Event(id) => {
                q.push("id = ").bind(id.as_str());
            }
            ReplayOf::Range(from, to) => {
                q.push("created >= ").bind(from.as_str()).push(" AND created <= ").bind(to.as_str());
            }
        }
        q.push(" ORDER BY seq LIMIT 100000");
        let dialect = self.db.dialect();
        let mut tx = self.db.begin().await?;
        trail::target("webhook_endpoint", &endpoint.id);
        let events: Vec<EventRef> = tx.exec().rows(&q).await?;
        let single = matches!(of, ReplayOf::Event(_));
        let now = Utc::now();
        let until = window_end(now, retry_for);
        let mut made = 0;
        for e in events.iter().filter(|e| single || wants(endpoint, e)) {
            make(&mut tx, dialect, &endpoint.id, e, now, until).await?;
            made += 1;
        }
        trail::change("replayed", None::<&str>, Some(made));
        tx.commit().await?;
        if made > 0 {
            self.deliver.notify_one();
        }
        Ok(made)
    }
}
