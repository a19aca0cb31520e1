//! The Ledger page's words: returns, returned items, the day's reconciliation and the clearing
//! chart (`src/pages/ledger/`; with the page, in its chunk). States, sources, formats and
//! ledger account labels are the model's and the server's own.

pub mod en;
pub mod es;

use super::pick;

pub struct Ledger {
    pub heading: &'static str,
    /// The views' tabs: returns, reconciliation.
    pub views: [&'static str; 2],
    // Returns (returns.rs).
    pub return_file: &'static str,
    pub reading_file: &'static str,
    pub upload: &'static str,
    /// After a count: matched, unmatched, duplicates, notifications of change.
    pub count_labels: [&'static str; 4],
    /// `{}` the record number.
    pub record_at: &'static str,
    /// `{}` the file's id.
    pub file: &'static str,
    /// `{}` how many.
    pub not_read: &'static str,
    // Returned items (return_items.rs).
    pub returned_items: &'static str,
    pub state: &'static str,
    pub every_state: &'static str,
    pub reading_items: &'static str,
    pub no_items: &'static str,
    pub newer: &'static str,
    pub older: &'static str,
    /// `{}` this page, `{}` the number of pages.
    pub page_of: &'static str,
    /// `{}` the record number.
    pub record: &'static str,
    /// `{}` the deposit's id.
    pub deposit: &'static str,
    pub no_deposit: &'static str,
    pub deposit_id: &'static str,
    pub note: &'static str,
    pub dismiss: &'static str,
    pub match_: &'static str,
    // Reconciliation (reconciliation.rs, clearing_chart.rs).
    pub business_day: &'static str,
    pub reading_day: &'static str,
    pub clearing_closed: &'static str,
    pub clearing_open: &'static str,
    pub unbalanced: &'static str,
    pub per_account: &'static str,
    /// `{}` the day.
    pub books_on: &'static str,
    /// The day's table headers: ledger account, opening, debits, credits, closing.
    pub line_columns: [&'static str; 5],
    pub nothing_open: &'static str,
    pub what_keeps_open: &'static str,
    /// The open items' headers: deposit, ledger account, amount, sent, settles by.
    pub open_columns: [&'static str; 5],
    /// The chart's series: image cash letters, ACH, items in process.
    pub series: [&'static str; 3],
    /// `{}` the first day, `{}` the last.
    pub chart_caption: &'static str,
    pub chart_label: &'static str,
    pub the_values: &'static str,
    pub day: &'static str,
}

pub fn text() -> &'static Ledger {
    pick(&en::TEXT, &es::TEXT)
}
