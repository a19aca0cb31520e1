//! Claims, attempts, outcomes and the development mailbox, both backends.
//!
//! A claim moves due messages to `sending` under this worker's name until `claim_until`, and
//! opens their attempt. On PostgreSQL the selecting subquery locks with `FOR UPDATE SKIP
//! LOCKED`, so instances claiming at once take disjoint messages; SQLite has one writer at a
//! time, so its `UPDATE … RETURNING` is already exclusive. Every outcome is written only while
//! the claim is still this worker's: a worker that lost its claim (it stalled past
//! `claim_until` and another took the message over) cannot overwrite the newer attempt.

use chrono::{DateTime, Utc};
use moneydesk_model::email::MessageState;

use super::outbox::{MessageRow, ROW_COLUMNS};
use super::{time_text, EmailError, EmailStore, StoredMessage};
use crate::storage::Dialect;

/// The reply of an attempt whose worker died before recording its outcome (the message was
/// then taken over).
pub const TAKEN_OVER: &str = "no outcome recorded: the worker stopped during this attempt and the message was taken over when its claim ran out";

/// A claimed message: what to send, and which attempt this is.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub message: StoredMessage,
    pub attempt: u32,
    /// This attempt's number since the message was queued or last resent: what the attempt
    /// limit and the retry schedule count.
    pub tries: u32,
    pub delivery: String,
}

