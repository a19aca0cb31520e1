//! The audit trail (extension, `audit:read`): a page of records (newest first, filtered), the
//! same rows as the server's CSV, one record, the chains' verification, and a day's signed
//! export. Every call is aborted when the component that made it goes away (client.rs).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::audit::{AuditRecord, AuditVerification};
use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::{paths, Page};
use serde_json::Value;

use super::{page::get_page, ApiError, Client};

fn refs(pairs: &[(String, String)]) -> Vec<(&str, &str)> {
    pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// GET `…/audit/records` with the table's query (`page`, `size`, the filters `from`, `to`,
/// `userId`, `operation`, `targetType`, `targetId`, `outcome`), as JSON records.
pub fn page(client: &Client, query: &CollectionQuery) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    get_page(client, paths::AUDIT_RECORDS, query)
}

/// The records of one object (`targetType`, `targetId`), newest first, typed.
pub fn records_of(
    client: &Client,
    target_type: &str,
    target_id: &str,
    page: u64,
    size: u32,
) -> impl Future<Output = Result<Page<AuditRecord>, ApiError>> + 'static {
    let (page, size) = (page.to_string(), size.to_string());
    let q = [("targetType", target_type), ("targetId", target_id), ("page", page.as_str()), ("size", size.as_str())];
    client.get_data(paths::AUDIT_RECORDS, &q)
}

/// Every record matching `filters`, as the server's CSV (`format=csv`).
pub fn records_csv(
    client: &Client,
    filters: &[(String, String)],
) -> impl Future<Output = Result<String, ApiError>> + 'static {
    let mut q = refs(filters);
    q.push(("format", "csv"));
    let sent = client.send_raw(Method::GET, paths::AUDIT_RECORDS, &q, None);
    async move { super::client::read_text(sent.await?).await }
}

/// GET `…/audit/records/{id}`.
pub fn record(client: &Client, id: i64) -> impl Future<Output = Result<AuditRecord, ApiError>> + 'static {
    client.get_data(&paths::fill(paths::AUDIT_RECORD, "id", &id.to_string()), &[])
}

/// GET `…/audit/verify?from=&to=` (days, `YYYY-MM-DD`; the server's default range without).
pub fn verify(
    client: &Client,
    from: Option<&str>,
    to: Option<&str>,
) -> impl Future<Output = Result<AuditVerification, ApiError>> + 'static {
    let q: Vec<(&str, &str)> = [("from", from), ("to", to)].into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
    client.get_data(paths::AUDIT_VERIFY, &q)
}

/// GET `…/audit/days/{day}/export`: the day's records as JSON lines (signed by the server in
/// its `Moneydesk-Signature` header), as a Blob to save.
pub fn export_day(client: &Client, day: &str) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let sent = client.send_raw(Method::GET, &paths::fill(paths::AUDIT_EXPORT, "day", day), &[], None);
    async move { super::client::blob(sent.await?).await }
}
