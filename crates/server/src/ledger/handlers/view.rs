//! The ledger's rows as the API writes them, and the small readings of a request the
//! handlers share (a moment, a day, an Idempotency-Key, a repeated adjustment, CSV).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{NaiveDate, TimeZone};
use moneydesk_model::ledger::{
    money_of_units, Balances, Direction, Hold, LedgerAccountBalance, LedgerAccountKind, LedgerEntry, LedgerTransaction,
    PostingKind,
};
use moneydesk_model::Envelope;

use crate::error::Error;
use crate::http::extract::Json;
use crate::ledger::store::{EntryFilter, EntryRow, HoldRow, Posting, SleeveRows, TransactionRow};
use crate::ledger::LedgerState;

fn at_text(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A balance (signed, credit positive) on its kind's normal side.
fn normal(kind: LedgerAccountKind, signed: i64) -> i64 {
    match kind.normal() {
        Direction::Credit => signed,
        Direction::Debit => -signed,
    }
}

pub fn entry(r: &EntryRow) -> LedgerEntry {
    let kind = LedgerAccountKind::parse(&r.kind).unwrap_or(LedgerAccountKind::Adjustments);
    LedgerEntry {
        id: r.id,
        transaction_id: r.transaction_id,
        ledger_account: r.code.clone(),
        account_kind: kind,
        direction: if r.amount > 0 { Direction::Credit } else { Direction::Debit },
        amount: money_of_units(r.amount.abs()),
        balance: money_of_units(normal(kind, r.balance_after)),
        posted_at: at_text(r.at_ms),
        kind: PostingKind::parse(&r.posting_kind).unwrap_or(PostingKind::Adjustment),
        deposit_id: r.deposit_id,
        memo: r.memo.clone(),
    }
}

pub fn transaction(h: &TransactionRow, entries: &[EntryRow]) -> LedgerTransaction {
    LedgerTransaction {
        id: h.id,
        kind: PostingKind::parse(&h.kind).unwrap_or(PostingKind::Adjustment),
        posted_at: at_text(h.at_ms),
        actor: h.actor.clone(),
        memo: h.memo.clone(),
        deposit_id: h.deposit_id,
        reverses: h.reverses,
        entries: entries.iter().map(entry).collect(),
    }
}

/// A sleeve account's balances as `LEDGER_BALANCES` answers them, at `at`.
pub fn balances(account_id: String, rows: &SleeveRows, at: chrono::DateTime<chrono::Utc>) -> Balances {
    Balances {
        account_id,
        as_of: at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        currency: "USD".into(),
        posted: money_of_units(rows.posted()),
        pending: money_of_units(rows.pending()),
        available: money_of_units(rows.available()),
        held: money_of_units(rows.held()),
        negative_available: rows.available() < 0,
    }
}

pub fn hold(r: &HoldRow) -> Hold {
    let (state, tx) = match (r.released_tx, r.cancelled_tx) {
        (Some(t), _) => ("released", Some(t)),
        (None, Some(t)) => ("cancelled", Some(t)),
        (None, None) => ("held", None),
    };
    Hold {
        deposit_id: r.deposit_id,
        amount: money_of_units(r.amount),
        release_on: r.release_on.clone(),
        state: state.into(),
        transaction_id: tx,
    }
}

pub fn account_balance(kind: LedgerAccountKind, code: &str, signed: i64, entries: i64) -> LedgerAccountBalance {
    LedgerAccountBalance {
        code: code.to_string(),
        kind,
        label: kind.label().to_string(),
        balance: money_of_units(normal(kind, signed)),
        entry_count: entries,
    }
}

/// `asOf`: an RFC 3339 moment, or a day (its end in the business time zone).
pub fn as_of(state: &LedgerState, pairs: &[(String, String)]) -> Result<Option<i64>, Error> {
    let Some(v) = pairs.iter().find(|(k, _)| k == "asOf").map(|(_, v)| v.trim()) else { return Ok(None) };
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(v) {
        return Ok(Some(t.timestamp_millis()));
    }
    if NaiveDate::parse_from_str(v, "%Y-%m-%d").is_ok() {
        return Ok(Some(day_start_ms(state, "asOf", v, 1)? - 1));
    }
    Err(Error::field(
        "asOf",
        format!("must be an RFC 3339 moment (2026-11-27T17:00:00Z) or a day (2026-11-27), got {v:?}"),
    ))
}

/// The start of `day` (plus `days_after` days) in the business time zone, in milliseconds.
pub fn day_start_ms(state: &LedgerState, name: &str, day: &str, days_after: i64) -> Result<i64, Error> {
    let d = NaiveDate::parse_from_str(day.trim(), "%Y-%m-%d")
        .map_err(|_| Error::field(name, format!("must be a day like 2026-11-27, got {day:?}")))?;
    let d = d + chrono::Duration::days(days_after);
    let tz = state.config().business_time_zone;
    let start = d.and_hms_opt(0, 0, 0).expect("midnight exists");
    Ok(tz.from_local_datetime(&start).earliest().map_or(0, |t| t.timestamp_millis()))
}

/// The answer to a repeated key: the first adjustment (200), or 409 for another body.
pub async fn repeated(state: &LedgerState, p: &Posting) -> Result<Option<Response>, Error> {
    let Some((token, key, hash)) = &p.key else { return Ok(None) };
    let Some((id, first_hash)) = state.ledger().by_key(*token, key).await? else { return Ok(None) };
    if &first_hash != hash {
        let mut e = Error::conflict(format!(
            "This Idempotency-Key was used for a different request (ledger transaction {id}); use a new key for a new adjustment"
        ));
        e.reason = "idempotency_key_reused".into();
        return Err(e);
    }
    let (head, entries) =
        state.ledger().transaction(id).await?.ok_or_else(|| Error::internal("keyed, then not found"))?;
    Ok(Some((StatusCode::OK, Json(Envelope::ok(transaction(&head, &entries)))).into_response()))
}

/// Every matching entry (at most 100,000) as CSV, newest first.
pub async fn csv(state: &LedgerState, f: &EntryFilter, name: &str) -> Result<Response, Error> {
    let (_, rows) = state.ledger().entries(f, 0, 100_000).await?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "postedAt",
        "transactionId",
        "kind",
        "ledgerAccount",
        "direction",
        "amount",
        "balance",
        "depositId",
        "memo",
    ]);
    for r in &rows {
        let e = entry(r);
        let _ = w.write_record([
            e.posted_at,
            e.transaction_id.to_string(),
            e.kind.as_str().to_string(),
            e.ledger_account,
            e.direction.as_str().to_string(),
            e.amount.to_string(),
            e.balance.to_string(),
            e.deposit_id.map(|d| d.to_string()).unwrap_or_default(),
            e.memo.unwrap_or_default(),
        ]);
    }
    let body = w.into_inner().map_err(|e| Error::internal(e.to_string()))?;
    let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"ledger-{file}.csv\"")),
        ],
        body,
    )
        .into_response())
}
