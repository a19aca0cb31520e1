//! Image cash letters (extension; description section 1 names generating an image cash letter
//! as a deposit kind): the confirmed check deposits due by a business day (or those named)
//! written as one X9.100-187 file (`moneydesk_x9`), stored in the blob store, and recorded with
//! its items in the transaction that moves the deposits to Sent_3 — so no deposit is in two
//! letters, and a letter exists only with its file. Making one sends deposits (the `send`
//! move), so it takes `admin`; reading takes `deposits:read`.

use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use moneydesk_model::cash_letters::{CashLetter, CashLetterRequest};
use moneydesk_model::{paths, Envelope, Page, PageRequest, Sort};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::http::openapi::PageParams;
use crate::AppState;

crate::group_state! {
    /// What the cash letter handlers reach: their store and files, and the deposits they are made
    /// of.
    pub struct CashLettersState {
        cash_letters: crate::cash_letters::store::CashLetterStore = stores.cash_letters,
        deposits: crate::deposits::store::DepositStore = stores.deposits,
        routing: crate::routing::directory::State = routing,
        blobs: crate::storage::blobs::Blobs = blobs,
        config: std::sync::Arc<crate::Config> = config,
        books: crate::ledger::Books = books,
    }
}

pub mod file;
mod make;
pub mod store;
mod writing;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_cash_letters, create_cash_letter))
        .routes(routes!(get_cash_letter))
        .routes(routes!(cash_letter_file))
}

#[utoipa::path(get, path = paths::CASH_LETTERS, tag = "cash-letters", params(PageParams),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "A page of cash letters, newest first (without their items)", body = Envelope<Page<CashLetter>>),
        (status = 400, description = "A paging parameter is wrong", body = ErrorEnvelopeDoc)))]
async fn list_cash_letters(
    State(state): State<CashLettersState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Page<CashLetter>>>, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = state.cash_letters().list(offset, i64::from(page.size)).await?;
    let items = rows.iter().map(|r| store::answer(r, &[])).collect();
    Ok(Json(Envelope::ok(Page::build(page, total as u64, items, Sort::UNSORTED))))
}

/// Makes a cash letter of the confirmed `Check` and `Check_Scan` deposits scheduled on or
/// before `businessDate` (or of the deposits named), or with `preview` says what it would hold.
/// Each check goes in with both sides as G4 TIFFs (a scan's own, or converted from the stored
/// pictures) and its MICR fields (routing number with its check digit; on-us `account/check`).
/// The file is written as the checks come and stored under its SHA-256 once whole; a request
/// refused or failing on the way keeps nothing: no letter, no file, every deposit as it was. A
/// client that hangs up once the file is being written does not stop it: the letter is made
/// whole (file, letter, deposits sent) and is in the list like any other.
#[utoipa::path(post, path = paths::CASH_LETTERS, tag = "cash-letters",
    request_body(content = CashLetterRequest, description = "businessDate or depositIds; preview to only look"),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 201, description = "The cash letter made, with its items", body = Envelope<CashLetter>),
        (status = 200, description = "A preview: the items and totals it would have (id 0, no file)", body = Envelope<CashLetter>),
        (status = 400, description = "A field is missing or wrong", body = ErrorEnvelopeDoc),
        (status = 404, description = "A deposit named does not exist", body = ErrorEnvelopeDoc),
        (status = 409, description = "Nothing to send, or a deposit cannot go in (not confirmed, not a check, no images, a routing number failing its checksum), or another cash letter took one meanwhile; the message names each", body = ErrorEnvelopeDoc)))]
async fn create_cash_letter(
    State(state): State<CashLettersState>,
    caller: Caller,
    body: Bytes,
) -> Result<Response, Error> {
    let req: CashLetterRequest =
        serde_json::from_slice(&body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let (status, letter) = make::make(&state, &caller, &req).await?;
    Ok((status, axum::Json(Envelope::ok(letter))).into_response())
}

#[utoipa::path(get, path = paths::CASH_LETTER, tag = "cash-letters",
    params(("id" = i64, Path, description = "The cash letter's id", minimum = 1)),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The cash letter with its items", body = Envelope<CashLetter>),
        (status = 404, description = "No such cash letter", body = ErrorEnvelopeDoc)))]
async fn get_cash_letter(
    State(state): State<CashLettersState>,
    _caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Json<Envelope<CashLetter>>, Error> {
    let (letter, items) =
        state.cash_letters().get(id).await?.ok_or_else(|| Error::not_found(format!("No cash letter {id}")))?;
    Ok(Json(Envelope::ok(store::answer(&letter, &items))))
}

#[utoipa::path(get, path = paths::CASH_LETTER_FILE, tag = "cash-letters",
    params(("id" = i64, Path, description = "The cash letter's id", minimum = 1)),
    security(("bearer" = ["deposits:read"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The X9.100-187 file (ASCII, images binary)", content_type = "application/octet-stream"),
        (status = 404, description = "No such cash letter", body = ErrorEnvelopeDoc)))]
async fn cash_letter_file(
    State(state): State<CashLettersState>,
    _caller: Caller,
    UrlPath(id): UrlPath<i64>,
) -> Result<Response, Error> {
    let (letter, _) =
        state.cash_letters().get(id).await?.ok_or_else(|| Error::not_found(format!("No cash letter {id}")))?;
    let got = state
        .blobs()
        .get(&object_store::path::Path::from(letter.file_path.as_str()))
        .await
        .map_err(|e| Error::internal(format_args!("reading cash letter {id}'s file: {e}")))?;
    // Streamed as the store reads it: a letter can be a hundred megabytes of images.
    let size = got.meta.size;
    let mut r = (StatusCode::OK, Body::from_stream(got.into_stream())).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(size));
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    let disposition = format!("attachment; filename=\"{}.x937\"", letter.cash_letter_id);
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}
