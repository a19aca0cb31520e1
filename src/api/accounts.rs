//! The accounts group: GET /api/v1/cores/unifi/accounts, a page of
//! `moneydesk_model::accounts::Account` records.

use std::future::Future;

use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::paths::ACCOUNTS;
use moneydesk_model::Page;
use serde_json::Value;

use super::{page::get_page, ApiError, Client};

pub fn page(client: &Client, query: &CollectionQuery) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    get_page(client, ACCOUNTS, query)
}
