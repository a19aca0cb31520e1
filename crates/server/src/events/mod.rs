//! Events (extension): what happened, typed, written in the change's own transaction by the
//! groups (`storage::events::append`), read here, pushed to webhook endpoints by `webhooks`.
//! A token reads the events of the types whose group it may read (`EventType::scope`).

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

mod handlers;
pub mod store;

crate::group_state! {
    /// What the events handlers reach: the database the events are in.
    pub struct EventsState {
        database: crate::storage::Database = stores.database,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(handlers::list)).routes(routes!(handlers::get))
}
