//! Bounces and complaints (issue 46; extensions, `x-extension`). A sending domain's mail goes
//! out with the VERP return path `bounces+<message id>@mdbounce.<domain>` (`outbox::delivery`),
//! whose CNAME points at the service: the inbound SMTP listener takes mail for `mdbounce.<d>`
//! of every registered sending domain `<d>` (no inbound route needed) and brings it here, not
//! to the routes; a relay that forwards bounces over HTTP posts them to the API.
//!
//! Each report is kept (its bytes as a blob, a row whatever came of it) and read (`dsn`): a
//! delivery status notification's recipients that `failed` (5.x.x) are hard bounces, `delayed`
//! or 4.x.x ones soft; a feedback report of type `abuse` is a complaint. The message it answers
//! is the VERP address's, else the one whose Message-ID the returned headers carry. A hard
//! bounce or a complaint puts the address on the sender domain's suppression list; soft
//! bounces do at the model's `SOFT_BOUNCE_LIMIT`th within `SOFT_BOUNCE_WINDOW_DAYS`. Mail that
//! is no report is kept as `unparseable`: never refused, never lost.
//!
//! - `dsn.rs`: reading a report; `store.rs`: the tables, both backends; `figures.rs`: the
//!   handlers that read (bounces, reports, the deliverability figures).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, StatusCode};
use moneydesk_model::email::bounces::{BounceKind, BounceReport, BounceReportState, ReturnPath};
use moneydesk_model::{paths, Envelope, Scope};
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{query_pairs, Json};
use crate::AppState;

pub mod dsn;
pub mod figures;
pub mod store;

use dsn::Report;
use store::{NewBounce, NewReport};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(figures::reports, post_report))
        .routes(routes!(figures::bounces))
        .routes(routes!(figures::deliverability))
}

/// The blob of a report's raw bytes.
pub fn raw_path(sha256: &str) -> object_store::path::Path {
    object_store::path::Path::from(format!("email/bounces/{sha256}.eml"))
}

/// Whether `domain` is a return-path host (`mdbounce.<d>`) of a registered sending domain.
pub async fn is_bounce_host(state: &EmailState, domain: &str) -> Result<bool, Error> {
    let Some(d) = ReturnPath::parse(&format!("x@{domain}")).map(|r| r.domain) else { return Ok(false) };
    Ok(state.domains().store.get(&d).await?.is_some())
}

#[utoipa::path(operation_id = "post_email_bounce_report", post, path = paths::EMAIL_BOUNCE_REPORTS, tag = "email",
    params(("to" = Option<String>, Query, description = "The envelope recipient it came to: the VERP return path `bounces+<message id>@mdbounce.<domain>` (names the message and the domain)", max_length = 320),
        ("from" = Option<String>, Query, description = "The envelope sender (usually empty for a bounce)", max_length = 320)),
    request_body(content = String, content_type = "message/rfc822", description = "The report as received: a delivery status notification (RFC 3464, `multipart/report; report-type=delivery-status`) or a feedback report (RFC 5965, `report-type=feedback-report`)"),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Takes a bounce or complaint report as the SMTP listener does at a return-path address (for a relay that forwards bounces over HTTP): kept, read, matched to its message (the VERP address in `to`, else the Message-ID of the returned headers) and acted on. A hard bounce (`Action: failed`, status 5.x.x) and a complaint (`Feedback-Type: abuse`) put the recipient on the sender domain's suppression list (reason `bounce` / `spam_complaint`, the diagnostic kept); a soft bounce (`delayed`, or 4.x.x) is recorded, and suppresses at the 3rd for the address within 7 days. Each is recorded on its message, an `email.bounced` or `email.complained` event, and on record. `admin`: a bounce takes an address off every send of its domain, which only the receiving side's word (or an administrator) may do. A message that is not a report is kept as `unparseable` (201, `problem` says why), never refused.",
    responses((status = 201, description = "Kept; what came of it", body = Envelope<BounceReport>),
        (status = 400, description = "A parameter is wrong, or the body is not a message", body = ErrorEnvelopeDoc),
        (status = 413, description = "Larger than inbound mail may be (`MONEYDESK_INBOUND_MAX_SIZE`)", body = ErrorEnvelopeDoc)))]
async fn post_report(
    State(state): State<EmailState>,
    caller: Caller,
    req: Request,
) -> Result<(StatusCode, Json<Envelope<BounceReport>>), Error> {
    caller.require(Scope::Admin)?;
    let q = query_pairs(req.uri().query());
    let kind = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
    if !(kind.starts_with("message/rfc822")
        || kind.starts_with("text/plain")
        || kind.starts_with("application/octet-stream"))
    {
        return Err(Error::bad_request("Send the report itself as the body, with Content-Type: message/rfc822"));
    }
    let param = |name: &str| -> Result<Option<String>, Error> {
        match q.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_string()) {
            Some(v) if v.len() > 320 || v.contains(['\r', '\n']) => Err(Error::field(name, "is not an address")),
            v => Ok(v.filter(|v| !v.is_empty())),
        }
    };
    let (to, from) = (param("to")?, param("from")?);
    let body = match Bytes::from_request(req, &state).await {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(Error::payload_too_large("Request body is too large"))
        }
        Err(r) => return Err(Error::bad_request(r.body_text())),
    };
    if body.is_empty() {
        return Err(Error::field("message", "the body is empty: send the report"));
    }
    let report = receive(&state, body.to_vec(), to, from.unwrap_or_default(), "api", None).await?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, report))))
}

