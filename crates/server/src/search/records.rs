//! Deposits and accounts: the records named by an id, a number, an amount or a name.

use moneydesk_model::search::{MatchKind, Query, QueryShape, SearchHit};

use super::matching::{best, decimal, dollars, hit, open, ranked, Matcher};
use super::stages::{cond, equal, like, starts, Cond, Staged};
use crate::error::Error;
use crate::storage::sql::Dialect;
use crate::storage::Database;

#[derive(sqlx::FromRow)]
struct DepositHit {
    id: i64,
    amount_cents: i64,
    check_number: Option<String>,
    payee_account_id: String,
    payee_name: Option<String>,
    bank_routing_number: Option<String>,
    status: String,
    created_at: String,
}

/// Deposits by id, check number, amount, the payee's account (id or name) and, for a routing
/// number, the bank the check is drawn on; newest first within each kind of match.
pub async fn deposits(db: &Database, q: &Query, limit: u32) -> Result<(Vec<SearchHit>, bool), Error> {
    let t = q.text.as_str();
    let lower = t.to_lowercase();
    let d = db.dialect();
    let stages: [Vec<Cond>; 3] = match q.shape {
        QueryShape::Amount => [vec![cond("amount_cents = ?", q.cents.unwrap_or(-1))], vec![], vec![]],
        QueryShape::Number | QueryShape::RoutingNumber => {
            let mut exact = vec![equal(d, "check_number", t), equal(d, "payee_account_id", t)];
            exact.extend(q.number().map(|n| cond("id = ?", n)));
            exact.extend(q.cents.map(|c| cond("amount_cents = ?", c)));
            if q.shape == QueryShape::RoutingNumber {
                exact.push(cond("bank_routing_number = ?", t));
            }
            [exact, vec![ranged(d, starts(d, "check_number", t))], vec![contains(d, "check_number", t)]]
        }
        QueryShape::Email => [vec![], vec![], vec![]],
        QueryShape::Text => [
            vec![equal(d, "check_number", t), equal(d, "payee_account_id", t), equal(d, "lower(payee_name)", &lower)],
            vec![ranged(d, starts(d, "payee_account_id", t)), ranged(d, starts(d, "lower(payee_name)", &lower))],
            vec![contains(d, "payee_name", &lower)],
        ],
    };
    let staged = Staged {
        select: "SELECT id, amount_cents, check_number, payee_account_id, payee_name, bank_routing_number, status, \
                 created_at FROM deposits WHERE ",
        scope: None,
        order: " ORDER BY id DESC",
    };
    let (rows, more) = staged.run::<DepositHit, _>(db, stages, limit, |r| r.id).await?;
    let m = Matcher::new(t);
    let exact = |yes: bool| yes.then_some(MatchKind::Exact);
    let hits = rows
        .into_iter()
        .filter_map(|r| {
            let matched = best([
                ("id", exact(q.number() == Some(r.id))),
                ("amount", exact(q.cents == Some(r.amount_cents))),
                ("checkNumber", r.check_number.as_deref().and_then(|c| m.text(c))),
                ("payeeAccountId", m.text(&r.payee_account_id).filter(|k| *k != MatchKind::Contains)),
                ("payeeName", r.payee_name.as_deref().and_then(|n| m.text(n))),
                ("bankRoutingNumber", exact(r.bank_routing_number.as_deref() == Some(t))),
            ])?;
            let title = match &r.check_number {
                Some(c) => format!("Check {c} · {}", dollars(r.amount_cents)),
                None => format!("Deposit {} · {}", r.id, dollars(r.amount_cents)),
            };
            let payee = r.payee_name.clone().unwrap_or_else(|| r.payee_account_id.clone());
            let detail = format!("#{} · {payee} · {} · {}", r.id, r.status, r.created_at.get(..10).unwrap_or_default());
            // The list narrowed to the deposit's amount (it has no id filter), its drawer open.
            let amount = decimal(r.amount_cents);
            let link =
                open("/deposits", &[("amountMin", &amount), ("amountMax", &amount), ("open", &r.id.to_string())]);
            Some(hit(r.id.to_string(), title, Some(detail), matched, link))
        })
        .collect();
    Ok((ranked(hits), more))
}