impl EmailStore {
    /// Claims up to `limit` due messages for `worker` until `until`: queued, scheduled or
    /// deferred ones whose time has come, and `sending` ones whose claim ran out (their
    /// process died mid-attempt; they are sent again, see `email::delivery`).
    pub async fn claim(&self, worker: &str, now: DateTime<Utc>, until: DateTime<Utc>, limit: usize) -> Result<Vec<Claimed>, EmailError> {
        let now_text = time_text(now);
        let lock = match self.db.dialect() {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql(&format!(
                "UPDATE email_messages SET state = 'sending', claimed_by = ?, claim_until = ?, attempts = attempts + 1 \
                 WHERE id IN (SELECT id FROM email_messages \
                   WHERE (state IN ('queued', 'scheduled', 'deferred') AND next_attempt_at <= ?) OR (state = 'sending' AND claim_until < ?) \
                   ORDER BY next_attempt_at LIMIT ?{lock}) \
                 RETURNING {ROW_COLUMNS}"
            ))
            .arg(worker)
            .arg(time_text(until))
            .arg(now_text.clone())
            .arg(now_text.clone())
            .arg(limit as i64);
        let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
        // A message taken over from a dead holder has that holder's attempt still `sending`,
        // numbered one below the new one: say so in its reply, and count it. Only a message
        // tried before can be one (a first attempt has nothing to take over).
        let retried: Vec<&str> = rows.iter().filter(|r| r.attempts > 1).map(|r| r.id.as_str()).collect();
        let mut taken_over = 0;
        if !retried.is_empty() {
            let mut q = self.db.sql("UPDATE email_attempts SET reply = ");
            q.bind(TAKEN_OVER).push(" WHERE outcome = 'sending' AND message_id IN (");
            q.bind_list(retried.iter().copied());
            q.push(") AND number = (SELECT attempts - 1 FROM email_messages m WHERE m.id = email_attempts.message_id)");
            taken_over = tx.exec().execute(&q).await?;
        }
        for chunk in rows.chunks(200) {
            let mut q = self.db.sql("INSERT INTO email_attempts (message_id, number, started_at, outcome) VALUES ");
            for (i, r) in chunk.iter().enumerate() {
                if i > 0 {
                    q.push(", ");
                }
                q.bind_row([r.id.clone().into(), r.attempts.into(), now_text.clone().into(), "sending".into()]);
            }
            // A row of that number exists only if a previous claim's attempt was recorded
            // and then the count rolled back, which cannot happen; kept safe anyway.
            q.push(" ON CONFLICT (message_id, number) DO NOTHING");
            tx.exec().execute(&q).await?;
        }
        tx.commit().await?;
        crate::metrics::taken_over("outbox", taken_over);
        Ok(rows
            .iter()
            .map(|r| Claimed { message: r.stored(), attempt: r.attempts as u32, tries: (r.attempts - r.resent_after) as u32, delivery: r.delivery.clone() })
            .collect())
    }

    /// Records an attempt's outcome (`sent`, `deferred` until `next`, or `failed`) with the
    /// relay's reply, if the claim is still `worker`'s. False when it was not.
    pub async fn finish(&self, worker: &str, c: &Claimed, outcome: MessageState, reply: &str, next: Option<DateTime<Utc>>) -> Result<bool, EmailError> {
        let mut tx = self.db.begin().await?;
        let done = self.finish_in(&mut tx, worker, c, outcome, reply, next).await?;
        tx.commit().await?;
        Ok(done)
    }

    async fn finish_in(&self, tx: &mut crate::storage::Tx, worker: &str, c: &Claimed, outcome: MessageState, reply: &str, next: Option<DateTime<Utc>>) -> Result<bool, EmailError> {
        crate::metrics::attempt("email", outcome.as_str());
        let now = time_text(Utc::now());
        let sent_at = (outcome == MessageState::Sent).then(|| now.clone());
        let mut q = self.db.sql("UPDATE email_messages SET state = ?, last_reply = ?, sent_at = ?, claimed_by = NULL, claim_until = NULL");
        q = q.arg(outcome.as_str()).arg(reply).arg(sent_at);
        if let Some(next) = next {
            q.push(", next_attempt_at = ").bind(time_text(next));
        }
        q.push(" WHERE id = ").bind(c.message.id.as_str()).push(" AND state = 'sending' AND claimed_by = ").bind(worker);
        if tx.exec().execute(&q).await? == 0 {
            return Ok(false);
        }
        let q = self
            .db
            .sql("UPDATE email_attempts SET outcome = ?, reply = ? WHERE message_id = ? AND number = ?")
            .arg(outcome.as_str())
            .arg(reply)
            .arg(c.message.id.as_str())
            .arg(c.attempt as i64);
        tx.exec().execute(&q).await?;
        Ok(true)
    }

    /// Delivers into the development mailbox: the MIME stored and the message `sent`, in one
    /// transaction (a crash leaves both or neither).
    pub async fn deliver_to_mailbox(&self, worker: &str, c: &Claimed, raw: &str) -> Result<bool, EmailError> {
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql("INSERT INTO email_mailbox (message_id, raw, delivered_at) VALUES (?, ?, ?) ON CONFLICT (message_id) DO NOTHING")
            .arg(c.message.id.as_str())
            .arg(raw)
            .arg(time_text(Utc::now()));
        tx.exec().execute(&q).await?;
        let done = self.finish_in(&mut tx, worker, c, MessageState::Sent, "stored in the development mailbox", None).await?;
        if done {
            tx.commit().await?;
        }
        Ok(done)
    }

    /// Gives back claims `worker` holds and has not started sending (a graceful stop): they
    /// are due again at once, for this or another instance, without waiting for the claim.
    pub async fn release(&self, worker: &str, ids: &[String]) -> Result<u64, EmailError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let mut tx = self.db.begin().await?;
        let mut q = self.db.sql("DELETE FROM email_attempts WHERE outcome = 'sending' AND message_id IN (");
        q.bind_list(ids.iter().map(String::as_str));
        q.push(") AND number = (SELECT attempts FROM email_messages m WHERE m.id = email_attempts.message_id AND m.claimed_by = ").bind(worker).push(")");
        tx.exec().execute(&q).await?;
        let mut q = self.db.sql("UPDATE email_messages SET state = CASE WHEN attempts > 1 THEN 'deferred' WHEN send_at IS NOT NULL THEN 'scheduled' ELSE 'queued' END, attempts = attempts - 1, claimed_by = NULL, claim_until = NULL WHERE state = 'sending' AND claimed_by = ");
        q.bind(worker).push(" AND id IN (");
        q.bind_list(ids.iter().map(String::as_str));
        q.push(")");
        let n = tx.exec().execute(&q).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Puts a failed message back in the queue, due now, with its attempts kept, and records
    /// who resent it; the message as it then stands. `Ok(None)`: no such message; `Err(state)`
    /// inside: it is not failed.
    pub(crate) async fn resend(&self, id: &str, token: &str, user: &str, now: DateTime<Utc>) -> Result<Option<Result<MessageRow, MessageState>>, EmailError> {
        let now = time_text(now);
        let mut tx = self.db.begin().await?;
        // `resent_after = attempts`: the attempt limit counts afresh from here.
        let q = self
            .db
            .sql(&format!("UPDATE email_messages SET state = 'queued', next_attempt_at = ?, resent_after = attempts WHERE id = ? AND state = 'failed' RETURNING {ROW_COLUMNS}"))
            .arg(now.clone())
            .arg(id);
        let Some(row) = tx.exec().row::<MessageRow>(&q).await? else {
            drop(tx);
            let state = self.row(id).await?.map(|r| r.state());
            return Ok(state.map(Err));
        };
        let q = self
            .db
            .sql("INSERT INTO email_resends (message_id, after_attempt, resent_at, resent_by, resent_by_user) VALUES (?, ?, ?, ?, ?)")
            .arg(id)
            .arg(row.attempts)
            .arg(now)
            .arg(token)
            .arg(user);
        tx.exec().execute(&q).await?;
        tx.commit().await?;
        self.wake();
        Ok(Some(Ok(row)))
    }
}
