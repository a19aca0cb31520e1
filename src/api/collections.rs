//! The paged collections: accounts (GET /api/v1/cores/unifi/accounts) and company-user
//! permissions (GET /api/v2/services/company/users/permissions), answered as
//! `Envelope<Page<record>>`. Records stay JSON objects here: the data table shows and exports
//! them by field name, so one copy of the table's code serves every collection.

use std::future::Future;

use moneydesk_model::paths::{ACCOUNTS, PERMISSIONS};
use moneydesk_model::Page;
use serde_json::Value;

use super::{ApiError, Client};
use crate::components::data_table::TableQuery;

/// GET a collection `path` with the table's query (`page` 1-based, `size`, `sort`, filters).
pub fn get_page(
    client: &Client,
    path: &str,
    query: &TableQuery,
) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    let pairs = query.pairs();
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data::<Page<Value>>(path, &refs)
}

/// A page of accounts (`moneydesk_model::accounts::Account` records).
pub fn accounts(client: &Client, query: &TableQuery) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    get_page(client, ACCOUNTS, query)
}

/// A page of permissions (`moneydesk_model::permissions::Permission` records).
pub fn permissions(
    client: &Client,
    query: &TableQuery,
) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    get_page(client, PERMISSIONS, query)
}
