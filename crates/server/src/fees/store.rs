//! The fee schedule versions in the database.

use moneydesk_model::fees::FeeSchedule;

use crate::storage::{now_text, Db};

/// One stored version.
#[derive(Debug, Clone)]
pub struct StoredVersion {
    pub id: i64,
    pub schedule: FeeSchedule,
    pub loaded_at: String,
    pub loaded_by: String,
}

type Row = (i64, String, String, String);

impl Db {
    /// Every version, oldest first.
    pub async fn fee_schedule_versions(&self) -> anyhow::Result<Vec<StoredVersion>> {
        let rows: Vec<Row> = sqlx::query_as(
            "SELECT id, schedule, loaded_at, loaded_by FROM fee_schedules ORDER BY effective_from",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(id, schedule, loaded_at, loaded_by)| {
                let schedule = serde_json::from_str(&schedule)
                    .map_err(|e| anyhow::anyhow!("fee schedule version {id} in the database does not read: {e}"))?;
                Ok(StoredVersion { id, schedule, loaded_at, loaded_by })
            })
            .collect()
    }

    /// The newest version's id (a cheap check for versions loaded by another process).
    pub async fn fee_schedule_latest_id(&self) -> sqlx::Result<Option<i64>> {
        sqlx::query_scalar("SELECT max(id) FROM fee_schedules").fetch_one(&self.pool).await
    }

    /// Adds a version, or replaces the one with the same `effective_from` when that one is
    /// still in the future at `now` (RFC 3339 UTC text). `Ok(None)`: a version with that
    /// date is already in force (history is not rewritten).
    pub async fn put_fee_schedule(
        &self,
        schedule: &FeeSchedule,
        loaded_by: &str,
        now: &str,
    ) -> anyhow::Result<Option<i64>> {
        let json = serde_json::to_string(schedule)?;
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO fee_schedules (effective_from, schedule, loaded_at, loaded_by) VALUES (?, ?, ?, ?)
             ON CONFLICT (effective_from) DO UPDATE
                SET schedule = excluded.schedule, loaded_at = excluded.loaded_at, loaded_by = excluded.loaded_by,
                    id = (SELECT max(id) + 1 FROM fee_schedules)
                WHERE fee_schedules.effective_from > ?
             RETURNING id",
        )
        .bind(&schedule.effective_from)
        .bind(json)
        .bind(now_text())
        .bind(loaded_by)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(id)
    }

    /// Stores `schedule` when no version exists yet (the first start); true when it did. Two
    /// processes starting at once store it once (the unique `effective_from`).
    pub async fn put_first_fee_schedule(&self, schedule: &FeeSchedule) -> anyhow::Result<bool> {
        let json = serde_json::to_string(schedule)?;
        let r = sqlx::query(
            "INSERT INTO fee_schedules (effective_from, schedule, loaded_at, loaded_by)
             SELECT ?, ?, ?, 'default' WHERE NOT EXISTS (SELECT 1 FROM fee_schedules)
             ON CONFLICT (effective_from) DO NOTHING",
        )
        .bind(&schedule.effective_from)
        .bind(json)
        .bind(now_text())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }
}
