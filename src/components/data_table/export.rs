//! CSV export of every record matching the current filters and sort: fetched page by page
//! (500 a page) with progress, cancellable, then downloaded through a Blob URL.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use super::column::Column;
use super::csv;
use super::state::{Fetcher, TableState, MAX_SIZE};
use crate::api::ApiError;

/// How far an export is: records written, and the total the server reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Progress {
    pub done: u64,
    pub total: u64,
}

/// A running export: cancelling cleans up its owner, which aborts the request in flight.
#[derive(Clone)]
pub struct Job {
    owner: Owner,
    cancelled: Arc<AtomicBool>,
}

impl Job {
    pub fn new() -> Job {
        Job { owner: Owner::new(), cancelled: Arc::new(AtomicBool::new(false)) }
    }

    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.owner.cleanup();
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

pub enum Outcome {
    /// The CSV's chunks (header first) and the number of records.
    Done(js_sys::Array, u64),
    Cancelled,
    Failed(ApiError),
}

/// Fetches every page of `view`'s filter and sort, reporting progress after each page.
pub async fn run(
    job: Job,
    fetcher: Fetcher,
    columns: &'static [Column],
    view: TableState,
    progress: impl Fn(Progress),
) -> Outcome {
    let chunks = js_sys::Array::new();
    chunks.push(&JsValue::from_str(&csv::header(columns)));
    let mut query = TableState { page: 1, size: MAX_SIZE, ..view };
    let mut done = 0u64;
    loop {
        if job.cancelled() {
            return Outcome::Cancelled;
        }
        let page = match job.owner.with(|| fetcher.fetch(&query)).await {
            Ok(page) => page,
            Err(_) if job.cancelled() => return Outcome::Cancelled,
            Err(e) => return Outcome::Failed(e),
        };
        if !page.content.is_empty() {
            chunks.push(&JsValue::from_str(&csv::rows(columns, &page.content)));
        }
        done += page.content.len() as u64;
        progress(Progress { done, total: page.total_elements.max(done) });
        if page.last || page.content.is_empty() {
            return Outcome::Done(chunks, done);
        }
        query.page += 1;
    }
}

/// Offers `chunks` as a file download named `name`.
pub fn download(chunks: &js_sys::Array, name: &str) -> Result<(), JsValue> {
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/csv;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(chunks, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = document();
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.set_hidden(true);
    let body = document.body().ok_or_else(|| JsValue::from_str("no <body>"))?;
    body.append_child(&a)?;
    a.click();
    a.remove();
    // Revoke later: the browser reads the Blob after the click returns.
    set_timeout(move || drop(web_sys::Url::revoke_object_url(&url)), std::time::Duration::from_secs(60));
    Ok(())
}

/// `accounts-2026-11-22.csv`, in the user's local date.
pub fn file_name(id: &str) -> String {
    let now = js_sys::Date::new_0();
    format!("{id}-{:04}-{:02}-{:02}.csv", now.get_full_year(), now.get_month() + 1, now.get_date())
}
