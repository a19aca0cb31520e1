//! Check deposits. STUB until the deposits issue lands: guarded and documented, answers 501.

use moneydesk_model::{paths, DepositListItem, Envelope, Page};
use serde_json::Value;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::openapi::PageParams;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_deposits))
        .routes(routes!(create_check_deposit))
        .routes(routes!(scan_check))
}

fn todo() -> Error {
    Error::not_implemented("Check deposits")
}

#[utoipa::path(get, path = paths::DEPOSITS, tag = "deposits", params(PageParams),
    security(("bearer" = ["deposits:read"])),
    responses((status = 200, description = "A page of deposits", body = Envelope<Page<DepositListItem>>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn list_deposits(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}

#[utoipa::path(post, path = paths::DEPOSITS_CHECK, tag = "deposits",
    request_body(content = Value, description = "The check deposit (field table names; the example's names are aliases). Images are base64 JPEG, PNG or TIFF."),
    security(("bearer" = ["deposits:write"])),
    responses((status = 201, description = "The deposit record", body = Value),
        (status = 200, description = "An idempotent retry: the existing deposit record", body = Value),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn create_check_deposit(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}

#[utoipa::path(post, path = paths::DEPOSITS_CHECK_SCAN, tag = "deposits",
    params(("smaSfid" = String, Path, description = "The account the check is deposited to")),
    request_body(content = Value, description = "frontimage and rearimage, base64"),
    security(("bearer" = ["deposits:write"])),
    responses((status = 200, description = "The scan's result", body = Envelope<Value>),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn scan_check(_caller: Caller) -> Result<(), Error> {
    Err(todo())
}
