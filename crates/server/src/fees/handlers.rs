//! The fee endpoints: the two quotes of the description (4.1) and the schedule versions
//! extension. Every answer under the fee prefix is the fee group's own shape: success
//! `{"status":"success","data":[...]}`, errors `{"status":"error","error_code":"N",...}`.

use axum::body::Bytes;
use axum::body::HttpBody as _;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use moneydesk_model::fees::{
    message_of, Basis, FeeAnswer, FeeParties, FeeRequest, FeeRequestFields, Rail, ScheduleVersion,
};
use moneydesk_model::{FeeSuccess, Scope};

use std::sync::Arc;

use super::versions::{now_rfc3339, parse_schedule_text, Format, Version};
use crate::auth::Caller;
use crate::error::{Error, FeeError};
use crate::fees::FeesState;
use crate::rate_limit::{header_seconds, Decision};

/// A quote (with an amount) or the transfer type's schedule (without), for one rail.
pub async fn fees(state: FeesState, caller: Caller, rail: Rail, req: Request) -> Response {
    let decision = state.fees().limiter.check(caller.token_id());
    let mut response = if decision.allowed {
        answer(&state, rail, req).await.unwrap_or_else(|e| FeeError(e).into_response())
    } else {
        let q = state.config().fees_rate;
        let wait = header_seconds(decision.retry_after);
        let e = Error::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!(
                "Too many fee requests: {} at once and {} a second are allowed; retry after {wait} s",
                q.burst, q.per_second
            ),
        );
        let mut r = FeeError(e).into_response();
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
        r
    };
    rate_limit_headers(response.headers_mut(), &decision);
    response
}

async fn answer(state: &FeesState, rail: Rail, req: Request) -> Result<Response, Error> {
    // A request that says it has no body (a GET without Content-Length, the usual quote) is
    // read from its query in place; one that may have a body has it read first. The payer,
    // payee and payee's bank may change the price (a waiver, a payer's schedule); the memo
    // is checked and prices nothing.
    let (transfer_type, amount, parties) = if req.body().is_end_stream() {
        let r = fee_request(rail, req.uri().query(), b"")?;
        (r.transfer_type, r.amount, Parties::of(&r))
    } else {
        let query = req.uri().query().map(str::to_string);
        let body = read_body(state, req).await?;
        let r = fee_request(rail, query.as_deref(), &body)?;
        (r.transfer_type, r.amount, Parties::of(&r))
    };
    let now = Utc::now();
    state.fees().versions.recheck(&state.fees().store, now).await;
    let version = state.fees().versions.in_force(now).ok_or_else(|| {
        Error::not_found("No fee schedule is in force yet; load one (moneydesk-server fees load FILE)")
    })?;
    let parties = parties.as_ref().map(Parties::borrowed).unwrap_or_default();
    let schedule = &version.schedule;
    if let Basis::Schedule = schedule.basis(&parties, transfer_type) {
        return Ok(match amount {
            Some(amount) => super::answer::quote(schedule, &version.pieces, transfer_type, amount),
            None => axum::Json(FeeSuccess::new(schedule.entries(transfer_type))).into_response(),
        });
    }
    // A waiver or a payer's schedule: the rare answer, written by serde with its `pricing`.
    let (data, pricing) = match amount {
        Some(amount) => schedule.quote_for(&parties, transfer_type, amount),
        None => schedule.entries_for(&parties, transfer_type),
    };
    Ok(axum::Json(FeeAnswer { status: "success".into(), data, pricing }).into_response())
}

/// The request's ids, owned past the request (`None` when it names none: the usual quote).
struct Parties {
    payer_id: Option<String>,
    payee_id: Option<String>,
    payee_bank_id: Option<String>,
}

impl Parties {
    fn of(r: &FeeRequest<'_>) -> Option<Parties> {
        let p = r.parties();
        let owned = |id: Option<&str>| id.map(str::to_string);
        (p != FeeParties::default()).then(|| Parties {
            payer_id: owned(p.payer_id),
            payee_id: owned(p.payee_id),
            payee_bank_id: owned(p.payee_bank_id),
        })
    }

    fn borrowed(&self) -> FeeParties<'_> {
        FeeParties {
            payer_id: self.payer_id.as_deref(),
            payee_id: self.payee_id.as_deref(),
            payee_bank_id: self.payee_bank_id.as_deref(),
        }
    }
}

/// The fields from the JSON body when one is sent, from the query otherwise (CONTRACT.md 5);
/// a request with both is refused rather than one silently ignored.
fn fee_request<'a>(rail: Rail, query: Option<&'a str>, body: &'a [u8]) -> Result<FeeRequest<'a>, Error> {
    let query = query.filter(|q| !q.is_empty());
    let has_body = !body.iter().all(u8::is_ascii_whitespace);
    let fields = match (has_body, query) {
        (true, Some(_)) => {
            return Err(Error::bad_request(
                "Send the fee request's fields either as a JSON body or as query parameters, not both",
            ))
        }
        (true, None) => serde_json::from_slice::<FeeRequestFields>(body)
            .map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?,
        (false, q) => {
            // Borrowed from the query unless a value is percent-encoded (no copy per field).
            let pairs = crate::http::query::pairs(q.unwrap_or(""));
            FeeRequestFields::from_pairs(pairs).map_err(|e| Error::fields(vec![e]))?
        }
    };
    fields.check(rail).map_err(|errors| {
        let mut e = Error::fields(errors);
        e.message = message_of(&e.fields);
        e
    })
}

