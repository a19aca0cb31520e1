//! The keys in the database (`idempotency_keys`, both backends), shared by every instance on
//! it. Each step is its own short transaction committed with `commit_unrecorded`: keeping a
//! key is bookkeeping, not the change the request is on the audit trail for.

use chrono::{DateTime, Duration, Utc};

use crate::storage::time::millis;
use crate::storage::Database;

/// The keys, kept `keep` from their first use.
#[derive(Clone, Debug)]
pub struct Keys {
    db: Database,
    keep: Duration,
}

/// A key: its caller's user and the key itself.
#[derive(Debug, Clone)]
pub struct KeyId {
    pub user: String,
    pub key: String,
}

/// A key found already used.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyRow {
    pub operation: String,
    pub request: String,
    pub body_sha256: Option<String>,
    pub state: String,
    pub status: Option<i64>,
    pub content_type: Option<String>,
    pub response: Option<String>,
    pub lease_until: String,
}

/// What reserving a key came to.
#[derive(Debug)]
pub enum Reserved {
    /// This request holds the key: run it.
    Mine,
    /// An earlier request holds it (still in flight, or done with its answer).
    Taken(KeyRow),
}

/// The first answer, as kept.
#[derive(Debug)]
pub struct Answer {
    pub body_sha256: Option<String>,
    pub status: u16,
    pub content_type: Option<String>,
    pub response: String,
}

impl Keys {
    pub fn new(db: Database, keep: Duration) -> Keys {
        Keys { db, keep }
    }

    /// Reserves `id` for a request (in flight until `lease` from now), unless an earlier
    /// request holds it; a key past its time is forgotten first. One INSERT decides between
    /// instances: on PostgreSQL a second one waits for the first's commit, then does nothing.
    pub async fn reserve(
        &self,
        id: &KeyId,
        operation: &str,
        request: &str,
        now: DateTime<Utc>,
        lease: Duration,
    ) -> sqlx::Result<Reserved> {
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND expires_at < ?")
            .arg(id.user.as_str())
            .arg(id.key.as_str())
            .arg(millis(now));
        tx.exec().execute(&q).await?;
        let q = self
            .db
            .sql(
                "INSERT INTO idempotency_keys (user_id, key, operation, request, state, created_at, lease_until, expires_at) \
                 VALUES (?, ?, ?, ?, 'in_flight', ?, ?, ?) ON CONFLICT (user_id, key) DO NOTHING",
            )
            .arg(id.user.as_str())
            .arg(id.key.as_str())
            .arg(operation)
            .arg(request)
            .arg(millis(now))
            .arg(millis(now + lease))
            .arg(millis(now + self.keep));
        let reserved = if tx.exec().execute(&q).await? == 1 {
            Reserved::Mine
        } else {
            let q = self
                .db
                .sql(
                    "SELECT operation, request, body_sha256, state, status, content_type, response, lease_until \
                     FROM idempotency_keys WHERE user_id = ? AND key = ?",
                )
                .arg(id.user.as_str())
                .arg(id.key.as_str());
            match tx.exec().row::<KeyRow>(&q).await? {
                Some(row) => Reserved::Taken(row),
                None => return Err(sqlx::Error::RowNotFound),
            }
        };
        tx.commit_unrecorded().await?;
        Ok(reserved)
    }

    /// Keeps the first answer: a retry gets it again.
    pub async fn done(&self, id: &KeyId, answer: &Answer) -> sqlx::Result<()> {
        let q = self
            .db
            .sql(
                "UPDATE idempotency_keys SET state = 'done', body_sha256 = ?, status = ?, content_type = ?, response = ? \
                 WHERE user_id = ? AND key = ? AND state = 'in_flight'",
            )
            .arg(answer.body_sha256.clone())
            .arg(i64::from(answer.status))
            .arg(answer.content_type.clone())
            .arg(answer.response.as_str())
            .arg(id.user.as_str())
            .arg(id.key.as_str());
        self.write(q).await
    }

    /// Forgets a reservation whose request changed nothing (refused), so the key can be
    /// used again.
    pub async fn release(&self, id: &KeyId) -> sqlx::Result<()> {
        let q = self
            .db
            .sql("DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND state = 'in_flight'")
            .arg(id.user.as_str())
            .arg(id.key.as_str());
        self.write(q).await
    }

    /// Ends a reservation's lease now: its request failed and may or may not have changed
    /// something (a retry is told so, never run).
    pub async fn abandon(&self, id: &KeyId, now: DateTime<Utc>) -> sqlx::Result<()> {
        let q = self
            .db
            .sql("UPDATE idempotency_keys SET lease_until = ? WHERE user_id = ? AND key = ? AND state = 'in_flight'")
            .arg(millis(now))
            .arg(id.user.as_str())
            .arg(id.key.as_str());
        self.write(q).await
    }

    /// Forgets every key past its time; how many.
    pub async fn sweep(&self, now: DateTime<Utc>) -> sqlx::Result<u64> {
        let q = self.db.sql("DELETE FROM idempotency_keys WHERE expires_at < ?").arg(millis(now));
        let mut tx = self.db.begin().await?;
        let n = tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await?;
        Ok(n)
    }

    async fn write(&self, q: crate::storage::Sql) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await
    }
}
