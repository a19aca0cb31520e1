//! The lease-based queue, once for every table that holds work: the outbox, the inbound
//! webhooks, and whatever queue comes next (described by a [`QueueTable`], run by one
//! [`Worker`]). The scheduled jobs' claim, a relative with one row a job, is [`schedule`].
//!
//! **A claim** moves due rows to the in-flight state under a worker's name until a lease
//! runs out (`claimed_by`, `claim_until`), counts the attempt (`attempts`) and opens its row in
//! the attempts table, in one transaction. On PostgreSQL the selecting subqueries lock with
//! `FOR UPDATE SKIP LOCKED`, so instances claiming at once take disjoint rows (a row another
//! claim changed meanwhile is re-checked against the due condition and left out); SQLite has
//! one writer at a time, so its `UPDATE … RETURNING` is already exclusive.
//!
//! **A take-over**: a row still in flight whose lease ran out (its holder died or stalled) is
//! due like any other; its previous attempt, left in flight, gets the table's take-over note
//! and is counted ([`Claimed::taken_over`]).
//!
//! **Exactly-once effects**: an outcome is written only while the claim is still the worker's
//! ([`QueueTable::still_mine`]), so a worker that lost its claim cannot overwrite the newer
//! attempt; the effect itself carries the row's id (a Message-ID, `Moneydesk-Delivery`) for
//! the receiver to drop the one repeat a death between its effect and its record can cause.
//!
//! **A give-back** ([`QueueTable::release`]) undoes claims not started (a graceful stop, a
//! lease run low): due again at once, their attempt as if never opened.
//!
//! A queue table has the columns `next_attempt_at`, `attempts`, `claimed_by` and `claim_until`
//! (RFC 3339 UTC text, `storage::time::millis`) and an index on (state, `next_attempt_at`); its
//! attempts table has (key, `number`, `started_at`, outcome) with that pair its primary key.

pub mod recorder;
pub mod retry;
pub mod schedule;
pub mod worker;

use chrono::{DateTime, Utc};

use super::sql::{Arg, Record, Tx};
use super::time::millis;
use super::{Database, Dialect, Sql};

pub use recorder::{Outcomes, Recorded, Recorder};
pub use retry::{GiveUp, Retry};
pub use worker::{Options, Queue, Worker};

/// A queue's table, as its claim, give-back and outcomes need it.
#[derive(Debug, Clone, Copy)]
pub struct QueueTable {
    pub table: &'static str,
    /// The key column (text).
    pub id: &'static str,
    /// The state column, and the states whose rows are due once `next_attempt_at` has come.
    pub state: &'static str,
    pub due: &'static [&'static str],
    /// The state of a claimed row.
    pub in_flight: &'static str,
    /// The SQL expression of the state a row given back untried returns to (it sees the row
    /// as claimed: `attempts` counts the attempt being undone).
    pub released: &'static str,
    /// The columns a claim answers (`RETURNING`), read as the claim's row type.
    pub returning: &'static str,
    pub attempts: AttemptTable,
}

/// How many of a group's rows (a receiver's: a webhook endpoint's deliveries) may be in flight
/// at once: so that one receiver that stalls, or answers slowly, holds a few lanes, not all.
#[derive(Debug, Clone, Copy)]
pub struct Cap {
    /// The column naming a row's group.
    pub column: &'static str,
    /// The most across every worker, as an SQL expression of the group's key written `{key}`;
    /// NULL: no such cap.
    pub most: &'static str,
    /// The most claimed by one worker (its lanes' claimed rows, posting or waiting their turn).
    /// Counted per worker rather than across all of them, so that it leaves each instance
    /// lanes for the other groups however many instances run.
    pub per_worker: Option<u32>,
}

impl Cap {
    fn most_of(&self, key: &str) -> String {
        format!("({})", self.most.replace("{key}", key))
    }
}