/// Takes a report (the listener's DATA for a return-path recipient, or the API's body): kept
/// before anything else, read, matched and recorded in one transaction. A `delivery` (the
/// listener's [`delivery`] of the message) already kept answers the report kept then.
pub async fn receive(
    state: &EmailState,
    raw: Vec<u8>,
    rcpt_to: Option<String>,
    mail_from: String,
    by: &'static str,
    delivery: Option<String>,
) -> Result<BounceReport, Error> {
    let max = state.config().email.inbound.max_size;
    if raw.len() > max {
        return Err(Error::payload_too_large(format!("the report is {} bytes; at most {max}", raw.len())));
    }
    if let Some(kept) = match &delivery {
        Some(key) => state.email().report_by_delivery(key).await?,
        None => None,
    } {
        return Ok(kept);
    }
    let sha256 = hex::encode(Sha256::digest(&raw));
    let size = raw.len() as u64;
    let read = dsn::read(&raw);
    state.blobs().put(&raw_path(&sha256), raw.into()).await.map_err(Error::internal)?;
    let verp = rcpt_to.as_deref().and_then(ReturnPath::parse);
    let header_id = read.as_ref().ok().and_then(|r| r.returned().message_id.clone());
    let message = state
        .email()
        .bounced_message(verp.as_ref().and_then(|v| v.message_id.as_deref()), header_id.as_deref())
        .await?;
    let message = message.map(|m| m.stored());
    let domain = match (&message, &verp) {
        (Some(m), _) => m.from.email.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase()),
        (None, Some(v)) if state.domains().store.get(&v.domain).await?.is_some() => Some(v.domain.clone()),
        _ => None,
    };
    let message_id = message.as_ref().map(|m| m.id.clone());
    let mut problem = None;
    let bounces: Vec<NewBounce> = match &read {
        Err(why) => {
            problem = Some(why.clone());
            Vec::new()
        }
        Ok(Report::DeliveryStatus { recipients, .. }) => recipients
            .iter()
            .filter_map(|r| {
                Some(NewBounce {
                    message_id: message_id.clone(),
                    domain: domain.clone(),
                    address: r.address.clone(),
                    kind: r.kind()?,
                    action: r.action.clone(),
                    status: r.status.clone(),
                    diagnostic: r.diagnostic.clone(),
                })
            })
            .collect(),
        Ok(Report::Feedback { feedback_type, .. }) if feedback_type != "abuse" => {
            problem = Some(format!("feedback type {feedback_type} is not a complaint: nothing suppressed"));
            Vec::new()
        }
        Ok(Report::Feedback { feedback_type, original_rcpt_to, returned }) => {
            complained(message.as_ref(), original_rcpt_to, &returned.to)
                .into_iter()
                .map(|address| NewBounce {
                    message_id: message_id.clone(),
                    domain: domain.clone(),
                    address,
                    kind: BounceKind::Complaint,
                    action: feedback_type.clone(),
                    status: None,
                    diagnostic: None,
                })
                .collect()
        }
    };
    if read.is_ok() && problem.is_none() && bounces.is_empty() {
        problem = Some("the report names no recipient that bounced or complained".into());
    }
    let state_of = match (&read, &domain) {
        (Err(_), _) => BounceReportState::Unparseable,
        (Ok(_), None) => {
            problem.get_or_insert_with(|| {
                "no message matches (neither the VERP address nor the returned Message-ID) and no sending domain is named: nothing suppressed".into()
            });
            BounceReportState::Unmatched
        }
        (Ok(_), Some(_)) => BounceReportState::Processed,
    };
    let report = NewReport {
        id: store::new_report_id(),
        state: state_of,
        report_type: read.as_ref().ok().map(Report::report_type),
        problem,
        received_by: by,
        mail_from,
        rcpt_to,
        raw_sha256: sha256,
        size,
        delivery,
    };
    Ok(state.email().record_report(&report, &bounces, chrono::Utc::now()).await?)
}

/// What makes one SMTP delivery of a report the same as another: the return-path recipient,
/// the envelope sender and the message's bytes as the relay sent them (hex SHA-256). A relay
/// retrying a message sends the same bytes (its own trace fields were added when it first took
/// the message); a new report has its own `Date` and `Message-ID`.
pub fn delivery(rcpt_to: &str, mail_from: &str, data: &[u8]) -> String {
    let mut h = Sha256::new();
    for part in [rcpt_to.to_ascii_lowercase().as_bytes(), b"\0", mail_from.as_bytes(), b"\0", data] {
        h.update(part);
    }
    hex::encode(h.finalize())
}

/// Who a complaint is about: its `Original-Rcpt-To`, else the returned message's `To`; of a
/// matched message, only its own recipients, or its one recipient when the report redacts them
/// (feedback loops often do).
fn complained(
    message: Option<&crate::email::outbox::store::StoredMessage>,
    rcpt_to: &[String],
    returned_to: &[String],
) -> Vec<String> {
    let given = if rcpt_to.is_empty() { returned_to } else { rcpt_to };
    let Some(m) = message else { return given.to_vec() };
    let r = &m.recipients;
    let theirs: Vec<String> = r.to.iter().chain(&r.cc).chain(&r.bcc).map(|x| x.email.to_ascii_lowercase()).collect();
    let named: Vec<String> = given.iter().filter(|a| theirs.contains(a)).cloned().collect();
    match (named.is_empty(), theirs.as_slice()) {
        (false, _) => named,
        (true, [one]) => vec![one.clone()],
        (true, _) => Vec::new(),
    }
}
