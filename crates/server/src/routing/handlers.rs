//! Routing directory endpoints: the two exact lookups of the description (2.2, 2.3; CONTRACT
//! point 9) and the extensions the portal needs — directory status, refresh (admin) and
//! search. Lookups answer the bare record; extensions answer the envelope.

use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use moneydesk_model::routing::{
    AchParticipant, DirectoryStatus, RoutingSearchHit, WireParticipant, ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH,
    ROUTING_SEARCH,
};
use moneydesk_model::{paths, Envelope, Page, RoutingNumber};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::directory::SearchQuery;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::AppState;

crate::group_state! {
    /// What the routing handlers reach: the directory.
    pub struct RoutingState {
        routing: crate::routing::directory::State = routing,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(wire_validate))
        .routes(routes!(ach_validate))
        .routes(routes!(directory_status))
        .routes(routes!(directory_refresh))
        .routes(routes!(search))
}

fn query_pairs(q: &Option<String>) -> Vec<(String, String)> {
    url::form_urlencoded::parse(q.as_deref().unwrap_or("").as_bytes()).into_owned().collect()
}

/// The `routingNumber` parameter, checked: 400 naming the length, a non-digit or the checksum.
/// (Read from the request in place: the lookups take the `Request` rather than a copied `Uri`.)
fn routing_number(req: &Request) -> Result<RoutingNumber, Error> {
    let pairs = crate::http::query::pairs(req.uri().query().unwrap_or(""));
    let mut values = pairs.filter(|(k, _)| k == "routingNumber").map(|(_, v)| v);
    let Some(v) = values.next() else { return Err(Error::field("routingNumber", "is required (nine digits)")) };
    if values.next().is_some() {
        return Err(Error::field("routingNumber", "give one routing number"));
    }
    RoutingNumber::parse(&v).map_err(|e| Error::field("routingNumber", e.to_string()))
}

/// A record's JSON answer, rendered once per directory and shared (no copy per request).
fn bare(json: Bytes) -> Response {
    let mut resp = Response::new(Body::from(json));
    resp.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct RoutingNumberParam {
    /// Nine digits whose ABA checksum (weights 3, 7, 1) holds; `000000000` is invalid.
    #[param(
        rename = "routingNumber",
        example = "011000015",
        pattern = "^(?!000000000)[0-9]{9}$",
        min_length = 9,
        max_length = 9
    )]
    routing_number: String,
}

/// Fedwire Funds participant for a routing number (description 2.2). A number that is not
/// nine digits or fails the checksum is a 400 saying which; a valid number the directory does
/// not hold is a 404.
#[utoipa::path(get, path = paths::ROUTING_WIRE_VALIDATE, tag = "routing", params(RoutingNumberParam),
    security(("bearer" = ["routing:read"])),
    responses((status = 200, description = "The Fedwire participant, as the directory has it", body = WireParticipant),
        (status = 404, description = "Not in the Fedwire directory", body = ErrorEnvelopeDoc)))]
async fn wire_validate(State(s): State<RoutingState>, _caller: Caller, req: Request) -> Result<Response, Error> {
    let rn = routing_number(&req)?;
    let dir = s.routing().view();
    match dir.wire_json(&rn) {
        Some(json) => Ok(bare(json)),
        None => Err(Error::not_found(format!("routing number {rn} is not in the Fedwire directory"))),
    }
}

/// FedACH participant for a routing number (description 2.3). `recordTypeCode` 0 is a Federal
/// Reserve Bank; 2 means send to `newRoutingNumber`. 400 / 404 as for the wire lookup.
#[utoipa::path(get, path = paths::ROUTING_ACH_VALIDATE, tag = "routing", params(RoutingNumberParam),
    security(("bearer" = ["routing:read"])),
    responses((status = 200, description = "The FedACH participant, as the directory has it", body = AchParticipant),
        (status = 404, description = "Not in the FedACH directory", body = ErrorEnvelopeDoc)))]
async fn ach_validate(State(s): State<RoutingState>, _caller: Caller, req: Request) -> Result<Response, Error> {
    let rn = routing_number(&req)?;
    let dir = s.routing().view();
    match dir.ach_json(&rn) {
        Some(json) => Ok(bare(json)),
        None => Err(Error::not_found(format!("routing number {rn} is not in the FedACH directory"))),
    }
}

