//! Response bodies: the envelope used by every endpoint except the fee schedules, and the
//! fee schedules' own success and error bodies (CONTRACT.md "Success bodies", point 8).

use serde::{Deserialize, Serialize};

/// `{"code":200,"errorMessage":null,"error":null,"data":...}`. On errors `code` equals the
/// HTTP status (600 for an invalid token), `errorMessage` is for people and `error` is the
/// detail in words (section 2.9: "string or null"); the added members `errors`, `reason` and
/// `requestId` carry the same detail for programs, which a client written from the
/// description ignores (CONTRACT.md point 8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Envelope<T> {
    pub code: u16,
    pub error_message: Option<String>,
    /// The detail in words: each wrong field as `field: problem`, joined by `"; "`; otherwise
    /// the same sentence as `errorMessage`. Null on success.
    pub error: Option<String>,
    /// Every field that was wrong, each with what was wrong with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// A stable word for the kind of error: `validation`, `unauthorized`, `invalid_token`,
    /// `forbidden`, `not_found`, `conflict`, `payload_too_large`, `internal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The request id the server logged this under, for support.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    pub data: Option<T>,
}

impl<T> Envelope<T> {
    pub fn ok(data: T) -> Self {
        Self::with_code(200, data)
    }

    pub fn with_code(code: u16, data: T) -> Self {
        Envelope {
            code,
            error_message: None,
            error: None,
            errors: Vec::new(),
            reason: None,
            request_id: None,
            data: Some(data),
        }
    }
}

impl Envelope<()> {
    /// An error body; `error` is derived from `errors` (or is `message` when there are none).
    pub fn error(code: u16, message: impl Into<String>, reason: impl Into<String>, errors: Vec<FieldError>) -> Self {
        let message = message.into();
        let error = if errors.is_empty() { message.clone() } else { FieldError::join(&errors) };
        Envelope {
            code,
            error_message: Some(message),
            error: Some(error),
            errors,
            reason: Some(reason.into()),
            request_id: None,
            data: None,
        }
    }
}

/// One wrong field of a request: `{"field":"amount","problem":"must be a positive decimal"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldError {
    pub field: String,
    pub problem: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        FieldError { field: field.into(), problem: problem.into() }
    }

    /// `field: problem` for each, joined by `"; "`: the envelope's `error` in words.
    pub fn join(errors: &[FieldError]) -> String {
        errors.iter().map(|e| format!("{}: {}", e.field, e.problem)).collect::<Vec<_>>().join("; ")
    }
}

/// Fee schedule success: `{"status":"success","data":[...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeSuccess<T> {
    pub status: String,
    pub data: Vec<T>,
}

impl<T> FeeSuccess<T> {
    pub fn new(data: Vec<T>) -> Self {
        FeeSuccess { status: "success".into(), data }
    }
}

/// Fee schedule error: `{"status":"error","error_code":"400","message":...}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeErrorBody {
    pub status: String,
    pub error_code: String,
    pub message: String,
}

impl FeeErrorBody {
    pub fn new(http_status: u16, message: impl Into<String>) -> Self {
        FeeErrorBody { status: "error".into(), error_code: http_status.to_string(), message: message.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn error_is_a_string_naming_each_field() {
        let e = Envelope::error(
            400,
            "amount: must be a positive decimal; payeeUserId: is required",
            "validation",
            vec![
                FieldError::new("amount", "must be a positive decimal"),
                FieldError::new("payeeUserId", "is required"),
            ],
        );
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"code":400,
                   "errorMessage":"amount: must be a positive decimal; payeeUserId: is required",
                   "error":"amount: must be a positive decimal; payeeUserId: is required",
                   "errors":[{"field":"amount","problem":"must be a positive decimal"},
                             {"field":"payeeUserId","problem":"is required"}],
                   "reason":"validation",
                   "data":null})
        );
    }

    #[test]
    fn success_and_plain_errors_omit_the_added_members() {
        assert_eq!(
            serde_json::to_value(Envelope::ok(1)).unwrap(),
            json!({"code":200,"errorMessage":null,"error":null,"data":1})
        );
        let e = serde_json::to_value(Envelope::error(404, "No such deposit", "not_found", vec![])).unwrap();
        assert_eq!(
            e,
            json!({"code":404,"errorMessage":"No such deposit","error":"No such deposit","reason":"not_found","data":null})
        );
        // A body without the added members (a description-only server) still reads.
        let back: Envelope<()> =
            serde_json::from_value(json!({"code":404,"errorMessage":"x","error":"x","data":null})).unwrap();
        assert!(back.errors.is_empty() && back.reason.is_none());
    }
}
