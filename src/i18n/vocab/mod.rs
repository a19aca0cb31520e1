//! The model's labels in the portal's language: the closed word lists of `moneydesk_model`
//! (its `vocabulary!` enums: statuses, kinds, reasons, flags) carry one English label each,
//! which the server and the OpenAPI document use too, so the portal says them through
//! [`say`] rather than showing `label()` or an `OPTIONS` entry as it is.
//!
//! English is the label itself (no table). The Spanish table ([`es::TABLE`], English label →
//! Spanish) comes with the shell's Spanish chunk ([`super::shell::load_spanish`]), as the
//! shared components' Spanish does: no start-bundle growth, and no page chunk carries it.
//!
//! Keyed by the English label alone: a label shared by several lists ("Active", "Pending",
//! "Sent") has one Spanish, so its Spanish agrees with the implied *estado* (masculine) or
//! uses a form without gender ("Pendiente", "Sin determinar").

pub mod es;
#[cfg(test)]
mod tests;

use std::cell::Cell;

use super::{lang, Lang};

/// English label → Spanish, as [`es::TABLE`] is.
pub type Table = [(&'static str, &'static str)];

thread_local! {
    /// The Spanish table, once the shell's Spanish chunk is here.
    static SPANISH: Cell<Option<&'static Table>> = const { Cell::new(None) };
}

/// A model label (`label()`, an `OPTIONS` entry's second half) in the current language. A
/// label with no entry (a scope's name, a text that is already the page's own words) is said
/// as it is.
pub fn say(label: &'static str) -> &'static str {
    match lang() {
        Lang::En => label,
        Lang::Es => SPANISH.with(Cell::get).and_then(|table| find(table, label)).unwrap_or(label),
    }
}

fn find(table: &'static Table, label: &str) -> Option<&'static str> {
    table.iter().find(|(en, _)| *en == label).map(|(_, es)| *es)
}

/// Keeps the Spanish table the shell's chunk brought.
pub(super) fn set_spanish(table: &'static Table) {
    SPANISH.with(|s| s.set(Some(table)));
}
