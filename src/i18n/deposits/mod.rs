//! The Deposits page's words: the list, its chart and the new-deposit forms (check, cash, ACH
//! pull, the ACH file), with the page, in its chunk. A `{}` is filled in turn by
//! `crate::i18n::fill`; a pair is a noun's (one, many), or an action's (button, what was done).

pub mod en;
pub mod es;

use super::pick;

pub struct Deposits {
    pub heading: &'static str,
    pub intro: &'static str,
    pub scan: &'static str,
    pub new_cash: &'static str,
    pub new_pull: &'static str,
    pub new_check: &'static str,
    pub caption: &'static str,
    /// The records' noun, (one, many).
    pub noun: (&'static str, &'static str),
    /// Column labels, in the table's order (`src/pages/deposits/mod.rs`).
    pub columns: [&'static str; 21],
    pub created_from: &'static str,
    pub created_to: &'static str,
    pub amount_from: &'static str,
    pub amount_to: &'static str,
    pub amount_from_hint: &'static str,
    pub amount_to_hint: &'static str,
    pub export: (&'static str, &'static str),
    pub confirm: (&'static str, &'static str),
    pub confirm_question: &'static str,
    pub reject: (&'static str, &'static str),
    pub cancel_deposits: (&'static str, &'static str),
    pub cancel_question: &'static str,
    /// The browser's reason.
    pub download_refused: &'static str,
    pub chart: Chart,
    pub form: Form,
    pub detail: Detail,
    pub wizard: Wizard,
}

/// The scanning wizard (`scan_wizard/`); a side's word is `detail.sides`'.
pub struct Wizard {
    /// Who, front, back, review.
    pub steps: [&'static str; 4],
    pub worker_failed: &'static str,
    pub sleeve_hint: &'static str,
    pub payee_user: &'static str,
    pub next: &'static str,
    pub back: &'static str,
    pub micr_read: &'static str,
    pub no_micr_read: &'static str,
    pub amount_hint: &'static str,
    /// The deposit's id.
    pub made: &'static str,
    /// Amount, status, check, bank.
    pub made_fields: [&'static str; 4],
    pub done: &'static str,
    pub retake: &'static str,
    pub working: &'static str,
    pub choose_instead: &'static str,
    pub choose: &'static str,
    pub straightened: &'static str,
    /// Width, height, milliseconds.
    pub size: &'static str,
    /// Top-left, top-right, bottom-right, bottom-left.
    pub corners: [&'static str; 4],
    /// A corner, the side.
    pub corner: &'static str,
    pub corners_label: &'static str,
    pub corners_hint: &'static str,
    pub camera: &'static str,
    pub take: &'static str,
    pub no_camera_here: &'static str,
    pub camera_failed: &'static str,
    pub camera_refused: &'static str,
    pub no_camera: &'static str,
    pub camera_busy: &'static str,
    /// Over the live video, in `CaptureHint`'s order: no check, too far, not whole, move back,
    /// too dark, glare, blurred, hold still, ready.
    pub hints: [&'static str; 9],
    /// A glare spot and where it is (one of `places`).
    pub glare_at: &'static str,
    /// In `Place`'s order: top left, top, top right, left, middle, right, bottom left, bottom,
    /// bottom right.
    pub places: [&'static str; 9],
    /// No lock for 8 seconds: why (a hint's words).
    pub stuck: &'static str,
    pub front_title: &'static str,
    pub back_title: &'static str,
    /// The value read, its confidence, `check_against` when uncertain.
    pub read_value: &'static str,
    pub check_against: &'static str,
    pub differs: &'static str,
}

/// A deposit's drawer: its images, moves, history and postings.
pub struct Detail {
    /// The deposit's id, its new status.
    pub moved: &'static str,
    pub reading: &'static str,
    /// The first deposit's id, the admin's reason.
    pub duplicate: &'static str,
    pub moves: &'static str,
    pub history: &'static str,
    pub keep_it: &'static str,
    /// The moves' buttons: confirm, send, settle, return, reject, cancel.
    pub buttons: [&'static str; 6],
    pub why_returned: &'static str,
    pub why_rejected: &'static str,
    /// Kind, amount, fee, status.
    pub summary: &'static str,
    /// The status reached, who moved it.
    pub what: &'static str,
    /// The side's word (`front`, `back` as the API names them), the deposit's id.
    pub image_alt: &'static str,
    pub sides: (&'static str, &'static str),
    pub image_error: &'static str,
    pub zoom: &'static str,
    pub no_image: &'static str,
    pub postings: &'static str,
    pub reading_postings: &'static str,
    pub nothing_posted: &'static str,
    /// Ledger account, debit, credit.
    pub entry_columns: [&'static str; 3],
    pub released_on: &'static str,
    pub hold: &'static str,
    /// A hold's states: held, released, cancelled.
    pub hold_states: [&'static str; 3],
}

/// The chart of deposited amounts per day.
pub struct Chart {
    pub heading: &'static str,
    pub readout: &'static str,
    pub label: &'static str,
    pub adding_up: &'static str,
    pub unavailable: &'static str,
    pub none: &'static str,
    /// The day.
    pub no_deposits: &'static str,
    /// The day, its total, its count and noun, each status's part.
    pub day: &'static str,
    pub deposit: (&'static str, &'static str),
    /// A status's count, its label, its sum.
    pub part: &'static str,
}

/// The new-deposit forms and what they learn as the operator types.
pub struct Form {
    pub cancel: &'static str,
    pub account: &'static str,
    pub user_id: &'static str,
    pub amount_usd: &'static str,
    pub routing_number: &'static str,
    pub account_number: &'static str,
    pub memo: &'static str,
    pub payee_hint: &'static str,
    pub sleeve: &'static str,
    pub into: &'static str,
    pub recording: &'static str,
    // Lookups.
    pub not_in_directory: &'static str,
    pub bank: &'static str,
    pub standard_fee: &'static str,
    // A check.
    pub check_heading: &'static str,
    pub payee: &'static str,
    pub check: &'static str,
    pub images: &'static str,
    pub check_amount_hint: &'static str,
    pub check_number: &'static str,
    pub check_routing_hint: &'static str,
    pub check_date: &'static str,
    pub check_date_hint: &'static str,
    pub front: &'static str,
    pub back: &'static str,
    pub too_large: &'static str,
    pub unreadable: &'static str,
    pub preview: &'static str,
    pub depositing: &'static str,
    pub deposit: &'static str,
    /// The deposit's id and amount.
    pub check_created: &'static str,
    // Reading the check (scan.rs).
    pub scan_sleeve_hint: &'static str,
    pub reading: &'static str,
    pub read: &'static str,
    pub check_it: &'static str,
    /// The title of a character the MICR reader was not sure of (`*`, marked).
    pub unsure: &'static str,
    pub scan_label: &'static str,
    pub micr_line: &'static str,
    pub bank_label: &'static str,
    pub amount_encoded: &'static str,
    pub no_micr: &'static str,
    pub scan_ready: &'static str,
    /// The sides, as a finding names them: `Front: …`.
    pub sides: (&'static str, &'static str),
    pub finding: &'static str,
    // Particulars and fee.
    pub particulars: &'static str,
    pub bank_name: &'static str,
    pub bank_name_hint: &'static str,
    pub schedule_date: &'static str,
    pub schedule_hint: &'static str,
    pub payer_type: &'static str,
    pub payer_type_hint: &'static str,
    pub payment_type: &'static str,
    pub payment_type_hint: &'static str,
    pub source: &'static str,
    pub source_hint: &'static str,
    pub fee: &'static str,
    pub fee_hint: &'static str,
    pub fee_set: &'static str,
    pub fee_quoted: &'static str,
    pub fee_unknown: &'static str,
    // Cash.
    pub cash_heading: &'static str,
    pub cash: &'static str,
    pub cash_amount_hint: &'static str,
    pub applies_on: &'static str,
    pub applies_hint: &'static str,
    pub record_cash: &'static str,
    pub cash_recorded: &'static str,
    // An ACH pull and the ACH file.
    pub pull_heading: &'static str,
    pub from_vendor: &'static str,
    pub pull_routing_hint: &'static str,
    pub account_type: &'static str,
    pub checking: &'static str,
    pub savings: &'static str,
    pub vendor: &'static str,
    pub vendor_hint: &'static str,
    pub effective: &'static str,
    pub description: &'static str,
    pub description_hint: &'static str,
    pub record_pull: &'static str,
    pub pull_recorded: &'static str,
    pub ach_heading: &'static str,
    pub effective_on: &'static str,
    pub show_file: &'static str,
    /// The count of pulls and its noun.
    pub ach_pulls: &'static str,
    pub pull: (&'static str, &'static str),
    pub download: &'static str,
    pub nacha_label: &'static str,
}

pub fn text() -> &'static Deposits {
    pick(&en::TEXT, &es::TEXT)
}
