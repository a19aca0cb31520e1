//! Saved views: the caller's list, one view, a save (create or replace by name), a delete.
//! Views belong to the token's user; another user's view is answered as an unknown one (404).

use axum::extract::State;
use axum::http::StatusCode;
use moneydesk_model::views::{SavedView, SavedViewBody, TableId, ViewName, ViewQuery, TOO_MANY_VIEWS};
use moneydesk_model::{paths, Envelope};
use serde::Deserialize;
use utoipa::IntoParams;

use super::store::Saved;
use super::ViewsState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path, Query};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ListParams {
    /// Only this table's views (a data table's id: `accounts`, `deposits`, …); every table's
    /// when absent.
    #[param(pattern = "^[a-z][a-z0-9-]{0,63}$")]
    table: Option<String>,
}

fn table(given: &str) -> Result<TableId, Error> {
    given.parse().map_err(|e: moneydesk_model::views::TableIdError| Error::field("table", e.to_string()))
}

/// The path's table and name, checked (400 naming the wrong one).
fn key(table_given: &str, name_given: &str) -> Result<(TableId, ViewName), Error> {
    let name = name_given.parse::<ViewName>().map_err(|e| Error::field("name", e.to_string()));
    match (table(table_given), name) {
        (Ok(t), Ok(n)) => Ok((t, n)),
        (Err(mut a), Err(b)) => {
            a.fields.extend(b.fields);
            Err(Error::fields(a.fields))
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

fn unknown(table: &TableId, name: &ViewName) -> Error {
    Error::not_found(format!("You have no view {name:?} of table {table}"))
}

#[utoipa::path(operation_id = "list_saved_views", get, path = paths::SAVED_VIEWS, tag = "views",
    params(ListParams),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "The caller's saved views (of `table` when given), by table, then by name in byte order. A view belongs to the token's user (`userId`; a token made without one is its own user, named like the token): any token reaches its own user's views and never another's, an `admin` token included. Not paged: a user keeps at most 100 views per table.",
    responses((status = 200, description = "The views", body = Envelope<Vec<SavedView>>),
        (status = 400, description = "`table` is not a table id", body = ErrorEnvelopeDoc)))]
pub(super) async fn list(
    State(state): State<ViewsState>,
    caller: Caller,
    Query(params): Query<ListParams>,
) -> Result<Json<Envelope<Vec<SavedView>>>, Error> {
    let table = params.table.as_deref().map(table).transpose()?;
    Ok(Json(Envelope::ok(state.views().list(caller.user_id(), table.as_ref()).await?)))
}

#[utoipa::path(operation_id = "get_saved_view", get, path = paths::SAVED_VIEW, tag = "views",
    params(("table" = String, Path, description = "The data table's id: a lowercase letter, then lowercase letters, digits and `-` (at most 64)", pattern = "^[a-z][a-z0-9-]{0,63}$", example = "accounts"),
        ("name" = String, Path, description = "The view's name, percent-encoded: 1 to 80 characters after trimming, no control characters; compared exactly", pattern = "^\\s*[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f]{0,78}[^\\s\\x00-\\x1f\\x7f-\\x9f])?\\s*$", example = "Active")),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "One of the caller's views. Another user's view of the same name is not told apart from none (404).",
    responses((status = 200, description = "The view", body = Envelope<SavedView>),
        (status = 400, description = "`table` or `name` is wrong", body = ErrorEnvelopeDoc),
        (status = 404, description = "The caller has no view of this name on this table", body = ErrorEnvelopeDoc)))]
pub(super) async fn detail(
    State(state): State<ViewsState>,
    caller: Caller,
    Path((table, name)): Path<(String, String)>,
) -> Result<Json<Envelope<SavedView>>, Error> {
    let (table, name) = key(&table, &name)?;
    let view = state.views().get(caller.user_id(), &table, &name).await?;
    Ok(Json(Envelope::ok(view.ok_or_else(|| unknown(&table, &name))?)))
}

