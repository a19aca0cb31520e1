//! Webhooks (extension, `webhooks:write`): endpoints events are pushed to, signed, at least
//! once, in order per object.
//!
//! - `handlers.rs`: the endpoints (create, list, get, change, delete, rotate the secret);
//!   `log.rs`: a test event, the delivery log, replays, the last 7 days.
//! - `store/`: the tables (`0020_webhooks.sql`), the dispatch, the queue.
//! - `delivery.rs`: the dispatcher and the worker; `signing.rs`: the signature; `url.rs`: the
//!   URL rule (server-side request forgery); `alert.rs`: the email when the server disables
//!   an endpoint.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub mod alert;
pub mod delivery;
mod handlers;
mod log;
pub mod signing;
pub mod store;
pub mod url;

crate::group_state! {
    /// What the webhook handlers reach: their store and the settings (allow-list, retries).
    pub struct WebhooksState {
        webhooks: crate::webhooks::store::WebhookStore = stores.webhooks,
        config: std::sync::Arc<crate::Config> = config,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::list, handlers::create))
        .routes(routes!(handlers::detail, handlers::update, handlers::delete))
        .routes(routes!(handlers::rotate_secret))
        .routes(routes!(log::send_test))
        .routes(routes!(log::deliveries))
        .routes(routes!(log::replay))
        .routes(routes!(log::stats))
}
