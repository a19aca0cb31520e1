//! The ledger's scheduled job: holds released on their day, exactly once across instances —
//! each tranche's release is posted in the transaction whose conditional UPDATE marks it
//! released, so a second instance's attempt changes no row and rolls back. The release's
//! event and audit record (as the server's) are in that transaction too.

use std::time::Duration;

use moneydesk_model::events::EventType;
use moneydesk_model::ledger::{money_of_units, LedgerAccountKind as K, PostingKind};

use super::chart::Code;
use super::store::{post, sleeve_in, LedgerStore, Leg, PostError, Posting};
use super::Books;
use crate::storage::{events, trail, Database, Sql};

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
        // Each release on the audit trail as the server's, with its own record.
        if trail::job("ledger-holds", release(db, books, hold, deposit, &account, amount)).await? {
            released += 1;
        }
    }
    Ok(released)
}

/// Releases one tranche, with the `ledger.balance.available` event of its account (the
/// balances after, as `LEDGER_BALANCES` answers them); whether it was this call's to release.
async fn release(
    db: &Database,
    books: &Books,
    hold: i64,
    deposit: i64,
    account: &str,
    amount: i64,
) -> Result<bool, PostError> {
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
        return Ok(false);
    }
    let mut p = Posting::new(PostingKind::HoldReleased, "holds");
    p.deposit_id = Some(deposit);
    p.memo = Some(format!("hold released on {}", books.today()));
    p.legs = vec![Leg::credit(Code::sleeve(account, K::Held), amount), Leg::debit(Code::bank(K::Holds), amount)];
    let Some(id) = post(&mut tx, &p, books.now_ms()).await? else { return Ok(false) };
    let q = Sql::new(
        tx.dialect(),
        "UPDATE ledger_holds SET released_tx = ? WHERE id = ? AND released_tx IS NULL AND cancelled_tx IS NULL",
    )
    .arg(id)
    .arg(hold);
    if tx.exec().execute(&q).await? != 1 {
        return Ok(false);
    }
    let rows = sleeve_in(&mut tx, account, None).await?;
    trail::target("ledger_account", account);
    trail::change("held", Some(money_of_units(rows.held() + amount)), Some(money_of_units(rows.held())));
    trail::change("available", Some(money_of_units(rows.available() - amount)), Some(money_of_units(rows.available())));
    let balances = super::handlers::view::balances(account.to_string(), &rows, books.now());
    events::append(&mut tx, EventType::LedgerBalanceAvailable, "ledger_account", account, &balances).await?;
    tx.commit().await?;
    Ok(true)
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
