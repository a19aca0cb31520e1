//! Deposits (description 2.4, 2.5, 3, 4.5; CONTRACT.md points 6, 10, 11, 14): the list,
//! check deposit creation, and the extensions a back office needs — one deposit with its
//! history, its images, and moves of its state machine (`moneydesk_model::deposits::state`).
//! Scanning (`…/smas/{smaSfid}/scan`, `scan.rs`): both sides measured and stored as grayscale
//! and G4, the MICR line read; a check deposit then names the scan instead of sending images.

use axum::body::Bytes;
use axum::extract::{Path as UrlPath, RawQuery, Request, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use moneydesk_model::deposits::{
    CashDepositFields, CheckDepositFields, CheckScan, CheckScanFields, DepositDayTotal, DepositDetail, DepositMove,
    DepositRecord, ElectronicDepositFields,
};
use moneydesk_model::{paths, DepositListItem, Envelope, Page};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{self, Json};
use crate::http::openapi::PageParams;
use crate::AppState;

mod ach_file;
mod bulk;
mod cash;
mod check;
pub mod electronic;
mod handlers;
pub mod images;
mod list;
mod record;
pub mod returns;
pub use record::{money, today};

crate::group_state! {
    /// What the deposits handlers reach: their store and images, and what a deposit is checked
    /// against and priced by (the payee's account, the routing directory, the fee schedule).
    pub struct DepositsState {
        deposits: crate::deposits::store::DepositStore = stores.deposits,
        accounts: crate::accounts::store::AccountStore = stores.accounts,
        routing: crate::routing::directory::State = routing,
        fees: crate::fees::State = fees,
        blobs: crate::storage::blobs::Blobs = blobs,
        config: std::sync::Arc<crate::Config> = config,
        books: crate::ledger::Books = books,
    }
}

mod scan;
pub mod settlement;
pub mod store;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_deposits))
        .routes(routes!(list_deposit_records))
        .routes(routes!(deposit_daily_totals))
        .routes(routes!(create_check_deposit))
        .routes(routes!(scan_check))
        .routes(routes!(create_electronic_deposit))
        .routes(routes!(create_cash_deposit))
        .routes(routes!(ach_file::day_ach_file))
        .routes(routes!(ach_file::send_day_ach_file))
        .routes(routes!(get_deposit))
        .routes(routes!(deposit_image))
        .routes(routes!(move_deposit))
        .routes(routes!(bulk::bulk_deposits))
        .routes(routes!(bulk::export_deposits))
        .merge(returns::router())
}

fn pairs(q: &Option<String>) -> Vec<(String, String)> {
    crate::http::extract::query_pairs(q.as_deref())
}

/// The list's filters (all optional; CONTRACT.md points 3 and 4 for the paging), also those
/// of the daily totals.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct DepositFilters {
    /// A status of the state machine.
    #[param(pattern = "^(In_Progress_1|Confirmed_2|Sent_3|Settled_4|Returned_5|Rejected_6|Cancelled_7)$")]
    status: Option<String>,
    /// A deposit kind.
    #[param(pattern = "^(Cash|Check|Check_Scan|Image_Cash_Letter|Electronic_Deposit)$")]
    serviceType: Option<String>,
    /// Created on or after this day (business time zone).
    #[param(format = Date)]
    createdFrom: Option<String>,
    /// Created on or before this day (business time zone).
    #[param(format = Date)]
    createdTo: Option<String>,
    /// The payee's account id.
    #[param(min_length = 1, pattern = "\\S")]
    payeeAccountId: Option<String>,
    /// Amounts from (inclusive), e.g. `100.00`.
    #[param(pattern = r"^[0-9]{1,10}(\.[0-9]{1,2})?$")]
    amountMin: Option<String>,
    /// Amounts up to (inclusive).
    #[param(pattern = r"^[0-9]{1,10}(\.[0-9]{1,2})?$")]
    amountMax: Option<String>,
}

/// The list's order.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct DepositSort {
    /// `createdDate` or `amount`, then `,asc` or `,desc` (default `createdDate,desc`).
    #[param(pattern = "^(createdDate|amount)(,(asc|desc))?$")]
    sort: Option<String>,
}

#[utoipa::path(get, path = paths::DEPOSITS, tag = "deposits", params(PageParams, DepositFilters, DepositSort, list::ListFields),
    security(("bearer" = ["deposits:read"])),
    description = "The description shows no query parameters for the listing; these are ours: paging (page, size), the filters, the order, and `fields` (extension), with which each list item also carries the deposit members a table needs (its id, amount, fee, status, ...) — without it, every item is exactly the list item of 2.4. The portal's Deposits table reads this list.",
    responses((status = 200, description = "A page of deposits (2.4), newest first unless sorted otherwise", body = Envelope<Page<DepositListItem>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 404, description = "payeeAccountId names no account of the accounts collection (description section 7); `errors` names the parameter", body = ErrorEnvelopeDoc)))]
