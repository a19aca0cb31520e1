//! Posting: one ledger transaction written inside the caller's database transaction (a deposit's
//! move and its postings commit together, or neither does).
//!
//! The order of the writes is what lets the database keep the books: the balance rows first,
//! each locked by its UPDATE in ascending id order (two postings to one account take turns and
//! lose no update; a fixed order cannot deadlock), then the entries with the balance each leaves,
//! then the header, which the database refuses unless the entries sum to zero.

use std::collections::BTreeMap;

use moneydesk_model::ledger::{LedgerAccountKind, PostingKind};

use crate::ledger::chart::Code;
use crate::storage::sql::Arg;
use crate::storage::{Dialect, Sql, Tx};

/// One side of a posting: a signed amount (credit positive) in ten-thousandths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    pub account: Code,
    pub amount: i64,
}

impl Leg {
    pub fn debit(account: Code, amount: i64) -> Leg {
        Leg { account, amount: -amount }
    }
    pub fn credit(account: Code, amount: i64) -> Leg {
        Leg { account, amount }
    }
}

/// A transaction to write.
#[derive(Debug, Clone)]
pub struct Posting {
    pub kind: PostingKind,
    pub actor: String,
    pub memo: Option<String>,
    pub deposit_id: Option<i64>,
    pub reverses: Option<i64>,
    pub legs: Vec<Leg>,
    /// A manual adjustment's key: (token id, Idempotency-Key, request SHA-256).
    pub key: Option<(i64, String, String)>,
    /// Refuse it if it leaves a sleeve account's available balance below zero while lowering
    /// it (adjustments; a returned item may, and is flagged instead).
    pub guard_available: bool,
}

impl Posting {
    pub fn new(kind: PostingKind, actor: &str) -> Posting {
        Posting {
            kind,
            actor: actor.to_string(),
            memo: None,
            deposit_id: None,
            reverses: None,
            legs: Vec::new(),
            key: None,
            guard_available: false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error("a ledger transaction needs two or more entries summing to zero; these sum to {0}")]
    Unbalanced(i64),
    #[error("the available balance of {account} would be {available} (below zero)")]
    Insufficient { account: String, available: i64 },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The balance rows of the accounts a posting touched, after it (id → balance).
pub type After = BTreeMap<String, i64>;

/// Writes `p` in `tx`; its id, or `Ok(None)` when it has nothing to post (every leg zero).
pub async fn post(tx: &mut Tx, p: &Posting, now_ms: i64) -> Result<Option<i64>, PostError> {
    let legs: Vec<&Leg> = p.legs.iter().filter(|l| l.amount != 0).collect();
    if legs.is_empty() {
        return Ok(None);
    }
    let sum: i64 = legs.iter().map(|l| l.amount).sum();
    if legs.len() < 2 || sum != 0 {
        return Err(PostError::Unbalanced(sum));
    }
    let mut codes: Vec<Code> = legs.iter().map(|l| l.account.clone()).collect();
    if p.guard_available {
        for owner in owners(&legs) {
            codes.extend(LedgerAccountKind::SLEEVE.map(|k| Code::sleeve(&owner, k)));
        }
    }
    codes.sort();
    codes.dedup();
    let ids = account_ids(tx, &codes).await?;
    // Lock and move each balance row, lowest id first.
    let mut order: Vec<(i64, &Code)> = codes.iter().map(|c| (ids[c.as_str()], c)).collect();
    order.sort();
    let mut after = After::new();
    for (id, code) in &order {
        let (total, n) =
            legs.iter().filter(|l| &l.account == *code).fold((0i64, 0i64), |(t, n), l| (t + l.amount, n + 1));
        let q = Sql::new(
            tx.dialect(),
            "UPDATE ledger_accounts SET balance = balance + ?, entry_count = entry_count + ? WHERE id = ? RETURNING balance",
        )
        .arg(total)
        .arg(n)
        .arg(*id);
        let balance = tx.exec().int(&q).await?;
        after.insert(code.as_str().to_string(), balance);
    }
    if p.guard_available {
        for owner in owners(&legs) {
            let bal = |k| after[Code::sleeve(&owner, k).as_str()];
            let available =
                bal(LedgerAccountKind::Posted) + bal(LedgerAccountKind::Pending) + bal(LedgerAccountKind::Held);
            let lowered: i64 =
                legs.iter().filter(|l| l.account.owner_and_kind().0 == Some(owner.as_str())).map(|l| l.amount).sum();
            if available < 0 && lowered < 0 {
                return Err(PostError::Insufficient { account: owner, available });
            }
        }
    }
    let id = next_transaction_id(tx).await?;
    // The running balance of each entry: the row's balance less what later legs add.
    let mut running: BTreeMap<&str, i64> = BTreeMap::new();
    for l in &legs {
        let start =
            after[l.account.as_str()] - legs.iter().filter(|m| m.account == l.account).map(|m| m.amount).sum::<i64>();
        running.entry(l.account.as_str()).or_insert(start);
    }
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) VALUES ",
    );
    for (i, l) in legs.iter().enumerate() {
        let bal = running.get_mut(l.account.as_str()).expect("every leg's account has a start");
        *bal += l.amount;
        q.push(if i == 0 { "" } else { ", " }).bind_row([
            Arg::from(id),
            Arg::from(ids[l.account.as_str()]),
            Arg::from(l.amount),
            Arg::from(*bal),
            Arg::from(now_ms),
        ]);
    }
    tx.exec().execute(&q).await?;
    let (token, key, hash) = match &p.key {
        Some((t, k, h)) => (Some(*t), Some(k.as_str()), Some(h.as_str())),
        None => (None, None, None),
    };
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_transactions (id, kind, at_ms, actor, memo, deposit_id, reverses, token_id, idempotency_key, request_hash) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .arg(id)
    .arg(p.kind.as_str())
    .arg(now_ms)
    .arg(p.actor.as_str())
    .arg(p.memo.as_deref())
    .arg(p.deposit_id)
    .arg(p.reverses)
    .arg(token)
    .arg(key)
    .arg(hash);
    tx.exec().execute(&q).await?;
    Ok(Some(id))
}

