//! Inbound messages: the list, one with its attempts, raw MIME posted in, redelivery.

use axum::body::Bytes;
use axum::extract::{FromRequest, RawQuery, Request, State};
use axum::http::{header, StatusCode};
use moneydesk_model::email::inbound::{InboundDetail, InboundMessage, InboundReceipt, InboundState};
use moneydesk_model::email::EmailAddress;
use moneydesk_model::{paths, Envelope};

use super::parse::Envelope as MailEnvelope;
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{query_pairs, Json, Path};

/// The most messages one list answers.
const MAX_LIMIT: u32 = 200;

/// Message ids are UUIDs: anything else is no message (404 without a lookup).
fn message_id(given: &str) -> Result<String, Error> {
    uuid::Uuid::parse_str(given)
        .map(|u| u.to_string())
        .map_err(|_| Error::not_found(format!("No inbound message {given}")))
}

#[utoipa::path(operation_id = "list_inbound_messages", get, path = paths::EMAIL_INBOUND_MESSAGES, tag = "email",
    params(("domain" = Option<String>, Query, description = "Only one domain's messages"),
        ("state" = Option<InboundState>, Query, description = "Only messages in this state"),
        ("before" = Option<String>, Query, description = "The `next` cursor of the previous answer (`<receivedAt>|<id>`)", max_length = 200),
        ("limit" = Option<u32>, Query, description = "At most this many (1 to 200, default 50)", minimum = 1, maximum = 200)),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The messages received, newest first. Older ones: repeat with `before` set to the `receivedAt|id` of the last one listed.",
    responses((status = 200, description = "The messages", body = Envelope<Vec<InboundMessage>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
pub(super) async fn list(
    State(state): State<EmailState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<InboundMessage>>>, Error> {
    let (mut domain, mut st, mut before, mut limit) = (None, None, None, 50u32);
    for (k, v) in query_pairs(q.as_deref()) {
        match k.as_str() {
            "domain" => {
                domain = Some(
                    EmailAddress::domain_name(&v)
                        .ok_or_else(|| Error::field("domain", format!("{v:?} is not a domain name")))?,
                )
            }
            "state" => st = Some(v.parse::<InboundState>().map_err(|e| Error::field("state", e))?),
            "before" => {
                let (at, id) = v
                    .split_once('|')
                    .filter(|(at, id)| crate::storage::time::parse(at).is_some() && !id.is_empty() && id.len() <= 100)
                    .ok_or_else(|| Error::field("before", "is not a cursor from an earlier answer (receivedAt|id)"))?;
                before = Some((at.to_string(), id.to_string()));
            }
            "limit" => {
                limit = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_LIMIT).contains(n))
                    .ok_or_else(|| Error::field("limit", format!("must be 1 to {MAX_LIMIT}; got {v:?}")))?
            }
            _ => {}
        }
    }
    let rows = state
        .inbound()
        .store
        .messages(domain.as_deref(), st, before.as_ref().map(|(a, i)| (a.as_str(), i.as_str())), limit)
        .await?;
    Ok(Json(Envelope::ok(rows.iter().map(|r| r.answer()).collect())))
}

#[utoipa::path(post, path = paths::EMAIL_INBOUND_MESSAGES, tag = "email",
    params(("from" = Option<String>, Query, description = "The envelope sender (SMTP's MAIL FROM); default the first address of `From`", max_length = 320),
        ("to" = Option<Vec<String>>, Query, description = "The envelope recipients (repeat the parameter); default the addresses of `To` and `Cc`", explode = true)),
    request_body(content = String, content_type = "message/rfc822", description = "The message as received: header section, blank line, body (RFC 5322, MIME)"),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Takes a raw message as the SMTP listener would (for a mail server that pipes to HTTP, or to replay one): parsed, stored, and one inbound message made per recipient domain that has a route (recipients of other domains are dropped), each posted to its route's URL. A message without a header section is a 400 naming why; damaged MIME is taken as far as it can be read.",
    responses((status = 202, description = "Received; the ids of the messages made, one per routed domain", body = Envelope<InboundReceipt>),
        (status = 400, description = "Not a message (`message`), or no recipient at all (`to`)", body = ErrorEnvelopeDoc),
        (status = 404, description = "No recipient is at a domain with a route; the message names the domains", body = ErrorEnvelopeDoc),
        (status = 413, description = "Larger than inbound mail may be (`MONEYDESK_INBOUND_MAX_SIZE`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn post_raw(
    State(state): State<EmailState>,
    _caller: Caller,
    req: Request,
) -> Result<(StatusCode, Json<Envelope<InboundReceipt>>), Error> {
    let q = query_pairs(req.uri().query());
    let kind = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
    if !(kind.starts_with("message/rfc822")
        || kind.starts_with("text/plain")
        || kind.starts_with("application/octet-stream"))
    {
        return Err(Error::bad_request("Send the message itself as the body, with Content-Type: message/rfc822"));
    }
    let body = match Bytes::from_request(req, &state).await {
        Ok(b) => b,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(Error::payload_too_large("Request body is too large"))
        }
        Err(r) => return Err(Error::bad_request(r.body_text())),
    };
    let to: Vec<String> = q.iter().filter(|(k, _)| k == "to").map(|(_, v)| v.trim().to_string()).collect();
    if let Some(bad) = to.iter().find(|a| super::domain_of(a).is_none()) {
        return Err(Error::field("to", format!("{bad:?} is not an address")));
    }
    let from = q.iter().find(|(k, _)| k == "from").map(|(_, v)| v.trim().to_string());
    if from.as_ref().is_some_and(|f| f.len() > 320 || f.contains(['\r', '\n'])) {
        return Err(Error::field("from", "is not an address"));
    }
    let envelope = if to.is_empty() && from.is_none() {
        None
    } else {
        let parsed_from = || super::parse::parse(&body).ok().and_then(|p| p.sender_address);
        let parsed_to = || super::parse::parse(&body).ok().map(|p| p.recipient_addresses).unwrap_or_default();
        Some(MailEnvelope {
            from: from.clone().or_else(parsed_from).unwrap_or_default(),
            to: if to.is_empty() { parsed_to() } else { to },
        })
    };
    let ids = super::receive(&state, body.to_vec(), envelope, "api", None).await?;
    Ok((StatusCode::ACCEPTED, Json(Envelope::with_code(202, InboundReceipt { ids }))))
}

#[utoipa::path(operation_id = "get_inbound_message", get, path = paths::EMAIL_INBOUND_MESSAGE, tag = "email",
    params(("messageId" = String, Path, description = "The inbound message (a UUID)")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "One inbound message with every delivery attempt (the URL, the receiver's status and the start of its answer, or why it could not be reached) and its attachments. The state and the attempts are read together: the message is `delivering` exactly while its last attempt is under way.",
    responses((status = 200, description = "The message", body = Envelope<InboundDetail>),
        (status = 404, description = "No such message", body = ErrorEnvelopeDoc)))]
