//! The ledger's reads for the API: entries (paged, filtered), transactions, holds.

use super::parts::{self, Bound};
use super::LedgerStore;
use crate::storage::{counted, Dialect, Sql, Tx};

/// An entry with what the API answers of its transaction and account.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EntryRow {
    pub id: i64,
    pub transaction_id: i64,
    pub code: String,
    pub kind: String,
    pub amount: i64,
    pub balance_after: i64,
    pub at_ms: i64,
    pub posting_kind: String,
    pub deposit_id: Option<i64>,
    pub memo: Option<String>,
}

/// `SELECT` of entries `e` as [`EntryRow`]s, to be narrowed and ordered. An entry's running
/// balance is its account's: on a sleeve account, the one it carries; on a bank account with
/// parts (`parts.rs`), its row's and parts' running balances up to it (by time, then id),
/// summed — 17 index descents for each such entry of the page.
fn entry_sql(d: Dialect) -> Sql {
    let mut q = Sql::new(
        d,
        "SELECT e.id, e.transaction_id, a.code, a.kind, e.amount, CASE WHEN NOT EXISTS \
         (SELECT 1 FROM ledger_balance_parts p WHERE p.account_id = e.account_id) THEN e.balance_after ELSE ",
    );
    parts::push_running(&mut q, "e.account_id", Bound::Sql("(l.at_ms, l.id) <= (e.at_ms, e.id)"));
    q.push(
        " END AS balance_after, e.at_ms, t.kind AS posting_kind, t.deposit_id, t.memo \
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id",
    );
    q
}

/// A transaction's header.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TransactionRow {
    pub id: i64,
    pub kind: String,
    pub at_ms: i64,
    pub actor: String,
    pub memo: Option<String>,
    pub deposit_id: Option<i64>,
    pub reverses: Option<i64>,
}

/// A tranche of a hold.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct HoldRow {
    pub id: i64,
    pub deposit_id: i64,
    pub account_id: String,
    pub amount: i64,
    pub release_on: String,
    pub released_tx: Option<i64>,
    pub cancelled_tx: Option<i64>,
}

/// Which entries of a sleeve account (or a bank ledger account) to list.
#[derive(Debug, Clone, Default)]
pub struct EntryFilter {
    /// The ledger account codes (a sleeve account's three, or one).
    pub codes: Vec<String>,
    /// Posted at or after / before (milliseconds).
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    /// A posting kind (`deposit_confirmed`, …).
    pub posting_kind: Option<String>,
}

impl LedgerStore {
    /// A page of entries in posting order, newest first (the order of their running
    /// balances), with the total count. Without a time range or a kind, the page is found
    /// through the counted ranges of its ledger accounts (`storage::counted`), so page 10,000
    /// costs what page 1 does; with one, it is counted and skipped through the index.
    pub async fn entries(&self, f: &EntryFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<EntryRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let answer = if f.from_ms.is_none() && f.to_ms.is_none() && f.posting_kind.is_none() {
            counted_entries(&mut tx, f, offset, limit).await?
        } else {
            scan_entries(&mut tx, f, offset, limit).await?
        };
        tx.commit().await?;
        Ok(answer)
    }

    /// The same page by `COUNT(*)` and `OFFSET` (what the counted ranges must agree with).
    pub async fn entries_by_scanning(
        &self,
        f: &EntryFilter,
        offset: i64,
        limit: i64,
    ) -> sqlx::Result<(i64, Vec<EntryRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let answer = scan_entries(&mut tx, f, offset, limit).await?;
        tx.commit().await?;
        Ok(answer)
    }

