//! The Accounts page in English.

use super::Accounts;

pub const TEXT: Accounts = Accounts {
    heading: "Accounts",
    intro: "Every unified account. Sort by a column's header, filter above the table, and select a row to see all of its fields.",
    caption: "Accounts",
    noun: ("account", "accounts"),
    columns: [
        "Account id", "Name", "Account number", "Type", "Status", "Posted balance", "Available balance",
        "Below zero", "Created", "Business entity", "Email", "Sub-routing number", "Sub-routing name",
        "Parent account", "TIN", "Record type id", "Billing street", "Billing city", "Billing state",
        "Billing zipcode", "Billing country", "Mailing street", "Mailing city", "Mailing state",
        "Mailing zipcode", "Mailing country",
    ],
    name_hint: "contains…",
    created_from: "Created from",
    created_to: "Created to",
    flags: &[("below_zero", "Below zero")],
};
