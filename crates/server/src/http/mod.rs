//! The `/api` surface: one `OpenApiRouter` per API group (`http/<group>.rs`, each exposing
//! `pub fn router() -> OpenApiRouter<AppState>`), merged here behind the auth guard, plus the
//! OpenAPI document at `/api/openapi.json` and envelope answers for unknown paths.

use std::sync::Arc;

use axum::routing::{any, get};
use axum::{Json, Router};
use moneydesk_model::paths;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::auth::{Guard, GuardLayer};
use crate::error::Error;
use crate::AppState;

pub mod compress;
pub mod extract;
pub mod finish;
pub mod openapi;
pub mod params;

// One module per API group.
pub mod accounts;
pub mod auth;
pub mod deposits;
pub mod email;
pub mod fees;
pub mod permissions;
pub mod routing;
pub mod vault;

/// Every group's routes and operations, before the guard is applied.
pub fn groups() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .merge(fees::router())
        .merge(vault::router())
        .merge(email::router())
        .merge(routing::router())
        .merge(deposits::router())
        .merge(accounts::router())
        .merge(permissions::router())
        .merge(auth::router())
}

/// The complete OpenAPI document.
pub fn openapi_doc() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = groups().split_for_parts();
    openapi::finish(&mut doc);
    doc
}

/// The `/api` router (`server::app` adds the error shaping around it). Fails
/// when an operation declares no bearer requirement.
pub fn api(state: &AppState) -> anyhow::Result<Router<AppState>> {
    let (routes, mut doc) = groups().split_for_parts();
    openapi::finish(&mut doc);
    let guard = Guard::from_openapi(&doc, state.db.clone(), state.config.body_limit)?;
    let doc = Arc::new(doc);

    // route_layer: the guard runs on every group route (after routing, so it knows the
    // operation) and never on unknown paths, which answer 404 below.
    let routes = routes.route_layer(GuardLayer(guard));
    Ok(routes
        .route(paths::OPENAPI, get(move || async move { Json(doc.as_ref().clone()) }))
        .route("/api", any(unknown_path))
        .route("/api/", any(unknown_path))
        .route("/api/{*rest}", any(unknown_path)))
}

async fn unknown_path() -> Error {
    Error::not_found("No such API path; see /api/openapi.json")
}
