//! Accounts. STUB: replaced by the accounts issue's agent.

use moneydesk_model::{paths, Envelope, Page};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::openapi::PageParams;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_accounts))
}

#[utoipa::path(get, path = paths::ACCOUNTS, tag = "accounts", params(PageParams),
    security(("bearer" = ["accounts:read"])),
    responses((status = 200, description = "A page of accounts", body = Envelope<Page<Value>>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn list_accounts(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Accounts"))
}
