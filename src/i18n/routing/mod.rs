//! The Routing page's words: the directory's status, the lookup and what the directory's codes
//! mean, the search and the bulk check (`src/pages/routing/`; with the page, in its chunk).
//! The API's field names and values (`name`, `prefix`, `routingNumber`, ...) stay as the API
//! writes them.

pub mod en;
pub mod es;

use super::pick;

/// A select's options: the API's value, then the words shown.
pub type Options = &'static [(&'static str, &'static str)];

pub struct Routing {
    // The page (mod.rs, url.rs).
    pub heading: &'static str,
    pub tools: &'static str,
    /// The tabs: look up, search, bulk check.
    pub tabs: [&'static str; 3],
    // The directory's status (status.rs).
    pub just_now: &'static str,
    /// `{}` how many.
    pub minutes_ago: &'static str,
    /// `{}` how many.
    pub hours_ago: &'static str,
    /// `{}` how many.
    pub days_ago: &'static str,
    /// The directories' names in the status: ACH, wire.
    pub parts: [&'static str; 2],
    /// `{}` the directory's name.
    pub not_configured: &'static str,
    pub demo_format: &'static str,
    pub fixed_width: &'static str,
    /// `{}` the directory's name, `{}` how many, `{}` the file and its format.
    pub part_records: &'static str,
    pub demo_source: &'static str,
    pub fed_source: &'static str,
    pub unknown_as_of: &'static str,
    /// `{}` the date.
    pub as_of: &'static str,
    /// `{}` how many.
    pub institutions: &'static str,
    /// `{}` when.
    pub loaded: &'static str,
    /// `{}` when.
    pub next_refresh: &'static str,
    /// `{}` the hours.
    pub stale: &'static str,
    /// `{}` when, `{}` the server's message.
    pub last_failed: &'static str,
    pub reloaded: &'static str,
    /// `{}` the error.
    pub reload_failed: &'static str,
    pub reading_status: &'static str,
    pub status_unavailable: &'static str,
    pub status_label: &'static str,
    pub reloading: &'static str,
    pub reload_now: &'static str,
    // The lookup (lookup.rs).
    pub nine_digits: &'static str,
    /// `{}` the district.
    pub issued_under: &'static str,
    /// `{}` the sentence of the district, or nothing.
    pub valid_checksum: &'static str,
    pub routing_number: &'static str,
    pub number_example: &'static str,
    // The codes in words (format.rs).
    pub not_given: &'static str,
    /// `{}` what the directory wrote.
    pub not_a_date: &'static str,
    pub main_office: &'static str,
    pub branch: &'static str,
    /// ACH record types 0, 1, 2.
    pub record_types: [&'static str; 3],
    pub institution_status_1: &'static str,
    pub data_view_1: &'static str,
    /// Fedwire funds eligibility Y, N.
    pub funds: [&'static str; 2],
    /// Settlement-only S, blank.
    pub settlement: [&'static str; 2],
    /// Fedwire Securities eligibility Y, N.
    pub securities: [&'static str; 2],
    /// `{}` the code.
    pub unknown_code: &'static str,
    /// The twelve Federal Reserve districts' cities, in number order.
    pub districts: [&'static str; 12],
    pub us_government: &'static str,
    pub thrift: &'static str,
    pub electronic: &'static str,
    pub travelers_cheques: &'static str,
    /// `{}` a kind (or nothing), `{}` the district's number, `{}` its city.
    pub district: &'static str,
    /// `{}` how many digits.
    pub too_short: &'static str,
    /// `{}` how many digits.
    pub too_long: &'static str,
    /// `{}` the character, `{}` its position.
    pub only_digits: &'static str,
    pub all_zeros: &'static str,
    /// `{}` the digit expected, `{}` the one typed.
    pub checksum_fails: &'static str,
    /// Yes, no.
    pub yes_no: [&'static str; 2],
    // The records (records.rs).
    /// The ACH record's fields.
    pub ach_fields: [&'static str; 11],
    /// The Fedwire record's fields.
    pub wire_fields: [&'static str; 8],
    pub send_here: &'static str,
    pub new_routing_number: &'static str,
    /// Not listed: ACH, wire.
    pub not_listed: [&'static str; 2],
    /// What not being listed means: ACH, wire.
    pub consequences: [&'static str; 2],
    pub not_listed_body: &'static str,
    pub server: &'static str,
    /// The records' titles: ACH, wire.
    pub directories: [&'static str; 2],
    pub looking_up: &'static str,
    // The search (search.rs).
    /// The results' columns: routing number, institution, city, state, ZIP, in ACH, in wire,
    /// name match.
    pub columns: [&'static str; 8],
    pub states: Options,
    pub directory_options: Options,
    /// The filters' labels: name, prefix, state, city, ZIP, directory.
    pub filters: [&'static str; 6],
    /// The text filters' placeholders: name, prefix, city, ZIP.
    pub placeholders: [&'static str; 4],
    pub give_one: &'static str,
    /// `{}` what was typed, quoted.
    pub bad_prefix: &'static str,
    /// `{}` what was typed, quoted.
    pub bad_zip: &'static str,
    pub search_hint: &'static str,
    pub search_caption: &'static str,
    pub search_idle: &'static str,
    // The bulk check (bulk/).
    /// The results' columns: #, routing number, check, in ACH, in wire, institution.
    pub bulk_headings: [&'static str; 6],
    /// `{}` the file's name.
    pub too_large: &'static str,
    /// `{}` the file's name.
    pub cannot_read: &'static str,
    pub routing_numbers: &'static str,
    /// `{}` how many numbers at most.
    pub bulk_hint: &'static str,
    pub upload: &'static str,
    pub check: &'static str,
    pub cancel: &'static str,
    pub export_csv: &'static str,
    pub results_caption: &'static str,
    pub cancelled: &'static str,
    pub paste_one: &'static str,
    /// `{}` how many were given, `{}` how many are checked.
    pub too_many: &'static str,
    /// `{}` the number with its zero.
    pub leading_zero: &'static str,
    /// `{}` why.
    pub invalid: &'static str,
    pub valid: &'static str,
    pub in_neither: &'static str,
    pub checking: &'static str,
    pub not_checked: &'static str,
    /// In the exported CSV: not checked, and its yes and no.
    pub export_not_checked: &'static str,
    pub export_yes_no: [&'static str; 2],
    /// `{}` how many done, `{}` of how many.
    pub progress: &'static str,
    /// `{}` rows, `{}` valid, `{}` invalid, `{}` in ACH, `{}` in wire, `{}` in neither.
    pub tally: &'static str,
    /// `{}` the browser's error.
    pub download_refused: &'static str,
}

pub fn text() -> &'static Routing {
    pick(&en::TEXT, &es::TEXT)
}
