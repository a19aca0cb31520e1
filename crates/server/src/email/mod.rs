//! Email (description 4.3; CONTRACT.md points 7, 8, 13). A send is checked (the model's
//! `SendRequest::check`), rendered (templates) and written to the outbox before the 202
//! (`send`, `store::outbox`); a worker delivers the outbox over SMTP to the configured relay,
//! or to the development mailbox in the database when none is configured (`delivery`, `mime`,
//! `store::delivery`). Stored templates (`templates`). Address verification, sending domains
//! and inbound mail are the next issue's (`validate_email` answers 501 until then).
//!
//! Who owns what (one file each, so they can change apart):
//! - `send.rs`: POST send; `outbox.rs`: the outbox's GET extensions and the senders list.
//! - `store/outbox.rs`: inserting accepted messages, listing and reading them.
//! - `store/delivery.rs`: claiming due messages, recording attempts and outcomes, the mailbox.
//! - `mime.rs`: the MIME of a stored message (lettre); `delivery.rs`: the worker.
//! - `templates/`: the template extensions, their store and rendering.

use moneydesk_model::{paths, Envelope};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub mod config;
pub mod delivery;
pub mod mime;
pub mod outbox;
pub mod relay;
pub mod send;
pub mod store;
pub mod templates;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send::send_email))
        .routes(routes!(validate_email))
        .merge(outbox::router())
        .merge(templates::router())
}

#[utoipa::path(post, path = paths::EMAIL_VALIDATION, tag = "email",
    request_body(content = Value, description = "The address to validate"),
    security(("bearer" = ["email:verify"])),
    responses((status = 200, description = "The validation verdict", body = Envelope<Value>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn validate_email(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Email validation"))
}
