//! The shell in English.

use super::{GroupText, Groups, Shell};

pub const TEXT: Shell = Shell {
    brand: "Moneydesk",
    environment: "Environment",
    signed_in_as: "Signed in as",
    sign_out: "Sign out",
    signed_out: "Signed out.",
    signed_out_host: "Signed out: the token from the host page is forgotten.",
    to_dark: "Switch to dark theme",
    to_light: "Switch to light theme",
    menu: "Menu",
    sections: "Sections",
    language: "Language",
    needs_scope: |scope| format!("Needs the {scope} scope"),
    to_sign_in: "Taking you to the sign-in page…",
    checking_token: "Checking your token…",
    language_failed: "The language could not be loaded; try again.",
    not_found: "Page not found",
    no_page_at: "There is no page at",
    to_dashboard: "Go to the dashboard",
    groups: Groups {
        fees: GroupText { title: "Fee schedules", summary: "Quote ACH and wire fees; see the schedule's tiers." },
        vault: GroupText {
            title: "Document vault",
            summary: "A user's folders and files: upload, move, download, delete.",
        },
        email: GroupText {
            title: "Email",
            summary: "Send messages and follow them; templates, address checks, sending domains, inbound mail.",
        },
        routing: GroupText { title: "Routing numbers", summary: "Validate routing numbers and search the directory." },
        deposits: GroupText { title: "Check deposits", summary: "Create, scan and follow check deposits." },
        cash_letters: GroupText {
            title: "Cash letters",
            summary: "Send the day's checks as an X9 cash letter; read X9 files.",
        },
        accounts: GroupText { title: "Accounts", summary: "Page, sort and search through accounts." },
        ledger: GroupText {
            title: "Ledger",
            summary: "Returned items from return files; each day's reconciliation of the books.",
        },
        permissions: GroupText { title: "Permissions", summary: "Page through company users and their permissions." },
        activity: GroupText { title: "Activity", summary: "Every change on record, and the chain's verification." },
        webhooks: GroupText {
            title: "Webhooks",
            summary: "Endpoints events are pushed to, their deliveries and replays.",
        },
        tokens: GroupText { title: "Tokens", summary: "Tokens and sign-in links." },
    },
};
