//! Returned items (extension): what came back from the payor banks — an X9.100-187 return
//! file (records 31–35), an ACH return file (addenda 99; addenda 98 notifications of change),
//! or an operator's Return — each matched to its deposit, or listed unmatched for an operator.
//! Nothing a file holds is dropped: every item is kept with its state.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;
use crate::Money;

vocabulary!(
    /// Where a returned item came from.
    pub enum ReturnSource {
        X9 = "x9" / "X9 return file",
        Ach = "ach" / "ACH return file",
        Operator = "operator" / "Operator",
    }
);

vocabulary!(
    /// What became of a returned item.
    pub enum ReturnItemState {
        /// Matched to its deposit, which was returned (its credit reversed, the fee charged).
        Matched = "matched" / "Matched",
        /// No deposit has its sequence number (or trace number) and amount: an operator acts.
        Unmatched = "unmatched" / "Unmatched",
        /// Its deposit was already returned: nothing posted twice.
        Duplicate = "duplicate" / "Duplicate",
        /// A notification of change (ACH addenda 98): the payer's bank details were updated.
        Corrected = "corrected" / "Notification of change",
        /// An operator matched it to a deposit by hand.
        Resolved = "resolved" / "Resolved by hand",
        /// An operator set it aside, with a reason.
        Dismissed = "dismissed" / "Dismissed",
    }
);

/// One returned item (or notification of change) as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReturnItem {
    pub id: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = ReturnSource))]
    pub source: ReturnSource,
    #[cfg_attr(feature = "openapi", schema(value_type = ReturnItemState))]
    pub state: ReturnItemState,
    /// The return file it came in (its upload's id), if any.
    pub file_id: Option<i64>,
    /// Its record's number in that file (X9 record 31, or the ACH entry's line).
    pub record_number: Option<i64>,
    /// X9 return reason (`A`–`Z`, `1`–`9`), NACHA R-code (`R01`) or change code (`C01`).
    pub reason_code: String,
    /// The code's meaning in the lists of X9.100-187 and the NACHA rules.
    pub reason: Option<String>,
    pub amount: Money,
    /// The item's sequence number (X9) or the original entry's trace number (ACH).
    pub reference: Option<String>,
    pub deposit_id: Option<i64>,
    /// A notification of change's corrected data, as the bank sent it.
    pub corrected_data: Option<String>,
    /// RFC 3339 UTC.
    pub received_at: String,
    /// An operator's note (why it was dismissed or resolved by hand).
    pub note: Option<String>,
}

/// A record of a return file that could not be read, with where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReturnFileError {
    /// The record number (X9) or line (ACH), when the problem has one.
    pub record_number: Option<i64>,
    pub field: Option<String>,
    pub message: String,
}

/// What an uploaded (or dropped-in) return file came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReturnFileResult {
    pub file_id: i64,
    #[cfg_attr(feature = "openapi", schema(value_type = ReturnSource))]
    pub format: ReturnSource,
    pub file_name: Option<String>,
    /// The file's SHA-256: the same file twice is read once.
    pub sha256: String,
    pub items: Vec<ReturnItem>,
    pub errors: Vec<ReturnFileError>,
}

/// An operator's act on an unmatched item: match it to a deposit, or dismiss it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReturnAction {
    /// `match` (with `depositId`) or `dismiss` (with a `note`).
    #[cfg_attr(feature = "openapi", schema(pattern = "^(match|dismiss)$"))]
    pub action: String,
    pub deposit_id: Option<i64>,
    /// Why (1 to 500 characters, no control characters); required to dismiss.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 500,
            pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"
        )
    )]
    pub note: Option<String>,
}
