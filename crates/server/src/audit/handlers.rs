//! The audit trail's endpoints: records (filtered, paged, CSV), one record, the chains'
//! verification, a day's signed export.

use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use futures_util::StreamExt as _;
use hmac::{Hmac, Mac};
use moneydesk_model::audit::{AuditOutcome, AuditRecord, AuditVerification};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Scope, Sort};
use sha2::Sha256;
use utoipa::IntoParams;

use super::store::{self, Filter};
use super::AuditState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;

/// The header an exported day's signature travels in.
pub const SIGNATURE_HEADER: &str = "moneydesk-signature";

/// What the records are narrowed to.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct RecordParams {
    /// From this moment (RFC 3339; a day `YYYY-MM-DD`, UTC, is taken too), inclusive.
    #[param(format = DateTime)]
    from: Option<String>,
    /// Before this moment (or through this day).
    #[param(format = DateTime)]
    to: Option<String>,
    /// Records of this user (`admin` only: other tokens see only their own user's).
    userId: Option<String>,
    /// The OpenAPI operation id (`job:<name>` for the server's jobs).
    operation: Option<String>,
    targetType: Option<String>,
    targetId: Option<String>,
    #[param(pattern = "^(succeeded|denied)$")]
    outcome: Option<String>,
    /// `csv` for every matching record (at most 100,000) as CSV instead of a page; so does
    /// `Accept: text/csv`.
    #[param(pattern = "^(json|csv)$")]
    format: Option<String>,
}

/// A bound of a time range: a moment as is, a day as its first moment (`to`: the next day's).
fn bound(name: &str, v: &str, end: bool) -> Result<String, Error> {
    if let Ok(day) = NaiveDate::parse_from_str(v, "%Y-%m-%d") {
        let day = if end { day.succ_opt().unwrap_or(day) } else { day };
        return Ok(format!("{day}T00:00:00.000Z"));
    }
    crate::storage::time::parse(v)
        .map(crate::storage::time::millis)
        .ok_or_else(|| Error::field(name, format!("must be a day (YYYY-MM-DD) or an RFC 3339 time, got {v:?}")))
}

fn filter(caller: &Caller, pairs: &[(String, String)]) -> Result<Filter, Error> {
    // A parameter given empty is judged like any other value (an empty `to` is not a time).
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string());
    let outcome = get("outcome")
        .map(|o| {
            AuditOutcome::parse(&o).ok_or_else(|| {
                Error::field("outcome", format!("unknown outcome {o:?}; known: {}", AuditOutcome::known()))
            })
        })
        .transpose()?;
    let mut user_id = get("userId");
    if !caller.can(Scope::Admin) {
        // Others read only their own user's records: asking for another's is a 403, not an
        // empty page that would look like "nobody did anything".
        if user_id.as_deref().is_some_and(|u| u != caller.user_id()) {
            return Err(Error::forbidden(Scope::Admin));
        }
        user_id = Some(caller.user_id().to_string());
    }
    Ok(Filter {
        from: get("from").map(|v| bound("from", &v, false)).transpose()?,
        to: get("to").map(|v| bound("to", &v, true)).transpose()?,
        user_id,
        operation: get("operation"),
        target_type: get("targetType"),
        target_id: get("targetId"),
        outcome,
    })
}

#[utoipa::path(operation_id = "list_audit_records", get, path = paths::AUDIT_RECORDS, tag = "audit", params(PageParams, RecordParams),
    security(("bearer" = ["audit:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The audit trail, newest first: one record for every write of every group (made in the change's own transaction: who — token id, user, name; from where; the operation; the target; before → after), and every write refused for want of a scope. `admin` reads every user's records; other tokens their own user's. `totalElements` is exact, and a deep page costs what the first does unless a filter other than `userId` narrows the list.",
    responses((status = 200, description = "A page of records (or `text/csv` with `format=csv`)",
            content((Envelope<Page<AuditRecord>> = "application/json"), (String = "text/csv"))),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 403, description = "Another user's records, without `admin`", body = ErrorEnvelopeDoc)))]
