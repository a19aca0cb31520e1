//! The Cash letters page's words (with the page, in its chunk). A `{}` is filled in turn by
//! `crate::i18n::fill`.

pub mod en;
pub mod es;

use super::pick;

pub struct CashLetters {
    pub heading: &'static str,
    pub intro: &'static str,
    pub send_heading: &'static str,
    pub send_intro: &'static str,
    pub due_by: &'static str,
    pub preview: &'static str,
    pub preview_caption: &'static str,
    /// Deposit, bundle, routing, on-us, amount.
    pub preview_columns: [&'static str; 5],
    pub admin_makes: &'static str,
    pub making: &'static str,
    pub make: &'static str,
    /// `{}` checks `in` `{}` bundles, `{}` (the total).
    pub summary: &'static str,
    pub check: &'static str,
    pub checks: &'static str,
    pub bundle: &'static str,
    pub bundles: &'static str,
    /// The letter's id, its checks, its total.
    pub made: &'static str,
    pub loading: &'static str,
    pub none: &'static str,
    pub list_caption: &'static str,
    /// Cash letter, due by, checks, total, made.
    pub list_columns: [&'static str; 5],
    pub the_file: &'static str,
    pub download_label: &'static str,
    pub view_label: &'static str,
    pub view: &'static str,
    pub download: &'static str,
    pub unreadable: &'static str,
    pub download_refused: &'static str,
    pub viewer: Viewer,
}

/// The X9 viewer's words.
pub struct Viewer {
    pub open: &'static str,
    pub open_hint: &'static str,
    /// Letters, bundles, checks (each a count and its word), the total, from, to, made.
    pub summary: &'static str,
    pub letter: &'static str,
    pub letters: &'static str,
    pub report_label: &'static str,
    pub no_problems: &'static str,
    pub problems: &'static str,
    pub items_label: &'static str,
    /// Record, routing, on-us, aux on-us, amount, sequence, images.
    pub columns: [&'static str; 7],
    pub more: &'static str,
    pub show: &'static str,
    pub no_images: &'static str,
    pub front: &'static str,
    pub back: &'static str,
    pub side_alt: &'static str,
    /// The decoder's reason (in English, from `moneydesk_checkimage`).
    pub image_error: &'static str,
}

pub fn text() -> &'static CashLetters {
    pick(&en::TEXT, &es::TEXT)
}
