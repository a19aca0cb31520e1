//! The accounts list's order by marketValue follows the books: a sleeve's marketValue is read
//! from its posted ledger account with every answer, but the list's sort key (`value_key`,
//! indexed, with marks) is brought up to it here, in batches, rather than in each posting —
//! a posting that updated the accounts row would bump the collection's version (a single
//! row every posting would then queue on) and invalidate the marks every time.

use std::time::Duration;

use super::AccountStore;
use crate::storage::sql::Arg;
use crate::storage::Sql;

/// Accounts brought up per statement.
const BATCH: i64 = 2_000;

impl AccountStore {
    /// Sets the sort key of every account whose posted balance moved since the last sync;
    /// how many. One transaction per batch; the marks are rebuilt by the next list that
    /// finds them stale.
    pub async fn sync_value_keys(&self) -> sqlx::Result<u64> {
        let mut done = 0;
        loop {
            let mut tx = self.db.begin().await?;
            let q = Sql::new(
                tx.dialect(),
                "SELECT id, owner, balance, entry_count FROM ledger_accounts \
                 WHERE kind = 'posted' AND entry_count <> synced_count ORDER BY id LIMIT ?",
            )
            .arg(BATCH);
            let rows: Vec<(i64, String, i64, i64)> = tx.exec().rows(&q).await?;
            if rows.is_empty() {
                tx.commit().await?;
                return Ok(done);
            }
            for (id, owner, balance, count) in &rows {
                let q = Sql::new(tx.dialect(), "UPDATE accounts SET value_key = ? WHERE id = ? AND value_key <> ?")
                    .arg(*balance)
                    .arg(owner.as_str())
                    .arg(*balance);
                tx.exec().execute(&q).await?;
                // Only if no posting came since the read: else the next run takes it again.
                let q = Sql::new(
                    tx.dialect(),
                    "UPDATE ledger_accounts SET synced_count = ? WHERE id = ? AND entry_count = ?",
                )
                .arg(Arg::from(*count))
                .arg(*id)
                .arg(*count);
                tx.exec().execute(&q).await?;
            }
            tx.commit().await?;
            done += rows.len() as u64;
            if (rows.len() as i64) < BATCH {
                return Ok(done);
            }
        }
    }

    /// Runs [`AccountStore::sync_value_keys`] every `every`, once across the instances.
    pub fn spawn_value_sync(&self, every: Duration) {
        use crate::storage::queue::schedule::{self, Every};
        let when = Every { every, ask: every.min(Duration::from_secs(30)) };
        let store = self.clone();
        let run = move || {
            let store = store.clone();
            async move {
                if let Err(e) = store.sync_value_keys().await {
                    tracing::warn!(error = %e, "bringing the accounts' marketValue order up to the books failed");
                }
            }
        };
        schedule::spawn(self.db.clone(), "accounts-value-sync", when, |_| crate::metrics::taken_over("job", 1), run);
    }
}
