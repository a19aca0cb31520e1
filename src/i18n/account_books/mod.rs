//! The words of an account's drawer on the Accounts page: its balances, holds and entries
//! (`src/pages/accounts/drawer.rs`, `entries.rs`; with the page, in its chunk).

pub mod en;
pub mod es;

use super::pick;

pub struct AccountBooks {
    pub balances: &'static str,
    pub reading_balances: &'static str,
    pub holds: &'static str,
    pub reading_holds: &'static str,
    pub no_holds: &'static str,
    pub below_zero: &'static str,
    /// The balances' labels: posted, pending, available, on hold.
    pub balance_labels: [&'static str; 4],
    /// `{}` the currency, `{}` the moment the balances are as of.
    pub as_of: &'static str,
    /// A hold's state: `held`, `released`, `cancelled` (others as the API says them).
    pub hold_states: [&'static str; 3],
    /// The holds table's headers: deposit, amount, released on, state.
    pub hold_columns: [&'static str; 4],
    pub entries: &'static str,
    pub ledger_account: &'static str,
    /// The ledger account filter's choices: all, pending, posted, on hold.
    pub ledger_accounts: [&'static str; 4],
    pub export_csv: &'static str,
    pub reading_entries: &'static str,
    pub newer: &'static str,
    pub older: &'static str,
    /// `{}` this page, `{}` the number of pages.
    pub page_of: &'static str,
    pub no_entries: &'static str,
    /// The entries table's headers: posted, kind, ledger account, debit, credit, running
    /// balance, memo.
    pub entry_columns: [&'static str; 7],
}

pub fn text() -> &'static AccountBooks {
    pick(&en::TEXT, &es::TEXT)
}
