//! The Accounts page's words (with the page, in its chunk).

pub mod en;
pub mod es;

use super::pick;

pub struct Accounts {
    pub heading: &'static str,
    pub intro: &'static str,
    pub caption: &'static str,
    /// The records' noun, (one, many).
    pub noun: (&'static str, &'static str),
    /// Column labels, in the table's order (`src/pages/accounts.rs`).
    pub columns: [&'static str; 26],
    pub name_hint: &'static str,
    pub created_from: &'static str,
    pub created_to: &'static str,
    /// The available-balance flag's badge, by its value (`pages::accounts::balances::FLAG`).
    pub flags: &'static [(&'static str, &'static str)],
}

pub fn text() -> &'static Accounts {
    pick(&en::TEXT, &es::TEXT)
}
