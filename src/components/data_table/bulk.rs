//! Bulk actions on a table's selected rows: what a page declares (`BulkAction`s and a
//! `BulkRunner` that sends one request) and what the table makes of the answer.
//!
//! # Plugging bulk actions in
//!
//! ```ignore
//! pub const BULK: &[BulkAction] = &[
//!     BulkAction::new("confirm", "Confirm", "confirmed").confirm("Confirm the selected deposits?"),
//!     BulkAction::new("reject", "Reject", "rejected").reason(),      // asks for one reason for all
//!     BulkAction::new("cancel", "Cancel", "cancelled").confirm("Cancel the selected deposits?"),
//!     BulkAction::new("export", "Export CSV", "exported").download(), // the runner saves a file
//! ];
//! let bulk_run = BulkRunner::new(move |call: BulkCall| {
//!     Box::pin(api::deposits::bulk(&auth.client(), call))  // -> Result<Option<BulkResult>, ApiError>
//! });
//! view! { <DataTable ... bulk=BULK bulk_run/> }
//! ```
//!
//! The table sends one request per run: `call.action` is the action's `key`, `call.reason` the
//! reason typed (actions with `needs_reason` only), `call.select` the ticked ids or, after
//! "select all N matching", the table's filter params (never ids), and `call.key` the
//! `Idempotency-Key` to send (the same key when the user retries a run whose answer never
//! came, a new one otherwise). The runner answers `Some(result)` for an action on records and
//! `None` for a `download` action (it saved the file itself).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use moneydesk_model::bulk::{BulkItem, BulkOutcome, BulkResult, BulkSelect};

use crate::api::ApiError;
use crate::format::group;
use crate::i18n::components::text;
use crate::i18n::fill;

/// One action the bulk bar offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BulkAction {
    /// The action's word on the wire (`confirm`).
    pub key: &'static str,
    /// The button's text (`Confirm`).
    pub label: &'static str,
    /// What was done, for the summary ("130 confirmed, 7 refused").
    pub done: &'static str,
    /// Asks for one reason, sent with the request (a reject's).
    pub needs_reason: bool,
    /// A question answered before the action runs.
    pub confirm: Option<&'static str>,
    /// The answer is a file the runner saves (an export, a zip), not per-record outcomes.
    pub download: bool,
}

impl BulkAction {
    pub const fn new(key: &'static str, label: &'static str, done: &'static str) -> Self {
        BulkAction { key, label, done, needs_reason: false, confirm: None, download: false }
    }

    pub const fn reason(self) -> Self {
        BulkAction { needs_reason: true, ..self }
    }

    pub const fn confirm(self, question: &'static str) -> Self {
        BulkAction { confirm: Some(question), ..self }
    }

    pub const fn download(self) -> Self {
        BulkAction { download: true, ..self }
    }
}

/// One bulk request, as the table asks the page's runner to send it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BulkCall {
    /// The action's `key`.
    pub action: &'static str,
    /// The reason typed, for an action that `needs_reason`.
    pub reason: Option<String>,
    pub select: BulkSelect,
    /// The `Idempotency-Key` header to send.
    pub key: String,
}

/// What a runner's call returns: the per-record answer, or `None` after a download.
pub type BulkFuture = Pin<Box<dyn Future<Output = Result<Option<BulkResult>, ApiError>>>>;

/// How a table sends a bulk action (a page's api call). Called inside the table's owner.
#[derive(Clone)]
pub struct BulkRunner(Arc<dyn Fn(BulkCall) -> BulkFuture + Send + Sync>);

impl BulkRunner {
    pub fn new(f: impl Fn(BulkCall) -> BulkFuture + Send + Sync + 'static) -> BulkRunner {
        BulkRunner(Arc::new(f))
    }

    pub fn run(&self, call: BulkCall) -> BulkFuture {
        (self.0)(call)
    }
}

/// The last run's answer, with its items by record id for the rows' badges.
#[derive(Clone, Debug)]
pub struct Ran {
    pub action: BulkAction,
    pub result: BulkResult,
    by_id: HashMap<String, usize>,
}

