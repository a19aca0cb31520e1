//! The ledger's endpoints: balances, entries (paged or CSV), holds, a transaction, a deposit's
//! postings, the bank's ledger accounts, and manual adjustments.

use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use moneydesk_model::ledger::{
    money_of_units, units_of_money, AdjustmentRequest, Balances, DepositPostings, Hold, LedgerAccountBalance,
    LedgerAccountKind, LedgerEntry, LedgerTransaction, PostingKind,
};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Scope, Sort};
use sha2::{Digest, Sha256};
use utoipa::IntoParams;

use super::chart::Code;
use super::store::{EntryFilter, Leg, PostError, Posting};
use super::LedgerState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;

pub(super) mod batch;
pub(super) mod view;
use view::{entry, transaction};

/// A moment to read balances at.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct AsOf {
    /// RFC 3339 (`2026-11-27T17:00:00Z`) or a day (`2026-11-27`, its end in the business time
    /// zone); default now.
    asOf: Option<String>,
}

#[utoipa::path(get, path = paths::LEDGER_BALANCES, tag = "ledger", params(("accountId" = String, Path), AsOf),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "A managed sleeve account's balances now (read from its balance rows) or as of a moment (each ledger account's running balance at its last entry by then). **posted**: settled money; the account record's `marketValue`. **pending**: posted plus credited-not-settled. **available**: pending less what the hold schedule has not released; below zero only when a returned item's funds had been released (`negativeAvailable`).",
    responses((status = 200, body = Envelope<Balances>),
        (status = 400, description = "`asOf` is not a moment", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such account", body = ErrorEnvelopeDoc)))]
pub(super) async fn balances(
    State(state): State<LedgerState>,
    _caller: Caller,
    UrlPath(account_id): UrlPath<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Balances>>, Error> {
    known_account(&state, &account_id).await?;
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let as_of = view::as_of(&state, &pairs)?;
    let rows = state.ledger().sleeve(&account_id, as_of).await?;
    let at =
        as_of.map_or_else(|| state.books().now(), |ms| chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default());
    Ok(Json(Envelope::ok(view::balances(account_id, &rows, at))))
}

/// The entries' filters.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct EntryParams {
    /// Posted on or after this day (business time zone).
    #[param(format = Date)]
    from: Option<String>,
    /// Posted on or before this day.
    #[param(format = Date)]
    to: Option<String>,
    /// A posting kind.
    #[param(
        pattern = "^(opening|deposit_confirmed|deposit_sent|deposit_settled|deposit_returned|deposit_reversed|hold_released|adjustment)$"
    )]
    kind: Option<String>,
    /// One of a sleeve account's ledger accounts: `pending`, `posted` or `held`.
    #[param(pattern = "^(pending|posted|held)$")]
    ledgerAccount: Option<String>,
    /// `csv` for every matching entry (at most 100,000) as CSV instead of a page; so does
    /// `Accept: text/csv`.
    #[param(pattern = "^(json|csv)$")]
    format: Option<String>,
}

#[utoipa::path(get, path = paths::LEDGER_ENTRIES, tag = "ledger", params(("accountId" = String, Path), PageParams, EntryParams),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "A sleeve account's entries (of its three ledger accounts, or of the one `ledgerAccount` names) in the order they were posted, newest first (the order of the running balance each carries for its ledger account); or one ledger account's entries when `accountId` is its code (`bank:clearing_x9`). `totalElements` is exact, and a deep page costs what the first does unless `from`, `to` or `kind` narrow the list.",
    responses((status = 200, body = Envelope<Page<LedgerEntry>>, description = "A page of entries (or `text/csv` with `format=csv`)"),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such account", body = ErrorEnvelopeDoc)))]
pub(super) async fn entries(
    State(state): State<LedgerState>,
    _caller: Caller,
    UrlPath(account_id): UrlPath<String>,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string());
    let codes = codes_of(&state, &account_id, get("ledgerAccount").as_deref()).await?;
    let mut f = EntryFilter { codes, ..Default::default() };
    f.from_ms = get("from").map(|d| view::day_start_ms(&state, "from", &d, 0)).transpose()?;
    f.to_ms = get("to").map(|d| view::day_start_ms(&state, "to", &d, 1)).transpose()?;
    if let Some(k) = get("kind") {
        let kind = PostingKind::parse(&k)
            .ok_or_else(|| Error::field("kind", format!("unknown kind {k:?}; known: {}", PostingKind::known())))?;
        f.posting_kind = Some(kind.as_str().to_string());
    }
    let accept_csv = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/csv"));
    match get("format").as_deref() {
        Some("csv") => return view::csv(&state, &f, &account_id).await,
        None if accept_csv => return view::csv(&state, &f, &account_id).await,
        Some("json") | None => {}
        Some(other) => return Err(Error::field("format", format!("must be json or csv, got {other:?}"))),
    }
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = state.ledger().entries(&f, offset, i64::from(page.size)).await?;
    let items = rows.iter().map(entry).collect();
    Ok(Json(Envelope::ok(Page::build(page, total as u64, items, Sort::UNSORTED))).into_response())
}

