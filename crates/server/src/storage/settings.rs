//! One-time facts (`settings` table), e.g. whether demo data was seeded.

use super::Database;

#[derive(Clone, Debug)]
pub struct SettingStore {
    db: Database,
}

impl SettingStore {
    pub fn new(db: Database) -> SettingStore {
        SettingStore { db }
    }

    pub async fn get(&self, key: &str) -> sqlx::Result<Option<String>> {
        let q = self.db.sql("SELECT value FROM settings WHERE key = ?").arg(key);
        Ok(self.db.acquire().await?.exec().texts(&q).await?.pop())
    }

    /// Sets `key` only when it is not set yet; true when this call set it.
    pub async fn set_once(&self, key: &str, value: &str) -> sqlx::Result<bool> {
        let q = self
            .db
            .sql("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING")
            .arg(key)
            .arg(value);
        Ok(self.db.acquire().await?.exec().execute(&q).await? == 1)
    }
}
