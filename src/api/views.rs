//! Saved views (extension): the caller's views of a data table, a save (creating or replacing
//! by name) and a delete. Called only from the table's saved-views menu (lazy page chunks).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::views::{SavedView, SavedViewBody};
use moneydesk_model::{paths, Envelope};

use super::client::{envelope_data, Body};
use super::{ApiError, Client};

fn view_path(table: &str, name: &str) -> String {
    paths::fill(&paths::fill(paths::SAVED_VIEW, "table", table), "name", name)
}

/// GET `…/views?table=`: the caller's views of `table`, by name.
pub fn list(client: &Client, table: &str) -> impl Future<Output = Result<Vec<SavedView>, ApiError>> + 'static {
    client.get_data(paths::SAVED_VIEWS, &[("table", table)])
}

/// PUT `…/views/{table}/{name}`: saves the view (a name the caller has is replaced).
pub fn save(
    client: &Client,
    table: &str,
    name: &str,
    query: &str,
) -> impl Future<Output = Result<SavedView, ApiError>> + 'static {
    let body = Body::json(&SavedViewBody { query: query.to_string() });
    let sent = body.map(|b| client.send::<Envelope<SavedView>>(Method::PUT, &view_path(table, name), &[], Some(b)));
    async move { envelope_data(sent?.await?) }
}

/// DELETE `…/views/{table}/{name}`.
pub fn delete(client: &Client, table: &str, name: &str) -> impl Future<Output = Result<SavedView, ApiError>> + 'static {
    let sent = client.send::<Envelope<SavedView>>(Method::DELETE, &view_path(table, name), &[], None);
    async move { envelope_data(sent.await?) }
}
