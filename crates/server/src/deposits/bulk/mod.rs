//! Bulk actions on deposits (issue 45): confirm, reject (one reason for all) or cancel the
//! deposits a selection names — by ids, or by the list's filter applied here, at the time —
//! and the CSV export of such a selection.
//!
//! Each deposit moves in its own transaction, as the single action (`…/{id}/actions`) moves it,
//! with its own audit record (a recording per item: the trail writes one record per
//! recording, on its first commit), so one refusal undoes nothing of the others; the answer
//! says per deposit what happened.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use moneydesk_model::bulk::{BulkItem, BulkResult, BulkSelect, Selected, BULK_LIMIT};
use moneydesk_model::deposits::{DepositAction, DepositRecord};
use moneydesk_model::{paths, Envelope};
use serde_json::{Map, Value};

use super::store::{DepositRow, MoveError};
use super::DepositsState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::storage::trail::{self, Recording};

mod doc;
mod export;

/// The list's filter parameters a selection's `filter` may name (its paging, sort and
/// `fields` are not filters).
pub const FILTERS: &[&str] =
    &["status", "serviceType", "createdFrom", "createdTo", "payeeAccountId", "amountMin", "amountMax"];

/// The operator's moves (send and settle are the jobs', a return names its own code).
const ACTIONS: &[DepositAction] = &[DepositAction::Confirm, DepositAction::Reject, DepositAction::Cancel];

#[utoipa::path(post, path = paths::DEPOSITS_BULK, tag = "deposits",
    request_body(content = doc::DepositBulkRequest, description = "The action, a reject's reason, and the deposits: `select.ids` or `select.filter` (the list's filter parameters)"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    description = doc::BULK_DESCRIPTION,
    responses((status = 200, description = "Every selected deposit's outcome, also when some or all were refused", body = Envelope<moneydesk_model::bulk::BulkResult>),
        (status = 400, description = "The request is malformed: not exactly one of select.ids and select.filter, an empty ids list, a filter parameter the list does not have or a wrong filter value, an unknown action, a reject without a reason, a reason too long; the message names the member", body = ErrorEnvelopeDoc),
        (status = 404, description = "The filter's payeeAccountId names no account of the accounts collection (as the list answers)", body = ErrorEnvelopeDoc),
        (status = 422, description = "More than 10,000 deposits selected (reason `too_many`): nothing was done", body = ErrorEnvelopeDoc)))]
pub(super) async fn bulk_deposits(
    State(state): State<DepositsState>,
    caller: Caller,
    body: Bytes,
) -> Result<Json<Envelope<BulkResult>>, Error> {
    let mut m = crate::http::bulk::members(&body, &["action", "reason", "select"])?;
    let (action, reason) = action_and_reason(&m)?;
    let select = selection(&mut m)?;
    let ids = match select.selected().map_err(|e| Error::field("select", e.to_string()))? {
        Selected::Ids(ids) => given_ids(ids)?,
        Selected::Filter(f) => matching(&state, f).await?.iter().map(|r| r.id.to_string()).collect(),
    };
    let mut items = Vec::with_capacity(ids.len());
    for id in ids {
        items.push(match id.parse::<i64>() {
            Ok(n) if n > 0 => move_one(&state, &caller, n, action, reason.as_deref()).await,
            _ => BulkItem::refused(id.clone(), "not_found", format!("No deposit {id:?}")),
        });
    }
    Ok(Json(Envelope::ok(BulkResult::new(action.as_str(), items))))
}

