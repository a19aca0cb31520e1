//! Returned items (extension): return files read — X9.100-187 (records 31–35, `x9.rs`) and NACHA
//! (addenda 99 returns, addenda 98 notifications of change, `ach.rs`) — each item matched to its
//! deposit and the deposit returned in the transaction that records it (`process.rs`), or kept
//! unmatched for an operator to match by hand or dismiss (`act.rs`); the watched folder
//! (`folder.rs`); the tables (`store.rs`). Nothing a file holds is dropped.

use axum::extract::{FromRequest, Multipart, Path as UrlPath, RawQuery, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use moneydesk_model::ledger::{ReturnAction, ReturnFileResult, ReturnItem, ReturnItemState};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};
use utoipa::IntoParams;

use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{self, Json};
use crate::http::openapi::PageParams;

mod ach;
mod act;
pub mod folder;
mod process;
mod read;
pub mod store;
mod x9;

pub use ach::remember_traces;
pub use act::{operator_return, reason_code};
pub use process::upload;

/// The upload's file name (for the record and the list).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct UploadParams {
    /// The file's name as received (kept with it; at most 255 characters, no control
    /// characters); a multipart part's own name wins.
    #[param(max_length = 255, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$")]
    fileName: Option<String>,
}

/// Reads a return file and processes every item in it. The format is told by its first bytes:
/// X9.100-187 (a 4-byte record length and a file header `01`, ASCII or EBCDIC) or NACHA
/// (94-character lines, the first starting with `1`). Matching keys: an X9 returned item (record
/// 31) is matched by the ECE institution item sequence number our cash letter gave the check —
/// as the BOFD item sequence number of its return addendum A from us, or, without one, as the
/// return record's own sequence number — AND its amount in cents; an ACH return (addenda 99) by the trace number of the
/// original entry in the day's ACH file AND the amount. Both keys must agree. A matched deposit
/// (Sent_3 or Settled_4) is returned (Returned_5: its credit reversed, its fee kept and the
/// returned-item fee charged) in the transaction that records the item, its reason
/// `<code> <meaning> (return file N, record R)`; a deposit already returned makes the item
/// `duplicate` (nothing posted twice); a deposit that cannot be returned, or no deposit, makes it
/// `unmatched` with a note saying why. A notification of change (addenda 98) is `corrected`: the
/// deposit's payer bank details are updated per its change code, with a history entry saying what
/// changed. An item whose own records have errors is kept `unmatched`, never posted. Every
/// problem the reader reports is an error with its record (or line) and field; nothing a file
/// holds is dropped. The same file (its SHA-256) again answers its first result (200).
#[utoipa::path(post, path = paths::DEPOSIT_RETURNS, tag = "deposits", params(UploadParams),
    request_body(content = crate::http::openapi::Binary, content_type = "application/octet-stream",
        description = "The return file's bytes (`application/octet-stream` or `text/plain`, its name in `fileName`), or a multipart form with the file in the part `file`"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 201, description = "The file read: its items with their states, and its errors", body = Envelope<ReturnFileResult>),
        (status = 200, description = "The same file was read before: its first result", body = Envelope<ReturnFileResult>),
        (status = 400, description = "The file is neither X9 nor NACHA, or not readable at all; the message says why", body = ErrorEnvelopeDoc),
        (status = 413, description = "The file is larger than the body limit", body = ErrorEnvelopeDoc)))]
async fn upload_returns(State(state): State<DepositsState>, caller: Caller, req: Request) -> Result<Response, Error> {
    let query = extract::query_pairs(req.uri().query());
    let mut name = query.iter().find(|(k, _)| k == "fileName").map(|(_, v)| v.trim().to_string());
    if name.as_ref().is_some_and(|n| n.chars().count() > 255 || n.chars().any(char::is_control)) {
        return Err(Error::field("fileName", "at most 255 characters, no control characters"));
    }
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("multipart/form-data"));
    let bytes = if multipart {
        let mut form = Multipart::from_request(req, &state).await.map_err(|e| Error::bad_request(e.body_text()))?;
        let mut file = None;
        while let Some(field) = form.next_field().await.map_err(|e| Error::bad_request(e.body_text()))? {
            if field.name() == Some("file") {
                name = field.file_name().map(str::to_string).or(name);
                file = Some(field.bytes().await.map_err(|e| Error::bad_request(e.body_text()))?);
                break;
            }
        }
        file.ok_or_else(|| Error::field("file", "the form has no part named file"))?
    } else {
        extract::body(req, &state).await?
    };
    let (new, result) =
        process::upload(&state, &bytes, name.as_deref().filter(|n| !n.is_empty()), caller.token_name()).await?;
    let status = if new { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(Envelope::ok(result))).into_response())
}

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct ItemFilter {
    /// Only the items in this state.
    #[param(pattern = "^(matched|unmatched|duplicate|corrected|resolved|dismissed)$")]
    state: Option<String>,
}

/// The returned items of every file and every operator's return, newest first, paged; `state`
/// picks one state (`unmatched`: what an operator has to act on).
#[utoipa::path(get, path = paths::DEPOSIT_RETURNS, tag = "deposits", params(PageParams, ItemFilter),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "A page of returned items, newest first", body = Envelope<Page<ReturnItem>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
async fn list_returns(
    State(state): State<DepositsState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<ReturnItem>>>, Error> {
    let pairs = extract::query_pairs(q.as_deref());
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let filter = match pairs.iter().find(|(k, _)| k == "state").map(|(_, v)| v.trim()) {
        None => None,
        Some(s) => Some(ReturnItemState::parse(s).ok_or_else(|| {
            Error::field("state", format!("{s:?} is not a state; one of {}", ReturnItemState::known()))
        })?),
    };
    let returns = store::ReturnStore::new(state.deposits().database().clone());
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = returns.list(filter.map(|s| s.as_str()), offset, i64::from(page.size)).await?;
    let items = rows.iter().map(store::ItemRow::wire).collect();
    Ok(Json(Envelope::ok(Page::build(page, total as u64, items, Sort::UNSORTED))))
}

/// An operator's act on an unmatched item: `match` it to a deposit (`depositId`), which is then
/// returned as a file's match would return it (the amounts must agree; the deposit Sent_3 or
/// Settled_4), or corrected for a notification of change — the item becomes `resolved`; or
/// `dismiss` it with a `note` saying why — the item becomes `dismissed`. Only an unmatched item
/// can be acted on.
#[utoipa::path(post, path = paths::DEPOSIT_RETURN_ITEM, tag = "deposits",
    params(("id" = i64, Path, description = "The returned item's id", minimum = 1)),
    request_body(content = ReturnAction, description = "match (depositId) or dismiss (note)"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The item after the act", body = Envelope<ReturnItem>),
        (status = 400, description = "The action is neither match nor dismiss, or what it needs is missing; the message names the field", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such item or deposit", body = ErrorEnvelopeDoc),
        (status = 409, description = "The item is not unmatched, or the deposit cannot be returned (its state, its amount); the message says which", body = ErrorEnvelopeDoc)))]
async fn act_on_return(
    State(state): State<DepositsState>,
    caller: Caller,
    UrlPath(id): UrlPath<i64>,
    Json(a): Json<ReturnAction>,
) -> Result<Json<Envelope<ReturnItem>>, Error> {
    Ok(Json(Envelope::ok(act::act(&state, &caller, id, &a).await?)))
}

pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    use utoipa_axum::routes;
    utoipa_axum::router::OpenApiRouter::new()
        .routes(routes!(list_returns, upload_returns))
        .routes(routes!(act_on_return))
}