/// The attempts table of a queue: one row an attempt, opened by the claim.
#[derive(Debug, Clone, Copy)]
pub struct AttemptTable {
    pub table: &'static str,
    /// The column naming the queue's row.
    pub key: &'static str,
    /// The outcome column and its value while the attempt is under way.
    pub outcome: &'static str,
    pub in_flight: &'static str,
    /// The column that gets `taken_over` when the attempt's holder is found dead.
    pub note: &'static str,
    pub taken_over: &'static str,
    /// More columns written when the attempt is opened ([`Claimable::attempt_values`]).
    pub extra: &'static [&'static str],
}

/// A claimed row as the claim answers it.
pub trait Claimable: Record {
    fn id(&self) -> &str;
    /// The number of the attempt this claim opened (`attempts` after the claim).
    fn attempt(&self) -> i64;
    /// The values of [`AttemptTable::extra`] for this attempt.
    fn attempt_values(&self) -> Vec<Arg> {
        Vec::new()
    }
}

/// What a claim took: the rows, and how many of them were taken over from a dead holder.
#[derive(Debug)]
pub struct Claimed<T> {
    pub rows: Vec<T>,
    pub taken_over: u64,
}

/// Rows a statement of the attempts table carries at a time.
const CHUNK: usize = 200;

impl QueueTable {
    /// Claims up to `limit` due rows for `worker` until `until`: rows in a due state whose
    /// `next_attempt_at` has come, and in-flight ones whose lease ran out before `now`.
    pub async fn claim<T: Claimable>(
        &self,
        db: &Database,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
    ) -> sqlx::Result<Claimed<T>> {
        self.claim_within(db, worker, now, until, limit, None).await
    }

    /// [`Self::claim`], taking no more of a group's rows than its [`Cap`] allows in flight.
    pub async fn claim_within<T: Claimable>(
        &self,
        db: &Database,
        worker: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        limit: usize,
        cap: Option<&Cap>,
    ) -> sqlx::Result<Claimed<T>> {
        let now_text = millis(now);
        let mut tx = db.begin().await?;
        let sql = self.claim_sql(db.dialect(), worker, &now_text, until, limit, cap);
        let rows: Vec<T> = tx.exec().rows(&sql).await?;
        // A row taken over from a dead holder has that holder's attempt still in flight,
        // numbered one below the new one. Only a row tried before can be one.
        let retried: Vec<&str> = rows.iter().filter(|r| r.attempt() > 1).map(|r| r.id()).collect();
        let mut taken_over = 0;
        if !retried.is_empty() {
            let (q, a) = (self, &self.attempts);
            // Marked once: a row taken over and then given back is not counted again.
            let mut s = db.sql(&format!("UPDATE {} SET {} = ", a.table, a.note));
            s.bind(a.taken_over)
                .push(format!(" WHERE {} = '{}' AND ({} IS NULL OR {} <> ", a.outcome, a.in_flight, a.note, a.note));
            s.bind(a.taken_over).push(format!(") AND {} IN (", a.key));
            s.bind_list(retried.iter().copied());
            s.push(format!(
                ") AND number = (SELECT attempts - 1 FROM {} m WHERE m.{} = {}.{})",
                q.table, q.id, a.table, a.key
            ));
            taken_over = tx.exec().execute(&s).await?;
        }
        self.open_attempts(&mut tx, db.dialect(), &rows, &now_text).await?;
        tx.commit_unrecorded().await?;
        Ok(Claimed { rows, taken_over })
    }

