//! The ledger (extension): the double-entry books behind every managed sleeve account — its
//! balances (posted, pending, available), entries, transactions, holds, manual adjustments,
//! return files and the daily reconciliation. Amounts are [`Money`] with the account's sign:
//! a sleeve account's balances are what the bank owes its owner, so a credit raises them.
//!
//! Balances of a sleeve account, defined once (server `ledger/chart.rs` keeps the entries):
//!
//! - **posted**: settled money only. The account record's `marketValue` (2.6) is this.
//! - **pending**: posted plus what is credited and not yet settled (or returned).
//! - **available**: pending less what the hold schedule has not released yet; it can go below
//!   zero only when an item whose funds were released comes back returned (flagged).

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;
use crate::Money;

vocabulary!(
    /// A ledger account's kind: the three of each managed sleeve account, then the bank's own.
    #[derive(PartialOrd, Ord)]
    pub enum LedgerAccountKind {
        Pending = "pending" / "Pending (credited, not yet settled)",
        Posted = "posted" / "Posted (settled)",
        Held = "held" / "On hold (not yet available)",
        ItemsInProcess = "items_in_process" / "Items in process (confirmed, not sent)",
        ClearingX9 = "clearing_x9" / "Clearing: image cash letters",
        ClearingAch = "clearing_ach" / "Clearing: ACH",
        Settlement = "settlement" / "Settlement account at the Federal Reserve",
        CashVault = "cash_vault" / "Cash vault",
        FeeIncomePending = "fee_income_pending" / "Fee income, not yet earned",
        FeeIncome = "fee_income" / "Fee income",
        Holds = "holds" / "Holds outstanding (memo)",
        OpeningBalances = "opening_balances" / "Opening balances",
        Adjustments = "adjustments" / "Manual adjustments",
    }
);

vocabulary!(
    /// An entry's side.
    pub enum Direction {
        Debit = "debit",
        Credit = "credit",
    }
);

vocabulary!(
    /// What a ledger transaction records (the table "what posts what" in the API description).
    pub enum PostingKind {
        Opening = "opening" / "Opening balance",
        DepositConfirmed = "deposit_confirmed" / "Deposit confirmed",
        DepositSent = "deposit_sent" / "Deposit sent",
        DepositSettled = "deposit_settled" / "Deposit settled",
        DepositReturned = "deposit_returned" / "Deposit returned",
        DepositReversed = "deposit_reversed" / "Deposit rejected or cancelled",
        HoldReleased = "hold_released" / "Hold released",
        Adjustment = "adjustment" / "Manual adjustment",
    }
);

impl LedgerAccountKind {
    /// The three kinds each managed sleeve account has.
    pub const SLEEVE: [LedgerAccountKind; 3] =
        [LedgerAccountKind::Pending, LedgerAccountKind::Posted, LedgerAccountKind::Held];

    /// Whether a sleeve account has it (the others are the bank's).
    pub fn is_sleeve(self) -> bool {
        Self::SLEEVE.contains(&self)
    }

    /// The side that raises the account's balance as it is shown: the bank's assets (clearing,
    /// settlement, cash) and the holds on a sleeve account are debit-normal, what the bank owes
    /// or earns credit-normal.
    ///
    /// ```
    /// use moneydesk_model::ledger::{Direction, LedgerAccountKind};
    /// assert_eq!(LedgerAccountKind::Posted.normal(), Direction::Credit);
    /// assert_eq!(LedgerAccountKind::ClearingX9.normal(), Direction::Debit);
    /// ```
    pub fn normal(self) -> Direction {
        use LedgerAccountKind::*;
        match self {
            Held | ItemsInProcess | ClearingX9 | ClearingAch | Settlement | CashVault => Direction::Debit,
            Pending | Posted | FeeIncomePending | FeeIncome | Holds | OpeningBalances | Adjustments => {
                Direction::Credit
            }
        }
    }
}

/// The balances of a managed sleeve account at a moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Balances {
    pub account_id: String,
    /// The moment they are of (RFC 3339 UTC): now, or the request's `asOf`.
    pub as_of: String,
    pub currency: String,
    /// Settled money: the account record's `marketValue`.
    pub posted: Money,
    /// Posted plus credited-not-settled.
    pub pending: Money,
    /// Pending less what is still on hold.
    pub available: Money,
    /// What is still on hold.
    pub held: Money,
    /// Available is below zero (a returned item whose funds were already released).
    pub negative_available: bool,
}

/// One entry of the books.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerEntry {
    pub id: i64,
    pub transaction_id: i64,
    /// `sma:{accountId}:{kind}` or `bank:{kind}`.
    pub ledger_account: String,
    #[cfg_attr(feature = "openapi", schema(value_type = LedgerAccountKind))]
    pub account_kind: LedgerAccountKind,
    #[cfg_attr(feature = "openapi", schema(value_type = Direction))]
    pub direction: Direction,
    /// Positive: the direction says which side.
    pub amount: Money,
    /// The ledger account's balance after this entry, on its normal side.
    pub balance: Money,
    /// RFC 3339 UTC, milliseconds.
    pub posted_at: String,
    #[cfg_attr(feature = "openapi", schema(value_type = PostingKind))]
    pub kind: PostingKind,
    pub deposit_id: Option<i64>,
    pub memo: Option<String>,
}

