//! POST send: check (the model's `SendRequest::check`), the sender allowed, the template
//! rendered for each personalization, attachments to the blob store, the messages written to
//! the outbox, then 202 with their ids. OWNER: the outbox work. Stub until it lands.

use moneydesk_model::email::SendRequest;
use moneydesk_model::{paths, Envelope};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};

#[utoipa::path(post, path = paths::EMAIL_SEND, tag = "email",
    request_body(content = SendRequest),
    security(("bearer" = ["email:send"])),
    responses((status = 202, description = "Accepted; `data` holds the message ids (`code` 202)", body = Envelope<Vec<String>>),
        (status = 400, description = "A rule is broken; `error.fields` names each field", body = ErrorEnvelopeDoc)))]
pub async fn send_email(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Sending email"))
}
