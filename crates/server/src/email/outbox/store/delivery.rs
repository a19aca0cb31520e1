//! The outbox as a queue (`storage::queue`): its table, claims, outcomes and the development
//! mailbox, both backends.
//!
//! A claim moves due messages to `sending` under this worker's name until `claim_until`, and
//! opens their attempt; every outcome is written only while the claim is still this worker's
//! (`QueueTable::still_mine`), so a worker that lost its claim (it stalled past `claim_until`
//! and another took the message over) cannot overwrite the newer attempt. Outcomes are
//! written in groups, one transaction for all those ready at once ([`EmailStore::record`];
//! the worker's group commit, `storage::queue::recorder`).

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use moneydesk_model::email::MessageState;
use moneydesk_model::events::EventType;

use super::outbox::{event, MessageRow, RECORD_COLUMNS, ROW_COLUMNS};
use super::{time_text, EmailError, EmailStore, StoredMessage};
use crate::storage::events::{self, NewEvent};
use crate::storage::queue::{AttemptTable, Claimable, Outcomes, QueueTable, UNCLAIMED};
use crate::storage::sql::Conn;
use crate::storage::{trail, Dialect, Sql};

/// The reply of an attempt whose worker died before recording its outcome (the message was
/// then taken over).
pub const TAKEN_OVER: &str =
    "no outcome recorded: the worker stopped during this attempt and the message was taken over when its claim ran out";

/// The outbox's queue: due when queued, scheduled or deferred and `next_attempt_at` has come;
/// given back, a message returns to the state it was claimed from.
pub(crate) const OUTBOX: QueueTable = QueueTable {
    table: "email_messages",
    id: "id",
    state: "state",
    due: &["queued", "scheduled", "deferred"],
    in_flight: "sending",
    released: "CASE WHEN attempts > 1 THEN 'deferred' WHEN send_at IS NOT NULL THEN 'scheduled' ELSE 'queued' END",
    returning: ROW_COLUMNS,
    attempts: AttemptTable {
        table: "email_attempts",
        key: "message_id",
        outcome: "outcome",
        in_flight: "sending",
        note: "reply",
        taken_over: TAKEN_OVER,
        extra: &[],
    },
};

impl Claimable for MessageRow {
    fn id(&self) -> &str {
        &self.id
    }

    fn attempt(&self) -> i64 {
        self.attempts
    }
}

/// A claimed message: what to send, and which attempt this is.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub message: StoredMessage,
    pub attempt: u32,
    /// This attempt's number since the message was queued or last resent: what the attempt
    /// limit and the retry schedule count.
    pub tries: u32,
    pub delivery: String,
    /// The recipients (JSON) when the suppression lists dropped some at delivery
    /// (`suppressions::screen::rescreen`); the attempt's outcome writes them.
    pub recipients: Option<String>,
}

/// What an attempt came to, to be recorded ([`EmailStore::record`]).
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The message (`msg_…`) and the number of its attempt.
    pub id: String,
    pub attempt: u32,
    /// `sent`, `deferred` or `failed`.
    pub state: MessageState,
    /// The relay's reply, or what kept the message from it.
    pub reply: String,
    /// When a deferred message is tried next.
    pub next: Option<DateTime<Utc>>,
    /// The MIME kept in the development mailbox (no relay configured).
    pub mailbox: Option<String>,
    /// The recipients (`recipients` JSON) when the attempt changed them: addresses suppressed
    /// since acceptance, dropped at delivery (`outbox::delivery`).
    pub recipients: Option<String>,
}

