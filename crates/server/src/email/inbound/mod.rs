//! Inbound mail (description section 6, "announced as coming soon"; extensions, `x-extension`):
//! per domain a route — the URL every message received for the domain is posted to, as
//! multipart/form-data signed with the route's secret (`webhook`). Mail arrives by SMTP
//! (`smtp`: the listener, off unless `MONEYDESK_INBOUND_SMTP` is set; the domain's MX points
//! at it) or as raw MIME posted to the API (`messages`). Both go through [`receive`]: parsed
//! (`parse`, refusing a message without a header section), the raw bytes stored as a blob,
//! one message per routed domain among the recipients written in one transaction, the worker
//! woken. Every POST is an attempt; `redeliver` starts a delivered or failed one again.
//!
//! - `store.rs`: the tables, both backends; `routes.rs`, `messages.rs`: the handlers.

use std::collections::BTreeMap;

use moneydesk_model::email::EmailAddress;
use sha2::{Digest, Sha256};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::email::EmailState;
use crate::error::Error;
use crate::AppState;

pub mod bulk;
pub mod messages;
pub mod parse;
pub mod routes;
pub mod smtp;
pub mod store;
pub mod webhook;

use parse::Envelope;
use store::{InboundStore, NewMessage};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(routes::list, routes::create))
        .routes(routes!(routes::detail, routes::update, routes::delete))
        .routes(routes!(routes::reveal_secret, routes::rotate_secret))
        .routes(routes!(messages::list, messages::post_raw))
        .routes(routes!(messages::detail))
        .routes(routes!(messages::redeliver))
        .routes(routes!(bulk::bulk))
}

/// Inbound mail's state: the store (with the worker's wake-up).
#[derive(Debug)]
pub struct Inbound {
    pub store: InboundStore,
    /// The MX host a route's domain publishes (and the listener's greeting name).
    pub mx_host: String,
}

impl Inbound {
    pub fn new(store: InboundStore, config: &crate::config::email::EmailConfig) -> Inbound {
        let mx_host = config.inbound.hostname.clone().unwrap_or_else(|| format!("mx.{}", config.service_domain));
        Inbound { store, mx_host }
    }
}

/// The blob of a raw inbound message (content-addressed: the same bytes twice are stored once).
pub fn raw_path(sha256: &str) -> object_store::path::Path {
    object_store::path::Path::from(format!("email/inbound/{sha256}.eml"))
}

/// The domain of an address, as routes are keyed (ASCII, lowercase); `None` when it has none.
pub fn domain_of(address: &str) -> Option<String> {
    address.rsplit_once('@').and_then(|(_, d)| EmailAddress::domain_name(d.trim_end_matches('>')))
}

/// Takes a raw message: parsed (a message without a header section is a 400 naming why), the
/// envelope given (SMTP) or read from the headers (`To`, `Cc`, `From`), one message per routed
/// domain among the recipients. The bytes are stored before the rows, the rows in one
/// transaction: answered only once durable. Unrouted recipients are dropped (SMTP refused them
/// already); no recipient is a 400, none at a routed domain a 404 naming the domains. An SMTP
/// `delivery` (`bounces::delivery` of the envelope and the relay's bytes) already kept answers
/// the messages it was kept as: a relay's retry is not a second message.
pub async fn receive(
    state: &EmailState,
    raw: Vec<u8>,
    envelope: Option<Envelope>,
    by: &'static str,
    delivery: Option<String>,
) -> Result<Vec<String>, Error> {
    let max = state.config().email.inbound.max_size;
    if raw.len() > max {
        return Err(Error::payload_too_large(format!(
            "the message is {} bytes; inbound mail is at most {max} bytes",
            raw.len()
        )));
    }
    let parsed = parse::parse(&raw).map_err(|why| Error::field("message", why))?;
    let envelope = envelope.unwrap_or_else(|| Envelope {
        from: parsed.sender_address.clone().unwrap_or_default(),
        to: parsed.recipient_addresses.clone(),
    });
    let mut by_domain: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for to in &envelope.to {
        if let Some(d) = domain_of(to) {
            let list = by_domain.entry(d).or_default();
            if !list.iter().any(|a| a.eq_ignore_ascii_case(to)) {
                list.push(to.clone());
            }
        }
    }
    let domains: Vec<String> = by_domain.keys().cloned().collect();
    let routed = state.inbound().store.routed(&domains).await?;
    if domains.is_empty() {
        return Err(Error::field(
            "to",
            "the message names no recipient: give the envelope's with `to`, or a To or Cc header",
        ));
    }
    if routed.is_empty() {
        return Err(Error::not_found(format!(
            "No inbound route for {}: create one for the recipients' domain first",
            domains.join(", ")
        )));
    }
    if let Some(d) = &delivery {
        let kept = state.inbound().store.by_delivery(d).await?;
        if !kept.is_empty() {
            return Ok(kept);
        }
    }
    let sha256 = hex::encode(Sha256::digest(&raw));
    let size = raw.len() as u64;
    state.blobs().put(&raw_path(&sha256), raw.into()).await.map_err(Error::internal)?;
    let attachments: Vec<_> = parsed.attachments.iter().map(|(a, _)| a.clone()).collect();
    let messages: Vec<NewMessage> = routed
        .iter()
        .map(|domain| NewMessage {
            id: uuid::Uuid::new_v4().to_string(),
            domain: domain.clone(),
            mail_from: envelope.from.clone(),
            rcpt_to: by_domain.get(domain).cloned().unwrap_or_default(),
            from: parsed.from.clone(),
            subject: parsed.subject.clone(),
            size,
            raw_sha256: sha256.clone(),
            attachments: attachments.clone(),
            received_by: by,
            delivery: delivery.clone(),
        })
        .collect();
    state.inbound().store.insert_messages(&messages, state.config().email.inbound.retry_for).await?;
    state.inbound().store.wake();
    Ok(messages.into_iter().map(|m| m.id).collect())
}
