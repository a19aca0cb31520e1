//! Scheduled jobs that run once across all instances sharing a database, not once per
//! instance: each instance wakes on its own schedule and claims the job's row; the claim is
//! one conditional UPDATE that moves the job's `due_at` to the next run, so exactly one
//! instance's UPDATE changes it (SQLite has one writer; PostgreSQL re-checks the condition
//! on the row it locked). An instance that dies mid-run leaves the next run due as scheduled:
//! the lease is the interval itself. A run records its end (`finish`), so a claim that finds
//! the previous run started and never ended is a take-over, counted in the metrics.

use chrono::{DateTime, Utc};

use super::Database;
use crate::email::store::time_text;

/// Claims `job` for `instance` if it is due at `now`; the next run is then due `every` later.
/// True: run it now. False: another instance ran it within `every` (or is running it).
pub async fn claim(
    db: &Database,
    job: &str,
    instance: &str,
    now: DateTime<Utc>,
    every: std::time::Duration,
) -> sqlx::Result<bool> {
    let next = now + chrono::Duration::from_std(every).unwrap_or(chrono::Duration::hours(1));
    let mut conn = db.acquire().await?;
    let q = db
        .sql("INSERT INTO job_runs (name, due_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")
        .arg(job)
        .arg(time_text(now));
    conn.exec().execute(&q).await?;
    // Whether the previous run is unfinished, read before the claim: if this claim wins, the
    // run it read is the one it takes over (a claim in between would have moved `due_at`, and
    // this one would not win).
    let q = db.sql("SELECT COUNT(*) FROM job_runs WHERE name = ? AND started_at IS NOT NULL AND (finished_at IS NULL OR finished_at < started_at)").arg(job);
    let unfinished = conn.exec().int(&q).await? > 0;
    let q = db
        .sql("UPDATE job_runs SET due_at = ?, started_at = ?, instance = ? WHERE name = ? AND due_at <= ?")
        .arg(time_text(next))
        .arg(time_text(now))
        .arg(instance)
        .arg(job)
        .arg(time_text(now));
    let won = conn.exec().execute(&q).await? == 1;
    if won && unfinished {
        crate::metrics::taken_over("job", 1);
    }
    Ok(won)
}

/// Records that `instance`'s run of `job` ended (whatever its result): the next claim is then
/// no take-over.
pub async fn finish(db: &Database, job: &str, instance: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
    let q = db
        .sql("UPDATE job_runs SET finished_at = ? WHERE name = ? AND instance = ?")
        .arg(time_text(now))
        .arg(job)
        .arg(instance);
    db.acquire().await?.exec().execute(&q).await?;
    Ok(())
}
