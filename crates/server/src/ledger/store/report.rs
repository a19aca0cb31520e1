//! The reads behind the daily reconciliation and the batch balances, each question one
//! statement over the whole set (no query per day or per account), in one snapshot.

use moneydesk_model::ledger::LedgerAccountKind;

use super::parts::{self, Bound};
use super::{LedgerStore, SleeveRows};
use crate::ledger::chart::Code;
use crate::storage::{Sql, Tx};

/// A bank ledger account's day (signed, credit positive; debits and credits positive).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DayRow {
    pub code: String,
    pub opening: i64,
    pub debits: i64,
    pub credits: i64,
    pub closing: i64,
}

/// A deposit's net on one clearing account at the day's end (signed), with the day it was sent.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OpenRow {
    pub deposit_id: i64,
    pub code: String,
    pub net: i64,
    pub sent_on: Option<String>,
}

/// What the reconciliation of a day reads.
#[derive(Debug, Clone, Default)]
pub struct DayReport {
    pub lines: Vec<DayRow>,
    pub open: Vec<OpenRow>,
    /// (day, code, closing balance signed), for each day asked and each clearing code.
    pub closings: Vec<(String, String, i64)>,
}

impl LedgerStore {
    /// The day `[start_ms, end_ms)` of every bank ledger account, the deposits whose net on
    /// `clearing` is not zero at its end, and the closing balances of `clearing` at the end of
    /// each of `days` (`(day, its end in ms)`).
    pub async fn day_report(
        &self,
        start_ms: i64,
        end_ms: i64,
        clearing: &[String],
        days: &[(String, i64)],
    ) -> sqlx::Result<DayReport> {
        let mut tx = self.db.begin_snapshot().await?;
        let lines = lines(&mut tx, start_ms, end_ms).await?;
        let mut q = Sql::new(
            tx.dialect(),
            "SELECT t.deposit_id, a.code, CAST(SUM(e.amount) AS BIGINT) AS net, d.sent_on \
             FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
             JOIN ledger_transactions t ON t.id = e.transaction_id LEFT JOIN deposits d ON d.id = t.deposit_id \
             WHERE t.deposit_id IS NOT NULL AND e.at_ms < ? AND a.code IN (",
        )
        .arg(end_ms);
        q.bind_list(clearing.iter().map(String::as_str));
        q.push(") GROUP BY t.deposit_id, a.code, d.sent_on HAVING SUM(e.amount) <> 0 ORDER BY t.deposit_id, a.code");
        let open = tx.exec().rows(&q).await?;
        let mut closings = Vec::new();
        if !days.is_empty() {
            let mut q = Sql::new(tx.dialect(), "WITH days (d, end_ms) AS (VALUES ");
            for (i, (day, end)) in days.iter().enumerate() {
                q.push(if i == 0 { "" } else { ", " }).bind_row([day.as_str().into(), (*end).into()]);
            }
            q.push(") SELECT days.d, a.code, ");
            parts::push_running(&mut q, "a.id", Bound::Sql("l.at_ms < days.end_ms"));
            q.push(" FROM days CROSS JOIN ledger_accounts a WHERE a.code IN (");
            q.bind_list(clearing.iter().map(String::as_str)).push(") ORDER BY days.d, a.code");
            closings = tx.exec().rows(&q).await?;
        }
        tx.commit().await?;
        Ok(DayReport { lines, open, closings })
    }

    /// The balance rows of several sleeve accounts now, in one statement: `None` for an id
    /// that is not in the accounts collection.
    pub async fn sleeves(&self, ids: &[String]) -> sqlx::Result<Vec<Option<SleeveRows>>> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut q =
            Sql::new(tx.dialect(), "SELECT id, CAST(NULL AS TEXT), CAST(0 AS BIGINT) FROM accounts WHERE id IN (");
        q.bind_list(ids.iter().map(String::as_str));
        q.push(") UNION ALL SELECT owner, kind, balance FROM ledger_accounts WHERE code IN (");
        let codes = ids.iter().flat_map(|id| LedgerAccountKind::SLEEVE.map(|k| Code::sleeve(id, k).to_string()));
        q.bind_list(codes).push(")");
        let rows: Vec<(Option<String>, Option<String>, i64)> = tx.exec().rows(&q).await?;
        tx.commit().await?;
        let of = |id: &str| {
            rows.iter().any(|(o, k, _)| k.is_none() && o.as_deref() == Some(id)).then(|| {
                let mut s = SleeveRows::default();
                for (_, kind, balance) in rows.iter().filter(|(o, k, _)| k.is_some() && o.as_deref() == Some(id)) {
                    match kind.as_deref().and_then(LedgerAccountKind::parse) {
                        Some(LedgerAccountKind::Posted) => s.posted = *balance,
                        Some(LedgerAccountKind::Pending) => s.pending = *balance,
                        Some(LedgerAccountKind::Held) => s.held = *balance,
                        _ => {}
                    }
                }
                s
            })
        };
        Ok(ids.iter().map(|id| of(id)).collect())
    }
}

/// Every bank ledger account's opening and closing running balances and its day's debits and
/// credits (each account's entries reached through its (account, time) index).
async fn lines(tx: &mut Tx, start_ms: i64, end_ms: i64) -> sqlx::Result<Vec<DayRow>> {
    let side = |q: &mut Sql, cmp: &str, sign: &str| {
        q.push(format_args!(
            "COALESCE((SELECT CAST(SUM({sign}l.amount) AS BIGINT) FROM ledger_entries l WHERE l.account_id = a.id \
             AND l.at_ms >= "
        ));
        q.bind(start_ms).push(" AND l.at_ms < ").bind(end_ms).push(format_args!(" AND l.amount {cmp} 0), 0)"));
    };
    let mut q = Sql::new(tx.dialect(), "SELECT a.code, ");
    parts::push_running(&mut q, "a.id", Bound::Before(start_ms));
    q.push(" AS opening, ");
    side(&mut q, "<", "-");
    q.push(" AS debits, ");
    side(&mut q, ">", "");
    q.push(" AS credits, ");
    parts::push_running(&mut q, "a.id", Bound::Before(end_ms));
    q.push(" AS closing FROM ledger_accounts a WHERE a.owner IS NULL ORDER BY a.code");
    tx.exec().rows(&q).await
}