/// The body, within the app's body limit (the guard sets it on requests that have one).
async fn read_body(state: &FeesState, req: Request) -> Result<Bytes, Error> {
    crate::http::extract::body(req, state).await
}

fn rate_limit_headers(h: &mut HeaderMap, d: &Decision) {
    const LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
    const REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
    const RESET: HeaderName = HeaderName::from_static("ratelimit-reset");
    h.reserve(3);
    h.insert(LIMIT, count(u64::from(d.limit)));
    h.insert(REMAINING, count(u64::from(d.remaining)));
    h.insert(RESET, count(header_seconds(d.reset)));
}

/// A count as a header value. Counts below 1,024 (every one with the default quota) come from
/// a table of static texts: formatting three numbers into three allocated values was a tenth of
/// the quote handler's time (perf, benches/http_stack.rs `STACK_PROFILE=quote`).
fn count(n: u64) -> HeaderValue {
    static SMALL: std::sync::LazyLock<Vec<&'static str>> =
        std::sync::LazyLock::new(|| (0..1024u32).map(|i| &*Box::leak(i.to_string().into_boxed_str())).collect());
    match SMALL.get(n as usize) {
        Some(text) => HeaderValue::from_static(text),
        None => HeaderValue::from(n),
    }
}

/// The version in force and every later one.
pub async fn list_versions(State(state): State<FeesState>, _caller: Caller) -> Response {
    let now = Utc::now();
    state.fees().versions.recheck(&state.fees().store, now).await;
    let in_force = state.fees().versions.in_force(now).map(|v| v.id);
    let data: Vec<ScheduleVersion> =
        state.fees().versions.current_and_future(now).into_iter().map(|v| listed(v, in_force)).collect();
    axum::Json(FeeSuccess::new(data)).into_response()
}

/// Loads a schedule version: JSON (`application/json`) or TOML (`application/toml`), all or
/// nothing. Its `effective_from` must not be in the past (quotes already made stay as they
/// were); a version with the same `effective_from` still in the future is replaced.
pub async fn load_version(State(state): State<FeesState>, caller: Caller, req: Request) -> Response {
    let headers = req.headers().clone();
    let body = match read_body(&state, req).await {
        Ok(b) => b,
        Err(e) => return FeeError(e).into_response(),
    };
    match load(&state, &caller, &headers, &body).await {
        Ok(v) => (StatusCode::CREATED, axum::Json(FeeSuccess::new(vec![v]))).into_response(),
        Err(e) => FeeError(e).into_response(),
    }
}

async fn load(state: &FeesState, caller: &Caller, headers: &HeaderMap, body: &[u8]) -> Result<ScheduleVersion, Error> {
    caller.require(Scope::Admin)?;
    let media = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let format = match media.split(';').next().unwrap_or("").trim() {
        "application/json" => Format::Json,
        "application/toml" => Format::Toml,
        other => {
            return Err(Error::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "validation",
                format!("Send the schedule file as application/json or application/toml, not {other:?}"),
            ))
        }
    };
    let text = std::str::from_utf8(body).map_err(|_| Error::bad_request("The schedule file is not UTF-8 text"))?;
    let schedule = parse_schedule_text(text, format).map_err(Error::bad_request)?;
    let now = now_rfc3339(Utc::now());
    if schedule.effective_from < now {
        return Err(Error::bad_request(format!(
            "effective_from {} is in the past (now {now}); a schedule cannot change quotes already made: use a later time",
            schedule.effective_from
        )));
    }
    let stored = state.fees().store.put(&schedule, caller.token_name(), &now).await.map_err(Error::internal)?;
    let Some(id) = stored else {
        return Err(Error::conflict(format!(
            "A version effective from {} is already in force and is not rewritten",
            schedule.effective_from
        )));
    };
    state.fees().versions.reload(&state.fees().store).await.map_err(Error::internal)?;
    let version = state.fees().versions.current_and_future(Utc::now()).into_iter().find(|v| v.id == id);
    let version = version.ok_or_else(|| Error::internal("the stored version did not read back"))?;
    let in_force = state.fees().versions.in_force(Utc::now()).map(|v| v.id);
    Ok(listed(version, in_force))
}

fn listed(v: Arc<Version>, in_force: Option<i64>) -> ScheduleVersion {
    ScheduleVersion {
        id: v.id,
        effective_from: v.schedule.effective_from.clone(),
        in_force: in_force == Some(v.id),
        loaded_at: v.loaded_at.clone(),
        loaded_by: v.loaded_by.clone(),
        schedule: (*v.schedule).clone(),
    }
}
