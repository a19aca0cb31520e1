//! Scheduled batches (table `email_batches` of `0026_email_suppressions.sql`), both backends.
//!
//! A paused message keeps its state (`queued` or `scheduled`: the states' CHECK is the old
//! migration's) and gets [`PAUSED`] as its `next_attempt_at`, a time no claim reaches; resuming
//! puts back `send_at` (or, unscheduled, its acceptance), so a time passed meanwhile sends at
//! once. A cancelled message is `failed` with the cancel as its last reply, as the outbox's
//! own cancel makes it: final, never claimed.

use chrono::{DateTime, Utc};
use moneydesk_model::email::suppressions::{BatchState, ScheduledBatch};
use moneydesk_model::events::EventType;

use super::outbox::{event, MessageRow, RECORD_COLUMNS};
use super::{time_text, EmailError, EmailStore, PAUSED};
use crate::storage::events::{self, NewEvent};
use crate::storage::{trail, Tx};

/// The messages a batch change reaches: accepted and not yet claimed.
const WAITING: &str = "state IN ('queued', 'scheduled')";

/// What a pause, resume or cancel asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchChange {
    Pause,
    Resume,
    Cancel,
}

#[derive(sqlx::FromRow)]
struct Counts {
    messages: i64,
    waiting: i64,
    next_send_at: Option<String>,
}

impl EmailStore {
    /// A new, empty batch (`batch_…`), active.
    pub async fn create_batch(&self, by: &str, now: DateTime<Utc>) -> Result<ScheduledBatch, EmailError> {
        let id = format!("batch_{}", uuid::Uuid::new_v4().simple());
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql("INSERT INTO email_batches (id, state, created_by, created_at, updated_at) VALUES (?, 'active', ?, ?, ?)")
            .arg(id.as_str())
            .arg(by)
            .arg(time_text(now))
            .arg(time_text(now));
        tx.exec().execute(&q).await?;
        trail::target("email_batch", &id);
        trail::change("state", None::<&str>, Some(BatchState::Active));
        let batch =
            ScheduledBatch { batch_id: id, state: BatchState::Active, messages: 0, waiting: 0, next_send_at: None };
        events::append(&mut tx, EventType::EmailBatchChanged, "email_batch", &batch.batch_id, &batch).await?;
        tx.commit().await?;
        Ok(batch)
    }

    /// The state of a batch made with [`Self::create_batch`] or changed since; `None` if none.
    pub async fn batch_state(&self, id: &str) -> Result<Option<BatchState>, EmailError> {
        let q = self.db.sql("SELECT state FROM email_batches WHERE id = ?").arg(id);
        let state = self.db.acquire().await?.exec().texts(&q).await?.pop();
        Ok(state.and_then(|s| BatchState::parse(&s)))
    }

