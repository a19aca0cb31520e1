//! The `/api` surface: one `OpenApiRouter` per API group (`crate::<group>::router`, listed in
//! [`GROUPS`], the server's one list of groups), merged here behind the auth guard, plus the
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

pub mod bulk;
pub mod client;
pub mod compress;
pub mod extract;
pub mod finish;
pub mod health;
pub mod idempotency;
pub mod members;
pub mod openapi;
pub mod params;
pub mod query;

// The shell's own operation (`auth/me`); the API groups live in `crate::<group>`.
pub mod auth;

/// The server's one registry of groups: each group's router (its routes and operations),
/// in the description's order. Adding a group means adding its line here and nowhere else.
pub const GROUPS: [fn() -> OpenApiRouter<AppState>; 17] = [
    crate::fees::router,
    crate::vault::router,
    crate::email::router,
    crate::routing::router,
    crate::deposits::router,
    crate::cash_letters::router,
    crate::ledger::router,
    crate::accounts::router,
    crate::permissions::router,
    crate::webhooks::router,
    crate::audit::router,
    crate::events::router,
    crate::tokens::router,
    crate::views::router,
    crate::overview::router,
    crate::search::router,
    auth::router,
];

/// Every group's routes and operations, before the guard is applied.
pub fn groups() -> OpenApiRouter<AppState> {
    GROUPS.iter().fold(OpenApiRouter::with_openapi(openapi::ApiDoc::openapi()), |all, group| all.merge(group()))
}

/// The complete OpenAPI document.
pub fn openapi_doc() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = groups().split_for_parts();
    openapi::finish(&mut doc);
    idempotency::document_all(&mut doc);
    doc
}

/// The `/api` router (`server::app` adds the error shaping around it). Fails
/// when an operation declares no bearer requirement.
pub fn api(state: &AppState) -> anyhow::Result<Router<AppState>> {
    let (routes, mut doc) = groups().split_for_parts();
    // Read before `finish` documents the key on every POST and DELETE: which handle their own.
    let idempotency = idempotency::IdempotencyLayer::new(state, &doc)?;
    openapi::finish(&mut doc);
    idempotency::document_all(&mut doc);
    // A vault upload is streamed to the blob store and counted there (413 past the limit);
    // the multipart framing around the file adds a little.
    let upload_limit = usize::try_from(state.config.vault_upload_limit.saturating_add(1 << 20)).unwrap_or(usize::MAX);
    let guard = Guard::from_openapi(&doc, state.stores.tokens.clone(), state.config.body_limit)?
        .with_body_limit(paths::VAULT_FILE, upload_limit)
        // A send may carry 30 MiB of attachments, in base64 inside JSON.
        .with_body_limit(
            paths::EMAIL_SEND,
            moneydesk_model::email::send::MAX_REQUEST_BYTES.max(state.config.body_limit),
        );
    let doc = Arc::new(doc);

    // route_layer: the guard runs on every group route (after routing, so it knows the
    // operation) and never on unknown paths, which answer 404 below.
    // The idempotency layer is applied first, so it runs inside the guard (the caller known).
    let routes = routes.route_layer(idempotency).route_layer(GuardLayer(guard));
    Ok(routes
        .route(paths::OPENAPI, get(move || async move { Json(doc.as_ref().clone()) }))
        .route("/api", any(unknown_path))
        .route("/api/", any(unknown_path))
        .route("/api/{*rest}", any(unknown_path)))
}

async fn unknown_path() -> Error {
    Error::not_found("No such API path; see /api/openapi.json")
}
