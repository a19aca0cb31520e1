//! An account's drawer in English.

use super::AccountBooks;

pub const TEXT: AccountBooks = AccountBooks {
    balances: "Balances",
    reading_balances: "Reading the balances…",
    holds: "Holds",
    reading_holds: "Reading the holds…",
    no_holds: "No holds.",
    below_zero: "Below zero",
    balance_labels: ["Posted", "Pending", "Available", "On hold"],
    as_of: "In {}, as of {}",
    hold_states: ["On hold", "Released", "Cancelled"],
    hold_columns: ["Deposit", "Amount", "Released on", "State"],
    entries: "Entries",
    ledger_account: "Ledger account ",
    ledger_accounts: ["All three", "Pending", "Posted", "On hold"],
    export_csv: "Export CSV",
    reading_entries: "Reading the entries…",
    newer: "Newer",
    older: "Older",
    page_of: "Page {} of {}",
    no_entries: "No entries.",
    entry_columns: ["Posted", "Kind", "Ledger account", "Debit", "Credit", "Running balance", "Memo"],
};
