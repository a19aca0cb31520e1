//! A bank ledger account's balance in parts (migration 0038 says the whole of it).
//!
//! Every posting moves a bank account (`bank:cash_vault` for each deposit, a clearing account
//! for each send and settlement), and a balance row is locked from its UPDATE to its COMMIT.
//! With one row per account every posting took turns on the vault's: 539 postings/s
//! in-process on PostgreSQL, 23 % of the same rows written without balance upkeep
//! (`scripts/bench-ledger`, bench/results/ledger.md). A posting now moves one of `PARTS` rows
//! of each bank account it touches, picked at random: a median of 49.9 % over five runs (§4
//! there; 12.6 % before, in the same morning). A sleeve account keeps its one row: the
//! available-balance guard must read the sleeve whole under its lock, and one sleeve's
//! postings are few.
//!
//! An entry names its part (NULL: the account's own row) and carries the part's running
//! balance. The account's balance is its row plus its parts; as of a moment, the row's and
//! each part's last running balance at or before it, summed (`push_running`).

use crate::storage::{Sql, Tx};

/// Parts per bank account. 64 clients on two instances hold at most 32 connections; with 16
/// parts, 28 of the 284 lock waits sampled during the bench's HTTP phase were on a part (the
/// rest on the hot sleeve's rows), and a balance as of a moment is 17 index descents (the
/// row's and each part's).
pub const PARTS: i64 = 16;

/// A part for the next posting.
pub fn pick() -> i64 {
    (rand::random::<u64>() % PARTS as u64) as i64
}

/// Moves part `part` of ledger account `account_id` by `total` over `n` entries, making the
/// part on first use; the part's balance after. Its row lock is held to COMMIT, as a balance
/// row's is.
pub async fn move_part(tx: &mut Tx, account_id: i64, part: i64, total: i64, n: i64) -> sqlx::Result<i64> {
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_balance_parts (account_id, part, balance, entry_count) VALUES (?, ?, ?, ?) \
         ON CONFLICT (account_id, part) DO UPDATE SET balance = ledger_balance_parts.balance + excluded.balance, \
         entry_count = ledger_balance_parts.entry_count + excluded.entry_count RETURNING balance",
    )
    .arg(account_id)
    .arg(part)
    .arg(total)
    .arg(n);
    tx.exec().int(&q).await
}

/// Pushes the balance of a ledger account as of a bound: the running balance of the last
/// entry (by time, then id) of its row and of each of its parts that `bound` admits, summed;
/// zero where none is. `account` pushes an SQL expression of the account's id (a column, or a
/// subquery with its binds); `bound` pushes a condition on the entry `l` (`l.at_ms <= ?`).
/// Each is pushed twice. Each term is one descent of `ledger_entries_by_part`.
pub fn push_running(q: &mut Sql, account: &dyn Fn(&mut Sql), bound: &dyn Fn(&mut Sql)) {
    q.push("CAST((COALESCE((SELECT l.balance_after FROM ledger_entries l WHERE l.account_id = ");
    account(q);
    q.push(" AND l.part IS NULL AND ");
    bound(q);
    // `l.part` in the order although it is NULL throughout: without it PostgreSQL walked the
    // (account, time, id) index back and filtered on the part, every entry of a bank account's
    // parts up to the moment (45.9 ms for 250,000 of them); with it the order is the
    // (account, part, time, id) index's, one descent (0.3 ms for the whole balance).
    q.push(
        " ORDER BY l.part DESC, l.at_ms DESC, l.id DESC LIMIT 1), 0) + COALESCE((SELECT SUM(COALESCE((SELECT l.balance_after \
         FROM ledger_entries l WHERE l.account_id = p.account_id AND l.part = p.part AND ",
    );
    bound(q);
    q.push(" ORDER BY l.at_ms DESC, l.id DESC LIMIT 1), 0)) FROM ledger_balance_parts p WHERE p.account_id = ");
    account(q);
    q.push("), 0)) AS BIGINT)");
}