/// SQLite: the range through the index first, then the rows newest first (sorting the
/// matched ids alone; reading each matched row to sort it took 2-4 times as long, 25,000
/// rows). PostgreSQL plans the condition itself for its values.
fn ranged(d: Dialect, c: Cond) -> Cond {
    match d {
        Dialect::Sqlite => Cond(format!("id IN (SELECT id FROM deposits WHERE {})", c.0), c.1),
        Dialect::Postgres => c,
    }
}

/// `col` contains `text` (`payee_name`: its lower-cased `text`, ignoring case) through the
/// trigram indexes of migration 0024; a text of fewer than three characters has no trigram
/// and scans (`LIKE`).
fn contains(d: Dialect, col: &str, text: &str) -> Cond {
    let lowered = if col == "payee_name" { "lower(payee_name)" } else { col };
    if d == Dialect::Sqlite && text.chars().count() >= 3 {
        let phrase = format!("\"{}\"", text.replace('"', "\"\""));
        cond(format!("id IN (SELECT rowid FROM deposits_trigram WHERE deposits_trigram.{col} MATCH ?)"), phrase)
    } else {
        like(lowered, text, MatchKind::Contains)
    }
}

#[derive(sqlx::FromRow)]
struct AccountHit {
    seq: i64,
    id: String,
    account_name: String,
    account_number: Option<String>,
    account_email: Option<String>,
}

/// Accounts by id, name, account number and email address.
pub async fn accounts(db: &Database, q: &Query, limit: u32) -> Result<(Vec<SearchHit>, bool), Error> {
    let t = q.text.as_str();
    let lower = t.to_lowercase();
    let stages: [Vec<Cond>; 3] = match q.shape {
        QueryShape::Amount => [vec![], vec![], vec![]],
        QueryShape::Email => [
            vec![cond("lower(account_email) = ?", lower.clone())],
            vec![like("lower(account_email)", &lower, MatchKind::Prefix)],
            vec![like("lower(account_email)", &lower, MatchKind::Contains)],
        ],
        QueryShape::Number | QueryShape::RoutingNumber => [
            vec![cond("id = ?", t), cond("account_number = ?", t)],
            vec![like("account_number", t, MatchKind::Prefix), like("id", t, MatchKind::Prefix)],
            vec![like("account_number", t, MatchKind::Contains), like("name_key", &lower, MatchKind::Contains)],
        ],
        QueryShape::Text => [
            vec![cond("id = ?", t), cond("name_key = ?", lower.clone()), cond("account_number = ?", t)],
            vec![like("name_key", &lower, MatchKind::Prefix), like("id", t, MatchKind::Prefix)],
            vec![like("name_key", &lower, MatchKind::Contains)],
        ],
    };
    let staged = Staged {
        select: "SELECT seq, id, account_name, account_number, account_email FROM accounts WHERE ",
        scope: None,
        order: " ORDER BY seq DESC",
    };
    let (rows, more) = staged.run::<AccountHit, _>(db, stages, limit, |r| r.seq).await?;
    let m = Matcher::new(t);
    let hits = rows
        .into_iter()
        .filter_map(|r| {
            let matched = best([
                ("id", m.text(&r.id).filter(|k| *k != MatchKind::Contains)),
                ("accountNumber", r.account_number.as_deref().and_then(|n| m.text(n))),
                ("accountName", m.text(&r.account_name)),
                ("accountEmail", r.account_email.as_deref().and_then(|e| m.text(e))),
            ])?;
            let detail = [Some(r.id.as_str()), r.account_number.as_deref(), r.account_email.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" · ");
            let link = open("/accounts", &[("name", &r.account_name), ("open", &r.id)]);
            Some(hit(r.id.clone(), r.account_name.clone(), Some(detail), matched, link))
        })
        .collect();
    Ok((ranked(hits), more))
}
