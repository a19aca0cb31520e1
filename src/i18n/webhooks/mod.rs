//! The Webhooks page's words: the endpoints, an endpoint's fields, actions, traffic and delivery
//! log, and its secret shown once (`src/pages/webhooks/`; with the page, in its chunk). Event
//! types, statuses and the API's field names stay as the API writes them.

pub mod en;
pub mod es;

use super::pick;

pub struct Webhooks {
    pub heading: &'static str,
    /// The intro around the signature header's name: before, then after it.
    pub intro: [&'static str; 2],
    // The endpoints (list.rs, state.rs).
    pub endpoints: &'static str,
    pub new_endpoint: &'static str,
    pub reading_endpoints: &'static str,
    pub no_endpoints: &'static str,
    pub a_new_endpoint: &'static str,
    pub create_endpoint: &'static str,
    /// `{}` the endpoint's URL.
    pub open: &'static str,
    pub table_caption: &'static str,
    /// The endpoints table's headers: URL, event types, state, secret.
    pub columns: [&'static str; 4],
    pub all_events: &'static str,
    pub enabled: &'static str,
    /// `{}` the server's reason.
    pub disabled_by_server: &'static str,
    pub disabled: &'static str,
    /// `{}` what was typed.
    pub bad_overlap: &'static str,
    pub nothing_to_replay: &'static str,
    pub one_queued: &'static str,
    /// `{}` how many.
    pub queued: &'static str,
    // The form (form.rs).
    pub url: &'static str,
    pub url_example: &'static str,
    pub url_hint: &'static str,
    pub description: &'static str,
    pub event_types: &'static str,
    /// Around the `*` of every event type: before, then after.
    pub all_events_box: [&'static str; 2],
    pub saving: &'static str,
    pub cancel: &'static str,
    // An endpoint (detail.rs).
    pub all_endpoints: &'static str,
    pub reading_endpoint: &'static str,
    pub endpoint: &'static str,
    pub last_7_days: &'static str,
    pub reading_days: &'static str,
    /// `{}` when.
    pub previous_until: &'static str,
    /// `{}` when.
    pub since: &'static str,
    /// `{}` when.
    pub comma_since: &'static str,
    /// `{}` when, `{}` who.
    pub created_by: &'static str,
    /// The fields: state, event types, description, secret, created, id.
    pub fields: [&'static str; 6],
    // Actions (actions.rs).
    pub actions: &'static str,
    pub edit: &'static str,
    pub disable: &'static str,
    pub enable: &'static str,
    pub send_test: &'static str,
    pub rotate_secret: &'static str,
    pub delete: &'static str,
    /// `{}` the event's id.
    pub test_queued: &'static str,
    pub change_endpoint: &'static str,
    pub save: &'static str,
    pub rotate_intro: &'static str,
    pub overlap: &'static str,
    pub rotate: &'static str,
    pub delete_q: &'static str,
    pub delete_note: &'static str,
    pub delete_confirm: &'static str,
    pub keep: &'static str,
    // The secret shown once (secret.rs).
    pub copied: &'static str,
    pub not_copied: &'static str,
    pub new_secret: &'static str,
    pub secret: &'static str,
    /// `{}` when.
    pub previous_signs: &'static str,
    pub previous_stopped: &'static str,
    /// `{}` the URL.
    pub for_url: &'static str,
    pub copy_now: &'static str,
    pub kept_to_sign: &'static str,
    pub copy: &'static str,
    pub saved_it: &'static str,
    // The delivery log (log.rs).
    pub delivery_log: &'static str,
    pub refresh: &'static str,
    pub reading_log: &'static str,
    pub no_log: &'static str,
    pub newer: &'static str,
    pub older: &'static str,
    /// `{}` this page, `{}` the number of pages.
    pub page_of: &'static str,
    pub response: &'static str,
    /// `{}` the event's id.
    pub replay_event: &'static str,
    pub replay: &'static str,
    pub log_table: &'static str,
    pub log_caption: &'static str,
    /// The log's headers: time, event type, event id, attempt, status, response code, latency,
    /// response.
    pub log_columns: [&'static str; 8],
    pub replay_range: &'static str,
    pub from: &'static str,
    pub to: &'static str,
    pub replay_the_range: &'static str,
    // The chart (chart.rs).
    /// `{}` the day, `{}` how many.
    pub day_delivered: &'static str,
    /// `{}` the day, `{}` how many.
    pub day_failed: &'static str,
    pub chart_caption: &'static str,
    pub chart_label: &'static str,
    pub p95_title: &'static str,
    pub delivered: &'static str,
    pub failed: &'static str,
    pub p95: &'static str,
    pub the_values: &'static str,
    pub day: &'static str,
}

pub fn text() -> &'static Webhooks {
    pick(&en::TEXT, &es::TEXT)
}