#[utoipa::path(get, path = paths::LEDGER_HOLDS, tag = "ledger", params(("accountId" = String, Path)),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "A sleeve account's holds, each tranche with its release day (Regulation CC style schedule: the bank's business days, Federal Reserve holidays skipped) and whether it is still held, released, or cancelled by a return, rejection or cancellation.",
    responses((status = 200, body = Envelope<Vec<Hold>>), (status = 404, description = "No such account", body = ErrorEnvelopeDoc)))]
pub(super) async fn holds(
    State(state): State<LedgerState>,
    _caller: Caller,
    UrlPath(account_id): UrlPath<String>,
) -> Result<Json<Envelope<Vec<Hold>>>, Error> {
    known_account(&state, &account_id).await?;
    let rows = state.ledger().holds(Some(&account_id), None).await?;
    Ok(Json(Envelope::ok(rows.iter().map(view::hold).collect())))
}

#[utoipa::path(get, path = paths::LEDGER_TRANSACTION, tag = "ledger", params(("id" = i64, Path)),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, body = Envelope<LedgerTransaction>), (status = 404, description = "No such transaction", body = ErrorEnvelopeDoc)))]
pub(super) async fn get_transaction(
    State(state): State<LedgerState>,
    _caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<Envelope<LedgerTransaction>>, Error> {
    let (head, entries) =
        state.ledger().transaction(id).await?.ok_or_else(|| Error::not_found(format!("No ledger transaction {id}")))?;
    Ok(Json(Envelope::ok(transaction(&head, &entries))))
}

#[utoipa::path(get, path = paths::DEPOSIT_POSTINGS, tag = "ledger", params(("id" = i64, Path)),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    description = "What a deposit posted to the ledger, oldest first, and its hold's tranches.",
    responses((status = 200, body = Envelope<DepositPostings>)))]
pub(super) async fn deposit_postings(
    State(state): State<LedgerState>,
    _caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<Envelope<DepositPostings>>, Error> {
    let txs = state.ledger().deposit_postings(id).await?;
    let holds = state.ledger().holds(None, Some(id)).await?;
    Ok(Json(Envelope::ok(DepositPostings {
        deposit_id: id,
        transactions: txs.iter().map(|(h, e)| transaction(h, e)).collect(),
        holds: holds.iter().map(view::hold).collect(),
    })))
}

#[utoipa::path(get, path = paths::LEDGER_ACCOUNTS, tag = "ledger",
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The bank's ledger accounts (the chart of accounts: clearing per rail, settlement, cash vault, fee income, holds, opening balances, adjustments) with their balances now, on each account's normal side.",
    responses((status = 200, body = Envelope<Vec<LedgerAccountBalance>>)))]
pub(super) async fn ledger_accounts(
    State(state): State<LedgerState>,
    _caller: Caller,
) -> Result<Json<Envelope<Vec<LedgerAccountBalance>>>, Error> {
    let rows = state.ledger().accounts(true).await?;
    let mut out: Vec<LedgerAccountBalance> = LedgerAccountKind::ALL
        .iter()
        .filter(|k| !k.is_sleeve())
        .map(|k| {
            let code = Code::bank(*k);
            let row = rows.iter().find(|r| r.0 == code.as_str());
            view::account_balance(*k, code.as_str(), row.map_or(0, |r| r.2), row.map_or(0, |r| r.3))
        })
        .collect();
    out.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(Json(Envelope::ok(out)))
}

#[utoipa::path(post, path = paths::LEDGER_ADJUSTMENTS, tag = "ledger",
    request_body(content = AdjustmentRequest, example = json!({
        "debit": "bank:fee_income", "credit": "bank:adjustments", "amount": 10.00, "reason": "Fee refunded by the branch"
    })),
    params(("Idempotency-Key" = Option<String>, Header, description = "1 to 255 visible ASCII characters: a retry with the same key and body answers the first adjustment; the same key with another body is refused (409)", min_length = 1, max_length = 255, pattern = r"^[ \t]*[!-~]([ -~]*[!-~])?[ \t]*$")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "A manual adjustment: the amount debited from one ledger account and credited to another, with the reason as its memo. Refused (409 `insufficient_available`) if it would take a sleeve account's available balance below zero.",
    responses((status = 201, body = Envelope<LedgerTransaction>, description = "Posted (200 for a repeated key)"),
        (status = 400, description = "A field is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 404, description = "A sleeve account it names is not in the accounts collection", body = ErrorEnvelopeDoc),
        (status = 409, description = "Below zero available, or the key was used for another request", body = ErrorEnvelopeDoc)))]
