//! The Activity tab's words (`src/pages/activity/tab.rs`: an object's drawer, Details and
//! Activity, and the changes a record made). Used by that module and the Activity page's `who`, so its words go with
//! the code, shared by the chunks of the pages with such a drawer. Operations, outcomes and
//! field names stay as the API writes them.

pub mod en;
pub mod es;

use super::pick;

pub struct ActivityTab {
    pub sections: &'static str,
    pub details: &'static str,
    pub activity: &'static str,
    pub reading: &'static str,
    pub none: &'static str,
    pub newer: &'static str,
    pub older: &'static str,
    /// `{}` this page, `{}` the number of pages.
    pub page_of: &'static str,
    pub no_changes: &'static str,
    /// The changes' headers: field, before, after.
    pub change_columns: [&'static str; 3],
    /// Who made a change the server made itself (no token).
    pub the_server: &'static str,
    /// Who made a change: a token known only by its id (`{}`).
    pub token_n: &'static str,
}

pub fn text() -> &'static ActivityTab {
    pick(&en::TEXT, &es::TEXT)
}
