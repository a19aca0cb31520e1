//! The Activity tab in English.

use super::ActivityTab;

pub const TEXT: ActivityTab = ActivityTab {
    sections: "Sections",
    details: "Details",
    activity: "Activity",
    reading: "Reading the activity…",
    none: "No activity on record.",
    newer: "Newer",
    older: "Older",
    page_of: "Page {} of {}",
    no_changes: "No fields changed.",
    change_columns: ["Field", "Before", "After"],
    the_server: "The server",
    token_n: "token {}",
};