/// Extension: the directory in service — where it came from, its as-of date (the newest
/// change date in either directory; the newest file modification time when no record carries
/// a date), when it was loaded, record counts, and `stale` when the last successful refresh is
/// older than 48 hours.
#[utoipa::path(get, path = ROUTING_DIRECTORY, tag = "routing",
    security(("bearer" = ["routing:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The directory's status", body = Envelope<DirectoryStatus>)))]
async fn directory_status(State(s): State<RoutingState>, _caller: Caller) -> Json<Envelope<DirectoryStatus>> {
    Json(Envelope::ok(s.routing().status()))
}

/// Extension (admin): reloads the configured directory files now, building the new index off
/// to the side and swapping it in atomically. A malformed file is a 422 naming the file, the
/// line and the problem; the previous directory stays in service.
#[utoipa::path(post, path = ROUTING_DIRECTORY_REFRESH, tag = "routing",
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "Reloaded; the new status", body = Envelope<DirectoryStatus>),
        (status = 422, description = "A file could not be loaded; the previous directory stays in service", body = ErrorEnvelopeDoc)))]
async fn directory_refresh(
    State(s): State<RoutingState>,
    _caller: Caller,
) -> Result<Json<Envelope<DirectoryStatus>>, Error> {
    match s.routing().refresh().await {
        Ok(status) => Ok(Json(Envelope::ok(status))),
        // The files loaded, but the refresh could not be recorded.
        Err(e) if e.directory == "routing" => Err(Error::internal(e)),
        Err(e) => Err(Error::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "directory_invalid",
            format!("{e}; the previous directory stays in service"),
        )),
    }
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct SearchParams {
    /// Institution name; typo-tolerant and ranked. Case and punctuation do not matter,
    /// "N.A." = "NA", "&" = "AND", OF/THE/AND are optional, the last word may be a prefix.
    /// At most 100 characters and 10 words.
    #[param(max_length = 100)]
    name: Option<String>,
    /// 2 to 8 digits: routing numbers that start with them (a true prefix).
    #[param(pattern = "^$|^[0-9]{2,8}$")]
    prefix: Option<String>,
    /// Two-letter state code (any case).
    #[param(pattern = "^$|^[A-Za-z]{2}$")]
    state: Option<String>,
    /// Whole city name (case and punctuation do not matter).
    city: Option<String>,
    /// 1 to 5 digits (the start of the ZIP code) or ZIP+4 `12345-6789`; ACH records only, so
    /// not with `directory=wire`.
    #[param(pattern = "^$|^[0-9]{1,5}$|^[0-9]{5}-[0-9]{4}$")]
    zip: Option<String>,
    /// `both` (default, also `all` or empty), `ach` or `wire`, in any case: which directory's
    /// records are searched.
    #[param(pattern = "^$|^([Bb][Oo][Tt][Hh]|[Aa][Ll][Ll]|[Aa][Cc][Hh]|[Ww][Ii][Rr][Ee])$")]
    directory: Option<String>,
}

/// Extension: search the directory by name, routing-number prefix, state, city and zip, in any
/// combination (at least one). One result per routing number with its ACH and wire records;
/// ordered by name score (best first) when a name is given, else by routing number.
#[utoipa::path(get, path = ROUTING_SEARCH, tag = "routing", params(SearchParams, PageParams),
    security(("bearer" = ["routing:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "A page of matching institutions", body = Envelope<Page<RoutingSearchHit>>)))]
async fn search(
    State(s): State<RoutingState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<RoutingSearchHit>>>, Error> {
    let (query, page) = SearchQuery::from_pairs(&query_pairs(&q)).map_err(Error::fields)?;
    let dir = s.routing().current();
    // Name search walks the whole vocabulary: keep it off the async threads' fast path.
    let page = tokio::task::spawn_blocking(move || super::directory::search(&dir, &query, page))
        .await
        .map_err(Error::internal)?;
    Ok(Json(Envelope::ok(page)))
}
