//! The Email page's words: its tabs, what the tabs show alike (parts.rs), the Outbox and one
//! message (with the page, in its chunk). A `{}` is filled in turn by `crate::i18n::fill`; a
//! pair is an action's (button, what was done).

pub mod en;
pub mod es;

use super::pick;

pub struct Email {
    pub heading: &'static str,
    pub tabs_label: &'static str,
    /// Compose, outbox, templates, verify, domains, inbound, suppressions, deliverability.
    pub tabs: [&'static str; 8],
    /// A check's outcomes: pass, warn, fail, unknown, skipped.
    pub outcomes: [&'static str; 5],
    pub loading: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub close: &'static str,
    pub outbox: Outbox,
    pub message: Message,
    pub verify: Verify,
    pub domains: Domains,
    pub templates: Templates,
    pub inbound: Inbound,
    pub compose: Compose,
    pub suppressions: Suppressions,
    pub schedule: Schedule,
    pub deliverability: Deliverability,
}

/// The Deliverability tab: each sending domain's figures over a window, the latest bounces
/// and complaints (and a message's own, on the message).
pub struct Deliverability {
    pub from: &'static str,
    pub to: &'static str,
    pub show: &'static str,
    pub domains_caption: &'static str,
    /// Domain, accepted, delivered, hard bounces, soft bounces, complaints, bounce rate,
    /// complaint rate, flags.
    pub columns: [&'static str; 9],
    pub no_domains: &'static str,
    pub latest: &'static str,
    pub bounces_caption: &'static str,
    /// Received, address, kind, status, diagnostic, suppressed, message.
    pub bounce_columns: [&'static str; 7],
    pub no_bounces: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// The count.
    /// (one, many).
    pub unparseable: (&'static str, &'static str),
    /// The message's id.
    pub open: &'static str,
    /// The message view's heading over its bounces.
    pub message_bounces: &'static str,
}

/// The Suppressions tab: a sender domain's list, filtered, added to and removed from.
pub struct Suppressions {
    pub domain: &'static str,
    pub show: &'static str,
    pub reason: &'static str,
    pub prefix: &'static str,
    pub prefix_hint: &'static str,
    pub none: &'static str,
    pub caption: &'static str,
    /// Address, reason, category, source, added, (remove).
    pub columns: [&'static str; 6],
    pub every_send: &'static str,
    /// The address.
    pub remove: &'static str,
    /// The address.
    pub removed: &'static str,
    pub add_legend: &'static str,
    pub addresses: &'static str,
    pub addresses_hint: &'static str,
    pub category: &'static str,
    pub category_hint: &'static str,
    pub add: &'static str,
    /// The count.
    pub added: &'static str,
    pub type_addresses: &'static str,
    /// The page's number, the count of entries.
    pub page_total: &'static str,
}

/// The Outbox's schedule column and a scheduled batch's buttons.
pub struct Schedule {
    pub column: &'static str,
    pub paused: &'static str,
    /// The batch id.
    pub batch: &'static str,
    pub pause: &'static str,
    pub resume: &'static str,
    pub cancel: &'static str,
    pub cancel_question: &'static str,
}

/// The Compose tab: the form, its recipients, attachments, bulk CSV and bulk preview.
pub struct Compose {
    pub csv_recipients: &'static str,
    pub to: &'static str,
    pub cc: &'static str,
    pub bcc: &'static str,
    pub hide_cc: &'static str,
    pub show_cc: &'static str,
    pub subject_optional: &'static str,
    pub content: &'static str,
    pub write: &'static str,
    pub use_template: &'static str,
    pub from: &'static str,
    /// A domain (`@notices.bank.example`).
    pub any_address: &'static str,
    pub local_label: &'static str,
    pub display_label: &'static str,
    pub display_hint: &'static str,
    pub html_preview: &'static str,
    pub template: &'static str,
    pub pick: &'static str,
    /// A template's name, its version.
    pub template_option: &'static str,
    pub preview: &'static str,
    pub template_preview: &'static str,
    pub not_sent: &'static str,
    pub see_outbox: &'static str,
    pub send_n: &'static str,
    pub send: &'static str,
    pub pick_template: &'static str,
    /// The count (`one_message`, or `messages` with the count), the ids.
    pub queued: &'static str,
    pub one_message: &'static str,
    pub messages: &'static str,
    pub remove_named: &'static str,
    pub not_address: &'static str,
    pub drop: &'static str,
    pub choose: &'static str,
    pub inline: &'static str,
    pub remove: &'static str,
    /// The size attached, the most a message carries.
    pub total: &'static str,
    pub bulk_legend: &'static str,
    pub csv_label: &'static str,
    /// The file's name, its columns.
    pub no_email_column: &'static str,
    /// The row's number, the CSV reader's reason.
    pub row_error: &'static str,
    /// The count, the file's name.
    pub bulk_count: &'static str,
    pub remove_csv: &'static str,
    pub mapping_caption: &'static str,
    /// Variable, column.
    pub mapping_columns: [&'static str; 2],
    pub none_option: &'static str,
    pub rendering: &'static str,
    pub html_of: [&'static str; 3],
    pub refused: &'static str,
    pub not_previewed: &'static str,
    pub no_address: &'static str,
    pub to_said: &'static str,
    /// The shown, all.
    pub first_n: &'static str,
    pub only_these: &'static str,
}

/// The Inbound tab: routes, the messages received, one message.
pub struct Inbound {
    pub redeliver: (&'static str, &'static str),
    pub redeliver_question: &'static str,
    pub all_domains: &'static str,
    pub refresh: &'static str,
    pub new_legend: &'static str,
    pub domain: &'static str,
    pub domain_example: &'static str,
    pub post_to: &'static str,
    pub url_example: &'static str,
    pub add_route: &'static str,
    pub no_routes: &'static str,
    pub routes_caption: &'static str,
    /// Domain, posts to, MX record to publish, messages, signing secret.
    pub route_columns: [&'static str; 5],
    pub none: &'static str,
    pub caption: &'static str,
    /// Received, domain, from, subject, size, delivery, attempts, last result, bulk outcome.
    pub columns: [&'static str; 9],
    /// The sender.
    pub select: &'static str,
    pub title: &'static str,
    /// The domain.
    pub title_for: &'static str,
    pub route_needed: &'static str,
    pub rotate_question: &'static str,
    pub rotated: &'static str,
    pub change: &'static str,
    pub url_for: &'static str,
    pub save: &'static str,
    pub cancel: &'static str,
    pub copy_mx: &'static str,
    pub received_count: &'static str,
    pub failed_count: &'static str,
    pub copy_secret: &'static str,
    pub hide: &'static str,
    pub reveal: &'static str,
    pub rotate: &'static str,
    pub posting: &'static str,
    pub from: &'static str,
    pub envelope: &'static str,
    pub received: &'static str,
    /// When, by whom (`by_smtp`, `by_api`), the size.
    pub received_how: &'static str,
    pub by_smtp: &'static str,
    pub by_api: &'static str,
    pub next_attempt: &'static str,
    pub deliveries: &'static str,
    pub not_posted: &'static str,
    pub attempts_caption: &'static str,
    /// Started, URL, status, took, result (after `#`).
    pub attempt_columns: [&'static str; 5],
    pub no_answer: &'static str,
    pub took: &'static str,
}

/// The Templates tab.
pub struct Templates {
    pub new_template: &'static str,
    pub none: &'static str,
    /// A listed template's version and subject.
    pub listed: &'static str,
    /// The template's id, its variables.
    pub about: &'static str,
    pub new_version: &'static str,
    pub versions: &'static str,
    /// Version, subject, saved, by.
    pub columns: [&'static str; 4],
    pub name: &'static str,
    pub subject: &'static str,
    pub plain_text: &'static str,
    pub html: &'static str,
    pub sample: &'static str,
    pub subject_said: &'static str,
    pub preview: &'static str,
    pub save: &'static str,
    pub cancel: &'static str,
    /// The JSON error.
    pub not_an_object: &'static str,
    /// The template's name, its version.
    pub saved: &'static str,
}

/// The Domains tab.
pub struct Domains {
    /// The value copied.
    pub copied: &'static str,
    pub copy_refused: &'static str,
    pub type_domain: &'static str,
    pub register_label: &'static str,
    pub example: &'static str,
    pub register: &'static str,
    pub none: &'static str,
    pub caption: &'static str,
    /// Domain, state, last checked.
    pub columns: [&'static str; 3],
    pub never: &'static str,
    pub activated: &'static str,
    pub pending: &'static str,
    pub in_place: &'static str,
    pub install: &'static str,
    pub records_caption: &'static str,
    /// Purpose, type, host, value, status.
    pub record_columns: [&'static str; 5],
    pub advice: &'static str,
    pub copy_host: &'static str,
    pub copy_value: &'static str,
    pub copy: &'static str,
    pub not_checked: &'static str,
    pub found: &'static str,
    pub service_records: &'static str,
    pub verify: &'static str,
    pub activate: &'static str,
}

/// The Verify tab: one address, and a list.
pub struct Verify {
    pub address: &'static str,
    pub example: &'static str,
    pub verify: &'static str,
    pub verifying: &'static str,
    pub score: &'static str,
    pub local: &'static str,
    pub domain: &'static str,
    /// Around the suggested address: `Did you mean ` it `? `.
    pub did_you_mean: (&'static str, &'static str),
    pub verify_it: &'static str,
    pub checks: &'static str,
    /// Check, result, what was found.
    pub check_columns: [&'static str; 3],
    pub nothing: &'static str,
    /// The count, the most.
    pub too_many: &'static str,
    pub export_failed: &'static str,
    pub list_heading: &'static str,
    pub list_label: &'static str,
    pub file_label: &'static str,
    /// The file's name.
    pub no_addresses: &'static str,
    pub unreadable: &'static str,
    /// The count, the most.
    pub count: &'static str,
    pub verify_all: &'static str,
    /// The count verified, the domains looked up.
    pub verified: &'static str,
    pub show: &'static str,
    pub all: &'static str,
    pub export: &'static str,
    /// Address, verdict, score, suggestion, why.
    pub result_columns: [&'static str; 5],
}

/// The Outbox tab.
pub struct Outbox {
    pub resend: (&'static str, &'static str),
    pub resend_question: &'static str,
    pub cancel: (&'static str, &'static str),
    pub cancel_question: &'static str,
    /// The messages' noun, (one, many).
    pub noun: (&'static str, &'static str),
    pub state: &'static str,
    pub search: &'static str,
    pub search_hint: &'static str,
    pub created_from: &'static str,
    /// "Created to", as a screen reader hears the label: its hidden part and the shown one.
    pub created_to: (&'static str, &'static str),
    pub none: &'static str,
    pub caption: &'static str,
    /// Created, to, subject, state, attempts, last reply, bulk outcome.
    pub columns: [&'static str; 7],
    /// The recipients.
    pub select: &'static str,
    pub pages: &'static str,
    /// The page's number, the count of messages.
    pub page_total: &'static str,
    pub no_subject: &'static str,
}

/// One message.
pub struct Message {
    pub label: &'static str,
    /// The recipients the sender domain's suppression list named.
    pub suppressed: &'static str,
    /// One of them sent to anyway (transactional mail).
    pub bypassed: &'static str,
    pub download_failed: &'static str,
    pub mailbox: &'static str,
    pub relay: &'static str,
    pub resend: &'static str,
    pub headers: &'static str,
    pub bcc: &'static str,
    pub attempts: &'static str,
    /// Started, outcome, reply (after `#`).
    pub attempt_columns: [&'static str; 3],
    /// The token, the user.
    pub resent_by: &'static str,
    pub plain_text: &'static str,
    pub html: &'static str,
    pub html_title: &'static str,
    pub attachments: &'static str,
    pub raw: &'static str,
}

pub fn text() -> &'static Email {
    pick(&en::TEXT, &es::TEXT)
}
