//! The day's NACHA file of electronic deposits: read (`deposits:read`) and sent (`admin`).

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use moneydesk_model::paths;
use utoipa::IntoParams;

use super::{electronic, pairs, DepositsState};
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct AchFileQuery {
    /// The pulls effective on this day (`YYYY-MM-DD`).
    #[param(value_type = String, format = Date)]
    effectiveDate: String,
}

/// The NACHA file of the electronic deposits effective on a day (in progress, confirmed or
/// sent): CCD batches by entry description, debits 27 (checking) or 37 (savings), blocked to
/// tens, lines ending in LF.
#[utoipa::path(get, path = paths::DEPOSITS_ACH_FILE, tag = "deposits", params(AchFileQuery),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The NACHA file", content_type = "text/plain"),
        (status = 400, description = "effectiveDate is missing or not a date", body = ErrorEnvelopeDoc),
        (status = 404, description = "No electronic deposit is effective that day", body = ErrorEnvelopeDoc)))]
pub(super) async fn day_ach_file(
    State(state): State<DepositsState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    let day = effective_date(&q)?;
    let text = electronic::ach_file(&state, &day).await?;
    Ok(nacha_file(text, &format!("ach-{day}.txt")))
}

/// Sends the day's ACH file: the confirmed electronic deposits effective that day move to
/// Sent_3 together (the ledger posts each to ACH clearing; it settles when the settlement days
/// pass without a return), and the answer is the file of exactly those pulls.
#[utoipa::path(post, path = paths::DEPOSITS_ACH_FILE_SEND, tag = "deposits", params(AchFileQuery),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The NACHA file of the pulls sent", content_type = "text/plain"),
        (status = 400, description = "effectiveDate is missing or not a date", body = ErrorEnvelopeDoc),
        (status = 404, description = "No confirmed electronic deposit is effective that day", body = ErrorEnvelopeDoc),
        (status = 409, description = "Another request sent some of them meanwhile", body = ErrorEnvelopeDoc)))]
pub(super) async fn send_day_ach_file(
    State(state): State<DepositsState>,
    caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    caller.require(moneydesk_model::Scope::Admin)?;
    let day = effective_date(&q)?;
    let text = electronic::send_day(&state, &day, caller.token_name()).await?;
    Ok(nacha_file(text, &format!("ach-{day}-sent.txt")))
}

/// The query's `effectiveDate`, required.
fn effective_date(q: &Option<String>) -> Result<String, Error> {
    pairs(q)
        .into_iter()
        .find(|(k, _)| k == "effectiveDate")
        .map(|(_, v)| v.trim().to_string())
        .ok_or_else(|| Error::field("effectiveDate", "effectiveDate is required, like 2026-11-27"))
}

/// A NACHA file as a download named `name`.
fn nacha_file(text: String, name: &str) -> Response {
    let mut r = text.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=us-ascii"));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    r
}
