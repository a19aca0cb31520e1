//! The ledger in the database (both backends): postings (`post.rs`), and the reads — balances
//! now (the balance rows, O(1); a bank account's row plus its parts, `parts.rs`) and as of any
//! moment (each row's and part's last running balance), entries, transactions, holds — and
//! `verify`, which proves the balance rows and parts equal the entries.

use moneydesk_model::events::EventType;
use moneydesk_model::ledger::{money_of_units, LedgerAccountKind, PostingKind};

use crate::ledger::chart::Code;
use crate::storage::{events, trail, Database, Sql, Tx};

mod opening;
pub mod parts;
pub mod post;
mod reads;
mod report;

pub use opening::open_balances;
pub use post::{post, Leg, PostError, Posting};
pub use reads::{EntryFilter, EntryRow, HoldRow, TransactionRow};
pub use report::{DayReport, DayRow, OpenRow};

/// A sleeve account's three balance rows (signed, credit positive), at a moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SleeveRows {
    pub posted: i64,
    pub pending: i64,
    pub held: i64,
}

impl SleeveRows {
    /// Posted balance (settled).
    pub fn posted(&self) -> i64 {
        self.posted
    }
    /// Posted plus credited-not-settled.
    pub fn pending(&self) -> i64 {
        self.posted + self.pending
    }
    /// What is on hold (the held account is debit-normal).
    pub fn held(&self) -> i64 {
        -self.held
    }
    pub fn available(&self) -> i64 {
        self.pending() - self.held()
    }
}

/// A ledger account's balance row (or one of its parts) that disagrees with its entries
/// (`verify`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub code: String,
    /// The part (`parts.rs`); `None`: the account's own row.
    pub part: Option<i64>,
    pub balance_row: i64,
    pub sum_of_entries: i64,
    pub last_running_balance: i64,
}

#[derive(Clone, Debug)]
pub struct LedgerStore {
    db: Database,
}

impl LedgerStore {
    pub fn new(db: Database) -> LedgerStore {
        LedgerStore { db }
    }

    pub fn database(&self) -> &Database {
        &self.db
    }

