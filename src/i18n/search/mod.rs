//! The search panel's words (`src/pages/search/dialog.rs`; with the panel, in its chunk). The
//! header's search button is the shell's (`src/pages/search/mod.rs`, in the start bundle) and
//! not here. Group and field names are the model's.

pub mod en;
pub mod es;

use super::pick;

pub struct Search {
    pub heading: &'static str,
    pub close: &'static str,
    pub close_title: &'static str,
    pub label: &'static str,
    pub placeholder: &'static str,
    pub results: &'static str,
    pub idle: &'static str,
    pub searching: &'static str,
    /// `{}` what was typed.
    pub nothing: &'static str,
    pub one: &'static str,
    /// `{}` how many.
    pub many: &'static str,
    /// `{}` the group.
    pub more: &'static str,
}

pub fn text() -> &'static Search {
    pick(&en::TEXT, &es::TEXT)
}