pub(super) async fn adjust(
    State(state): State<LedgerState>,
    caller: Caller,
    req: axum::extract::Request,
) -> Result<Response, Error> {
    caller.require(Scope::Admin)?;
    let headers = req.headers().clone();
    let body = crate::http::extract::body(req, &state).await?;
    let req: AdjustmentRequest =
        serde_json::from_slice(&body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let debit = Code::parse(req.debit.trim()).map_err(|e| Error::field("debit", e))?;
    let credit = Code::parse(req.credit.trim()).map_err(|e| Error::field("credit", e))?;
    if debit == credit {
        return Err(Error::field("credit", "must be another ledger account than debit"));
    }
    for code in [&debit, &credit] {
        if let (Some(owner), _) = code.owner_and_kind() {
            known_account(&state, owner).await?;
        }
    }
    let amount = req
        .amount
        .check_amount(2)
        .ok()
        .filter(|m| !m.decimal().is_zero() && m.decimal() < rust_decimal::Decimal::from(1_000_000_000))
        .and_then(units_of_money)
        .ok_or_else(|| {
            Error::field("amount", "must be more than zero and under 1,000,000,000.00, two decimals at most")
        })?;
    let reason = req.reason.trim();
    if reason.is_empty() || reason.chars().count() > 500 || reason.chars().any(char::is_control) {
        return Err(Error::field("reason", "1 to 500 characters, no control characters"));
    }
    let mut p = Posting::new(PostingKind::Adjustment, caller.token_name());
    p.memo = Some(reason.to_string());
    p.legs = vec![Leg::debit(debit, amount), Leg::credit(credit, amount)];
    p.guard_available = true;
    let key = crate::http::extract::idempotency_key(&headers)?.map(str::to_string);
    if let Some(k) = &key {
        p.key = Some((caller.token_id(), k.clone(), hex::encode(Sha256::digest(&body))));
        if let Some(resp) = view::repeated(&state, &p).await? {
            return Ok(resp);
        }
    }
    let posted = match state.ledger().post_adjustment(&p, state.books().now_ms(), transaction).await {
        Ok(posted) => posted.ok_or_else(|| Error::internal("an adjustment posted nothing"))?,
        Err(PostError::Insufficient { account, available }) => {
            let mut e = Error::conflict(format!(
                "the adjustment would leave account {account}'s available balance at {}",
                money_of_units(available)
            ));
            e.reason = "insufficient_available".into();
            return Err(e);
        }
        Err(PostError::Db(e)) if key.is_some() && matches!(&e, sqlx::Error::Database(d) if d.is_unique_violation()) => {
            return view::repeated(&state, &p).await?.ok_or_else(|| Error::internal(e));
        }
        Err(e) => return Err(Error::internal(e)),
    };
    Ok((axum::http::StatusCode::CREATED, Json(Envelope::ok(posted))).into_response())
}

/// 404 unless the sleeve account is in the accounts collection.
async fn known_account(state: &LedgerState, id: &str) -> Result<(), Error> {
    match state.accounts().get(id).await? {
        Some(_) => Ok(()),
        None => Err(Error::not_found(format!("No account {id:?} in the accounts collection"))),
    }
}

/// The ledger account codes `accountId` (and `ledgerAccount`) name.
async fn codes_of(state: &LedgerState, account_id: &str, one: Option<&str>) -> Result<Vec<String>, Error> {
    if account_id.starts_with("bank:") || (account_id.starts_with("sma:") && account_id.matches(':').count() >= 2) {
        let code = Code::parse(account_id).map_err(|e| Error::field("accountId", e))?;
        return Ok(vec![code.to_string()]);
    }
    known_account(state, account_id).await?;
    let kinds: Vec<LedgerAccountKind> = match one {
        None => LedgerAccountKind::SLEEVE.to_vec(),
        Some(k) => vec![LedgerAccountKind::parse(k)
            .filter(|k| k.is_sleeve())
            .ok_or_else(|| Error::field("ledgerAccount", format!("must be pending, posted or held, got {k:?}")))?],
    };
    Ok(kinds.into_iter().map(|k| Code::sleeve(account_id, k).to_string()).collect())
}
