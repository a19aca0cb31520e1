//! Routing number validation. STUB: replaced by the routing issue's agent.

use moneydesk_model::paths;
use moneydesk_model::routing::{AchParticipant, WireParticipant};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(wire_validate)).routes(routes!(ach_validate))
}

#[utoipa::path(get, path = paths::ROUTING_WIRE_VALIDATE, tag = "routing",
    params(("routingNumber" = String, Query, description = "Nine digits, ABA checksum")),
    security(("bearer" = ["routing:read"])),
    responses((status = 200, description = "The Fedwire participant", body = WireParticipant),
        (status = 404, description = "Not in the directory", body = ErrorEnvelopeDoc),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn wire_validate(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("Wire routing validation"))
}

#[utoipa::path(get, path = paths::ROUTING_ACH_VALIDATE, tag = "routing",
    params(("routingNumber" = String, Query, description = "Nine digits, ABA checksum")),
    security(("bearer" = ["routing:read"])),
    responses((status = 200, description = "The FedACH participant", body = AchParticipant),
        (status = 404, description = "Not in the directory", body = ErrorEnvelopeDoc),
        (status = 501, description = "Not implemented on this server yet", body = ErrorEnvelopeDoc)))]
async fn ach_validate(_caller: Caller) -> Result<(), Error> {
    Err(Error::not_implemented("ACH routing validation"))
}
