//! Fee schedules (ACH, wire). STUB until the fees issue lands: guarded and documented,
//! answers 501 in the fee error body. Errors on these paths always use the fee body
//! `{"status":"error","error_code":"N","message":...}` (an invalid token: `error_code` "600").

use moneydesk_model::fees::FeeEntry;
use moneydesk_model::{paths, FeeErrorBody, FeeSuccess};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::http::extract::Json;
use crate::auth::Caller;
use crate::error::{Error, FeeError};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ach_fees)).routes(routes!(wire_fees))
}

/// The fee request's fields: read from the JSON body when one is sent, from the query otherwise
/// (CONTRACT.md point 5). `amount` is a decimal string.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
#[allow(dead_code)]
pub struct FeeQuery {
    /// Decimal amount, e.g. `123.55`.
    amount: Option<String>,
    payee_id: Option<String>,
    payee_bank_id: Option<String>,
    payer_id: Option<String>,
    /// e.g. `EFT`.
    transfer_type: Option<String>,
    memo: Option<String>,
}

#[utoipa::path(get, path = paths::FEES_ACH, tag = "fees", params(FeeQuery),
    security(("bearer" = ["fees:read"])),
    responses(
        (status = 200, description = "The ACH fee schedule", body = FeeSuccess<FeeEntry>),
        (status = 501, description = "Not implemented on this server yet", body = FeeErrorBody),
    ))]
async fn ach_fees(_caller: Caller) -> Result<Json<FeeSuccess<FeeEntry>>, FeeError> {
    Err(Error::not_implemented("The ACH fee schedule").into())
}

#[utoipa::path(get, path = paths::FEES_WIRE, tag = "fees", params(FeeQuery),
    security(("bearer" = ["fees:read"])),
    responses(
        (status = 200, description = "The wire fee schedule", body = FeeSuccess<FeeEntry>),
        (status = 501, description = "Not implemented on this server yet", body = FeeErrorBody),
    ))]
async fn wire_fees(_caller: Caller) -> Result<Json<FeeSuccess<FeeEntry>>, FeeError> {
    Err(Error::not_implemented("The wire fee schedule").into())
}
