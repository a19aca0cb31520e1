//! Response bodies: the envelope used by every endpoint except the fee schedules, and the
//! fee schedules' own success and error bodies (CONTRACT.md "Success bodies", point 8).

use serde::{Deserialize, Serialize};

/// `{"code":200,"errorMessage":null,"error":null,"data":...}`. On errors `code` equals the
/// HTTP status (600 for an invalid token), `errorMessage` is for people, `error` for programs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Envelope<T> {
    pub code: u16,
    pub error_message: Option<String>,
    pub error: Option<ErrorDetail>,
    pub data: Option<T>,
}

impl<T> Envelope<T> {
    pub fn ok(data: T) -> Self {
        Self::with_code(200, data)
    }

    pub fn with_code(code: u16, data: T) -> Self {
        Envelope { code, error_message: None, error: None, data: Some(data) }
    }
}

impl Envelope<()> {
    pub fn error(code: u16, message: impl Into<String>, detail: ErrorDetail) -> Self {
        Envelope { code, error_message: Some(message.into()), error: Some(detail), data: None }
    }
}

/// The machine-readable part of an error.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// A stable word for the kind of error: `validation`, `unauthorized`, `invalid_token`,
    /// `forbidden`, `not_found`, `conflict`, `payload_too_large`, `not_implemented`, `internal`.
    pub reason: String,
    /// Every field that was wrong, each with what was wrong with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldError>,
    /// The request id the server logged this under, for support.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

impl ErrorDetail {
    pub fn reason(reason: impl Into<String>) -> Self {
        ErrorDetail { reason: reason.into(), ..Default::default() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError { field: field.into(), message: message.into() }
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