/// A transaction with its entries (which sum to zero).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerTransaction {
    pub id: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = PostingKind))]
    pub kind: PostingKind,
    pub posted_at: String,
    /// Who posted it: a token's name, or the job that did (`settlement`, `holds`).
    pub actor: String,
    pub memo: Option<String>,
    pub deposit_id: Option<i64>,
    /// The transaction this one reverses.
    pub reverses: Option<i64>,
    pub entries: Vec<LedgerEntry>,
}

/// What a deposit posted to the books, oldest first, and its hold's tranches
/// (`…/deposits/{id}/postings`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositPostings {
    pub deposit_id: i64,
    pub transactions: Vec<LedgerTransaction>,
    pub holds: Vec<Hold>,
}

/// A tranche of a deposit's hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Hold {
    pub deposit_id: i64,
    pub amount: Money,
    /// The business day it is released (`YYYY-MM-DD`).
    pub release_on: String,
    /// `held`, `released` or `cancelled` (the deposit was returned, rejected or cancelled).
    pub state: String,
    /// The transaction that released or cancelled it.
    pub transaction_id: Option<i64>,
}

/// A manual adjustment (scope `admin`): two-sided, with a reason; send an `Idempotency-Key`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "debit": "bank:fee_income", "credit": "bank:adjustments", "amount": 10.00, "reason": "Fee refunded by the branch"
})))]
pub struct AdjustmentRequest {
    /// The ledger account debited (`sma:{accountId}:posted`, `bank:adjustments`, …).
    #[cfg_attr(feature = "openapi", schema(example = "bank:fee_income"))]
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(sma:[^:\s\x00-\x1f\x7f-\x9f]{1,64}:(pending|posted|held)|bank:(items_in_process|clearing_x9|clearing_ach|settlement|cash_vault|fee_income_pending|fee_income|holds|opening_balances|adjustments))$"
        )
    )]
    pub debit: String,
    /// The ledger account credited (another than `debit`).
    #[cfg_attr(feature = "openapi", schema(example = "bank:adjustments"))]
    #[cfg_attr(
        feature = "openapi",
        schema(
            pattern = r"^(sma:[^:\s\x00-\x1f\x7f-\x9f]{1,64}:(pending|posted|held)|bank:(items_in_process|clearing_x9|clearing_ach|settlement|cash_vault|fee_income_pending|fee_income|holds|opening_balances|adjustments))$"
        )
    )]
    pub credit: String,
    /// More than zero and under 1,000,000,000.00, at most two decimals.
    pub amount: Money,
    /// Why (1 to 500 characters, not only spaces, no control characters), kept as the
    /// transaction's memo.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 500,
            pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"
        )
    )]
    pub reason: String,
}

/// A ledger account of the chart with its balance now (the bank's accounts, for operators).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LedgerAccountBalance {
    pub code: String,
    #[cfg_attr(feature = "openapi", schema(value_type = LedgerAccountKind))]
    pub kind: LedgerAccountKind,
    pub label: String,
    /// On the account's normal side.
    pub balance: Money,
    pub entry_count: i64,
}

/// How many ten-thousandths of the currency unit the books count in.
pub const UNITS_PER_DOLLAR: i64 = 10_000;

/// An amount of the books (signed ten-thousandths) as money, written with two decimals unless
/// it has more.
///
/// ```
/// use moneydesk_model::ledger::money_of_units;
/// assert_eq!(money_of_units(12_3400).to_string(), "12.34");
/// assert_eq!(money_of_units(-5).to_string(), "-0.0005");
/// ```
pub fn money_of_units(units: i64) -> Money {
    let d = rust_decimal::Decimal::new(units, 4).normalize();
    let mut d2 = d;
    if d2.scale() < 2 {
        d2.rescale(2);
    }
    Money::new(d2)
}

/// Money as units of the books, if it has at most four decimals and fits.
///
/// ```
/// use moneydesk_model::{ledger::units_of_money, Money};
/// assert_eq!(units_of_money(Money::parse("12.34").unwrap()), Some(123_400));
/// assert_eq!(units_of_money(Money::parse("0.00001").unwrap()), None);
/// ```
pub fn units_of_money(m: Money) -> Option<i64> {
    use rust_decimal::prelude::ToPrimitive;
    let d = m.decimal() * rust_decimal::Decimal::from(UNITS_PER_DOLLAR);
    if d.fract() != rust_decimal::Decimal::ZERO {
        return None;
    }
    d.to_i64()
}

mod reconciliation;
mod returns;
pub use reconciliation::{ClearingDay, OpenItem, ReconciliationLine, ReconciliationReport};
pub use returns::{ReturnAction, ReturnFileError, ReturnFileResult, ReturnItem, ReturnItemState, ReturnSource};
