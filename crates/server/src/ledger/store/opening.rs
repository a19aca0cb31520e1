//! Opening balances: an account that arrives with a `marketValue` (import, seed) opens its
//! posted ledger account at that value, against the bank's opening balances, in the same
//! transaction as the accounts — so `marketValue` is the posted balance from the first moment
//! and every balance is still the sum of its entries. One ledger transaction per batch of
//! accounts (a row each plus one for the bank), written set-wise: an import of 10,000
//! accounts is 20 statements more, not 20,000.

use moneydesk_model::ledger::{LedgerAccountKind, PostingKind};

use super::post::next_transaction_id;
use crate::ledger::chart::Code;
use crate::storage::sql::Arg;
use crate::storage::{Sql, Tx};

/// The market value's sort key for "no value" (`accounts::store::value_key`).
const NO_VALUE: i64 = i64::MIN;

/// Opens the posted ledger accounts of the new accounts `ids` at their market value.
pub async fn open_balances(tx: &mut Tx, ids: &[&str], now_ms: i64, actor: &str) -> sqlx::Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let posted = LedgerAccountKind::Posted;
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_accounts (code, owner, kind, normal, balance, entry_count, synced_count) \
         SELECT 'sma:' || id || ':posted', id, ?, ?, value_key, 1, 1 FROM accounts \
         WHERE market_value IS NOT NULL AND value_key <> 0 AND value_key <> ? AND id IN (",
    )
    .arg(posted.as_str())
    .arg(posted.normal().as_str())
    .arg(NO_VALUE);
    q.bind_list(ids.iter().copied()).push(")");
    if tx.exec().execute(&q).await? == 0 {
        return Ok(());
    }
    let id = next_transaction_id(tx).await?;
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) \
         SELECT ?, id, balance, balance, ? FROM ledger_accounts WHERE kind = ? AND entry_count = 1 AND owner IN (",
    )
    .arg(id)
    .arg(now_ms)
    .arg(posted.as_str());
    q.bind_list(ids.iter().copied()).push(")");
    tx.exec().execute(&q).await?;
    let q = Sql::new(
        tx.dialect(),
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_entries WHERE transaction_id = ?",
    )
    .arg(id);
    let total = tx.exec().int(&q).await?;
    let bank = Code::bank(LedgerAccountKind::OpeningBalances);
    let kind = LedgerAccountKind::OpeningBalances;
    let mut q = Sql::new(tx.dialect(), "INSERT INTO ledger_accounts (code, owner, kind, normal) VALUES ");
    q.bind_row([
        Arg::from(bank.as_str()),
        Arg::Text(None),
        Arg::from(kind.as_str()),
        Arg::from(kind.normal().as_str()),
    ]);
    q.push(" ON CONFLICT (code) DO NOTHING");
    tx.exec().execute(&q).await?;
    let q = Sql::new(
        tx.dialect(),
        "UPDATE ledger_accounts SET balance = balance - ?, entry_count = entry_count + 1 WHERE code = ? RETURNING balance",
    )
    .arg(total)
    .arg(bank.as_str());
    let after = tx.exec().int(&q).await?;
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) \
         SELECT ?, id, ?, ?, ? FROM ledger_accounts WHERE code = ?",
    )
    .arg(id)
    .arg(-total)
    .arg(after)
    .arg(now_ms)
    .arg(bank.as_str());
    tx.exec().execute(&q).await?;
    let q =
        Sql::new(tx.dialect(), "INSERT INTO ledger_transactions (id, kind, at_ms, actor, memo) VALUES (?, ?, ?, ?, ?)")
            .arg(id)
            .arg(PostingKind::Opening.as_str())
            .arg(now_ms)
            .arg(actor)
            .arg("opening balances: the accounts' market values");
    tx.exec().execute(&q).await?;
    Ok(())
}
