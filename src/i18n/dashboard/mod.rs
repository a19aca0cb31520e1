//! The home page's words: today's figures and the groups the token opens
//! (`src/pages/dashboard/`; with the page, in its chunk). States, rails and codes are the
//! model's own labels.

pub mod en;
pub mod es;

use super::pick;

pub struct Dashboard {
    pub heading: &'static str,
    pub reading: &'static str,
    pub as_of: &'static str,
    pub refresh: &'static str,
    pub not_read: &'static str,
    pub retry: &'static str,
    /// `{}` the moment the token expires.
    pub expires: &'static str,
    pub never_expires: &'static str,
    /// `{}` the token's name, `{}` when it expires (`expires` or `never_expires`).
    pub signed_in_with: &'static str,
    pub your_groups: &'static str,
    // Today's cards (day.rs, chart.rs).
    /// `{}` the day.
    pub today: &'static str,
    pub no_figures: &'static str,
    /// Units after a count: deposits, items, checks, messages.
    pub deposits_unit: &'static str,
    pub items_unit: &'static str,
    pub checks_unit: &'static str,
    pub messages_unit: &'static str,
    pub deposits_today: &'static str,
    pub waiting: &'static str,
    pub to_confirm: &'static str,
    pub returned: &'static str,
    pub unmatched: &'static str,
    pub next_cash_letter: &'static str,
    pub cut_off: &'static str,
    /// `{}` the business day.
    pub business_day: &'static str,
    pub it_holds: &'static str,
    pub outbox: &'static str,
    pub waiting_to_go: &'static str,
    pub bounced_today: &'static str,
    pub routing_directory: &'static str,
    /// `{}` hours.
    pub hours_old: &'static str,
    /// `{}` hours.
    pub stale: &'static str,
    pub current: &'static str,
    /// `{}` when, `{}` how old.
    pub loaded: &'static str,
    /// `{}` the directory's date.
    pub directory_as_of: &'static str,
    /// `{}` used, `{}` the quota, `{}` files.
    pub vault_of_quota: &'static str,
    /// `{}` used, `{}` files.
    pub vault_no_quota: &'static str,
    pub vault_usage: &'static str,
    pub your_vault: &'static str,
    pub failing: &'static str,
    /// `{}` the number of endpoints.
    pub of_endpoints: &'static str,
    pub webhook_endpoints: &'static str,
    /// `{}` the number of accounts.
    pub accounts_moved: &'static str,
    /// The moves table's headers: account, moved, balance, entries.
    pub ledger_columns: [&'static str; 4],
    pub ledger_moved: &'static str,
    /// `{}` the rails described (`rail_figure` each, joined by `; `).
    pub chart_label: &'static str,
    /// `{}` the rail, `{}` its count, `{}` its amount.
    pub rail_figure: &'static str,
}

pub fn text() -> &'static Dashboard {
    pick(&en::TEXT, &es::TEXT)
}