impl EmailStore {
    /// Claims up to `limit` due messages for `worker` until `until`: queued, scheduled or
    /// deferred ones whose time has come, and `sending` ones whose claim ran out (their
    /// process died mid-attempt; they are sent again, see `email::delivery`).
    pub async fn claim(
        &self,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<Claimed>, EmailError> {
        let claimed = OUTBOX.claim::<MessageRow>(&self.db, worker, now, until, limit).await?;
        crate::metrics::taken_over("outbox", claimed.taken_over);
        Ok(claimed
            .rows
            .iter()
            .map(|r| Claimed {
                message: r.stored(),
                attempt: r.attempts as u32,
                tries: (r.attempts - r.resent_after) as u32,
                delivery: r.delivery.clone(),
                recipients: None,
            })
            .collect())
    }

    /// Records attempts' outcomes in one transaction, each only if its claim is still
    /// `worker`'s: for each, whether it was (false: another instance took the message over,
    /// and nothing of that outcome is written). An error writes none of them.
    ///
    /// One statement per table for the whole group, whatever its size; on SQLite the whole
    /// transaction is one call. Each call is a round trip to sqlx's SQLite thread, a wake-up
    /// each way, and the task switches were about half of that thread's CPU per delivered
    /// message (`perf` over `scripts/bench-email`).
    ///
    /// On SQLite the transaction runs on `held`, a connection kept from one group to the next
    /// (taken from the pool the first time, kept as long as the caller runs): SQLite empties a
    /// connection's page cache when another connection wrote since its last transaction, and
    /// the pool lends its connections in turn, so each group read its pages again (that
    /// thread's CPU went from about 170 to 120 µs a message).
    pub async fn record(
        &self,
        held: &mut Option<Conn>,
        worker: &str,
        outcomes: &[Outcome],
    ) -> Result<Vec<bool>, EmailError> {
        if outcomes.is_empty() {
            return Ok(Vec::new());
        }
        let now = time_text(Utc::now());
        let boxed: Vec<&Outcome> = outcomes.iter().filter(|o| o.mailbox.is_some()).collect();
        let still_mine: HashSet<String> = match self.db.dialect() {
            // One writer at a time: the attempts and the mailbox are written first, for the
            // messages still claimed, then the messages; nothing can come between. The messages'
            // rows come back for their events, written with the COMMIT: two calls a group.
            Dialect::Sqlite => {
                let mut q = self.db.sql("BEGIN IMMEDIATE; ");
                attempts_update(&mut q, outcomes.iter(), Some(worker));
                if !boxed.is_empty() {
                    q.push("; ");
                    mailbox_insert(&mut q, &boxed, &now, Some(worker));
                }
                q.push("; ");
                messages_update(&mut q, outcomes, &now, worker);
                let conn = match held {
                    Some(conn) => conn,
                    None => held.insert(self.db.acquire().await?),
                };
                let written = match conn.exec().rows::<MessageRow>(&q).await {
                    Ok(rows) => {
                        let mut q = self.db.sql("");
                        events::push(&mut q, &outcome_events(&rows));
                        q.push("; COMMIT");
                        conn.exec().execute(&q).await.map(|_| rows)
                    }
                    Err(e) => Err(e),
                };
                match written {
                    Ok(rows) => rows.into_iter().map(|r| r.id).collect(),
                    Err(e) => {
                        // Whatever the statement that failed, nothing of the group stays:
                        // rolled back, or the connection closed if even that fails.
                        if conn.exec().execute(&self.db.sql("ROLLBACK")).await.is_err() {
                            conn.close_on_drop();
                            *held = None;
                        }
                        return Err(e.into());
                    }
                }
            }
            // The messages first, their rows locked by the UPDATE, and the rest for those
            // whose claim held.
            Dialect::Postgres => {
                let mut tx = self.db.begin().await?;
                let mut q = self.db.sql("");
                messages_update(&mut q, outcomes, &now, worker);
                let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
                events::append_many(&mut tx, &outcome_events(&rows)).await?;
                let still_mine: HashSet<String> = rows.into_iter().map(|r| r.id).collect();
                let recorded: Vec<&Outcome> = outcomes.iter().filter(|o| still_mine.contains(&o.id)).collect();
                if !recorded.is_empty() {
                    let mut q = self.db.sql("");
                    attempts_update(&mut q, recorded.iter().copied(), None);
                    tx.exec().execute(&q).await?;
                }
                let boxed: Vec<&Outcome> = boxed.into_iter().filter(|o| still_mine.contains(&o.id)).collect();
                if !boxed.is_empty() {
                    let mut q = self.db.sql("");
                    mailbox_insert(&mut q, &boxed, &now, None);
                    tx.exec().execute(&q).await?;
                }
                tx.commit().await?;
                still_mine
            }
        };
        Ok(outcomes.iter().map(|o| still_mine.contains(&o.id)).collect())
    }

    /// Gives back claims `worker` holds and has not started sending (a graceful stop): they
    /// are due again at once, for this or another instance, without waiting for the claim.
    pub async fn release(&self, worker: &str, ids: &[String]) -> Result<u64, EmailError> {
        Ok(OUTBOX.release(&self.db, worker, ids).await?)
    }

    /// Puts a failed message back in the queue, due now, with its attempts kept, and records
    /// who resent it; the message as it then stands. `Ok(None)`: no such message; `Err(state)`
    /// inside: it is not failed.
    pub(crate) async fn resend(
        &self,
        id: &str,
        token: &str,
        user: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Result<MessageRow, MessageState>>, EmailError> {
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
        trail::target("email_message", id);
        trail::change("state", Some(MessageState::Failed), Some(MessageState::Queued));
        tx.commit().await?;
        self.wake();
        Ok(Some(Ok(row)))
    }
}

/// The delivery worker's outcomes are written by [`EmailStore::record`], in groups.
impl Outcomes for EmailStore {
    type Outcome = Outcome;

    fn id(outcome: &Outcome) -> &str {
        &outcome.id
    }

    async fn record(&self, held: &mut Option<Conn>, worker: &str, outcomes: &[Outcome]) -> anyhow::Result<Vec<bool>> {
        Ok(EmailStore::record(self, held, worker, outcomes).await?)
    }
}

/// Appends the UPDATE of `outcomes`' messages whose claim is still `worker`'s, answering
/// their rows as they now stand (without the bodies, for the events). VALUES columns are
/// named column1, column2 … on both backends.
fn messages_update(q: &mut Sql, outcomes: &[Outcome], now: &str, worker: &str) {
    q.push(
        "UPDATE email_messages AS m SET state = v.column2, last_reply = v.column3, sent_at = v.column4, \
         next_attempt_at = COALESCE(v.column5, m.next_attempt_at), recipients = COALESCE(v.column6, m.recipients), ",
    );
    q.push(UNCLAIMED).push(" FROM (VALUES ");
    for (i, o) in outcomes.iter().enumerate() {
        if i > 0 {
            q.push(", ");
        }
        let sent_at = (o.state == MessageState::Sent).then(|| now.to_string());
        q.bind_row([
            o.id.as_str().into(),
            o.state.as_str().into(),
            o.reply.as_str().into(),
            sent_at.into(),
            o.next.map(time_text).into(),
            o.recipients.clone().into(),
        ]);
    }
    q.push(") AS v WHERE m.id = v.column1");
    OUTBOX.still_mine(q, "m", worker).push(" RETURNING ").push(RECORD_COLUMNS);
}

/// The events of recorded outcomes (`rows`: the messages as they now stand): `email.delivered`
/// when sent, `email.deferred`, `email.failed`.
fn outcome_events(rows: &[MessageRow]) -> Vec<NewEvent> {
    rows.iter()
        .filter_map(|r| {
            let kind = match r.state() {
                MessageState::Sent => EventType::EmailDelivered,
                MessageState::Deferred => EventType::EmailDeferred,
                MessageState::Failed => EventType::EmailFailed,
                _ => return None,
            };
            Some(event(kind, r))
        })
        .collect()
}

/// The condition that a message (`v.column1`) is still claimed by `worker`, when given.
fn still_claimed(q: &mut Sql, worker: Option<&str>) {
    if let Some(w) = worker {
        OUTBOX.still_mine_exists(q, "v.column1", w);
    }
}

/// Appends the UPDATE of the outcomes' attempts (those whose message `worker` still claims).
fn attempts_update<'a>(q: &mut Sql, outcomes: impl Iterator<Item = &'a Outcome>, worker: Option<&str>) {
    q.push("UPDATE email_attempts AS a SET outcome = v.column3, reply = v.column4 FROM (VALUES ");
    for (i, o) in outcomes.enumerate() {
        if i > 0 {
            q.push(", ");
        }
        q.bind_row([o.id.as_str().into(), (o.attempt as i64).into(), o.state.as_str().into(), o.reply.as_str().into()]);
    }
    q.push(") AS v WHERE a.message_id = v.column1 AND a.number = v.column2");
    still_claimed(q, worker);
}

/// Appends the INSERT of development-mailbox MIME (for the messages `worker` still claims):
/// the MIME with the `sent`, or neither.
fn mailbox_insert(q: &mut Sql, boxed: &[&Outcome], now: &str, worker: Option<&str>) {
    q.push("INSERT INTO email_mailbox (message_id, raw, delivered_at) SELECT column1, column2, column3 FROM (VALUES ");
    for (i, o) in boxed.iter().enumerate() {
        if i > 0 {
            q.push(", ");
        }
        q.bind_row([o.id.as_str().into(), o.mailbox.as_deref().into(), now.into()]);
    }
    // A WHERE before ON CONFLICT, which SQLite's parser needs after a SELECT.
    q.push(") AS v WHERE TRUE");
    still_claimed(q, worker);
    q.push(" ON CONFLICT (message_id) DO NOTHING");
}
