//! One-time facts (`settings` table), e.g. whether demo data was seeded.

use super::Db;

impl Db {
    pub async fn setting(&self, key: &str) -> sqlx::Result<Option<String>> {
        sqlx::query_scalar("SELECT value FROM settings WHERE key = ?").bind(key).fetch_optional(&self.pool).await
    }

    /// Sets `key` only when it is not set yet; true when this call set it.
    pub async fn set_setting_once(&self, key: &str, value: &str) -> sqlx::Result<bool> {
        let r = sqlx::query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING")
            .bind(key)
            .bind(value)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }
}
