//! Company user permissions: GET /api/v2/services/company/users/permissions, the envelope
//! with a page of [`Permission`]s (a record this server defines; see its schema).

use axum::extract::{RawQuery, State};
use moneydesk_model::permissions::{Permission, PermissionQuery};
use moneydesk_model::{paths, Envelope, Page};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::Error;
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::AppState;

crate::group_state! {
    /// What the permissions handlers reach: their store.
    pub struct PermissionsState {
        permissions: crate::permissions::store::PermissionStore = stores.permissions,
    }
}

pub mod import;
pub mod seed;
pub mod store;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_permissions))
}

/// Sort and filters (extensions). Any other parameter is a 400 naming it.
#[derive(Debug, serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
pub struct PermissionListParams {
    /// `field[,asc|desc]`, one of id, userName, userId, companyName, scope, grantedAt,
    /// grantedBy. Without it: by id. Ties are broken by id.
    #[param(example = "grantedAt,desc", schema_with = crate::http::params::permission_sort)]
    sort: Option<String>,
    /// userId equal to this, or userName / userEmail containing it (ignoring case; at most
    /// 100 characters).
    #[param(max_length = 100)]
    user: Option<String>,
    /// One API scope name, e.g. `deposits:write`.
    #[param(schema_with = crate::http::params::scope)]
    scope: Option<String>,
    /// companyId equal to this.
    companyId: Option<String>,
}

/// A page of permissions: each is one API scope granted to one user of one company, with
/// who granted it and when (`grantedAt` ISO 8601 without zone). A page past the end has
/// empty `content` and the right totals. An empty parameter value counts as absent.
#[utoipa::path(get, path = paths::PERMISSIONS, tag = "permissions", params(PageParams, PermissionListParams),
    security(("bearer" = ["permissions:read"])),
    responses((status = 200, description = "A page of permissions", body = Envelope<Page<Permission>>)))]
async fn list_permissions(
    State(state): State<PermissionsState>,
    _caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<Envelope<Page<Permission>>>, Error> {
    let query = query.unwrap_or_default();
    let parsed = PermissionQuery::from_query(url::form_urlencoded::parse(query.as_bytes()))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    Ok(Json(Envelope::ok(state.permissions().list(&parsed).await?)))
}