    /// Writes one posting in its own transaction, at `now_ms` (the books' clock).
    pub async fn post_at(&self, p: &Posting, now_ms: i64) -> Result<Option<i64>, PostError> {
        let mut tx = self.db.begin().await?;
        let id = post::post(&mut tx, p, now_ms).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// A sleeve account's balance rows now, or as of `as_of_ms` (the running balance of each
    /// ledger account's last entry at or before it).
    pub async fn sleeve(&self, account_id: &str, as_of_ms: Option<i64>) -> sqlx::Result<SleeveRows> {
        let mut tx = self.db.begin_snapshot().await?;
        let rows = sleeve_in(&mut tx, account_id, as_of_ms).await?;
        tx.commit().await?;
        Ok(rows)
    }

    /// Posts a manual adjustment in its own transaction, with its `ledger.transaction.posted`
    /// event (the transaction as `answer` writes it, read back in the transaction) and what its
    /// audit record notes; the transaction, or `None` when it posted nothing.
    pub async fn post_adjustment<T: serde::Serialize>(
        &self,
        p: &Posting,
        now_ms: i64,
        answer: impl Fn(&TransactionRow, &[EntryRow]) -> T,
    ) -> Result<Option<T>, PostError> {
        let mut tx = self.db.begin().await?;
        let Some(id) = post::post(&mut tx, p, now_ms).await? else { return Ok(None) };
        // The header is what was written; only the entries are read back (their ids and
        // running balances), while the posting's rows are locked.
        let head = TransactionRow {
            id,
            kind: p.kind.as_str().to_string(),
            at_ms: now_ms,
            actor: p.actor.clone(),
            memo: p.memo.clone(),
            deposit_id: p.deposit_id,
            reverses: p.reverses,
        };
        let entries = reads::entries_in(&mut tx, id).await?;
        let answer = answer(&head, &entries);
        trail::target("ledger_transaction", id);
        for leg in &p.legs {
            let side = if leg.amount < 0 { "debit" } else { "credit" };
            trail::change(side, None::<&str>, Some(leg.account.as_str()));
        }
        let amount: i64 = p.legs.iter().filter(|l| l.amount > 0).map(|l| l.amount).sum();
        trail::change("amount", None::<&str>, Some(money_of_units(amount)));
        trail::change("memo", None::<&str>, p.memo.as_deref());
        events::append(&mut tx, EventType::LedgerTransactionPosted, "ledger_transaction", id, &answer).await?;
        tx.commit().await?;
        Ok(Some(answer))
    }

    /// Every ledger account with its balance (row and parts): (code, kind, balance signed,
    /// entries).
    pub async fn accounts(&self, bank_only: bool) -> sqlx::Result<Vec<(String, String, i64, i64)>> {
        let text = if bank_only {
            "SELECT code, kind, balance, entry_count FROM ledger_account_balances WHERE owner IS NULL ORDER BY code"
        } else {
            "SELECT code, kind, balance, entry_count FROM ledger_account_balances ORDER BY code"
        };
        self.db.acquire().await?.exec().rows(&self.db.sql(text)).await
    }

    /// Proves the balance rows equal the entries: for every ledger account's row and every
    /// part of one (`parts.rs`), its balance, the sum of its entries and its last entry's
    /// running balance must agree (an entry whose part has no row counts as a part of balance
    /// zero), and every transaction's entries sum to zero. Answers the rows that disagree
    /// (none) and the transactions that do not balance (none). One snapshot, so a posting in
    /// flight is either wholly in it or not. "Last" is by id: a row's postings take turns
    /// under its lock and take their entries' ids in that order.
    pub async fn verify(&self) -> sqlx::Result<(Vec<Mismatch>, Vec<i64>)> {
        let mut tx = self.db.begin_snapshot().await?;
        // The row is part -1 here, so that both are matched by equality.
        let q = Sql::new(
            tx.dialect(),
            "WITH sums AS (SELECT account_id, COALESCE(part, -1) AS part, CAST(SUM(amount) AS BIGINT) AS total, \
             MAX(id) AS last_id FROM ledger_entries GROUP BY account_id, COALESCE(part, -1)), \
             kept AS (SELECT id AS account_id, -1 AS part, balance FROM ledger_accounts \
             UNION ALL SELECT account_id, part, balance FROM ledger_balance_parts) \
             SELECT a.code, k.part, k.balance, COALESCE(s.total, 0), \
             COALESCE((SELECT l.balance_after FROM ledger_entries l WHERE l.id = s.last_id), 0) \
             FROM kept k JOIN ledger_accounts a ON a.id = k.account_id \
             LEFT JOIN sums s ON s.account_id = k.account_id AND s.part = k.part \
             UNION ALL SELECT a.code, s.part, 0, s.total, (SELECT l.balance_after FROM ledger_entries l WHERE l.id = s.last_id) \
             FROM sums s JOIN ledger_accounts a ON a.id = s.account_id \
             WHERE NOT EXISTS (SELECT 1 FROM kept k WHERE k.account_id = s.account_id AND k.part = s.part)",
        );
        let rows: Vec<(String, i64, i64, i64, i64)> = tx.exec().rows(&q).await?;
        let mut mismatches: Vec<Mismatch> = rows
            .into_iter()
            .filter(|(_, _, row, sum, last)| row != sum || sum != last)
            .map(|(code, part, balance_row, sum_of_entries, last_running_balance)| Mismatch {
                code,
                part: (part >= 0).then_some(part),
                balance_row,
                sum_of_entries,
                last_running_balance,
            })
            .collect();
        mismatches.sort_by(|a, b| (&a.code, a.part).cmp(&(&b.code, b.part)));
        let q = Sql::new(
            tx.dialect(),
            "SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount) <> 0 OR COUNT(*) < 2",
        );
        let unbalanced = tx.exec().ints(&q).await?;
        tx.commit().await?;
        Ok((mismatches, unbalanced))
    }

    /// The id of a deposit's transaction of `kind` (its confirmation, say), the latest.
    pub async fn deposit_transaction(&self, deposit_id: i64, kind: PostingKind) -> sqlx::Result<Option<i64>> {
        let q = self
            .db
            .sql("SELECT id FROM ledger_transactions WHERE deposit_id = ? AND kind = ? ORDER BY id DESC LIMIT 1")
            .arg(deposit_id)
            .arg(kind.as_str());
        Ok(self.db.acquire().await?.exec().ints(&q).await?.into_iter().next())
    }
}

/// A sleeve account's balance rows in `tx`, now or as of `as_of_ms`.
pub(crate) async fn sleeve_in(tx: &mut Tx, account_id: &str, as_of_ms: Option<i64>) -> sqlx::Result<SleeveRows> {
    let mut rows = SleeveRows::default();
    for kind in LedgerAccountKind::SLEEVE {
        let code = Code::sleeve(account_id, kind);
        let value = balance_of(tx, code.as_str(), as_of_ms).await?;
        match kind {
            LedgerAccountKind::Posted => rows.posted = value,
            LedgerAccountKind::Pending => rows.pending = value,
            _ => rows.held = value,
        }
    }
    Ok(rows)
}

/// One ledger account's balance (signed) now or as of a moment; zero when it has none.
pub(crate) async fn balance_of(tx: &mut Tx, code: &str, as_of_ms: Option<i64>) -> sqlx::Result<i64> {
    let q = match as_of_ms {
        None => Sql::new(tx.dialect(), "SELECT balance FROM ledger_account_balances WHERE code = ?").arg(code),
        // Found by its code in the outer query, the account's id is a parameter of each term:
        // joined to the entries on its code, PostgreSQL read and sorted every entry of the
        // account up to the moment (580 ms for a hot account of 10 million entries,
        // scripts/bench-ledger); by id each term is one descent of the index, 0.13 ms.
        Some(ms) => {
            let mut q = Sql::new(tx.dialect(), "SELECT ");
            parts::push_running(&mut q, "a.id", parts::Bound::AtOrBefore(ms));
            q.push(" FROM ledger_accounts a WHERE a.code = ").bind(code);
            q
        }
    };
    Ok(tx.exec().ints(&q).await?.into_iter().next().unwrap_or(0))
}

impl LedgerStore {
    /// The transaction a token's Idempotency-Key wrote, with the request's hash.
    pub async fn by_key(&self, token_id: i64, key: &str) -> sqlx::Result<Option<(i64, String)>> {
        let q = self
            .db
            .sql("SELECT id, request_hash FROM ledger_transactions WHERE token_id = ? AND idempotency_key = ?")
            .arg(token_id)
            .arg(key);
        let row: Option<(i64, Option<String>)> = self.db.acquire().await?.exec().row(&q).await?;
        Ok(row.map(|(id, h)| (id, h.unwrap_or_default())))
    }
}
