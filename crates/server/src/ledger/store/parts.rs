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

/// Which entries a balance counts: those at or before a moment, before one, or an SQL
/// condition on the entry `l` of its own (`(l.at_ms, l.id) <= (e.at_ms, e.id)`).
pub enum Bound<'a> {
    AtOrBefore(i64),
    Before(i64),
    Sql(&'a str),
}

impl Bound<'_> {
    fn push(&self, q: &mut Sql) {
        match self {
            Bound::AtOrBefore(ms) => q.push("l.at_ms <= ").bind(*ms),
            Bound::Before(ms) => q.push("l.at_ms < ").bind(*ms),
            Bound::Sql(text) => q.push(text),
        };
    }
}

/// Pushes the balance of the ledger account whose id is the SQL expression `account` (a
/// column of the outer query) as of `bound`: the running balance of the last entry (by time,
/// then id) of its row and of each of its parts that the bound admits, summed; zero where none
/// is. Each term is one descent of `ledger_entries_by_part`.
pub fn push_running(q: &mut Sql, account: &str, bound: Bound) {
    q.push(format_args!(
        "CAST((COALESCE((SELECT l.balance_after FROM ledger_entries l WHERE l.account_id = {account} AND l.part IS NULL AND "
    ));
    bound.push(q);
    // `l.part` in the order although it is NULL throughout: without it PostgreSQL walked the
    // (account, time, id) index back and filtered on the part, every entry of a bank account's
    // parts up to the moment (45.9 ms for 250,000 of them); with it the order is the
    // (account, part, time, id) index's, one descent (0.3 ms for the whole balance).
    q.push(
        " ORDER BY l.part DESC, l.at_ms DESC, l.id DESC LIMIT 1), 0) + COALESCE((SELECT SUM(COALESCE((SELECT l.balance_after \
         FROM ledger_entries l WHERE l.account_id = p.account_id AND l.part = p.part AND ",
    );
    bound.push(q);
    q.push(format_args!(
        " ORDER BY l.at_ms DESC, l.id DESC LIMIT 1), 0)) FROM ledger_balance_parts p WHERE p.account_id = {account}), 0)) AS BIGINT)"
    ));
}
