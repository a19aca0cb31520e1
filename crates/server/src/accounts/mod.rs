//! Unified accounts: GET /api/v1/cores/unifi/accounts, the envelope with a page of
//! [`Account`]s. Sort and filter parameters are extensions (documented below).

use axum::extract::{RawQuery, State};
use moneydesk_model::accounts::{Account, AccountQuery};
use moneydesk_model::{paths, Envelope, Page};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use self::store::AccountSelection;
use crate::auth::Caller;
use crate::error::Error;
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::AppState;

crate::group_state! {
    /// What the accounts handlers reach: their store.
    pub struct AccountsState {
        accounts: crate::accounts::store::AccountStore = stores.accounts,
    }
}

pub mod import;
pub mod seed;
pub mod store;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_accounts))
}

/// Sort and filters (extensions). Any other parameter is a 400 naming it.
#[derive(Debug, serde::Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
pub struct AccountListParams {
    /// `field[,asc|desc]`, one of createTime, accountName (ignoring case), accountStatus,
    /// accountType, marketValue (no value sorts lowest), id. Without it: insertion order
    /// (`sort.unsorted`). Ties are broken by a unique key, so paging never repeats or skips.
    #[param(example = "createTime,desc", schema_with = crate::http::params::account_sort)]
    sort: Option<String>,
    /// Active, Closed, Inactive, Pending or Suspended (any case).
    #[param(schema_with = crate::http::params::account_status)]
    accountStatus: Option<String>,
    /// API_Customer, Corporate_Client, Corporate_Holding, Household or Individual_Client (any
    /// case).
    #[param(schema_with = crate::http::params::account_type)]
    accountType: Option<String>,
    /// accountName contains this, ignoring case (at most 100 characters).
    #[param(max_length = 100)]
    name: Option<String>,
    /// createTime at or after: `YYYY-MM-DD` (start of day) or `YYYY-MM-DDTHH:MM[:SS[.fff]]`.
    #[param(schema_with = crate::http::params::date_or_date_time)]
    createTimeFrom: Option<String>,
    /// createTime at or before: a date includes that whole day.
    #[param(schema_with = crate::http::params::date_or_date_time)]
    createTimeTo: Option<String>,
}

/// A page of accounts (description 2.6 records; `marketValue` is a decimal string,
/// `createTime` ISO 8601 without zone, `tin` masked to its last four digits). Any page is
/// answered in about the same time as the first, sorted or filtered by status, type or a
/// createTime range (under the createTime sort); a `name` filter, or a createTime range
/// under another sort, reads every candidate row, so its cost grows with the table. A page
/// past the end has empty `content` and the right totals. An empty parameter value counts as
/// absent.
#[utoipa::path(get, path = paths::ACCOUNTS, tag = "accounts", params(PageParams, AccountListParams),
    security(("bearer" = ["accounts:read"])),
    responses((status = 200, description = "A page of accounts", body = Envelope<Page<Account>>)))]
async fn list_accounts(
    State(state): State<AccountsState>,
    _caller: Caller,
    RawQuery(query): RawQuery,
) -> Result<Json<Envelope<Page<Account>>>, Error> {
    let query = query.unwrap_or_default();
    let parsed = AccountQuery::from_query(url::form_urlencoded::parse(query.as_bytes()))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let selection = AccountSelection::new(&parsed).map_err(|e| Error::field(e.param(), e.to_string()))?;
    Ok(Json(Envelope::ok(state.accounts().list(&selection).await?)))
}