/// The sleeve accounts among the legs.
fn owners(legs: &[&Leg]) -> Vec<String> {
    let mut out: Vec<String> = legs.iter().filter_map(|l| l.account.owner_and_kind().0.map(str::to_string)).collect();
    out.sort();
    out.dedup();
    out
}

/// The ids of `codes`' ledger accounts, opening those that are new.
async fn account_ids(tx: &mut Tx, codes: &[Code]) -> sqlx::Result<BTreeMap<String, i64>> {
    let mut q = Sql::new(tx.dialect(), "INSERT INTO ledger_accounts (code, owner, kind, normal) VALUES ");
    for (i, c) in codes.iter().enumerate() {
        let (owner, kind) = c.owner_and_kind();
        q.push(if i == 0 { "" } else { ", " }).bind_row([
            Arg::from(c.as_str()),
            Arg::from(owner),
            Arg::from(kind.as_str()),
            Arg::from(kind.normal().as_str()),
        ]);
    }
    q.push(" ON CONFLICT (code) DO NOTHING");
    tx.exec().execute(&q).await?;
    let mut q = Sql::new(tx.dialect(), "SELECT id, code FROM ledger_accounts WHERE code IN (");
    q.bind_list(codes.iter().map(|c| c.as_str())).push(")");
    let rows: Vec<(i64, String)> = tx.exec().rows(&q).await?;
    Ok(rows.into_iter().map(|(id, code)| (code, id)).collect())
}

/// The next transaction's id, taken before its entries are written (they name it). SQLite has
/// one writer, whose transaction this is; PostgreSQL's sequence never gives one out twice.
pub(super) async fn next_transaction_id(tx: &mut Tx) -> sqlx::Result<i64> {
    let text = match tx.dialect() {
        Dialect::Sqlite => "SELECT COALESCE(MAX(id), 0) + 1 FROM ledger_transactions",
        Dialect::Postgres => "SELECT nextval(pg_get_serial_sequence('ledger_transactions', 'id'))",
    };
    let q = Sql::new(tx.dialect(), text);
    tx.exec().int(&q).await
}