async fn list_deposits(
    State(state): State<DepositsState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<list::ListEntry>>>, Error> {
    Ok(Json(Envelope::ok(list::list(&state, &pairs(&q)).await?)))
}

/// An admin's deliberate second deposit of a check (duplicate presentment override).
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct OverrideParams {
    /// `true` to deposit a check that was already deposited (scope `admin`).
    overrideDuplicate: Option<bool>,
    /// Why (1 to 500 characters), kept with the deposit.
    #[param(
        min_length = 1,
        max_length = 500,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"
    )]
    overrideReason: Option<String>,
}

/// The example's check images: a 200 × 80 grey PNG, the smallest picture a deposit takes.
const EXAMPLE_CHECK_IMAGE: &str = "iVBORw0KGgoAAAANSUhEUgAAAMgAAABQCAAAAAB5BmVsAAAAWElEQVR42u3PAQ0AAAwCIKMb3RrfBw1In4iIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIjIJQPD1UHSu1NDqwAAAABJRU5ErkJggg==";

#[utoipa::path(get, path = paths::DEPOSIT_RECORDS, tag = "deposits", params(PageParams, DepositFilters, DepositSort),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The deposit list (same filters, sort and paging) with each deposit as its whole record (2.5): what a back office needs to act on a row (its id, amount, fee and status), which the list item (2.4) does not carry.",
    responses((status = 200, description = "A page of deposit records, newest first unless sorted otherwise", body = Envelope<Page<DepositRecord>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc),
        (status = 404, description = "payeeAccountId names no account of the accounts collection; `errors` names the parameter", body = ErrorEnvelopeDoc)))]
async fn list_deposit_records(
    State(state): State<DepositsState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<DepositRecord>>>, Error> {
    Ok(Json(Envelope::ok(list::list_records(&state, &pairs(&q)).await?)))
}

#[utoipa::path(get, path = paths::DEPOSIT_DAILY_TOTALS, tag = "deposits", params(DepositFilters),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The deposits the list's filters select, summed per day (business time zone, MONEYDESK_BUSINESS_TIME_ZONE) and status: count and exact amount. Days without deposits are left out; oldest day first, statuses in the state machine's order.",
    responses((status = 200, description = "The totals", body = Envelope<Vec<DepositDayTotal>>),
        (status = 400, description = "A parameter is wrong; the message names it", body = ErrorEnvelopeDoc)))]
async fn deposit_daily_totals(
    State(state): State<DepositsState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<DepositDayTotal>>>, Error> {
    Ok(Json(Envelope::ok(list::daily_totals(&state, &pairs(&q)).await?)))
}

#[utoipa::path(post, path = paths::DEPOSITS_CHECK, tag = "deposits",
    params(OverrideParams,
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key and body answer the same deposit (200); the same key with another body is a 422. Kept 24 hours. 1 to 255 visible ASCII characters (blanks around it are trimmed).", min_length = 1, max_length = 255, pattern = r"^[ \t]*[!-~]([ -~]*[!-~])?[ \t]*$")),
    request_body(content = CheckDepositFields, description = "The check deposit: the field table's names, with the example's scheduledDate, payeeId and payeeBankId accepted as aliases. Images are base64 JPEG, PNG or TIFF (a data:image/...;base64, prefix is accepted), at most 10 MiB and 12,000 pixels a side.",
        // A deposit the demo server accepts as it stands (the payee is the demo data's first
        // account), so that "try it" and the suite's fuzzer start from a request that works.
        // No dates: a fixed check date would go stale.
        example = json!({"amount": "125.50", "bankRoutingNumber": "021090028", "bankAccountNumber": "4820001234",
            "checkNumber": "1042", "memo": "Invoice 2211", "payeeAccountId": "1641185719016griyb", "payeeUserId": "usr_0001",
            "checkFrontImage": EXAMPLE_CHECK_IMAGE, "checkBackImage": EXAMPLE_CHECK_IMAGE})),
    security(("bearer" = ["deposits:write"])),
    description = check::CHECK_DEPOSIT_DESCRIPTION,
    responses((status = 201, description = "The deposit record (2.5)", body = DepositRecord),
        (status = 200, description = "An idempotent retry: the existing deposit record", body = DepositRecord),
        (status = 400, description = "Every wrong field, each named: among them a bankRoutingNumber the FedACH directory does not list, and an amount (or checkNumber) left out with no scan, or a scan whose MICR line does not carry it with certainty", body = ErrorEnvelopeDoc),
        (status = 403, description = "The token lacks deposits:write, or it sets `fee` without fees:override (or admin): `errors` names the field `fee`", body = ErrorEnvelopeDoc),
        (status = 404, description = "payeeAccountId, or payerId (the managed sleeve account), names no account of the accounts collection; `errors` names the field", body = ErrorEnvelopeDoc),
        (status = 409, description = "The same check was already deposited (duplicate presentment: the same routing number, account digits, check number and amount); the message names the first deposit", body = ErrorEnvelopeDoc),
        (status = 413, description = "An image is too large", body = ErrorEnvelopeDoc),
        (status = 422, description = "The Idempotency-Key was used for another request", body = ErrorEnvelopeDoc)))]
