//! The deposits group: the described list (`GET …/deposits`, for the table, with the members
//! a list item lacks asked for by `fields`), one deposit with its history and allowed moves, its check images, a move of its
//! state machine, and a check deposit's creation (with an `Idempotency-Key`, so a retried
//! submission makes one deposit), a check's scan (its MICR line read by the server), and a cash deposit's creation.
//! Bulk (issue 45): one move on many deposits (`…/deposits/bulk`) and their CSV (`…/deposits/export`).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::bulk::{BulkRequest, BulkResult, BulkSelect};
use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::deposits::{
    CashDepositFields, CheckDepositFields, CheckScan, CheckScanFields, DepositAction, DepositDayTotal, DepositDetail,
    DepositMove, DepositRecord, ElectronicDepositFields,
};
use moneydesk_model::paths::{self, DEPOSITS, DEPOSITS_CHECK};
use moneydesk_model::{Envelope, Page};
use serde::Serialize;
use serde_json::Value;

use super::client::{envelope_data, Body};
use super::{page::get_page, ApiError, Client};

/// What the table needs that the list item (2.4: name, serviceType, accountNumber,
/// unifiedAccountId, createdDate, recordTypeId, acId) lacks, asked for through the list's
/// `fields` extension: the id (the row's key and its drawer), the amount, fee and status, the
/// check's number, bank and dates, what the form sent (paymentType, payerType, source, memo),
/// who submitted it and where the state machine stands (step, completedDate).
pub const LIST_FIELDS: &str = "id,amount,feeApplied,status,step,checkNumber,bankName,bankRoutingNumber,scheduleDate,\
    checkDate,completedDate,paymentType,payerType,memo,source,submitterId";

/// GET `…/deposits`: a page of the described list, each item with [`LIST_FIELDS`] (JSON
/// objects: the data table shows them by field name).
pub fn list(client: &Client, query: &CollectionQuery) -> impl Future<Output = Result<Page<Value>, ApiError>> + 'static {
    let mut query = query.clone();
    query.filters.push(("fields".into(), LIST_FIELDS.into()));
    get_page(client, DEPOSITS, &query)
}

fn deposit_path(template: &str, id: i64) -> String {
    paths::fill(template, "id", &id.to_string())
}

/// GET `…/deposits/{id}`: the deposit, its history and the moves allowed now.
pub fn detail(client: &Client, id: i64) -> impl Future<Output = Result<DepositDetail, ApiError>> + 'static {
    client.get_data(&deposit_path(paths::DEPOSIT, id), &[])
}

/// POST `…/deposits/{id}/actions`: one move; reject and return need a reason.
pub fn apply(
    client: &Client,
    id: i64,
    action: DepositAction,
    reason: Option<String>,
) -> impl Future<Output = Result<DepositDetail, ApiError>> + 'static {
    let body = Body::json(&DepositMove { action, reason, reason_code: None });
    let path = deposit_path(paths::DEPOSIT_ACTIONS, id);
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<DepositDetail>>(Method::POST, &path, &[], Some(body?));
        envelope_data(sent.await?)
    }
}

/// GET `…/deposits/{id}/images/{front|back}`: the image as stored, as a Blob to show.
pub fn image(
    client: &Client,
    id: i64,
    side: &'static str,
) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let path = paths::fill(&deposit_path(paths::DEPOSIT_IMAGE, id), "side", side);
    let sent = client.send_raw(Method::GET, &path, &[], None);
    async move { super::client::blob(sent.await?).await }
}

/// POST `…/deposits/check` with `key` as its `Idempotency-Key`: the same key and body answer the
/// same deposit, so a submission retried after a lost answer never deposits twice.
pub fn create(
    client: &Client,
    fields: &CheckDepositFields,
    key: &str,
) -> impl Future<Output = Result<DepositRecord, ApiError>> + 'static {
    let body = Body::json(fields);
    let client = client.clone().with_header("Idempotency-Key", key);
    async move { client.send::<DepositRecord>(Method::POST, DEPOSITS_CHECK, &[], Some(body?)).await }
}

