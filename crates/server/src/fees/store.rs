//! The fee schedule versions in the database (`fee_schedules`, both backends).

use moneydesk_model::fees::FeeSchedule;

use crate::storage::time::now_text;
use crate::storage::{trail, Database, Dialect};

/// One stored version.
#[derive(Debug, Clone)]
pub struct StoredVersion {
    pub id: i64,
    pub schedule: FeeSchedule,
    pub loaded_at: String,
    pub loaded_by: String,
}

#[derive(Clone, Debug)]
pub struct FeeStore {
    db: Database,
}

impl FeeStore {
    pub fn new(db: Database) -> FeeStore {
        FeeStore { db }
    }

    /// Every version, oldest first.
    pub async fn versions(&self) -> anyhow::Result<Vec<StoredVersion>> {
        let q = self.db.sql("SELECT id, schedule, loaded_at, loaded_by FROM fee_schedules ORDER BY effective_from");
        let rows: Vec<(i64, String, String, String)> = self.db.acquire().await?.exec().rows(&q).await?;
        rows.into_iter()
            .map(|(id, schedule, loaded_at, loaded_by)| {
                let schedule = serde_json::from_str(&schedule)
                    .map_err(|e| anyhow::anyhow!("fee schedule version {id} in the database does not read: {e}"))?;
                Ok(StoredVersion { id, schedule, loaded_at, loaded_by })
            })
            .collect()
    }

    /// The newest version's id, 0 when there is none (a cheap check for versions loaded by
    /// another process).
    pub async fn latest_id(&self) -> sqlx::Result<i64> {
        let q = self.db.sql("SELECT coalesce(max(id), 0) FROM fee_schedules");
        self.db.acquire().await?.exec().int(&q).await
    }

    /// Adds a version, or replaces the one with the same `effective_from` when that one is
    /// still in the future at `now` (RFC 3339 UTC text); a replaced version gets a new id, so
    /// other processes notice it. `Ok(None)`: a version with that date is already in force
    /// (history is not rewritten).
    pub async fn put(&self, schedule: &FeeSchedule, loaded_by: &str, now: &str) -> anyhow::Result<Option<i64>> {
        let next_id = match self.db.dialect() {
            Dialect::Sqlite => "(SELECT max(id) + 1 FROM fee_schedules)",
            Dialect::Postgres => "nextval(pg_get_serial_sequence('fee_schedules', 'id'))",
        };
        let q = self
            .db
            .sql(&format!(
                "INSERT INTO fee_schedules (effective_from, schedule, loaded_at, loaded_by) VALUES (?, ?, ?, ?)
                 ON CONFLICT (effective_from) DO UPDATE
                    SET schedule = excluded.schedule, loaded_at = excluded.loaded_at,
                        loaded_by = excluded.loaded_by, id = {next_id}
                    WHERE fee_schedules.effective_from > ?
                 RETURNING id"
            ))
            .arg(schedule.effective_from.as_str())
            .arg(serde_json::to_string(schedule)?)
            .arg(now_text())
            .arg(loaded_by)
            .arg(now);
        let mut tx = self.db.begin().await?;
        let Some(id) = tx.exec().ints(&q).await?.pop() else { return Ok(None) };
        trail::target("fee_schedule", id);
        trail::change("effectiveFrom", None::<&str>, Some(schedule.effective_from.as_str()));
        tx.commit().await?;
        Ok(Some(id))
    }

    /// Stores `schedule` when no version exists yet (the first start); true when it did. Two
    /// processes starting at once store it once (the unique `effective_from`).
    pub async fn put_first(&self, schedule: &FeeSchedule) -> anyhow::Result<bool> {
        let q = self
            .db
            .sql(
                "INSERT INTO fee_schedules (effective_from, schedule, loaded_at, loaded_by)
                 SELECT ?, ?, ?, 'default' WHERE NOT EXISTS (SELECT 1 FROM fee_schedules)
                 ON CONFLICT (effective_from) DO NOTHING",
            )
            .arg(schedule.effective_from.as_str())
            .arg(serde_json::to_string(schedule)?)
            .arg(now_text());
        Ok(self.db.acquire().await?.exec().execute(&q).await? == 1)
    }
}
