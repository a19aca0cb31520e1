//! What the bounces are read through (`email:send`, as the outbox): the bounces and
//! complaints, the reports as received (the unparseable ones for a person to read), and the
//! deliverability figures per sending domain over a window.

use axum::extract::{RawQuery, State};
use chrono::{Duration, NaiveDate, Utc};
use moneydesk_model::email::bounces::{Bounce, BounceKind, BounceReport, BounceReportState, Deliverability};
use moneydesk_model::email::EmailAddress;
use moneydesk_model::{paths, Envelope};

use super::store::BounceFilter;
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{query_pairs, Json};

/// The most rows a list answers, and the latest bounces the figures carry.
const MAX_LIMIT: i64 = 200;
const LATEST: i64 = 50;
/// The default window (days, today included) and the longest one asked for.
const DEFAULT_DAYS: i64 = 30;
const MAX_DAYS: i64 = 366;

fn limit(v: &str) -> Result<i64, Error> {
    v.parse()
        .ok()
        .filter(|n| (1..=MAX_LIMIT).contains(n))
        .ok_or_else(|| Error::field("limit", format!("must be 1 to {MAX_LIMIT}; got {v:?}")))
}

fn day(param: &str, v: &str) -> Result<NaiveDate, Error> {
    NaiveDate::parse_from_str(v.trim(), "%Y-%m-%d")
        .map_err(|_| Error::field(param, format!("{v:?} is not a day (YYYY-MM-DD)")))
}

#[utoipa::path(operation_id = "list_email_bounces", get, path = paths::EMAIL_BOUNCES, tag = "email",
    params(("domain" = Option<String>, Query, description = "Only one sending domain's (empty: every domain's)"),
        ("kind" = Option<Vec<BounceKind>>, Query, description = "Only these kinds (repeat the parameter)", explode = true),
        ("messageId" = Option<String>, Query, description = "Only one message's (`msg_…`)", max_length = 100),
        ("limit" = Option<i64>, Query, description = "At most this many (1 to 200, default 50)", minimum = 1, maximum = 200)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Bounces and complaints, newest first: each recipient a report named, the message it answers, whether it suppressed the address.",
    responses((status = 200, description = "The bounces", body = Envelope<Vec<Bounce>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
pub(super) async fn bounces(
    State(state): State<EmailState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<Bounce>>>, Error> {
    let (mut f, mut n) = (BounceFilter::default(), LATEST);
    for (k, v) in query_pairs(q.as_deref()) {
        match k.as_str() {
            // Empty: no filter (a form's blank field).
            "domain" | "messageId" if v.trim().is_empty() => {}
            "domain" => {
                f.domain = Some(
                    EmailAddress::domain_name(&v)
                        .ok_or_else(|| Error::field("domain", format!("{v:?} is not a domain name")))?,
                )
            }
            "kind" => f.kinds.push(v.parse().map_err(|e: moneydesk_model::email::bounces::UnknownBounceKind| {
                Error::field("kind", e.to_string())
            })?),
            "messageId" if v.len() > 100 => return Err(Error::field("messageId", "is longer than 100 characters")),
            "messageId" => f.message_id = Some(v),
            "limit" => n = limit(&v)?,
            _ => {}
        }
    }
    Ok(Json(Envelope::ok(state.email().bounces(&f, n).await?)))
}

#[utoipa::path(operation_id = "list_email_bounce_reports", get, path = paths::EMAIL_BOUNCE_REPORTS, tag = "email",
    params(("state" = Option<BounceReportState>, Query, description = "Only reports in this state (`unparseable`: the ones to read by hand)"),
        ("limit" = Option<i64>, Query, description = "At most this many (1 to 200, default 50)", minimum = 1, maximum = 200)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The reports received at the return-path addresses or posted, newest first, each with what came of it and its bounces. An `unparseable` one says why in `problem`; its bytes are kept.",
    responses((status = 200, description = "The reports", body = Envelope<Vec<BounceReport>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
pub(super) async fn reports(
    State(state): State<EmailState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<BounceReport>>>, Error> {
    let (mut st, mut n) = (None, LATEST);
    for (k, v) in query_pairs(q.as_deref()) {
        match k.as_str() {
            "state" => {
                st = Some(BounceReportState::parse(&v).ok_or_else(|| {
                    Error::field("state", format!("unknown state {v:?}; the states are {}", BounceReportState::known()))
                })?)
            }
            "limit" => n = limit(&v)?,
            _ => {}
        }
    }
    Ok(Json(Envelope::ok(state.email().bounce_reports(st, n).await?)))
}

#[utoipa::path(operation_id = "get_email_deliverability", get, path = paths::EMAIL_DELIVERABILITY, tag = "email",
    params(("from" = Option<String>, Query, description = "The window's first day (`YYYY-MM-DD`, UTC); default 29 days before `to`; at most 365 days before `to` (an earlier one is cut there, as the answer's `from` says)", format = Date),
        ("to" = Option<String>, Query, description = "The window's last day (`YYYY-MM-DD`, UTC, included); default today", format = Date)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Per sending domain (the From address's) over the window (default the last 30 days, at most 366, a longer one cut to its last 366): messages accepted (`sent`) and delivered to the relay in it, and the hard bounces, soft bounces and complaints received in it. Rates are decimal strings of the delivered messages, 4 decimals (`bounceRate` hard bounces only). `flags` names the thresholds the field holds bulk senders to: `bounce_rate_high` over 2 %, `complaint_rate_warning` over 0.1 % and `complaint_rate_high` over 0.3 % (Google's and Yahoo's bulk-sender rules). With the latest 50 bounces and complaints, and how many reports could not be read.",
    responses((status = 200, description = "The figures", body = Envelope<Deliverability>),
        (status = 400, description = "A day is wrong, or `from` is after `to`", body = ErrorEnvelopeDoc)))]
pub(super) async fn deliverability(
    State(state): State<EmailState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Deliverability>>, Error> {
    let (mut from, mut to) = (None, None);
    for (k, v) in query_pairs(q.as_deref()) {
        match k.as_str() {
            "from" => from = Some(day("from", &v)?),
            "to" => to = Some(day("to", &v)?),
            _ => {}
        }
    }
    let to = to.unwrap_or_else(|| Utc::now().date_naive());
    let from = from.unwrap_or(to - Duration::days(DEFAULT_DAYS - 1));
    if from > to {
        return Err(Error::field("from", "is after to"));
    }
    // A longer window is cut to its last 366 days; the answer's `from` says where it began.
    let from = from.max(to - Duration::days(MAX_DAYS - 1));
    let (first, last) = (format!("{from}T00:00:00.000Z"), format!("{to}T23:59:59.999Z"));
    let (domains, unparseable_reports) = state.email().deliverability(&first, &last).await?;
    let window = BounceFilter { from: Some(first), to: Some(last), ..BounceFilter::default() };
    let latest = state.email().bounces(&window, LATEST).await?;
    Ok(Json(Envelope::ok(Deliverability {
        from: from.to_string(),
        to: to.to_string(),
        domains,
        latest,
        unparseable_reports,
    })))
}
