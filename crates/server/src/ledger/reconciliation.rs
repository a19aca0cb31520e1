//! The daily reconciliation (extension): each bank ledger account's business day (opening,
//! debits, credits, closing), whether the clearing accounts closed at zero and which items keep
//! them open, their last 30 closings, and whether the books balance.

use axum::extract::{RawQuery, State};
use chrono::NaiveDate;
use moneydesk_model::ledger::{
    money_of_units, ClearingDay, Direction, LedgerAccountKind as K, OpenItem, ReconciliationLine, ReconciliationReport,
};
use moneydesk_model::{paths, Envelope};
use utoipa::IntoParams;

use super::chart::Code;
use super::store::{DayReport, LedgerStore};
use super::{Books, LedgerState};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;

/// The accounts that come back to zero once everything confirmed has been sent and settled
/// or returned.
const CLEARING: [K; 3] = [K::ClearingX9, K::ClearingAch, K::ItemsInProcess];

/// How many days the clearing history covers, up to the report's day.
const HISTORY_DAYS: i64 = 30;

/// The day to reconcile.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct DayParam {
    /// The business day (`YYYY-MM-DD`, business time zone); default today by the books' clock.
    #[param(format = Date)]
    date: Option<String>,
}

#[utoipa::path(get, path = paths::LEDGER_RECONCILIATION, tag = "ledger", params(DayParam),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The day's reconciliation: for each of the bank's ledger accounts its opening balance (the running balance of its last entry before the day), the day's debits and credits and its closing balance, on the account's normal side; `clearingClosed` when clearing_x9, clearing_ach and items_in_process all closed at zero, else the deposits keeping them open (`openItems`, with the day each was sent and the business day it settles by); the three accounts' closings over the 30 days up to the day; and whether every transaction balances and every balance row equals its entries (`booksBalanced`).",
    responses((status = 200, body = Envelope<ReconciliationReport>),
        (status = 400, description = "`date` is not a day", body = ErrorEnvelopeDoc)))]
pub(super) async fn reconciliation(
    State(state): State<LedgerState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<ReconciliationReport>>, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let date = match pairs.iter().find(|(k, _)| k == "date").map(|(_, v)| v.trim()) {
        None => state.books().today(),
        Some(v) => NaiveDate::parse_from_str(v, "%Y-%m-%d")
            .ok()
            .filter(|d| d.succ_opt().is_some() && *d > NaiveDate::MIN + chrono::Duration::days(HISTORY_DAYS))
            .ok_or_else(|| Error::field("date", format!("must be a day like 2026-11-27, got {v:?}")))?,
    };
    Ok(Json(Envelope::ok(report(state.ledger(), state.books(), date).await?)))
}

/// The reconciliation of `date` (a business-time-zone day).
pub async fn report(store: &LedgerStore, books: &Books, date: NaiveDate) -> sqlx::Result<ReconciliationReport> {
    let end_of = |d: NaiveDate| books.day_start_ms(d.succ_opt().unwrap_or(d));
    let clearing: Vec<String> = CLEARING.iter().map(|k| Code::bank(*k).to_string()).collect();
    let days: Vec<(String, i64)> = (0..HISTORY_DAYS)
        .rev()
        .map(|back| date - chrono::Duration::days(back))
        .map(|d| (d.to_string(), end_of(d)))
        .collect();
    let rows = store.day_report(books.day_start_ms(date), end_of(date), &clearing, &days).await?;
    let (mismatches, unbalanced) = store.verify().await?;
    Ok(ReconciliationReport {
        date: date.to_string(),
        lines: lines(&rows),
        clearing_closed: CLEARING.iter().all(|k| closing(&rows, *k) == 0),
        open_items: open_items(&rows, books, date),
        clearing_history: history(&rows, &days),
        books_balanced: mismatches.is_empty() && unbalanced.is_empty(),
    })
}

/// A signed balance (credit positive) on the kind's normal side.
fn normal(kind: K, signed: i64) -> i64 {
    match kind.normal() {
        Direction::Credit => signed,
        Direction::Debit => -signed,
    }
}

/// Every bank ledger account of the chart, by code; zero for one nothing has posted to yet.
fn lines(rows: &DayReport) -> Vec<ReconciliationLine> {
    let mut out: Vec<ReconciliationLine> = K::ALL
        .iter()
        .filter(|k| !k.is_sleeve())
        .map(|&kind| {
            let code = Code::bank(kind).to_string();
            let row = rows.lines.iter().find(|r| r.code == code);
            let (opening, debits, credits, closing) =
                row.map_or((0, 0, 0, 0), |r| (r.opening, r.debits, r.credits, r.closing));
            ReconciliationLine {
                code,
                kind,
                label: kind.label().to_string(),
                opening: money_of_units(normal(kind, opening)),
                debits: money_of_units(debits),
                credits: money_of_units(credits),
                closing: money_of_units(normal(kind, closing)),
            }
        })
        .collect();
    out.sort_by(|a, b| a.code.cmp(&b.code));
    out
}

fn closing(rows: &DayReport, kind: K) -> i64 {
    let code = Code::bank(kind).to_string();
    rows.lines.iter().find(|r| r.code == code).map_or(0, |r| r.closing)
}

/// The deposits whose entries leave a clearing account open at the day's end; an item sent
/// after the day shows as not sent yet.
fn open_items(rows: &DayReport, books: &Books, date: NaiveDate) -> Vec<OpenItem> {
    rows.open
        .iter()
        .map(|r| {
            let sent =
                r.sent_on.as_deref().and_then(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()).filter(|d| *d <= date);
            let kind = Code::parse(&r.code).map_or(K::ItemsInProcess, |c| c.owner_and_kind().1);
            OpenItem {
                deposit_id: r.deposit_id,
                ledger_account: r.code.clone(),
                amount: money_of_units(normal(kind, r.net)),
                sent_on: sent.map(|d| d.to_string()),
                settles_on: sent.map(|d| books.calendar.add_business_days(d, books.settlement_days).to_string()),
            }
        })
        .collect()
}

/// The clearing accounts' closings on each day of the history, oldest first.
fn history(rows: &DayReport, days: &[(String, i64)]) -> Vec<ClearingDay> {
    let at = |day: &str, kind: K| {
        let code = Code::bank(kind).to_string();
        let signed = rows.closings.iter().find(|(d, c, _)| d == day && *c == code).map_or(0, |r| r.2);
        money_of_units(normal(kind, signed))
    };
    days.iter()
        .map(|(day, _)| ClearingDay {
            date: day.clone(),
            clearing_x9: at(day, K::ClearingX9),
            clearing_ach: at(day, K::ClearingAch),
            items_in_process: at(day, K::ItemsInProcess),
        })
        .collect()
}
