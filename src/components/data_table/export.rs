//! CSV export of every record matching the current filters and sort: fetched page by page
//! (500 a page) with progress, cancellable, then downloaded through a Blob URL.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsValue;

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