pub(super) async fn detail(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<InboundDetail>>, Error> {
    let id = message_id(&id)?;
    let (row, attempts_made) =
        state.inbound().store.detail(&id).await?.ok_or_else(|| Error::not_found(format!("No inbound message {id}")))?;
    Ok(Json(Envelope::ok(InboundDetail { message: row.answer(), attachments: row.attachment_info(), attempts_made })))
}

#[utoipa::path(post, path = paths::EMAIL_INBOUND_REDELIVER, tag = "email",
    params(("messageId" = String, Path, description = "The inbound message (a UUID)")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Posts a delivered or failed message again, now, to its route's current URL; failures are retried as for a new message (a new 3-day window). A message still pending or under way is a 409: it is being delivered already.",
    responses((status = 202, description = "Due again", body = Envelope<InboundMessage>),
        (status = 404, description = "No such message", body = ErrorEnvelopeDoc),
        (status = 409, description = "Still pending or under way", body = ErrorEnvelopeDoc)))]
pub(super) async fn redeliver(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Envelope<InboundMessage>>), Error> {
    let id = message_id(&id)?;
    match state.inbound().store.redeliver(&id, state.config().email.inbound.retry_for).await? {
        None => Err(Error::not_found(format!("No inbound message {id}"))),
        Some(false) => Err(Error::conflict("The message is still being delivered: it is pending or under way")),
        Some(true) => {
            state.inbound().store.wake();
            let row = state
                .inbound()
                .store
                .message(&id)
                .await?
                .ok_or_else(|| Error::not_found(format!("No inbound message {id}")))?;
            Ok((StatusCode::ACCEPTED, Json(Envelope::with_code(202, row.answer()))))
        }
    }
}
