//! Scheduled jobs that run once across all instances sharing a database, not once per
//! instance: the queue with one row a job (`job_runs`). Each instance asks on its own schedule
//! and claims the job's row; the claim is one conditional UPDATE that moves the job's `due_at`
//! to the next run, so exactly one instance's UPDATE changes it (SQLite has one writer;
//! PostgreSQL re-checks the condition on the row it locked). An instance that dies mid-run
//! leaves the next run due as scheduled: the lease is the interval itself. A run records its
//! end ([`finish`]), so a claim that finds the previous run started and never ended is a
//! take-over ([`Claim::TakenOver`]).

use std::future::Future;
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::storage::time::millis;
use crate::storage::Database;

/// What a claim of a job came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Another instance ran it within the interval (or is running it).
    NotDue,
    /// Run it now.
    Due,
    /// Run it now; the previous run started and never ended (its instance died, or it
    /// overran the interval).
    TakenOver,
}

impl Claim {
    /// Whether this instance runs the job now.
    pub fn won(self) -> bool {
        self != Claim::NotDue
    }
}

/// Claims `job` for `instance` if it is due at `now`; the next run is then due `every` later.
pub async fn claim(
    db: &Database,
    job: &str,
    instance: &str,
    now: DateTime<Utc>,
    every: Duration,
) -> sqlx::Result<Claim> {
    let next = now + chrono::Duration::from_std(every).unwrap_or(chrono::Duration::hours(1));
    let mut conn = db.acquire().await?;
    let q = db
        .sql("INSERT INTO job_runs (name, due_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")
        .arg(job)
        .arg(millis(now));
    conn.exec().execute(&q).await?;
    // Whether the previous run is unfinished, read before the claim: if this claim wins, the
    // run it read is the one it takes over (a claim in between would have moved `due_at`, and
    // this one would not win).
    let q = db.sql("SELECT COUNT(*) FROM job_runs WHERE name = ? AND started_at IS NOT NULL AND (finished_at IS NULL OR finished_at < started_at)").arg(job);
    let unfinished = conn.exec().int(&q).await? > 0;
    let q = db
        .sql("UPDATE job_runs SET due_at = ?, started_at = ?, instance = ? WHERE name = ? AND due_at <= ?")
        .arg(millis(next))
        .arg(millis(now))
        .arg(instance)
        .arg(job)
        .arg(millis(now));
    Ok(match (conn.exec().execute(&q).await? == 1, unfinished) {
        (false, _) => Claim::NotDue,
        (true, false) => Claim::Due,
        (true, true) => Claim::TakenOver,
    })
}

/// Records that `instance`'s run of `job` ended (whatever its result): the next claim is then
/// no take-over.
pub async fn finish(db: &Database, job: &str, instance: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
    let q = db
        .sql("UPDATE job_runs SET finished_at = ? WHERE name = ? AND instance = ?")
        .arg(millis(now))
        .arg(job)
        .arg(instance);
    db.acquire().await?.exec().execute(&q).await?;
    Ok(())
}

/// A job's schedule: run every `every` across the instances, each asking every `ask` (the
/// first time `ask` after it starts).
#[derive(Debug, Clone, Copy)]
pub struct Every {
    pub every: Duration,
    pub ask: Duration,
}

/// Runs `job` on its schedule, once across the instances, for as long as the process runs:
/// asks, claims, runs `run`, records its end. `taken_over` hears of each run that took over
/// one that never ended (the metrics count them).
pub fn spawn<F, Fut>(
    db: Database,
    job: &'static str,
    when: Every,
    taken_over: fn(&'static str),
    run: F,
) -> tokio::task::JoinHandle<()>
where
    F: Fn() -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let instance = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
    tokio::spawn(async move {
        let mut ask = tokio::time::interval_at(tokio::time::Instant::now() + when.ask, when.ask);
        loop {
            ask.tick().await;
            match claim(&db, job, &instance, Utc::now(), when.every).await {
                Ok(Claim::NotDue) => continue,
                Ok(c) => {
                    if c == Claim::TakenOver {
                        taken_over(job);
                    }
                }
                Err(e) => {
                    tracing::warn!(job, error = %e, "claiming a scheduled job's run");
                    continue;
                }
            }
            run().await;
            if let Err(e) = finish(&db, job, &instance, Utc::now()).await {
                tracing::warn!(job, error = %e, "recording the end of a scheduled job's run");
            }
        }
    })
}
