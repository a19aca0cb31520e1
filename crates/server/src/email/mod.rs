//! Email. STUB until the email issue lands: guarded and documented, answers 501.
//! The send body follows a v3 mail-send shape (CONTRACT.md point 13); documented as an object
//! until the model types exist.

use moneydesk_model::{paths, Envelope};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_email)).routes(routes!(validate_email))
}

#[utoipa::path(post, path = paths::EMAIL_SEND, tag = "email",
    request_body(content = Value, description = "from, subject, content[type,value], personalizations[to,cc,bcc,subject,dynamic_template_data], attachments, template_id, reply_to, send_at, categories"),
    security(("bearer" = ["email:send"])),
    responses((status = 202, description = "Accepted; `data` holds the message ids (`code` 202)", body = Envelope<Value>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn send_email(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Sending email"))
}

#[utoipa::path(post, path = paths::EMAIL_VALIDATION, tag = "email",
    request_body(content = Value, description = "The address to validate"),
    security(("bearer" = ["email:verify"])),
    responses((status = 200, description = "The validation verdict", body = Envelope<Value>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn validate_email(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Email validation"))
}