/// POST `…/deposits/check/smas/{smaSfid}/scan`: both sides measured and stored, the MICR line
/// read; the answer's `scanId` is what the deposit then names instead of its images.
pub fn scan(
    client: &Client,
    sleeve: &str,
    fields: &CheckScanFields,
) -> impl Future<Output = Result<CheckScan, ApiError>> + 'static {
    let body = Body::json(fields);
    let path = paths::fill(paths::DEPOSITS_CHECK_SCAN, "smaSfid", sleeve);
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<CheckScan>>(Method::POST, &path, &[], Some(body?));
        envelope_data(sent.await?)
    }
}

/// POST `…/deposits/electronic` with `key` as its `Idempotency-Key`: an ACH pull recorded once.
pub fn create_electronic(
    client: &Client,
    fields: &ElectronicDepositFields,
    key: &str,
) -> impl Future<Output = Result<DepositRecord, ApiError>> + 'static {
    let body = Body::json(fields);
    let client = client.clone().with_header("Idempotency-Key", key);
    async move { client.send::<DepositRecord>(Method::POST, paths::DEPOSITS_ELECTRONIC, &[], Some(body?)).await }
}

/// POST `…/deposits/cash` with `key` as its `Idempotency-Key`: cash recorded once.
pub fn create_cash(
    client: &Client,
    fields: &CashDepositFields,
    key: &str,
) -> impl Future<Output = Result<DepositRecord, ApiError>> + 'static {
    let body = Body::json(fields);
    let client = client.clone().with_header("Idempotency-Key", key);
    async move { client.send::<DepositRecord>(Method::POST, paths::DEPOSITS_CASH, &[], Some(body?)).await }
}

/// GET `…/deposits/ach-file?effectiveDate=`: the NACHA file of that day's pulls, as text.
pub fn ach_file(client: &Client, day: &str) -> impl Future<Output = Result<String, ApiError>> + 'static {
    let sent = client.send_raw(Method::GET, paths::DEPOSITS_ACH_FILE, &[("effectiveDate", day)], None);
    async move {
        let resp = sent.await?;
        let url = resp.url();
        resp.text().await.map_err(|e| super::error::network_error(&url, e))
    }
}

/// GET `…/deposits/daily-totals` with the list's filters: count and sum per day and status.
pub fn daily_totals(
    client: &Client,
    filters: &[(String, String)],
) -> impl Future<Output = Result<Vec<DepositDayTotal>, ApiError>> + 'static {
    let refs: Vec<(&str, &str)> = filters.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(paths::DEPOSIT_DAILY_TOTALS, &refs)
}

/// A bulk move's parameter beside its action: a reject's one reason for all.
#[derive(Serialize)]
struct BulkReason {
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// POST `…/deposits/bulk` with `key` as its `Idempotency-Key`: `confirm`, `reject` (with
/// `reason`) or `cancel` on the selected deposits (ids, or the list's filter applied by the
/// server); the answer says per deposit `done` or `refused` and why.
pub fn bulk(
    client: &Client,
    action: &str,
    reason: Option<String>,
    select: BulkSelect,
    key: &str,
) -> impl Future<Output = Result<BulkResult, ApiError>> + 'static {
    let request = BulkRequest { action: action.to_string(), params: BulkReason { reason }, select };
    let body = Body::json(&request);
    let client = client.clone().with_header("Idempotency-Key", key);
    async move {
        let sent = client.send::<Envelope<BulkResult>>(Method::POST, paths::DEPOSITS_BULK, &[], Some(body?));
        envelope_data(sent.await?)
    }
}

/// POST `…/deposits/export`: the selected deposits' records as a CSV file (a Blob to save).
pub fn export(client: &Client, select: BulkSelect) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    #[derive(Serialize)]
    struct Export {
        select: BulkSelect,
    }
    let body = Body::json(&Export { select });
    let client = client.clone();
    async move {
        let resp = client.send_raw(Method::POST, paths::DEPOSITS_EXPORT, &[], Some(body?)).await?;
        super::client::blob(resp).await
    }
}
