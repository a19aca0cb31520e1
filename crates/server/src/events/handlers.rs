//! The events endpoints: a filtered page, one event.

use axum::extract::{Path as UrlPath, RawQuery, State};
use moneydesk_model::events::{Event, EventType};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};
use utoipa::IntoParams;

use super::store::{self, Filter};
use super::EventsState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct EventParams {
    /// Event types, comma-separated (`deposit.sent,deposit.settled`); every type the token
    /// may read when absent.
    r#type: Option<String>,
    /// From this moment (RFC 3339), inclusive.
    #[param(format = DateTime)]
    from: Option<String>,
    /// Before this moment.
    #[param(format = DateTime)]
    to: Option<String>,
    objectType: Option<String>,
    objectId: Option<String>,
}

fn moment(name: &str, v: &str) -> Result<String, Error> {
    crate::storage::time::parse(v)
        .map(crate::storage::time::millis)
        .ok_or_else(|| Error::field(name, format!("must be an RFC 3339 time, got {v:?}")))
}

#[utoipa::path(operation_id = "list_events", get, path = paths::EVENTS, tag = "events", params(PageParams, EventParams),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "Events, newest first, each with the object as the API answers it. A token reads the types whose group it may read (deposits:read for deposit, cash_letter, ach_file and return_file events; ledger:read, email:send, vault:read, routing:read for theirs; admin for token and webhook events); asking for a type it may not read is a 403. `totalElements` is exact, and a deep page costs what the first does unless a time range or an object narrows the list.",
    responses((status = 200, body = Envelope<Page<Event>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "A type the token may not read", body = ErrorEnvelopeDoc)))]
pub(super) async fn list(
    State(state): State<EventsState>,
    caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<Event>>>, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    // A parameter given empty is judged like any other value (an empty `to` is not a time).
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string());
    let types = match get("type") {
        None => EventType::ALL.iter().copied().filter(|t| caller.can(t.scope())).collect(),
        Some(list) => {
            let mut types = Vec::new();
            for t in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                let kind = EventType::parse(t).ok_or_else(|| {
                    Error::field("type", format!("unknown event type {t:?}; known: {}", EventType::known()))
                })?;
                caller.require(kind.scope())?;
                types.push(kind);
            }
            types
        }
    };
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    if types.is_empty() {
        return Ok(Json(Envelope::ok(Page::build(page, 0, Vec::new(), Sort::UNSORTED))));
    }
    let f = Filter {
        types,
        from: get("from").map(|v| moment("from", &v)).transpose()?,
        to: get("to").map(|v| moment("to", &v)).transpose()?,
        object_type: get("objectType"),
        object_id: get("objectId"),
    };
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = store::list(state.database(), &f, offset, i64::from(page.size)).await?;
    Ok(Json(Envelope::ok(Page::build(page, total as u64, rows, Sort::UNSORTED))))
}

#[utoipa::path(operation_id = "get_event", get, path = paths::EVENT, tag = "events", params(("id" = String, Path, description = "evt_…")),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, body = Envelope<Event>),
        (status = 403, description = "A type the token may not read", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such event", body = ErrorEnvelopeDoc)))]
pub(super) async fn get(
    State(state): State<EventsState>,
    caller: Caller,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Envelope<Event>>, Error> {
    let event = store::get(state.database(), &id).await?.ok_or_else(|| Error::not_found(format!("No event {id:?}")))?;
    caller.require(event.kind.scope())?;
    Ok(Json(Envelope::ok(event)))
}