    /// A transaction with its entries.
    pub async fn transaction(&self, id: i64) -> sqlx::Result<Option<(TransactionRow, Vec<EntryRow>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let found = transaction_in(&mut tx, id).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// A deposit's transactions with their entries, oldest first.
    pub async fn deposit_postings(&self, deposit_id: i64) -> sqlx::Result<Vec<(TransactionRow, Vec<EntryRow>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let q = Sql::new(
            tx.dialect(),
            "SELECT id, kind, at_ms, actor, memo, deposit_id, reverses FROM ledger_transactions WHERE deposit_id = ? ORDER BY id",
        )
        .arg(deposit_id);
        let heads: Vec<TransactionRow> = tx.exec().rows(&q).await?;
        let mut q = entry_sql(tx.dialect());
        q.push(" WHERE t.deposit_id = ").bind(deposit_id).push(" ORDER BY e.id");
        let entries: Vec<EntryRow> = tx.exec().rows(&q).await?;
        tx.commit().await?;
        Ok(heads
            .into_iter()
            .map(|h| {
                let mine = entries.iter().filter(|e| e.transaction_id == h.id).cloned().collect();
                (h, mine)
            })
            .collect())
    }

    /// The holds of a sleeve account (or of a deposit), by release day.
    pub async fn holds(&self, account_id: Option<&str>, deposit_id: Option<i64>) -> sqlx::Result<Vec<HoldRow>> {
        let mut q = self.db.sql(
            "SELECT id, deposit_id, account_id, amount, release_on, released_tx, cancelled_tx FROM ledger_holds WHERE 1 = 1",
        );
        if let Some(a) = account_id {
            q.push(" AND account_id = ").bind(a);
        }
        if let Some(d) = deposit_id {
            q.push(" AND deposit_id = ").bind(d);
        }
        q.push(" ORDER BY release_on, id");
        self.db.acquire().await?.exec().rows(&q).await
    }
}

/// A transaction with its entries, read in `tx`.
pub(super) async fn transaction_in(tx: &mut Tx, id: i64) -> sqlx::Result<Option<(TransactionRow, Vec<EntryRow>)>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT id, kind, at_ms, actor, memo, deposit_id, reverses FROM ledger_transactions WHERE id = ?",
    )
    .arg(id);
    let Some(head) = tx.exec().row::<TransactionRow>(&q).await? else { return Ok(None) };
    Ok(Some((head, entries_in(tx, id).await?)))
}

/// A transaction's entries, read in `tx`.
pub(super) async fn entries_in(tx: &mut Tx, id: i64) -> sqlx::Result<Vec<EntryRow>> {
    let mut q = entry_sql(tx.dialect());
    q.push(" WHERE e.transaction_id = ").bind(id).push(" ORDER BY e.id");
    tx.exec().rows(&q).await
}

/// `WHERE a.code IN (...)` and the filter's narrowing.
fn push_filter(q: &mut Sql, f: &EntryFilter) {
    q.push(" WHERE a.code IN (").bind_list(f.codes.iter().map(String::as_str)).push(")");
    if let Some(v) = f.from_ms {
        q.push(" AND e.at_ms >= ").bind(v);
    }
    if let Some(v) = f.to_ms {
        q.push(" AND e.at_ms < ").bind(v);
    }
    if let Some(k) = &f.posting_kind {
        q.push(" AND t.kind = ").bind(k.as_str());
    }
}

async fn scan_entries(tx: &mut Tx, f: &EntryFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<EntryRow>)> {
    let mut count = Sql::new(
        tx.dialect(),
        "SELECT COUNT(*) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         JOIN ledger_transactions t ON t.id = e.transaction_id",
    );
    push_filter(&mut count, f);
    let total = tx.exec().int(&count).await?;
    // The page's ids first: the running balance of a bank account's entry is 17 descents, and
    // a query's OFFSET still works out the select list of every row it skips (7.4 s for page
    // 5,001 of a bank account's entries on PostgreSQL; by the ids, 30 ms, the skip itself).
    let mut q = entry_sql(tx.dialect());
    q.push(
        " WHERE e.id IN (SELECT e.id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         JOIN ledger_transactions t ON t.id = e.transaction_id",
    );
    push_filter(&mut q, f);
    q.push(" ORDER BY e.id DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset).push(") ORDER BY e.id DESC");
    Ok((total, tx.exec().rows(&q).await?))
}

/// The page through the counted ranges of the named ledger accounts (their ids are the
/// partitions of the `ledger` list).
async fn counted_entries(tx: &mut Tx, f: &EntryFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<EntryRow>)> {
    let mut q = Sql::new(tx.dialect(), "SELECT id FROM ledger_accounts WHERE code IN (");
    q.bind_list(f.codes.iter().map(String::as_str)).push(")");
    let ids = tx.exec().ints(&q).await?;
    let parts: Vec<String> = ids.iter().map(i64::to_string).collect();
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    let spot = counted::spot(tx, "ledger", &parts, offset, limit, true).await?;
    let Some(w) = spot.window else { return Ok((spot.total, Vec::new())) };
    let mut q = entry_sql(tx.dialect());
    let table = counted::Table { name: "ledger_entries", key: "id", part: "account_id", alias: "e." };
    counted::push_page(tx, &mut q, table, Some(&ids), w, limit).await?;
    Ok((spot.total, tx.exec().rows(&q).await?))
}
