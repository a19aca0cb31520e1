//! The permissions group: GET /api/v2/services/company/users/permissions, a page of
//! `moneydesk_model::permissions::Permission` records.

use std::future::Future;

use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::paths::PERMISSIONS;
use moneydesk_model::Page;
use serde_json::Value;

use super::{page::get_page, ApiError, Client};

pub fn page(client: &Client, query: &CollectionQuery) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    get_page(client, PERMISSIONS, query)
}
