//! What an endpoint's traffic reads: the delivery log, newest attempt first, and the attempts
//! of the last days for the figures.
//!
//! The log is in counted ranges (`storage::counted`, migration 0034): each attempt has `seq`,
//! the order it was opened in, and the database counts an endpoint's attempts per range of
//! `seq`. A page of the log reads its endpoint's counts and then only the window of `seq` its
//! rows lie in, so page 10,000 costs what page 1 does and the total is no `count(*)` — an
//! endpoint retried for days collects attempts by the hundred thousand.

use super::WebhookStore;
use crate::storage::{counted, Sql, Tx};

/// A row of the delivery log.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AttemptRow {
    pub delivery_id: String,
    pub event_id: String,
    pub event_type: String,
    pub number: i64,
    pub outcome: String,
    pub status: Option<i64>,
    pub duration_ms: Option<i64>,
    pub response: Option<String>,
    pub result: Option<String>,
    pub started_at: String,
}

/// The list's name in `list_counts` (its partitions: endpoint ids).
const LIST: &str = "webhook_attempts";

const SELECT: &str = "SELECT a.delivery_id, d.event_id, d.event_type, a.number, a.outcome, a.status, \
    a.duration_ms, a.response, a.result, a.started_at FROM webhook_attempts a \
    JOIN webhook_deliveries d ON d.id = a.delivery_id";

impl WebhookStore {
    /// The delivery log of an endpoint, newest attempt first: `(total, page)`.
    pub async fn attempts(&self, endpoint: &str, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<AttemptRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let table = counted::Table { name: LIST, key: "seq", part: "endpoint_id", alias: "a." };
        let page = counted::page(&mut tx, LIST, &[endpoint], SELECT, table, Some(&[endpoint]), offset, limit).await?;
        tx.commit_unrecorded().await?;
        Ok(page)
    }

    /// The same page by `count(*)` and `OFFSET`, as the log was read before its counts (what
    /// the counted page must agree with: the tests' and the benchmark's yardstick).
    pub async fn attempts_by_scanning(
        &self,
        endpoint: &str,
        offset: i64,
        limit: i64,
    ) -> sqlx::Result<(i64, Vec<AttemptRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let rows = scan(&mut tx, endpoint, offset, limit).await?;
        tx.commit_unrecorded().await?;
        Ok(rows)
    }

    /// An endpoint's finished attempts since `since`: `(started_at, outcome, duration_ms)`.
    pub async fn finished_since(
        &self,
        endpoint: &str,
        since: &str,
    ) -> sqlx::Result<Vec<(String, String, Option<i64>)>> {
        #[derive(sqlx::FromRow)]
        struct Row {
            started_at: String,
            outcome: String,
            duration_ms: Option<i64>,
        }
        let q = self
            .db
            .sql(
                "SELECT started_at, outcome, duration_ms FROM webhook_attempts WHERE endpoint_id = ? \
                 AND started_at >= ? AND outcome <> 'delivering'",
            )
            .arg(endpoint)
            .arg(since);
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(|r| (r.started_at, r.outcome, r.duration_ms)).collect())
    }
}

async fn scan(tx: &mut Tx, endpoint: &str, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<AttemptRow>)> {
    let q = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM webhook_attempts WHERE endpoint_id = ?").arg(endpoint);
    let total = tx.exec().int(&q).await?;
    let mut q = Sql::new(tx.dialect(), SELECT);
    q.push(" WHERE a.endpoint_id = ").bind(endpoint);
    q.push(" ORDER BY a.seq DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
    Ok((total, tx.exec().rows(&q).await?))
}