#[utoipa::path(post, path = paths::DEPOSITS_EXPORT, tag = "deposits",
    request_body(content = doc::DepositExportRequest, description = "The deposits: `select.ids` or `select.filter` (the list's filter parameters)"),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    description = doc::EXPORT_DESCRIPTION,
    responses((status = 200, description = "The selected deposit records as CSV, a header line of the record's (2.5) names first", content_type = "text/csv"),
        (status = 400, description = "The selection is malformed; the message names the member", body = ErrorEnvelopeDoc),
        (status = 404, description = "The filter's payeeAccountId names no account of the accounts collection", body = ErrorEnvelopeDoc),
        (status = 422, description = "More than 10,000 deposits selected (reason `too_many`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn export_deposits(
    State(state): State<DepositsState>,
    _caller: Caller,
    body: Bytes,
) -> Result<Response, Error> {
    let mut m = crate::http::bulk::members(&body, &["select"])?;
    let select = selection(&mut m)?;
    let tz = state.config().business_time_zone;
    let records: Vec<DepositRecord> = match select.selected().map_err(|e| Error::field("select", e.to_string()))? {
        Selected::Ids(ids) => {
            let mut rows = Vec::new();
            for id in given_ids(ids)?.iter().filter_map(|id| id.parse::<i64>().ok()) {
                rows.extend(state.deposits().get(id).await?);
            }
            rows.iter().map(|r| super::record::record(r, tz)).collect()
        }
        Selected::Filter(f) => matching(&state, f).await?.iter().map(|r| super::record::record(r, tz)).collect(),
    };
    let csv = export::csv(&records)?;
    let headers = [
        (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
        (header::CONTENT_DISPOSITION, "attachment; filename=\"deposits.csv\""),
    ];
    Ok((StatusCode::OK, headers, csv).into_response())
}

/// `action` and `reason`, checked as the single action checks them.
fn action_and_reason(m: &Map<String, Value>) -> Result<(DepositAction, Option<String>), Error> {
    let known = || ACTIONS.iter().map(|a| a.as_str()).collect::<Vec<_>>().join(", ");
    let action = match m.get("action") {
        None => return Err(Error::field("action", format!("is required: one of {}", known()))),
        Some(Value::String(s)) => ACTIONS.iter().copied().find(|a| a.as_str() == s),
        Some(_) => None,
    }
    .ok_or_else(|| Error::field("action", format!("must be one of {}", known())))?;
    let reason = match m.get("reason") {
        None => None,
        // The document's rule (1 to 500 characters, not only spaces): a reason with nothing
        // to say is left out, not sent.
        Some(Value::String(s)) if s.trim().is_empty() => {
            return Err(Error::field("reason", "is empty: leave it out, or say why"));
        }
        Some(Value::String(s)) => Some(s.trim().to_string()),
        Some(_) => return Err(Error::field("reason", "must be text (left out when there is none)")),
    };
    if action.needs_reason() && reason.is_none() {
        return Err(Error::field("reason", format!("a {} needs a reason (one for all)", action.as_str())));
    }
    if reason.as_deref().is_some_and(|r| r.chars().count() > 500 || r.chars().any(char::is_control)) {
        return Err(Error::field("reason", "at most 500 characters, no control characters"));
    }
    Ok((action, reason))
}

/// `select`: exactly one of `ids` and `filter`, the filter naming the list's parameters only.
fn selection(m: &mut Map<String, Value>) -> Result<BulkSelect, Error> {
    let v = m
        .remove("select")
        .ok_or_else(|| Error::field("select", "is required: {\"ids\": [...]} or {\"filter\": {...}}"))?;
    if let Some(k) = v.as_object().and_then(|o| o.keys().find(|k| *k != "ids" && *k != "filter")) {
        return Err(Error::field(format!("select.{k}"), "is not a member of select; it takes ids or filter"));
    }
    let select: BulkSelect = serde_json::from_value(v).map_err(|e| Error::field("select", e.to_string()))?;
    if let Ok(Selected::Filter(f)) = select.selected() {
        if let Some(k) = f.keys().find(|k| !FILTERS.contains(&k.as_str())) {
            let problem = format!("is not a filter of the deposit list; its filters are {}", FILTERS.join(", "));
            return Err(Error::field(format!("select.filter.{k}"), problem));
        }
    }
    Ok(select)
}

/// The ids given, each once, in their order; more than [`BULK_LIMIT`] is a 422.
fn given_ids(ids: &[String]) -> Result<Vec<String>, Error> {
    too_many(ids.len())?;
    let mut seen = std::collections::HashSet::new();
    Ok(ids.iter().filter(|id| seen.insert(id.as_str())).cloned().collect())
}

fn too_many(matched: usize) -> Result<(), Error> {
    if matched <= BULK_LIMIT {
        return Ok(());
    }
    Err(Error::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "too_many",
        format!("The selection names {matched} deposits; a bulk action takes at most {BULK_LIMIT}: narrow it. Nothing was done."),
    ))
}

/// The deposits the list would answer for this filter now (newest first), at most
/// [`BULK_LIMIT`] of them or a 422.
async fn matching(
    state: &DepositsState,
    filter: &std::collections::BTreeMap<String, String>,
) -> Result<Vec<DepositRow>, Error> {
    let pairs: Vec<(String, String)> = filter.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let (f, _) = super::list::list_filter(state, &pairs).map_err(in_filter)?;
    super::check::known_payee_filter(state, f.payee_account_id.as_deref()).await?;
    let (total, rows) = state.deposits().list(&f, 0, BULK_LIMIT as i64).await?;
    too_many(usize::try_from(total).unwrap_or(usize::MAX))?;
    Ok(rows)
}

/// A filter's error names its member as the request writes it (`select.filter.status`).
fn in_filter(mut e: Error) -> Error {
    for f in &mut e.fields {
        f.field = format!("select.filter.{}", f.field);
    }
    if !e.fields.is_empty() {
        e.message = moneydesk_model::FieldError::join(&e.fields);
    }
    e
}

/// One deposit moved in its own transaction, on record as the single action records it.
async fn move_one(
    state: &DepositsState,
    caller: &Caller,
    id: i64,
    action: DepositAction,
    reason: Option<&str>,
) -> BulkItem {
    let work = async {
        trail::target("deposits", id);
        state.deposits().apply(id, action, caller.token_name(), reason, state.books()).await
    };
    let moved = match item_recording(id) {
        Some(recording) => recording.run(work).await,
        None => work.await,
    };
    match moved {
        Ok(_) => BulkItem::done(id.to_string()),
        Err(MoveError::NotFound(_)) => BulkItem::refused(id.to_string(), "not_found", format!("No deposit {id}")),
        Err(MoveError::Illegal(e)) => BulkItem::refused(id.to_string(), "illegal_transition", e.to_string()),
        Err(MoveError::Db(e)) => {
            tracing::error!(error = %e, deposit = id, "a bulk move failed in the database");
            BulkItem::refused(id.to_string(), "internal_error", "The database failed on this deposit; it was not moved")
        }
    }
}

/// The request's recording again, for one deposit.
fn item_recording(id: i64) -> Option<Recording> {
    let r = trail::current()?;
    Some(crate::http::bulk::item_recording(&r, Some(id.to_string())))
}