impl Ran {
    pub fn new(action: BulkAction, result: BulkResult) -> Ran {
        let by_id = result.items.iter().enumerate().map(|(i, item)| (item.id.clone(), i)).collect();
        Ran { action, result, by_id }
    }

    pub fn item(&self, id: &str) -> Option<&BulkItem> {
        self.by_id.get(id).map(|i| &self.result.items[*i])
    }

    /// "130 confirmed, 7 refused": both counts always, so a partial success reads as one.
    pub fn summary(&self) -> String {
        let (r, t) = (&self.result, &text().bulk);
        if r.matched == 0 {
            return t.nothing_matched.to_string();
        }
        fill(t.summary, &[&group(r.done), self.action.done, &group(r.refused)])
    }

    pub fn refused(&self) -> impl Iterator<Item = &BulkItem> {
        self.result.items.iter().filter(|i| i.outcome == BulkOutcome::Refused)
    }
}

/// A row's badge: "Done", or "Refused: " and why.
pub fn badge(item: &BulkItem) -> (&'static str, String) {
    let t = &text().bulk;
    match item.outcome {
        BulkOutcome::Done => ("bulk-outcome badge badge-done", t.done.to_string()),
        BulkOutcome::Refused => {
            let why = [&item.problem, &item.reason]
                .into_iter()
                .find_map(|w| w.as_deref().filter(|w| !w.is_empty()))
                .unwrap_or(t.no_reason);
            ("bulk-outcome badge badge-refused", fill(t.refused, &[why]))
        }
    }
}

/// A fresh `Idempotency-Key`.
pub fn new_key() -> String {
    let now = js_sys::Date::now() as u64;
    let salt = (js_sys::Math::random() * 1e12) as u64;
    format!("portal-bulk-{now:x}-{salt:x}")
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    const CONFIRM: BulkAction = BulkAction::new("confirm", "Confirm", "confirmed").confirm("Confirm them?");

    #[wasm_bindgen_test]
    fn actions_are_declared_with_what_they_need() {
        let reject = BulkAction::new("reject", "Reject", "rejected").reason();
        assert!(reject.needs_reason && reject.confirm.is_none() && !reject.download);
        assert_eq!(CONFIRM.confirm, Some("Confirm them?"));
        assert!(BulkAction::new("export", "Export CSV", "exported").download().download);
    }

    #[wasm_bindgen_test]
    fn the_summary_says_done_and_refused_even_when_some_failed() {
        let mut items: Vec<BulkItem> = (0..130).map(|i| BulkItem::done(i.to_string())).collect();
        items.extend((130..137).map(|i| BulkItem::refused(i.to_string(), "invalid_state", "Already sent.")));
        let ran = Ran::new(CONFIRM, BulkResult::new("confirm", items));
        assert_eq!(ran.summary(), "130 confirmed, 7 refused.");
        assert_eq!(ran.refused().count(), 7);
        assert_eq!(badge(ran.item("3").unwrap()).1, "Done");
        assert_eq!(
            badge(ran.item("131").unwrap()),
            ("bulk-outcome badge badge-refused", "Refused: Already sent.".into())
        );
        assert!(ran.item("999").is_none());
        let none = Ran::new(CONFIRM, BulkResult::new("confirm", Vec::new()));
        assert_eq!(none.summary(), "Nothing matched: no record was changed.");
        let all =
            Ran::new(CONFIRM, BulkResult::new("confirm", (0..1200).map(|i| BulkItem::done(i.to_string())).collect()));
        assert_eq!(all.summary(), "1,200 confirmed, 0 refused.");
    }

    #[wasm_bindgen_test]
    fn a_refusal_without_words_still_says_why() {
        let item = BulkItem::refused("1", "not_found", "");
        assert_eq!(badge(&item).1, "Refused: not_found");
        let bare = BulkItem { problem: None, reason: None, ..item };
        assert_eq!(badge(&bare).1, "Refused: no reason given");
    }
}