#[utoipa::path(operation_id = "save_saved_view", put, path = paths::SAVED_VIEW, tag = "views",
    params(("table" = String, Path, description = "The data table's id: a lowercase letter, then lowercase letters, digits and `-` (at most 64)", pattern = "^[a-z][a-z0-9-]{0,63}$", example = "accounts"),
        ("name" = String, Path, description = "The view's name, percent-encoded: 1 to 80 characters after trimming, no control characters; compared exactly", pattern = "^\\s*[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f]{0,78}[^\\s\\x00-\\x1f\\x7f-\\x9f])?\\s*$", example = "Active")),
    request_body = SavedViewBody,
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "Saves the caller's view `name` of `table`: its `query` is the URL query the table owns (filters, `sort`, `size`; the portal leaves `page` out, so a view opens on its first page), kept as sent, without `?`. A name the caller already has on this table is replaced (200; its id and `createdAt` kept, `updatedAt` new), otherwise created (201). Names are compared exactly after trimming (`Active` and `active` are two views). The table id is not checked against the portal's tables (a view of a table the portal no longer has is simply never offered), and the query's parameters are not checked against the table's: the table reads its URL as it reads any link. Any token saves its own user's views; a user keeps at most 100 per table (a new name beyond answers 422, `reason` `too_many_views`). PUT is idempotent by itself: it takes no `Idempotency-Key`.",
    responses((status = 200, description = "Replaced", body = Envelope<SavedView>),
        (status = 201, description = "Created", body = Envelope<SavedView>),
        (status = 400, description = "A field is wrong: `table`, `name` or `query` (at most 2000 visible ASCII characters, percent-encoded, no `#`)", body = ErrorEnvelopeDoc),
        (status = 422, description = "The caller has 100 views of this table already (`reason` `too_many_views`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn save(
    State(state): State<ViewsState>,
    caller: Caller,
    Path((table, name)): Path<(String, String)>,
    Json(body): Json<SavedViewBody>,
) -> Result<(StatusCode, Json<Envelope<SavedView>>), Error> {
    let (table, name) = key(&table, &name)?;
    let query: ViewQuery =
        body.query.parse().map_err(|e: moneydesk_model::views::ViewQueryError| Error::field("query", e.to_string()))?;
    match state.views().save(caller.user_id(), &table, &name, &query).await? {
        Saved::Created(v) => Ok((StatusCode::CREATED, Json(Envelope::with_code(201, v)))),
        Saved::Replaced(v) => Ok((StatusCode::OK, Json(Envelope::ok(v)))),
        Saved::TooMany => Err(Error::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            TOO_MANY_VIEWS,
            format!("You keep 100 views of table {table} already: delete one, or save over one by its name"),
        )),
    }
}

#[utoipa::path(operation_id = "delete_saved_view", delete, path = paths::SAVED_VIEW, tag = "views",
    params(("table" = String, Path, description = "The data table's id: a lowercase letter, then lowercase letters, digits and `-` (at most 64)", pattern = "^[a-z][a-z0-9-]{0,63}$", example = "accounts"),
        ("name" = String, Path, description = "The view's name, percent-encoded: 1 to 80 characters after trimming, no control characters; compared exactly", pattern = "^\\s*[^\\s\\x00-\\x1f\\x7f-\\x9f](?:[^\\x00-\\x1f\\x7f-\\x9f]{0,78}[^\\s\\x00-\\x1f\\x7f-\\x9f])?\\s*$", example = "Active")),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "Deletes one of the caller's views and answers it as it was. A link made from it keeps working: it is the page's path and the query, not the view. Another user's view is not told apart from none (404).",
    responses((status = 200, description = "Deleted; the view as it was", body = Envelope<SavedView>),
        (status = 400, description = "`table` or `name` is wrong", body = ErrorEnvelopeDoc),
        (status = 404, description = "The caller has no view of this name on this table", body = ErrorEnvelopeDoc)))]
pub(super) async fn delete(
    State(state): State<ViewsState>,
    caller: Caller,
    Path((table, name)): Path<(String, String)>,
) -> Result<Json<Envelope<SavedView>>, Error> {
    let (table, name) = key(&table, &name)?;
    let view = state.views().delete(caller.user_id(), &table, &name).await?;
    Ok(Json(Envelope::ok(view.ok_or_else(|| unknown(&table, &name))?)))
}
