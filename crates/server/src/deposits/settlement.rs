//! Settlement on schedule: a sent item settles once `MONEYDESK_SETTLEMENT_DAYS` business days
//! have passed since its file went out with no return. The move is the store's Settle by the
//! actor `settlement`, so the books post it as any settle (and an operator's Settle stays the
//! recorded exception). Once across instances: a deposit another instance settled meanwhile
//! is no longer Sent_3, and its move is refused without effect.

use std::time::Duration;

use moneydesk_model::deposits::{DepositAction, DepositStatus};

use super::store::{DepositStore, MoveError};
use crate::ledger::Books;

/// The deposits one run looks at, at most.
const BATCH: i64 = 1_000;

/// Settles every sent deposit whose settlement day has passed; how many.
pub async fn settle_due(store: &DepositStore, books: &Books) -> Result<u64, MoveError> {
    let today = books.today();
    let sent = store.sent_before(&today.to_string(), BATCH).await?;
    let mut settled = 0;
    for (id, sent_on) in sent {
        let Ok(day) = chrono::NaiveDate::parse_from_str(&sent_on, "%Y-%m-%d") else { continue };
        let due = books.calendar.add_business_days(day, books.settlement_days);
        if due > today {
            continue;
        }
        let reason = format!("settled: no return by {due}");
        // Each settle on the audit trail as the server's, with its own record.
        let settle = store.apply(id, DepositAction::Settle, "settlement", Some(&reason), books);
        match crate::storage::trail::job("deposit-settlement", settle).await {
            Ok(_) => settled += 1,
            Err(MoveError::Illegal(_) | MoveError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(settled)
}

/// Runs [`settle_due`] now and then every few minutes, once across the instances.
pub fn spawn(store: DepositStore, books: Books) {
    use crate::storage::queue::schedule::{self, Every};
    let when = Every { every: Duration::from_secs(300), ask: Duration::from_secs(30) };
    let db = store.database().clone();
    let run = move || {
        let (store, books) = (store.clone(), books.clone());
        async move {
            match settle_due(&store, &books).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(settled = n, "deposits settled on schedule"),
                Err(e) => tracing::warn!(error = %e, "settling deposits failed; the next run tries again"),
            }
        }
    };
    tokio::spawn(async move {
        run().await;
        schedule::spawn(db, "deposit-settlement", when, |_| crate::metrics::taken_over("job", 1), run);
    });
}

impl DepositStore {
    /// Sent deposits (id, day sent) sent on or before `day`, oldest first.
    pub async fn sent_before(&self, day: &str, limit: i64) -> sqlx::Result<Vec<(i64, String)>> {
        let q = self
            .database()
            .sql("SELECT id, sent_on FROM deposits WHERE status = ? AND sent_on IS NOT NULL AND sent_on <= ? ORDER BY sent_on, id LIMIT ?")
            .arg(DepositStatus::Sent.as_str())
            .arg(day)
            .arg(limit);
        self.database().acquire().await?.exec().rows(&q).await
    }
}
