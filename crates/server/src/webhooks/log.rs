//! An endpoint's traffic: a test event, the delivery log, replays, the last 7 days.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use moneydesk_model::webhooks::{WebhookAttempt, WebhookDayStats, WebhookReplay, WebhookReplayed, WebhookStats};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};

use super::handlers::found;
use super::store::{AttemptRow, ReplayOf};
use super::WebhooksState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::http::openapi::PageParams;
use crate::storage::time::millis;

#[utoipa::path(post, path = paths::WEBHOOK_ENDPOINT_TEST, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Sends the endpoint a `webhook.test` event (its `data` is the endpoint), signed and delivered like any other (to this endpoint only); answers the event's id at once, the delivery follows (see the delivery log).",
    responses((status = 202, description = "Queued; `data` is the event id", body = Envelope<String>),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn send_test(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Envelope<String>>), Error> {
    let endpoint = found(&state, &id).await?.answer();
    let event = state.webhooks().test_event(&endpoint).await?;
    Ok((StatusCode::ACCEPTED, Json(Envelope::with_code(202, event))))
}

fn attempt(r: AttemptRow) -> WebhookAttempt {
    WebhookAttempt {
        delivery_id: r.delivery_id,
        event_id: r.event_id,
        event_type: r.event_type,
        attempt: r.number.max(0) as u32,
        status: r.outcome,
        response_code: r.status.and_then(|s| u16::try_from(s).ok()),
        latency_ms: r.duration_ms.map(|d| d.max(0) as u64),
        response: r.response,
        result: r.result,
        at: r.started_at,
    }
}

#[utoipa::path(get, path = paths::WEBHOOK_ENDPOINT_DELIVERIES, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id"), PageParams),
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "The endpoint's delivery log, newest attempt first: per attempt the event (id, type), the attempt's number, its status (`delivering`, `delivered`, `retrying`, `failed`), the receiver's response code and first 4 KB of its answer, the latency and the time.",
    responses((status = 200, description = "A page of attempts", body = Envelope<Page<WebhookAttempt>>),
        (status = 400, description = "A paging parameter is wrong", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn deliveries(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<WebhookAttempt>>>, Error> {
    found(&state, &id).await?;
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = state.webhooks().attempts(&id, offset, i64::from(page.size)).await?;
    let items = rows.into_iter().map(attempt).collect();
    Ok(Json(Envelope::ok(Page::build(page, total.max(0) as u64, items, Sort::SORTED))))
}

/// A replay bound: RFC 3339, or a date (its first or last millisecond, UTC).
fn bound(field: &str, given: &str, end: bool) -> Result<String, Error> {
    let given = given.trim();
    if let Ok(d) = NaiveDate::parse_from_str(given, "%Y-%m-%d") {
        let start = d.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
        return Ok(millis(if end { start + Duration::days(1) - Duration::milliseconds(1) } else { start }));
    }
    DateTime::parse_from_rfc3339(given)
        .map(|t| millis(t.with_timezone(&Utc)))
        .map_err(|_| Error::field(field, format!("must be RFC 3339 (2026-11-28T21:00:00Z) or a date, got {given:?}")))
}

#[utoipa::path(post, path = paths::WEBHOOK_ENDPOINT_REPLAY, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    request_body = WebhookReplay,
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Delivers again one event (`eventId`, whatever its type) or every event created in a time range (`from`, `to`, inclusive; of the types the endpoint takes), in their order, as new deliveries with the same event ids (receivers that drop repeats by `Moneydesk-Webhook-Id` drop them).",
    responses((status = 202, description = "Queued", body = Envelope<WebhookReplayed>),
        (status = 400, description = "Neither `eventId` nor both `from` and `to`; a bad time", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such endpoint, or no such event", body = ErrorEnvelopeDoc)))]
pub(super) async fn replay(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
    Json(r): Json<serde_json::Map<String, serde_json::Value>>,
) -> Result<(StatusCode, Json<Envelope<WebhookReplayed>>), Error> {
    let r: WebhookReplay = super::handlers::object(r, "a replay")?;
    let endpoint = found(&state, &id).await?;
    let of = match (r.event_id, r.from, r.to) {
        (Some(e), None, None) => ReplayOf::Event(e.trim().to_string()),
        (None, Some(from), Some(to)) => ReplayOf::Range(bound("from", &from, false)?, bound("to", &to, true)?),
        _ => return Err(Error::bad_request("Give either eventId, or both from and to")),
    };
    let queued = state.webhooks().replay(&endpoint, &of, state.config().webhooks.retry_for).await?;
    if let (ReplayOf::Event(e), 0) = (&of, queued) {
        return Err(Error::not_found(format!("No event {e}")));
    }
    Ok((StatusCode::ACCEPTED, Json(Envelope::with_code(202, WebhookReplayed { queued }))))
}

/// The `q`-th percentile (nearest rank) of sorted `v`.
fn percentile(v: &[u64], q: f64) -> Option<u64> {
    if v.is_empty() {
        return None;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    Some(v[rank - 1])
}

#[utoipa::path(get, path = paths::WEBHOOK_ENDPOINT_STATS, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "The endpoint's last 7 days (UTC, oldest first, today last): per day the attempts delivered and failed, and the 50th and 95th percentile latency of those answered.",
    responses((status = 200, description = "The days", body = Envelope<WebhookStats>),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn stats(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<WebhookStats>>, Error> {
    found(&state, &id).await?;
    let today = Utc::now().date_naive();
    let first = today - Duration::days(6);
    let since = millis(first.and_hms_opt(0, 0, 0).expect("midnight").and_utc());
    let rows = state.webhooks().finished_since(&id, &since).await?;
    let days = (0..7)
        .map(|i| {
            let day = (first + Duration::days(i)).format("%Y-%m-%d").to_string();
            let of_day: Vec<_> = rows.iter().filter(|(at, _, _)| at.starts_with(&day)).collect();
            let mut ms: Vec<u64> = of_day.iter().filter_map(|(_, _, d)| d.map(|d| d.max(0) as u64)).collect();
            ms.sort_unstable();
            let delivered = of_day.iter().filter(|(_, o, _)| o == "delivered").count() as u64;
            WebhookDayStats {
                day,
                delivered,
                failed: of_day.len() as u64 - delivered,
                p50_ms: percentile(&ms, 0.5),
                p95_ms: percentile(&ms, 0.95),
            }
        })
        .collect();
    Ok(Json(Envelope::ok(WebhookStats { endpoint_id: id, days })))
}
