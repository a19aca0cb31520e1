//! Saved views (extension, any token): a data table's view saved by name per user, so that it
//! follows the user to another browser; shareable as its link (the page's path and query).
//! `handlers.rs` the operations; `store.rs` their table (`0023_saved_views.sql`).

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

mod handlers;
pub mod store;

crate::group_state! {
    /// What the views handlers reach: their store.
    pub struct ViewsState {
        views: store::ViewStore = stores.views,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(handlers::list)).routes(routes!(
        handlers::detail,
        handlers::save,
        handlers::delete
    ))
}
