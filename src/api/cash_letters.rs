//! The cash letters group (extension): the letters made, one with its items, a new one for a
//! business day (or a preview of it), and the X9 file.

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::cash_letters::{CashLetter, CashLetterRequest};
use moneydesk_model::{paths, Envelope, Page};

use super::client::{envelope_data, Body};
use super::{ApiError, Client};

/// GET `…/cash-letters`: the newest first.
pub fn list(
    client: &Client,
    page: u32,
    size: u32,
) -> impl Future<Output = Result<Page<CashLetter>, ApiError>> + 'static {
    let (page, size) = (page.to_string(), size.to_string());
    client.get_data(paths::CASH_LETTERS, &[("page", &page), ("size", &size)])
}

/// POST `…/cash-letters`: made (201), or with `preview` what it would hold (200).
pub fn create(
    client: &Client,
    request: &CashLetterRequest,
) -> impl Future<Output = Result<CashLetter, ApiError>> + 'static {
    let body = Body::json(request);
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<CashLetter>>(Method::POST, paths::CASH_LETTERS, &[], Some(body?));
        envelope_data(sent.await?)
    }
}

/// GET `…/cash-letters/{id}/file`: the X9.100-187 file.
pub fn file(client: &Client, id: i64) -> impl Future<Output = Result<web_sys::Blob, ApiError>> + 'static {
    let path = paths::fill(paths::CASH_LETTER_FILE, "id", &id.to_string());
    let sent = client.send_raw(Method::GET, &path, &[], None);
    async move { super::client::blob(sent.await?).await }
}