pub(super) async fn list(
    State(state): State<AuditState>,
    caller: Caller,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let f = filter(&caller, &pairs)?;
    let format = pairs.iter().find(|(n, _)| n == "format").map(|(_, v)| v.as_str());
    let accept_csv = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("text/csv"));
    match format {
        Some("csv") => return csv(&state, &f).await,
        None if accept_csv => return csv(&state, &f).await,
        Some("json") | None => {}
        Some(other) => return Err(Error::field("format", format!("must be json or csv, got {other:?}"))),
    }
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = store::list(state.database(), &f, offset, i64::from(page.size)).await?;
    Ok(Json(Envelope::ok(Page::build(page, total as u64, rows, Sort::UNSORTED))).into_response())
}

async fn csv(state: &AuditState, f: &Filter) -> Result<Response, Error> {
    let (_, rows) = store::list(state.database(), f, 0, 100_000).await?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "id",
        "at",
        "tokenId",
        "userId",
        "tokenName",
        "clientAddress",
        "operation",
        "method",
        "path",
        "targetType",
        "targetId",
        "outcome",
        "requestId",
        "changes",
        "hash",
    ]);
    for r in rows {
        let changes = r
            .changes
            .iter()
            .map(|c| {
                format!("{}: {} → {}", c.field, c.before.as_deref().unwrap_or("—"), c.after.as_deref().unwrap_or("—"))
            })
            .collect::<Vec<_>>()
            .join("; ");
        let _ = w.write_record([
            r.id.to_string(),
            r.at,
            r.actor.token_id.map(|t| t.to_string()).unwrap_or_default(),
            r.actor.user_id.unwrap_or_default(),
            r.actor.token_name.unwrap_or_default(),
            r.client_address.unwrap_or_default(),
            r.operation,
            r.method.unwrap_or_default(),
            r.path.unwrap_or_default(),
            r.target_type.unwrap_or_default(),
            r.target_id.unwrap_or_default(),
            r.outcome.as_str().to_string(),
            r.request_id.unwrap_or_default(),
            changes,
            r.hash.unwrap_or_default(),
        ]);
    }
    let body = w.into_inner().map_err(|e| Error::internal(e.to_string()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"audit-trail.csv\""),
        ],
        body,
    )
        .into_response())
}

#[utoipa::path(operation_id = "get_audit_record", get, path = paths::AUDIT_RECORD, tag = "audit", params(("id" = i64, Path)),
    security(("bearer" = ["audit:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, body = Envelope<AuditRecord>),
        (status = 404, description = "No such record (or another user's, without `admin`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn get(
    State(state): State<AuditState>,
    caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<Envelope<AuditRecord>>, Error> {
    let record = store::get(state.database(), id)
        .await?
        .filter(|r| caller.can(Scope::Admin) || r.actor.user_id.as_deref() == Some(caller.user_id()))
        .ok_or_else(|| Error::not_found(format!("No audit record {id}")))?;
    Ok(Json(Envelope::ok(record)))
}

/// The days to verify.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct VerifyParams {
    /// The first day (`YYYY-MM-DD`); every day when absent.
    #[param(format = Date)]
    from: Option<String>,
    /// The last day, inclusive.
    #[param(format = Date)]
    to: Option<String>,
}

#[utoipa::path(operation_id = "verify_audit_trail", get, path = paths::AUDIT_VERIFY, tag = "audit", params(VerifyParams),
    security(("bearer" = ["audit:read"])),
    extensions(("x-extension" = json!(true))),
    description = "Walks each day's hash chain (chaining what is not chained yet first) and names the first link that does not hold: a record changed, missing from the middle, or out of place. Also `moneydesk-server audit verify`.",
    responses((status = 200, body = Envelope<AuditVerification>),
        (status = 400, description = "A day is not YYYY-MM-DD", body = ErrorEnvelopeDoc)))]
pub(super) async fn verify(
    State(state): State<AuditState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<AuditVerification>>, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let day = |k: &str| -> Result<Option<NaiveDate>, Error> {
        pairs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| {
                NaiveDate::parse_from_str(v.trim(), "%Y-%m-%d")
                    .map_err(|_| Error::field(k, format!("must be a day (YYYY-MM-DD), got {v:?}")))
            })
            .transpose()
    };
    let v = store::verify(state.database(), day("from")?, day("to")?).await?;
    Ok(Json(Envelope::ok(v)))
}

