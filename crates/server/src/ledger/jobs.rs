//! The ledger's scheduled job: holds released on their day, exactly once across instances —
//! each tranche's release is posted in the transaction whose conditional UPDATE marks it
//! released, so a second instance's attempt changes no row and rolls back.

use std::time::Duration;

use moneydesk_model::ledger::{LedgerAccountKind as K, PostingKind};

use super::chart::Code;
use super::store::{post, LedgerStore, Leg, PostError, Posting};
use super::Books;
use crate::storage::Sql;

/// How many tranches one run releases at most (the next run takes the rest).
const BATCH: i64 = 1_000;

/// Releases every tranche due by the books' today; how many.
pub async fn release_due(store: &LedgerStore, books: &Books) -> Result<u64, PostError> {
    let db = store.database();
    let q = db
        .sql(
            "SELECT id, deposit_id, account_id, amount FROM ledger_holds \
             WHERE release_on <= ? AND released_tx IS NULL AND cancelled_tx IS NULL ORDER BY release_on, id LIMIT ?",
        )
        .arg(books.today().to_string())
        .arg(BATCH);
    let due: Vec<(i64, i64, String, i64)> = db.acquire().await?.exec().rows(&q).await?;
    let mut released = 0;
    for (hold, deposit, account, amount) in due {
        let mut tx = db.begin().await?;
        // Claim the tranche first (its row locked until commit): a return, rejection or
        // cancellation of the deposit running now either ended it already (no row here) or
        // waits, and then reverses what is still held after this release, not before it.
        let q = Sql::new(
            tx.dialect(),
            "UPDATE ledger_holds SET amount = amount WHERE id = ? AND released_tx IS NULL AND cancelled_tx IS NULL",
        )
        .arg(hold);
        if tx.exec().execute(&q).await? == 0 {
            continue;
        }
        let mut p = Posting::new(PostingKind::HoldReleased, "holds");
        p.deposit_id = Some(deposit);
        p.memo = Some(format!("hold released on {}", books.today()));
        p.legs = vec![Leg::credit(Code::sleeve(&account, K::Held), amount), Leg::debit(Code::bank(K::Holds), amount)];
        let Some(id) = post(&mut tx, &p, books.now_ms()).await? else { continue };
        let q = Sql::new(
            tx.dialect(),
            "UPDATE ledger_holds SET released_tx = ? WHERE id = ? AND released_tx IS NULL AND cancelled_tx IS NULL",
        )
        .arg(id)
        .arg(hold);
        if tx.exec().execute(&q).await? == 1 {
            tx.commit().await?;
            released += 1;
        }
    }
    Ok(released)
}

/// Runs [`release_due`] now and then every few minutes, once across the instances.
pub fn spawn(store: LedgerStore, books: Books) {
    use crate::storage::queue::schedule::{self, Every};
    let when = Every { every: Duration::from_secs(300), ask: Duration::from_secs(30) };
    let db = store.database().clone();
    let run = move || {
        let (store, books) = (store.clone(), books.clone());
        async move {
            match release_due(&store, &books).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(released = n, "ledger released holds"),
                Err(e) => tracing::warn!(error = %e, "releasing holds failed; the next run tries again"),
            }
        }
    };
    tokio::spawn(async move {
        run().await;
        schedule::spawn(db, "ledger-holds", when, |_| crate::metrics::taken_over("job", 1), run);
    });
}