    /// A batch with its messages' schedule; `None`: no such batch and no message in it.
    pub async fn batch(&self, id: &str) -> Result<Option<ScheduledBatch>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let found = batch_in(&mut tx, id).await?;
        tx.commit_unrecorded().await?;
        Ok(found)
    }

    /// Pauses, resumes or cancels a batch's waiting messages. `Ok(None)`: no such batch;
    /// `Err` inside: the change does not apply (the sentence says why).
    pub async fn change_batch(
        &self,
        id: &str,
        change: BatchChange,
        by: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Result<ScheduledBatch, String>>, EmailError> {
        let mut tx = self.db.begin().await?;
        let Some(before) = batch_in(&mut tx, id).await? else { return Ok(None) };
        let refused = match (change, before.state) {
            (_, BatchState::Cancelled) => Some(format!("Batch {id} is cancelled")),
            (BatchChange::Pause, BatchState::Paused) => Some(format!("Batch {id} is paused already")),
            (BatchChange::Resume, BatchState::Active) => Some(format!("Batch {id} is not paused")),
            (BatchChange::Pause | BatchChange::Cancel, _) if before.messages > 0 && before.waiting == 0 => {
                Some(format!("Every message of batch {id} is sent or under way: nothing is left to {}", verb(change)))
            }
            _ => None,
        };
        if let Some(why) = refused {
            return Ok(Some(Err(why)));
        }
        let after = match change {
            BatchChange::Pause => BatchState::Paused,
            BatchChange::Resume => BatchState::Active,
            BatchChange::Cancel => BatchState::Cancelled,
        };
        let q = self
            .db
            .sql("INSERT INTO email_batches (id, state, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at")
            .arg(id)
            .arg(after.as_str())
            .arg(by)
            .arg(time_text(now))
            .arg(time_text(now));
        tx.exec().execute(&q).await?;
        let mut failed: Vec<NewEvent> = Vec::new();
        match change {
            BatchChange::Pause => {
                let q = self
                    .db
                    .sql(&format!("UPDATE email_messages SET next_attempt_at = ? WHERE batch_id = ? AND {WAITING}"))
                    .arg(PAUSED)
                    .arg(id);
                tx.exec().execute(&q).await?;
            }
            BatchChange::Resume => {
                let q = self
                    .db
                    .sql(&format!("UPDATE email_messages SET next_attempt_at = COALESCE(send_at, created_at) WHERE batch_id = ? AND next_attempt_at = ? AND {WAITING}"))
                    .arg(id)
                    .arg(PAUSED);
                tx.exec().execute(&q).await?;
            }
            BatchChange::Cancel => {
                let reply = format!("cancelled with its batch {id} by {by} at {} before it was sent", time_text(now));
                let q = self
                    .db
                    .sql(&format!(
                        "UPDATE email_messages SET state = 'failed', last_reply = ? WHERE batch_id = ? AND {WAITING} RETURNING {RECORD_COLUMNS}"
                    ))
                    .arg(reply)
                    .arg(id);
                let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
                failed = rows.iter().map(|r| event(EventType::EmailFailed, r)).collect();
            }
        }
        let batch = batch_in(&mut tx, id).await?.unwrap_or(before.clone());
        trail::target("email_batch", id);
        trail::change("state", Some(before.state), Some(after));
        failed.push(NewEvent::new(EventType::EmailBatchChanged, "email_batch", id, &batch));
        events::append_many(&mut tx, &failed).await?;
        tx.commit().await?;
        Ok(Some(Ok(batch)))
    }
}

fn verb(change: BatchChange) -> &'static str {
    match change {
        BatchChange::Pause => "pause",
        BatchChange::Resume => "resume",
        BatchChange::Cancel => "cancel",
    }
}

/// The batch as `tx` sees it: its row's state (`active` without one) and its messages.
async fn batch_in(tx: &mut Tx, id: &str) -> sqlx::Result<Option<ScheduledBatch>> {
    let q = crate::storage::Sql::new(tx.dialect(), "SELECT state FROM email_batches WHERE id = ?").arg(id);
    let state = tx.exec().texts(&q).await?.pop().and_then(|s| BatchState::parse(&s));
    let q = crate::storage::Sql::new(
        tx.dialect(),
        &format!(
            "SELECT COUNT(*) AS messages, COALESCE(SUM(CASE WHEN {WAITING} THEN 1 ELSE 0 END), 0) AS waiting, \
             MIN(CASE WHEN {WAITING} THEN send_at END) AS next_send_at FROM email_messages WHERE batch_id = ?"
        ),
    )
    .arg(id);
    let counts: Counts = tx.exec().row(&q).await?.unwrap_or(Counts { messages: 0, waiting: 0, next_send_at: None });
    if state.is_none() && counts.messages == 0 {
        return Ok(None);
    }
    Ok(Some(ScheduledBatch {
        batch_id: id.to_string(),
        state: state.unwrap_or(BatchState::Active),
        messages: counts.messages as u32,
        waiting: counts.waiting as u32,
        next_send_at: counts.next_send_at,
    }))
}
