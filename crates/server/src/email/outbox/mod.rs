//! The outbox's GET extensions (list, one message with its attempts and parts, its exact MIME,
//! its attachments), a failed message resent, and the sender identities. All `email:send`:
//! who sends may follow what was sent, and may resend what failed (a resend sends only what was
//! already accepted, unchanged, to the recipients it was accepted for: nothing a sender could
//! not do by sending it again; the resend records which token did it).
//!
//! The outbox's parts, each in its file: `send.rs` (POST send), `store/` (accepted messages,
//! claims, attempts and outcomes, the development mailbox), `delivery.rs` (the worker, on the
//! one queue `storage::queue`), `recorder.rs` (its group commit), `mime.rs` (a stored message's
//! MIME), `relay.rs` (the SMTP connections).

pub mod batches;
pub mod bulk;
pub mod delivery;
pub mod mime;
pub mod recorder;
pub mod relay;
pub mod send;
pub mod store;

use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use moneydesk_model::email::{MessageDetail, MessageHeader, MessageState, OutboxMessage, SenderIdentity};
use moneydesk_model::{paths, Envelope, Page, PageRequest};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::AppState;
use store::outbox::OutboxFilter;
use store::{attachment_path, StoredMessage};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(messages))
        .routes(routes!(message))
        .routes(routes!(raw))
        .routes(routes!(resend))
        .routes(routes!(bulk::bulk))
        .routes(routes!(attachment))
        .routes(routes!(senders))
        .routes(routes!(batches::create))
        .routes(routes!(batches::detail))
        .routes(routes!(batches::pause))
        .routes(routes!(batches::resume))
        .routes(routes!(batches::cancel))
}

