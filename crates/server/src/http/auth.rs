//! Extension: `GET /api/v1/cores/auth/me` — who the presented token is and what it may do.

use moneydesk_model::auth::Session;
use moneydesk_model::{paths, Envelope};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::extract::Json;
use crate::auth::Caller;
use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(me))
}

/// The caller's own token: name, scopes, expiry. Any valid token may ask.
#[utoipa::path(get, path = paths::AUTH_ME, tag = "auth",
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The token's session", body = Envelope<Session>)))]
async fn me(caller: Caller) -> Json<Envelope<Session>> {
    Json(Envelope::ok(caller.session()))
}
