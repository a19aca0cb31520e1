//! The daily reconciliation (extension): per ledger account of the bank, the day's opening
//! balance, debits, credits and closing balance; the clearing accounts must come back to zero
//! once everything sent has settled or returned, and the report names the items that keep
//! them open. With the clearing accounts' closing balances of the last 30 days for a chart.

use serde::{Deserialize, Serialize};

use super::LedgerAccountKind;
use crate::Money;

/// One ledger account's day, on its normal side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconciliationLine {
    pub code: String,
    #[cfg_attr(feature = "openapi", schema(value_type = LedgerAccountKind))]
    pub kind: LedgerAccountKind,
    pub label: String,
    pub opening: Money,
    /// Sum of the day's debits (positive).
    pub debits: Money,
    /// Sum of the day's credits (positive).
    pub credits: Money,
    pub closing: Money,
}

/// An item that keeps a clearing account open: sent, neither settled nor returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpenItem {
    pub deposit_id: i64,
    /// `bank:clearing_x9` or `bank:clearing_ach` (or `bank:items_in_process`, confirmed and
    /// not yet sent).
    pub ledger_account: String,
    pub amount: Money,
    /// The day it was sent (`YYYY-MM-DD`), if it was.
    pub sent_on: Option<String>,
    /// The business day it settles by, when no return comes.
    pub settles_on: Option<String>,
}

/// The clearing accounts' closing balances on a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClearingDay {
    pub date: String,
    pub clearing_x9: Money,
    pub clearing_ach: Money,
    pub items_in_process: Money,
}

/// The day's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReconciliationReport {
    /// The business day (`YYYY-MM-DD`, business time zone).
    pub date: String,
    pub lines: Vec<ReconciliationLine>,
    /// Every clearing account closed the day at zero.
    pub clearing_closed: bool,
    /// What keeps them open at the day's end.
    pub open_items: Vec<OpenItem>,
    /// The last 30 days up to `date`, oldest first.
    pub clearing_history: Vec<ClearingDay>,
    /// The books balance: every transaction sums to zero and every balance row equals its
    /// entries (checked when the report is made).
    pub books_balanced: bool,
}