#[utoipa::path(get, path = paths::EMAIL_MESSAGES, tag = "email",
    params(crate::http::openapi::PageParams,
        ("state" = Option<Vec<MessageState>>, Query, description = "Only messages in these states (repeat the parameter)", explode = true),
        ("q" = Option<String>, Query, description = "Part of a recipient or the subject (case-insensitive), or a message or request id", max_length = 200),
        ("batchId" = Option<String>, Query, description = "Only the messages of one send request (`req_…`)", max_length = 100),
        ("createdFrom" = Option<String>, Query, description = "Only messages created on or after this day (`YYYY-MM-DD`, a UTC day). Not after `createdTo`", format = Date),
        ("createdTo" = Option<String>, Query, description = "Only messages created on or before this day (`YYYY-MM-DD`, a UTC day, the whole day included)", format = Date)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The outbox, newest first in the order messages were accepted (a request's messages in personalization order). `totalElements` is exact, and a deep page costs what the first does unless `q`, `batchId` or a creation range narrows the list.",
    responses((status = 200, description = "A page of messages", body = Envelope<Page<OutboxMessage>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
async fn messages(
    State(state): State<EmailState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<OutboxMessage>>>, Error> {
    let q = crate::http::extract::query_pairs(q.as_deref());
    let page = PageRequest::from_query(q.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let filter = outbox_filter(&q)?;
    Ok(Json(Envelope::ok(state.email().list(&filter, page).await?)))
}

/// The list's filter from its query parameters (the list and its bulk actions read it alike;
/// other parameters are not the filter's).
pub(super) fn outbox_filter(q: &[(String, String)]) -> Result<OutboxFilter, Error> {
    let mut filter = OutboxFilter::default();
    for (k, v) in q {
        match k.as_str() {
            "state" => {
                filter.states.push(v.parse().map_err(|e: moneydesk_model::email::messages::UnknownMessageState| {
                    Error::field("state", e.to_string())
                })?)
            }
            "q" if v.chars().count() > 200 => return Err(Error::field("q", "is longer than 200 characters")),
            "q" => filter.q = Some(v.clone()),
            "batchId" if v.chars().count() > 100 => {
                return Err(Error::field("batchId", "is longer than 100 characters"))
            }
            "batchId" => filter.batch_id = Some(v.clone()),
            "createdFrom" => filter.created_from = Some(day("createdFrom", v)?.first_instant()),
            "createdTo" => filter.created_to = Some(day("createdTo", v)?.last_instant()),
            _ => {}
        }
    }
    if let (Some(from), Some(to)) = (&filter.created_from, &filter.created_to) {
        if from > to {
            return Err(Error::field("createdFrom", "is after createdTo"));
        }
    }
    Ok(filter)
}

/// A `createdFrom`/`createdTo` value: a day of the calendar, UTC (the stored times are UTC).
fn day(param: &str, v: &str) -> Result<UtcDay, Error> {
    moneydesk_model::deposits::Date::parse(v.trim()).map(UtcDay).map_err(|e| Error::field(param, e))
}

struct UtcDay(moneydesk_model::deposits::Date);

impl UtcDay {
    /// The day's first millisecond in the stored form (`time_text`: RFC 3339, UTC, milliseconds),
    /// so that comparing the text compares the times.
    fn first_instant(&self) -> String {
        format!("{}T00:00:00.000Z", self.0)
    }

    /// The day's last millisecond, stored form: a bound that takes in the whole day.
    fn last_instant(&self) -> String {
        format!("{}T23:59:59.999Z", self.0)
    }
}

/// The headers a message is sent with, as people read them (the MIME encodes them).
pub fn headers(m: &StoredMessage, list_unsubscribe: Option<&str>) -> Vec<MessageHeader> {
    let list = |l: &[store::StoredMailbox]| l.iter().map(|m| m.shown()).collect::<Vec<_>>().join(", ");
    let mut h = vec![MessageHeader::new("From", m.from.shown())];
    if !m.recipients.to.is_empty() {
        h.push(MessageHeader::new("To", list(&m.recipients.to)));
    }
    if !m.recipients.cc.is_empty() {
        h.push(MessageHeader::new("Cc", list(&m.recipients.cc)));
    }
    if let Some(r) = &m.reply_to {
        h.push(MessageHeader::new("Reply-To", r.shown()));
    }
    h.push(MessageHeader::new("Subject", m.subject.clone()));
    h.push(MessageHeader::new("Date", m.date_header.clone()));
    h.push(MessageHeader::new("Message-ID", format!("<{}>", m.message_id)));
    if let Some(l) = list_unsubscribe {
        h.push(MessageHeader::new("List-Unsubscribe", l));
        if crate::email::suppressions::unsubscribe::one_click(l) {
            h.push(MessageHeader::new("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"));
        }
    }
    h
}

#[utoipa::path(get, path = paths::EMAIL_MESSAGE, tag = "email",
    params(("messageId" = String, Path, description = "The message (`msg_…`)", pattern = "^msg_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "One message: its state, every attempt with the relay's reply, its headers (`[{name, value}]`, in the order they are sent, decoded), parts and attachments (Bcc recipients included: only the envelope carries them). Its state, attempts and resends are read together (one snapshot), so they never contradict one another.",
    responses((status = 200, description = "The message", body = Envelope<MessageDetail>),
        (status = 404, description = "No such message", body = ErrorEnvelopeDoc)))]
async fn message(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<MessageDetail>>, Error> {
    let config = state.config();
    let detail = state
        .email()
        .detail(&id, |m| headers(m, crate::email::suppressions::unsubscribe::header_value(&config.email, m).as_deref()))
        .await?
        .ok_or_else(|| Error::not_found(format!("No message {id}")))?;
    Ok(Json(Envelope::ok(detail)))
}

#[utoipa::path(get, path = paths::EMAIL_MESSAGE_RAW, tag = "email",
    params(("messageId" = String, Path, description = "The message (`msg_…`)", pattern = "^msg_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The message's exact MIME (`message/rfc822`): what the development mailbox holds, or what the relay is sent (built from the stored parts, the same on every attempt).",
    responses((status = 200, description = "The MIME", content_type = "message/rfc822", body = String),
        (status = 404, description = "No such message", body = ErrorEnvelopeDoc)))]
async fn raw(State(state): State<EmailState>, _caller: Caller, Path(id): Path<String>) -> Result<Response, Error> {
    let raw = match state.email().mailbox_raw(&id).await? {
        Some(raw) => raw.into_bytes(),
        None => {
            let row = state.email().row(&id).await?.ok_or_else(|| Error::not_found(format!("No message {id}")))?;
            let stored = row.stored();
            let unsubscribe = crate::email::suppressions::unsubscribe::header_value(&state.config().email, &stored);
            let (message, _) = mime::build_with_blobs(&state.blobs(), &stored, unsubscribe.as_deref()).await?;
            message
        }
    };
    let mut response = Body::from(raw).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("message/rfc822"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{id}.eml\"")).expect("ascii id"),
    );
    Ok(response)
}

#[utoipa::path(post, path = paths::EMAIL_MESSAGE_RESEND, tag = "email",
    params(("messageId" = String, Path, description = "The message (`msg_…`)", pattern = "^msg_[a-z0-9]{1,60}$")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Puts a `failed` message back in the queue, due now: `queued`, with its earlier attempts kept and a new round of attempts ahead, the same Message-ID and bytes (it never reached anyone). The attempt log shows the resend (outcome `queued`, `resentBy`). Any other state is a 409 naming it: only a failed message is resent. A message whose every recipient is on its sender domain's suppression list (since it failed, or at acceptance) is a 409 too, naming each address and why: it would reach nobody (remove the entries first, `admin`). Recipients suppressed meanwhile are dropped at delivery and recorded in `suppressed`.",
    responses((status = 202, description = "Queued again", body = Envelope<OutboxMessage>),
        (status = 404, description = "No such message", body = ErrorEnvelopeDoc),
        (status = 409, description = "The message is not failed, or every recipient is suppressed", body = ErrorEnvelopeDoc)))]
async fn resend(
    State(state): State<EmailState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Envelope<OutboxMessage>>), Error> {
    if let Some(why) = nobody_to_resend_to(&state, &id).await? {
        return Err(Error::conflict(why));
    }
    match state.email().resend(&id, caller.token_name(), caller.user_id(), chrono::Utc::now()).await? {
        None => Err(Error::not_found(format!("No message {id}"))),
        Some(Err(current)) => {
            Err(Error::conflict(format!("Message {id} is {current}: only a failed message can be resent")))
        }
        Some(Ok(row)) => Ok((StatusCode::ACCEPTED, Json(Envelope::with_code(202, row.record())))),
    }
}

/// Why a failed message would reach nobody if resent: every recipient it has is on its sender
/// domain's suppression list now (or none is left: the list dropped them all before).
async fn nobody_to_resend_to(state: &EmailState, id: &str) -> Result<Option<String>, Error> {
    let Some(row) = state.email().row(id).await? else { return Ok(None) };
    if row.state() != MessageState::Failed {
        return Ok(None);
    }
    let m = row.stored();
    let domain = m.from.email.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase()).unwrap_or_default();
    let r = &m.recipients;
    let mut addresses: Vec<String> =
        r.to.iter().chain(&r.cc).chain(&r.bcc).map(|x| x.email.to_ascii_lowercase()).collect();
    if addresses.is_empty() {
        return Ok(Some(format!(
            "Message {id} cannot be resent: every recipient is on the suppression list of {domain}"
        )));
    }
    if r.bypass_list_management {
        return Ok(None);
    }
    addresses.sort();
    addresses.dedup();
    let listed = state.email().suppressed(&domain, &addresses, &m.categories).await?;
    let reasons: Vec<String> = listed.iter().map(|l| format!("{} ({})", l.address, l.reason)).collect();
    let all = addresses.iter().all(|a| listed.iter().any(|l| &l.address == a));
    Ok(all.then(|| {
        format!(
            "Message {id} cannot be resent: every recipient is on the suppression list of {domain}: {}",
            reasons.join(", ")
        )
    }))
}

#[utoipa::path(get, path = paths::EMAIL_MESSAGE_ATTACHMENT, tag = "email",
    params(("messageId" = String, Path, description = "The message (`msg_…`)", pattern = "^msg_[a-z0-9]{1,60}$"),
        ("index" = u32, Path, description = "The attachment's index in the message (0-based)", maximum = 99)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "An attachment's bytes with its content type, as a download (served with a sandboxing CSP and nosniff).",
    responses((status = 200, description = "The bytes", content_type = "application/octet-stream", body = crate::http::openapi::Binary),
        (status = 404, description = "No such message or attachment", body = ErrorEnvelopeDoc)))]
async fn attachment(
    State(state): State<EmailState>,
    _caller: Caller,
    Path((id, index)): Path<(String, u32)>,
) -> Result<Response, Error> {
    let row = state.email().row(&id).await?.ok_or_else(|| Error::not_found(format!("No message {id}")))?;
    let stored = row.stored();
    let a = stored.attachments.get(index as usize).ok_or_else(|| {
        Error::not_found(format!("Message {id} has {} attachments; none at index {index}", stored.attachments.len()))
    })?;
    let bytes = state
        .blobs()
        .get(&attachment_path(&a.sha256))
        .await
        .map_err(Error::internal)?
        .bytes()
        .await
        .map_err(Error::internal)?;
    let mut response = Body::from(bytes).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&a.content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox; default-src 'none'"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(d) = HeaderValue::from_str(&crate::vault::archive::content_disposition("attachment", &a.filename)) {
        h.insert(header::CONTENT_DISPOSITION, d);
    }
    Ok(response)
}

#[utoipa::path(get, path = paths::EMAIL_SENDERS, tag = "email",
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Who this server may send as (`MONEYDESK_EMAIL_SENDERS`): whole addresses, or every address of a domain (`@bank.example`).",
    responses((status = 200, description = "The sender identities", body = Envelope<Vec<SenderIdentity>>)))]
async fn senders(State(state): State<EmailState>, _caller: Caller) -> Json<Envelope<Vec<SenderIdentity>>> {
    Json(Envelope::ok(state.config().email.senders.clone()))
}
