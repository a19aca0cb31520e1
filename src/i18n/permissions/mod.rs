//! The Permissions page's words (with the page, in its chunk).

pub mod en;
pub mod es;

use super::pick;

pub struct Permissions {
    pub heading: &'static str,
    pub intro: &'static str,
    pub caption: &'static str,
    /// The records' noun, (one, many).
    pub noun: (&'static str, &'static str),
    /// Column labels, in the table's order.
    pub columns: [&'static str; 9],
    pub user_filter_hint: &'static str,
    pub company_filter_hint: &'static str,
}

pub fn text() -> &'static Permissions {
    pick(&en::TEXT, &es::TEXT)
}
