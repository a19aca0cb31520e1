//! The Activity page's words: the trail's table, its exports, a record's drawer and the chain's
//! verification (`src/pages/activity/`; with the page, in its chunk). Operations, target types
//! and outcomes are the API's own names. The Activity tab of other pages' drawers (tab.rs)
//! has its own catalogue, `activity_tab`, shared by their chunks.

pub mod en;
pub mod es;

use super::pick;

pub struct Activity {
    pub heading: &'static str,
    pub intro: &'static str,
    /// The records' noun, (one, many).
    pub noun: (&'static str, &'static str),
    /// Column labels, in the table's order (`src/pages/activity/mod.rs`).
    pub columns: [&'static str; 11],
    pub from: &'static str,
    pub user: &'static str,
    pub to: &'static str,
    pub target_type: &'static str,
    pub target_id: &'static str,
    pub operation_hint: &'static str,
    pub target_type_hint: &'static str,
    // Exports (export.rs).
    pub export_csv: &'static str,
    pub day: &'static str,
    pub download_day: &'static str,
    // The chain (verify.rs, state.rs).
    pub verifying: &'static str,
    pub verify_again: &'static str,
    pub one_unsealed: &'static str,
    /// `{}` how many.
    pub unsealed: &'static str,
    /// `{}` the record, `{}` its day, `{}` its seq, `{}` why, `{}` the records not chained.
    pub broken: &'static str,
    /// `{}` the day.
    pub on_day: &'static str,
    /// `{}` the first day, `{}` the last.
    pub from_to: &'static str,
    /// `{}` how many days.
    pub purged: &'static str,
    pub one_day: &'static str,
    /// `{}` how many days.
    pub days: &'static str,
    /// `{}` records, `{}` days, `{}` the range, `{}` the purged days, `{}` the unchained.
    pub holds: &'static str,
    // A record's drawer (record.rs).
    pub changes: &'static str,
    pub chain: &'static str,
    pub not_chained: &'static str,
    /// The chain's fields: seq, previous hash, hash.
    pub chain_fields: [&'static str; 3],
}

pub fn text() -> &'static Activity {
    pick(&en::TEXT, &es::TEXT)
}