async fn create_check_deposit(State(state): State<DepositsState>, caller: Caller, req: Request) -> Response {
    let headers = req.headers().clone();
    let query = pairs(&req.uri().query().map(str::to_string));
    let body = match extract::body(req, &state).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    match handlers::create(&state, &caller, &headers, &query, &body).await {
        Ok((status, record)) => (status, axum::Json(record)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Scans a check: decodes both pictures (the limits of the check deposit's images: 413 over
/// 10 MiB, 400 for what does not decode or is too small), crops a photo of the check on a
/// background to the check and straightens it (a scan, or a picture already cropped to the
/// check, is kept as sent), measures each side's quality, keeps
/// each as a grayscale JPEG and a bitonal G4 TIFF (X9.100-181) at 200 dpi of the check's width,
/// reads the MICR line of the front with a confidence per field, and stores the scan. The
/// answer's `scanId` is what a check deposit names (`scanId`) instead of sending images; its
/// `problems` say what would stop that deposit. The description shows no response: this one
/// is ours (200, the envelope).
#[utoipa::path(post, path = paths::DEPOSITS_CHECK_SCAN, tag = "deposits",
    params(("smaSfid" = String, Path, description = "The managed sleeve account the check is deposited to (an account of the accounts collection)")),
    request_body(content = CheckScanFields, description = "amount, frontimage and rearimage (base64 JPEG, PNG or TIFF; a data: URL prefix is accepted)"),
    security(("bearer" = ["deposits:write"])),
    responses((status = 200, description = "What was read and stored", body = Envelope<CheckScan>),
        (status = 400, description = "A field is missing or wrong, or an image does not decode", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such managed sleeve account", body = ErrorEnvelopeDoc),
        (status = 413, description = "An image is larger than 10 MiB", body = ErrorEnvelopeDoc)))]
async fn scan_check(
    State(state): State<DepositsState>,
    caller: Caller,
    UrlPath(sma_sfid): UrlPath<String>,
    req: Request,
) -> Response {
    let body = match extract::body(req, &state).await {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    match scan::scan(&state, &caller, &sma_sfid, &body).await {
        Ok(scan) => axum::Json(Envelope::ok(scan)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Creates an electronic deposit: an ACH debit of the vendor's account (its bank must be in the
/// FedACH directory) into the managed sleeve account `payeeAccountId`, effective on
/// `effectiveDate`. The check deposit's `Idempotency-Key`, state machine and duplicate rule (the
/// same vendor account, amount and effective date twice is a 409 naming the first) apply.
#[utoipa::path(post, path = paths::DEPOSITS_ELECTRONIC, tag = "deposits",
    params(("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key and body answer the same deposit (200); the same key with another body is a 422. Kept 24 hours. 1 to 255 visible ASCII characters (blanks around it are trimmed).", min_length = 1, max_length = 255, pattern = r"^[ \t]*[!-~]([ -~]*[!-~])?[ \t]*$")),
    request_body(content = ElectronicDepositFields, description = "The pull: the vendor's routing and account numbers, account type, name, amount, effective date; the sleeve account"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 201, description = "The deposit record (2.5), serviceType Electronic_Deposit in the list", body = DepositRecord),
        (status = 200, description = "An idempotent retry: the existing deposit record", body = DepositRecord),
        (status = 400, description = "Every wrong field, each named", body = ErrorEnvelopeDoc),
        (status = 404, description = "The vendor's bank is not in the FedACH directory (CONTRACT.md point 9)", body = ErrorEnvelopeDoc),
        (status = 409, description = "The same pull was already made; the message names the first deposit", body = ErrorEnvelopeDoc),
        (status = 422, description = "The Idempotency-Key was used for another request", body = ErrorEnvelopeDoc)))]
async fn create_electronic_deposit(
    State(state): State<DepositsState>,
    caller: Caller,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    match electronic::create(&state, &caller, &headers, &body).await {
        Ok((status, record)) => (status, axum::Json(record)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// Records a cash deposit into the managed sleeve account `payeeAccountId` (serviceType `Cash`
/// in the list), with the check deposit's `Idempotency-Key` and state machine.
#[utoipa::path(post, path = paths::DEPOSITS_CASH, tag = "deposits",
    params(("Idempotency-Key" = Option<String>, Header, description = "Makes a retry safe: the same key and body answer the same deposit (200); the same key with another body is a 422. Kept 24 hours. 1 to 255 visible ASCII characters (blanks around it are trimmed).", min_length = 1, max_length = 255, pattern = r"^[ \t]*[!-~]([ -~]*[!-~])?[ \t]*$")),
    request_body(content = CashDepositFields, description = "The amount, the sleeve account, the day it applies"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 201, description = "The deposit record (2.5)", body = DepositRecord),
        (status = 200, description = "An idempotent retry: the existing deposit record", body = DepositRecord),
        (status = 400, description = "Every wrong field, each named", body = ErrorEnvelopeDoc),
        (status = 422, description = "The Idempotency-Key was used for another request", body = ErrorEnvelopeDoc)))]
async fn create_cash_deposit(
    State(state): State<DepositsState>,
    caller: Caller,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> Response {
    match cash::create(&state, &caller, &headers, &body).await {
        Ok((status, record)) => (status, axum::Json(record)).into_response(),
        Err(e) => e.into_response(),
    }
}

#[utoipa::path(get, path = paths::DEPOSIT, tag = "deposits",
    params(("id" = i64, Path, description = "The deposit's id", minimum = 1)),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The deposit with its history and allowed moves, read together: the status is always the last move's", body = Envelope<DepositDetail>),
        (status = 404, description = "No such deposit", body = ErrorEnvelopeDoc)))]
async fn get_deposit(
    State(state): State<DepositsState>,
    _caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<Envelope<DepositDetail>>, Error> {
    Ok(Json(Envelope::ok(handlers::detail(&state, id).await?)))
}

#[utoipa::path(get, path = paths::DEPOSIT_IMAGE, tag = "deposits",
    params(("id" = i64, Path, description = "The deposit's id", minimum = 1),
        ("side" = String, Path, description = "front or back", pattern = "^(front|back)$")),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The image as stored (JPEG, PNG or TIFF)", content_type = "image/*"),
        (status = 404, description = "No such deposit or image", body = ErrorEnvelopeDoc)))]
async fn deposit_image(
    State(state): State<DepositsState>,
    _caller: Caller,
    UrlPath((id, side)): UrlPath<(i64, String)>,
) -> Result<Response, Error> {
    let row = state.deposits().get(id).await?.ok_or_else(|| Error::not_found(format!("No deposit {id}")))?;
    let path = match side.as_str() {
        "front" => row.front_image,
        "back" => row.back_image,
        _ => return Err(Error::field("side", "must be front or back")),
    };
    let path = path.ok_or_else(|| Error::not_found(format!("Deposit {id} has no {side} image")))?;
    let (bytes, media) = images::load(&state.blobs(), &path).await?;
    let mut r = bytes.into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
    // Content addressed: the same URL always shows the same picture.
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, max-age=86400"));
    Ok(r)
}

#[utoipa::path(post, path = paths::DEPOSIT_ACTIONS, tag = "deposits",
    params(("id" = i64, Path, description = "The deposit's id", minimum = 1)),
    request_body(content = DepositMove, description = "confirm, reject (reason), cancel, return (reason, or reasonCode: an X9 return reason A–Z, 1–9 or a NACHA R-code, recorded as a returned item too); send and settle need admin"),
    security(("bearer" = ["deposits:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The deposit after the move", body = Envelope<DepositDetail>),
        (status = 400, description = "A reason is missing or too long, or the reasonCode is not a known return reason (the message names it)", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such deposit", body = ErrorEnvelopeDoc),
        (status = 409, description = "Not allowed from the deposit's state; the message names the state and the allowed moves", body = ErrorEnvelopeDoc)))]
async fn move_deposit(
    State(state): State<DepositsState>,
    caller: Caller,
    UrlPath(id): UrlPath<i64>,
    Json(m): Json<DepositMove>,
) -> Result<Json<Envelope<DepositDetail>>, Error> {
    Ok(Json(Envelope::ok(handlers::apply(&state, &caller, id, m).await?)))
}