    /// The claim's `UPDATE … RETURNING`. Each due state's rows are read in the order of the
    /// index (state, next_attempt_at), at most `limit` of each, and the earliest `limit` of
    /// those taken: the same rows as one `state IN (…) OR …`, for which SQLite read every due
    /// row and sorted them on every claim (7.3 ms a claim of 32 from 10,000 queued, against
    /// 2.4 ms this way). On PostgreSQL a branch may lock a few rows the last LIMIT leaves
    /// out; they are free again when the claim's transaction ends, a moment later.
    ///
    /// With a [`Cap`], each branch leaves out the groups already at their most (so a full
    /// group's backlog cannot fill the branches' LIMIT and hide the others' rows), and the
    /// window numbering a group's rows in this claim after those in flight takes no more than
    /// its most. The window stands outside the locking subqueries: PostgreSQL refuses
    /// `FOR UPDATE` beside a window function in one SELECT, not below it.
    fn claim_sql(
        &self,
        dialect: Dialect,
        worker: &str,
        now: &str,
        until: DateTime<Utc>,
        limit: usize,
        cap: Option<&Cap>,
    ) -> Sql {
        let lock = match dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        };
        let (table, id, state, in_flight) = (self.table, self.id, self.state, self.in_flight);
        let group = cap.map(|c| format!(", {}", c.column)).unwrap_or_default();
        let mine = cap.and_then(|c| c.per_worker);
        let not_full = match cap {
            Some(c) => format!(
                " AND {col} NOT IN (SELECT f.{col} FROM {table} f WHERE f.{state} = '{in_flight}' AND f.claim_until >= ? \
                 GROUP BY f.{col} HAVING COUNT(*) >= {most}{mine_full})",
                col = c.column,
                most = c.most_of(&format!("f.{}", c.column)),
                mine_full = mine.map(|m| format!(" OR COUNT(CASE WHEN f.claimed_by = ? THEN 1 END) >= {m}")).unwrap_or_default(),
            ),
            None => String::new(),
        };
        let branch = |name: String, due: String| {
            format!(
                "SELECT {id}, next_attempt_at{group} FROM (SELECT {id}, next_attempt_at{group} FROM {table} \
                 WHERE {due}{not_full} ORDER BY next_attempt_at LIMIT ?{lock}) AS {name}"
            )
        };
        let mut branches: Vec<String> = (self.due.iter().enumerate())
            .map(|(i, s)| branch(format!("due_{i}"), format!("{state} = '{s}' AND next_attempt_at <= ?")))
            .collect();
        branches.push(branch("abandoned".into(), format!("{state} = '{in_flight}' AND claim_until < ?")));
        let union = branches.join(" UNION ALL ");
        let chosen = match cap {
            None => format!("SELECT {id} FROM ({union}) AS due ORDER BY next_attempt_at LIMIT ?"),
            Some(c) => {
                // A group's rows in this claim numbered after its rows in flight: across every
                // worker (`nth`) and, with a per-worker most, this worker's (`nth_mine`). The
                // rows in flight are counted once per claim, through the (state, …) index, and
                // joined. A count per candidate, correlated by group, went through the group's
                // index and visited every row the group ever had, delivered ones included
                // (scripts/bench-webhooks: 18 and 11 events/s to the fast and slow endpoints
                // with two such counts, where one had given 38).
                let numbered = |count: &str| {
                    format!(
                        "ROW_NUMBER() OVER (PARTITION BY due.{col} ORDER BY next_attempt_at) + COALESCE(fl.{count}, 0)",
                        col = c.column
                    )
                };
                let (mine_count, nth_mine, mine_ok) = match mine {
                    Some(m) => (
                        ", COUNT(CASE WHEN f.claimed_by = ? THEN 1 END) AS mine".to_string(),
                        format!(", {} AS nth_mine", numbered("mine")),
                        format!(" AND nth_mine <= {m}"),
                    ),
                    None => (String::new(), String::new(), String::new()),
                };
                format!(
                    "SELECT {id} FROM (SELECT {id}, next_attempt_at, {most} AS most, {nth} AS nth{nth_mine} \
                     FROM ({union}) AS due LEFT JOIN (SELECT f.{col} AS grp, COUNT(*) AS n{mine_count} FROM {table} f \
                     WHERE f.{state} = '{in_flight}' AND f.claim_until >= ? GROUP BY f.{col}) AS fl ON fl.grp = due.{col}) \
                     AS ranked WHERE (most IS NULL OR nth <= most){mine_ok} ORDER BY next_attempt_at LIMIT ?",
                    col = c.column,
                    most = c.most_of(&format!("due.{}", c.column)),
                    nth = numbered("n"),
                )
            }
        };
        let mut q = Sql::new(
            dialect,
            &format!(
                "UPDATE {table} SET {state} = '{in_flight}', claimed_by = ?, claim_until = ?, attempts = attempts + 1 \
                 WHERE {id} IN ({chosen}) RETURNING {}",
                self.returning
            ),
        )
        .arg(worker)
        .arg(millis(until));
        for _ in 0..branches.len() {
            q = q.arg(now);
            if cap.is_some() {
                q = q.arg(now); // the branch's full groups
            }
            if mine.is_some() {
                q = q.arg(worker); // (this worker's)
            }
            q = q.arg(limit as i64);
        }
        if mine.is_some() {
            q = q.arg(worker); // the count of this worker's in flight
        }
        if cap.is_some() {
            q = q.arg(now); // the counts' rows in flight
        }
        q.arg(limit as i64)
    }

    /// Opens each claimed row's attempt (in flight, started now).
    async fn open_attempts<T: Claimable>(
        &self,
        tx: &mut Tx,
        dialect: Dialect,
        rows: &[T],
        now: &str,
    ) -> sqlx::Result<()> {
        let a = &self.attempts;
        let mut columns = format!("{}, number, started_at, {}", a.key, a.outcome);
        for c in a.extra {
            columns.push_str(", ");
            columns.push_str(c);
        }
        for chunk in rows.chunks(CHUNK) {
            let mut q = Sql::new(dialect, &format!("INSERT INTO {} ({columns}) VALUES ", a.table));
            for (i, r) in chunk.iter().enumerate() {
                let mut values: Vec<Arg> = vec![r.id().into(), r.attempt().into(), now.into(), a.in_flight.into()];
                values.extend(r.attempt_values());
                q.push(if i > 0 { ", (" } else { "(" }).bind_list(values).push(")");
            }
            // A row of that number exists only if a previous claim's attempt was recorded and
            // then the count rolled back, which cannot happen; kept safe anyway.
            q.push(format!(" ON CONFLICT ({}, number) DO NOTHING", a.key));
            tx.exec().execute(&q).await?;
        }
        Ok(())
    }

    /// Gives back claims `worker` holds and has not started: due again at once, for this or
    /// another instance, without waiting for the lease; their attempts as if never opened.
    /// How many were given back.
    pub async fn release(&self, db: &Database, worker: &str, ids: &[String]) -> sqlx::Result<u64> {
        if ids.is_empty() {
            return Ok(0);
        }
        let a = &self.attempts;
        let mut tx = db.begin().await?;
        let mut q =
            db.sql(&format!("DELETE FROM {} WHERE {} = '{}' AND {} IN (", a.table, a.outcome, a.in_flight, a.key));
        q.bind_list(ids.iter().map(String::as_str));
        q.push(format!(
            ") AND number = (SELECT attempts FROM {} m WHERE m.{} = {}.{} AND m.claimed_by = ",
            self.table, self.id, a.table, a.key
        ))
        .bind(worker)
        .push(")");
        tx.exec().execute(&q).await?;
        let mut q = db.sql(&format!(
            "UPDATE {} SET {} = {}, attempts = attempts - 1, {UNCLAIMED} WHERE {} = '{}' AND claimed_by = ",
            self.table, self.state, self.released, self.state, self.in_flight
        ));
        q.bind(worker).push(format!(" AND {} IN (", self.id));
        q.bind_list(ids.iter().map(String::as_str));
        q.push(")");
        let n = tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await?;
        Ok(n)
    }

    /// Appends the condition that the row `alias` is still claimed by `worker`: what every
    /// outcome's UPDATE of the queue's table says.
    pub fn still_mine<'q>(&self, q: &'q mut Sql, alias: &str, worker: &str) -> &'q mut Sql {
        q.push(format!(" AND {alias}.{} = '{}' AND {alias}.claimed_by = ", self.state, self.in_flight)).bind(worker)
    }

    /// Appends the condition that the row whose key is `key` (a column or expression of the
    /// statement) is still claimed by `worker`: for the statements of other tables (the
    /// attempts, what an outcome adds) that must not outlive the claim.
    pub fn still_mine_exists<'q>(&self, q: &'q mut Sql, key: &str, worker: &str) -> &'q mut Sql {
        q.push(format!(" AND EXISTS (SELECT 1 FROM {} m WHERE m.{} = {key}", self.table, self.id));
        self.still_mine(q, "m", worker).push(")")
    }
}

/// The columns an outcome sets to end its claim.
pub const UNCLAIMED: &str = "claimed_by = NULL, claim_until = NULL";
