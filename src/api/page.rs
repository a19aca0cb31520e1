//! The paged collections' one request: GET a collection path with a `CollectionQuery`, answered
//! as `Envelope<Page<record>>`. Records stay JSON objects here: the data table shows and exports
//! them by field name, so one copy of the table's code serves every collection. Each group's
//! module names its path (`accounts.rs`, `permissions.rs`, `routing.rs`).

use std::future::Future;

use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::Page;
use serde_json::Value;

use super::{ApiError, Client};

/// GET a collection `path` with `query` (`page` 1-based, `size`, `sort`, filters).
pub fn get_page(
    client: &Client,
    path: &str,
    query: &CollectionQuery,
) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    let pairs = query.pairs();
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data::<Page<Value>>(path, &refs)
}
