//! The bulk endpoints' document: descriptions (the decisions the contract is silent on) and
//! request schemas written exactly (which members, exactly one of `ids` and `filter`, a
//! reject's reason required), so that what the document allows the server accepts.

use std::borrow::Cow;

use serde_json::{json, Value};
use utoipa::openapi::{RefOr, Schema};

use crate::http::bulk::{self, schema};

pub const BULK_DESCRIPTION: &str = "Extension (issue 45). Applies one move — `confirm`, `reject` (with one `reason` for all) or `cancel` — to every deposit the selection names, with the rules and scope of the single action (`…/deposits/{id}/actions`). The selection is `select.ids` (deposit ids) or `select.filter` (the deposit list's filter parameters as strings: status, serviceType, createdFrom, createdTo, payeeAccountId, amountMin, amountMax; paging, sort and fields are not filters), applied here when the request runs: the deposits matching then, newest first. Each deposit moves in its own transaction with its own audit record, so a refused deposit undoes nothing of the others. The answer is 200 whenever the request is well formed, also when some or all were refused: each item says `done`, or `refused` with the reason's stable word (`not_found`, `illegal_transition`) and words for people. Ids given twice are taken once; an id that is not a deposit id is refused as `not_found`. More than 10,000 selected deposits is a 422 `too_many` and nothing is done. Replayed with its Idempotency-Key, the request answers its first answer.";

pub const EXPORT_DESCRIPTION: &str = "Extension (issue 45). The deposits a selection names (`select.ids`, or `select.filter`: the deposit list's filter parameters, applied here, newest first) as CSV: a header line of the deposit record's (2.5) names in its order, then one line per deposit record. Ids naming no deposit are left out (a download of what exists). At most 10,000 deposits (more is a 422 `too_many`).";

/// A reason as the single action takes it: 1 to 500 characters, not only spaces, no control
/// characters.
const REASON_PATTERN: &str = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$";
const AMOUNT_PATTERN: &str = r"^[0-9]{1,10}(\.[0-9]{1,2})?$";

/// `select`: exactly one of `ids` and `filter` (the deposit list's filter parameters, all
/// optional; none: every deposit), as every bulk endpoint writes it.
fn select() -> Value {
    let filter = json!({
        "status": {"type": "string", "pattern": "^(In_Progress_1|Confirmed_2|Sent_3|Settled_4|Returned_5|Rejected_6|Cancelled_7)$"},
        "serviceType": {"type": "string", "pattern": "^(Cash|Check|Check_Scan|Image_Cash_Letter|Electronic_Deposit)$"},
        "createdFrom": {"type": "string", "format": "date"},
        "createdTo": {"type": "string", "format": "date"},
        "payeeAccountId": {"type": "string", "minLength": 1, "pattern": "\\S"},
        "amountMin": {"type": "string", "pattern": AMOUNT_PATTERN},
        "amountMax": {"type": "string", "pattern": AMOUNT_PATTERN}
    });
    bulk::select_schema("Deposit ids", json!({"type": "string"}), filter)
}

/// The bulk action's body.
pub struct DepositBulkRequest;

impl utoipa::PartialSchema for DepositBulkRequest {
    fn schema() -> RefOr<Schema> {
        let reason = |min: bool| {
            let mut r =
                json!({"type": "string", "maxLength": 500, "description": "Why (kept in each deposit's history)"});
            if min {
                r["pattern"] = json!(REASON_PATTERN);
                r["minLength"] = json!(1);
            }
            r
        };
        schema(json!({
            "description": "A bulk move of deposits: `confirm` or `cancel` (a reason optional), `reject` (a reason required)",
            "oneOf": [
                {"type": "object", "required": ["action", "select"], "additionalProperties": false,
                 "properties": {"action": {"type": "string", "enum": ["confirm", "cancel"]}, "reason": reason(true), "select": select()}},
                {"type": "object", "required": ["action", "reason", "select"], "additionalProperties": false,
                 "properties": {"action": {"type": "string", "enum": ["reject"]}, "reason": reason(true), "select": select()}}
            ]
        }))
    }
}

impl utoipa::ToSchema for DepositBulkRequest {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("DepositBulkRequest")
    }
}

/// The export's body.
pub struct DepositExportRequest;

impl utoipa::PartialSchema for DepositExportRequest {
    fn schema() -> RefOr<Schema> {
        schema(json!({"type": "object", "required": ["select"], "additionalProperties": false,
            "description": "The deposits to export", "properties": {"select": select()}}))
    }
}

impl utoipa::ToSchema for DepositExportRequest {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("DepositExportRequest")
    }
}
