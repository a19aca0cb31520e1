//! Posting: one ledger transaction written inside the caller's database transaction (a deposit's
//! move and its postings commit together, or neither does).
//!
//! The order of the writes is what lets the database keep the books: the balance rows first,
//! each locked by its UPDATE — the sleeve accounts' rows in ascending id order, then one part
//! of each bank account (`parts.rs`) in ascending account id order (two postings to one row
//! take turns and lose no update; one fixed order cannot deadlock) — then the entries with the
//! balance each leaves on its row or part, then the header, which the database refuses unless
//! the entries sum to zero.

use std::collections::BTreeMap;

use moneydesk_model::ledger::{LedgerAccountKind, PostingKind};

use super::parts;
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

/// The balance rows (or parts) of the accounts a posting touched, after it (code → balance).
type After = BTreeMap<String, i64>;

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
    // Taken before the first lock: every statement after it is time a hot row waits.
    let id = next_transaction_id(tx).await?;
    let moves = codes.iter().map(|c| {
        let (total, n) = legs.iter().filter(|l| &l.account == c).fold((0i64, 0i64), |(t, n), l| (t + l.amount, n + 1));
        Move { code: c, id: ids[c.as_str()], total, n }
    });
    let (mut banks, sleeves): (Vec<Move>, Vec<Move>) = moves.partition(|m| m.code.owner_and_kind().0.is_none());
    // Lock and move the sleeves' rows, lowest id first; then a part of each bank account,
    // lowest id first.
    let moved = move_rows(tx, &sleeves).await?;
    let mut after: After = sleeves.iter().map(|m| (m.code.as_str().to_string(), moved[&m.id])).collect();
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
    banks.sort_by_key(|m| m.id);
    let mut part_of: BTreeMap<&str, i64> = BTreeMap::new();
    for m in &banks {
        let part = parts::pick();
        part_of.insert(m.code.as_str(), part);
        after.insert(m.code.as_str().to_string(), parts::move_part(tx, m.id, part, m.total, m.n).await?);
    }
    // The running balance of each entry on its row or part: the balance after, less what
    // later legs add.
    let mut running: BTreeMap<&str, i64> = BTreeMap::new();
    for l in &legs {
        let start =
            after[l.account.as_str()] - legs.iter().filter(|m| m.account == l.account).map(|m| m.amount).sum::<i64>();
        running.entry(l.account.as_str()).or_insert(start);
    }
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms, part) VALUES ",
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
            Arg::from(part_of.get(l.account.as_str()).copied()),
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

/// What a posting moves one ledger account by: `total` over `n` entries.
struct Move<'a> {
    code: &'a Code,
    id: i64,
    total: i64,
    n: i64,
}

/// Locks the balance rows of `rows` in ascending id order and moves each; their balances after
/// (id → balance). On PostgreSQL a `SELECT … ORDER BY id FOR UPDATE` locks them (a locking
/// clause locks the rows as the sorted rows come out, so in id order: two postings locking the
/// same rows cannot deadlock), then one UPDATE moves them all — two statements for the three
/// rows of a guarded sleeve, not three. Locked first, the rows cannot change under the UPDATE.
/// (One statement, the locking SELECT a subquery of the UPDATE, moved fewer rows than it was
/// given under ledger_instances' load.) SQLite's one writer needs no lock order. A row moved
/// by zero is still locked: the available-balance guard reads the sleeve's three rows whole.
async fn move_rows(tx: &mut Tx, rows: &[Move<'_>]) -> sqlx::Result<BTreeMap<i64, i64>> {
    if let [Move { id, total, n, .. }] = rows {
        let q = Sql::new(
            tx.dialect(),
            "UPDATE ledger_accounts SET balance = balance + ?, entry_count = entry_count + ? WHERE id = ? RETURNING balance",
        )
        .arg(*total)
        .arg(*n)
        .arg(*id);
        return Ok(BTreeMap::from([(*id, tx.exec().int(&q).await?)]));
    }
    if rows.is_empty() {
        return Ok(BTreeMap::new());
    }
    if tx.dialect() == Dialect::Postgres {
        let mut q = Sql::new(Dialect::Postgres, "SELECT id FROM ledger_accounts WHERE id IN (");
        q.bind_list(rows.iter().map(|r| r.id)).push(") ORDER BY id FOR UPDATE");
        tx.exec().ints(&q).await?;
    }
    let mut q = Sql::new(
        tx.dialect(),
        "UPDATE ledger_accounts SET balance = balance + v.total, entry_count = entry_count + v.n FROM (",
    );
    for (i, Move { id, total, n, .. }) in rows.iter().enumerate() {
        q.push(if i == 0 { "SELECT " } else { " UNION ALL SELECT " });
        q.bind(*id).push(" AS id, ").bind(*total).push(" AS total, ").bind(*n).push(" AS n");
    }
    q.push(") v WHERE ledger_accounts.id = v.id RETURNING ledger_accounts.id, ledger_accounts.balance");
    let moved: BTreeMap<i64, i64> = tx.exec().rows::<(i64, i64)>(&q).await?.into_iter().collect();
    if moved.len() != rows.len() {
        // Every row was locked (or, on SQLite, the writer's), so none can have gone.
        return Err(sqlx::Error::Protocol(format!("moved {} of {} balance rows", moved.len(), rows.len())));
    }
    Ok(moved)
}

/// The sleeve accounts among the legs.
fn owners(legs: &[&Leg]) -> Vec<String> {
    let mut out: Vec<String> = legs.iter().filter_map(|l| l.account.owner_and_kind().0.map(str::to_string)).collect();
    out.sort();
    out.dedup();
    out
}

/// The ids of `codes`' ledger accounts, opening those that are new: a read, and only when one
/// is missing an insert and a second read (a statement less for every posting to accounts that
/// exist, nearly all of them).
async fn account_ids(tx: &mut Tx, codes: &[Code]) -> sqlx::Result<BTreeMap<String, i64>> {
    let found = read_ids(tx, codes).await?;
    if found.len() == codes.len() {
        return Ok(found);
    }
    let mut q = Sql::new(tx.dialect(), "INSERT INTO ledger_accounts (code, owner, kind, normal) VALUES ");
    for (i, c) in codes.iter().filter(|c| !found.contains_key(c.as_str())).enumerate() {
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
    read_ids(tx, codes).await
}

async fn read_ids(tx: &mut Tx, codes: &[Code]) -> sqlx::Result<BTreeMap<String, i64>> {
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