#[utoipa::path(operation_id = "export_audit_day", get, path = paths::AUDIT_EXPORT, tag = "audit", params(("day" = String, Path, format = Date, description = "YYYY-MM-DD (UTC)")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "A day of the trail as JSON lines (one record a line, in chain order), signed: `Moneydesk-Signature: hmac-sha256=<hex>` over the body with the server's audit signing key, and `Moneydesk-Audit-Last-Hash`, the day's last hash. Keep both outside the database: a later rewrite of the day no longer matches them.",
    responses((status = 200, content_type = "application/x-ndjson", description = "The day's records"),
        (status = 400, description = "The day is not YYYY-MM-DD", body = ErrorEnvelopeDoc)))]
pub(super) async fn export(
    State(state): State<AuditState>,
    _caller: Caller,
    UrlPath(day): UrlPath<String>,
) -> Result<Response, Error> {
    let day = NaiveDate::parse_from_str(day.trim(), "%Y-%m-%d")
        .map_err(|_| Error::field("day", format!("must be a day (YYYY-MM-DD), got {day:?}")))?;
    let key = signing_key(&state).await?;
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).map_err(|e| Error::internal(e.to_string()))?;
    // Two walks of the day rather than the day in memory: the signature travels in a header,
    // before the body, so the first walk signs and the second streams the same records (sealed
    // records never change; the second stops at the first's last `seq`).
    let db = state.database().clone();
    let last = store::export_walk(&db, day, |lines| mac.update(lines.as_bytes())).await?;
    let signature = format!("hmac-sha256={}", hex::encode(mac.finalize().into_bytes()));
    let (through, last_hash) = last.map_or((0, String::new()), |(seq, hash)| (seq, hash));
    // Fused: a layer may poll the body once more after its end (the compression layer does,
    // found by schemathesis), which a bare `unfold` answers with a panic.
    let pages = futures_util::stream::unfold(Some(0i64), move |after| {
        let db = db.clone();
        async move {
            match store::export_page(&db, day, after?, through).await {
                Ok((lines, Some((seq, _)))) => Some((Ok(lines), Some(seq))),
                Ok((_, None)) => None,
                // Cut short, the body no longer matches its signature: the receiver sees it.
                Err(e) => {
                    tracing::warn!(error = %e, %day, "streaming an audit day's export");
                    Some((Err(std::io::Error::other(e)), None))
                }
            }
        }
    })
    .fuse();
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"audit-{day}.jsonl\"")),
            (header::HeaderName::from_static(SIGNATURE_HEADER), signature),
            (header::HeaderName::from_static("moneydesk-audit-last-hash"), last_hash),
        ],
        axum::body::Body::from_stream(pages),
    )
        .into_response())
}

/// The configured key, or the one made once and kept in the settings.
async fn signing_key(state: &AuditState) -> Result<String, Error> {
    if let Some(k) = &state.config().audit.signing_key {
        return Ok(k.clone());
    }
    const KEY: &str = "audit.signing_key";
    if let Some(k) = state.settings().get(KEY).await? {
        return Ok(k);
    }
    let mut bytes = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut bytes);
    state.settings().set_once(KEY, &hex::encode(bytes)).await?;
    Ok(state.settings().get(KEY).await?.unwrap_or_default())
}
