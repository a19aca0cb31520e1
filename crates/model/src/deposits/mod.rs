//! Deposits (description 2.4, 2.5, 3, 4.5): the list item, the deposit record, the state
//! machine, the check deposit request and the deposit kinds.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;
use crate::Money;

mod capture;
mod cash;
mod date;
mod electronic;
mod record;
mod request;
mod scan;
mod state;
mod text;

pub use capture::{CaptureHint, Corners, FrameCheck, Place, SideMillis, SideRead, Steadiness, FRAME_WIDTH};
pub use cash::{CashDeposit, CashDepositFields};
pub use date::{Date, MONTH_ABBREVIATIONS};
pub use electronic::{AchAccountType, ElectronicDeposit, ElectronicDepositFields};
pub use record::{created_date_text, list_created_date_text, DepositRecord};
pub use request::{CheckDeposit, CheckDepositFields, CheckImages, STALE_AFTER_DAYS};
pub use scan::{CheckScan, CheckScanFields, CheckScanRequest, MicrField, MicrRead, QualityFinding, ScanSide};
pub use state::{DepositAction, DepositStatus, IllegalMove};
pub use text::{Text140, Text140Error};

/// One deposit with what the detail view shows (extension): the record, its kind, its history,
/// and what the server knows besides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositDetail {
    pub record: DepositRecord,
    pub service_type: ServiceType,
    /// Oldest first.
    pub history: Vec<DepositEvent>,
    /// The routing directory's name for the routing number, when it knows it (beside a
    /// `bankName` the request gave that differs).
    pub directory_bank_name: Option<String>,
    /// An admin's override of a duplicate presentment: the first deposit and the reason.
    pub duplicate_of: Option<i64>,
    pub override_reason: Option<String>,
    /// The moves allowed now.
    pub allowed_actions: Vec<DepositAction>,
}

/// The deposits of one day (business time zone) in one status: the chart's bars (extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositDayTotal {
    pub day: Date,
    pub status: DepositStatus,
    pub count: i64,
    /// The sum of the deposits' amounts, exactly (a JSON number with two decimals).
    pub amount: Money,
}

/// One move in a deposit's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositEvent {
    /// RFC 3339 UTC.
    pub at: String,
    /// The token's name that made the move.
    pub actor: String,
    /// `create` or a [`DepositAction`].
    pub action: String,
    pub from_status: Option<DepositStatus>,
    pub to_status: DepositStatus,
    pub reason: Option<String>,
}

/// A move asked for (extension): the action, and the reason reject and return need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositMove {
    pub action: DepositAction,
    /// Why: required (not blank) for reject and return; at most 500 characters, no control
    /// characters.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(max_length = 500, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"))]
    pub reason: Option<String>,
    /// A return's reason code (return only): an X9 return reason (`A`–`Z`, `1`–`9`) or a
    /// NACHA return reason code (`R01`…). The return is then recorded as a returned item too,
    /// and the reason says the code and its meaning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^([A-Z1-9]|R[0-9]{2})$"))]
    pub reason_code: Option<String>,
}

vocabulary!(
    /// The deposit kinds of description 1 (the list item's `serviceType`; the description lists no
    /// values, only the sample `Bank Wire`, which is not a deposit kind of its own section 1).
    pub enum ServiceType {
        Cash = "Cash" / "Cash",
        Check = "Check" / "Check",
        /// A check captured with the portal's scanner (camera or file).
        CheckScan = "Check_Scan" / "Check scan",
        /// Checks received in an image cash letter file (X9.100-187).
        ImageCashLetter = "Image_Cash_Letter" / "Image cash letter",
        /// An ACH pull from the vendor's bank into the managed sleeve account.
        ElectronicDeposit = "Electronic_Deposit" / "Electronic deposit (ACH pull)",
    }
);

/// One row of the deposit list, in the description's names. Every field is always present in
/// JSON; the one optional field is `null` when unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositListItem {
    /// Name of the payee.
    #[cfg_attr(feature = "openapi", schema(example = "Austin Capital Trust Company LLC Checking"))]
    pub name: String,
    /// Service type selected for the deposit (an enum whose values the description does not
    /// list, only the sample `Bank Wire`), so it stays the text given.
    #[cfg_attr(feature = "openapi", schema(example = "Bank Wire"))]
    pub service_type: Option<String>,
    /// Account number of the payee, as written (`1-32-03-01-002154`: not only digits).
    #[cfg_attr(feature = "openapi", schema(example = "1-32-03-01-002154"))]
    pub account_number: String,
    /// Unified account id of the payee.
    #[cfg_attr(feature = "openapi", schema(example = "a058c00000f1cagAAA"))]
    pub unified_account_id: String,
    /// Created date of the deposit, kept exactly as given: the sample is a local date-time
    /// without offset or fraction (`2022-08-16T20:09:37`), so no stricter format is assumed.
    #[cfg_attr(feature = "openapi", schema(example = "2022-08-16T20:09:37"))]
    pub created_date: String,
    /// Record type id of the deposit.
    #[cfg_attr(feature = "openapi", schema(example = "0128c000002j056AAA"))]
    pub record_type_id: String,
    /// Acceleration Cloud id of the payee.
    #[cfg_attr(feature = "openapi", schema(example = "a098c00000toisnAAA"))]
    pub ac_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The field table's sample column, one field per row, as a list item.
    fn sample() -> Value {
        json!({
            "name": "Austin Capital Trust Company LLC Checking",
            "serviceType": "Bank Wire",
            "accountNumber": "1-32-03-01-002154",
            "unifiedAccountId": "a058c00000f1cagAAA",
            "createdDate": "2022-08-16T20:09:37",
            "recordTypeId": "0128c000002j056AAA",
            "acId": "a098c00000toisnAAA"
        })
    }

    #[test]
    fn list_item_round_trips_the_description_sample() {
        let item: DepositListItem = serde_json::from_value(sample()).unwrap();
        assert_eq!(item.name, "Austin Capital Trust Company LLC Checking");
        assert_eq!(item.service_type.as_deref(), Some("Bank Wire"));
        assert_eq!(item.created_date, "2022-08-16T20:09:37");
        assert_eq!(item.ac_id, "a098c00000toisnAAA");
        assert_eq!(serde_json::to_value(&item).unwrap(), sample());
    }

    #[test]
    fn optional_service_type_is_null_and_required_fields_are_required() {
        let mut v = sample();
        v["serviceType"] = Value::Null;
        let item: DepositListItem = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(item.service_type, None);
        assert_eq!(serde_json::to_value(&item).unwrap(), v);

        // Absent reads as null (the table marks it optional); written back, it is present.
        v.as_object_mut().unwrap().remove("serviceType");
        let item: DepositListItem = serde_json::from_value(v).unwrap();
        assert!(serde_json::to_value(&item).unwrap()["serviceType"].is_null());

        for field in ["name", "accountNumber", "unifiedAccountId", "createdDate", "recordTypeId", "acId"] {
            let mut v = sample();
            v.as_object_mut().unwrap().remove(field);
            let err = serde_json::from_value::<DepositListItem>(v).unwrap_err().to_string();
            assert!(err.contains(field), "{field}: {err}");
        }
    }
}
