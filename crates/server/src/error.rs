//! One error type for every handler. It renders as the envelope
//! `{"code":N,"errorMessage":...,"error":"...","errors":[...],"reason":...,"data":null}`
//! (CONTRACT.md point 8: `error` is the detail in words, the added members carry it for
//! programs); on the fee schedule paths the `http::finish` middleware re-renders it as the fee
//! error body `{"status":"error","error_code":"N","message":...}`, so fee handlers may return either
//! `Error` or `FeeError` and get the right shape. The middleware also adds the request id.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use moneydesk_model::{paths, Envelope, FeeErrorBody, FieldError, Scope};
use serde::Serialize;

/// The `code` (and fee `error_code`) of a malformed, expired or revoked token.
pub const INVALID_TOKEN_CODE: u16 = 600;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub status: StatusCode,
    /// The body's `code`: the HTTP status, or 600 for an invalid token.
    pub code: u16,
    /// A stable word: validation, unauthorized, invalid_token, forbidden, not_found, ...
    pub reason: String,
    /// For people; names the field or the problem.
    pub message: String,
    pub fields: Vec<FieldError>,
}

impl Error {
    pub fn new(status: StatusCode, reason: &str, message: impl Into<String>) -> Self {
        Error { status, code: status.as_u16(), reason: reason.into(), message: message.into(), fields: Vec::new() }
    }

    /// 400 about one field: `Error::field("routingNumber", "must be 9 digits, got 8")`.
    pub fn field(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::fields(vec![FieldError::new(field, problem)])
    }

    /// 400 naming every wrong field at once.
    pub fn fields(fields: Vec<FieldError>) -> Self {
        let mut e = Error::new(StatusCode::BAD_REQUEST, "validation", FieldError::join(&fields));
        e.fields = fields;
        e
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Error::new(StatusCode::BAD_REQUEST, "validation", message)
    }

    /// 401: no credential, or one the server does not know.
    pub fn unauthorized() -> Self {
        Error::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Authentication required: send Authorization: Bearer <token>",
        )
    }

    /// 401 with code 600: a malformed, expired or revoked token. `why` is the `Authorization`
    /// field's problem (in `error` and `errors`) so programs and people can tell the cases
    /// apart; `errorMessage` stays "Invalid token" (section 7, rule 1).
    pub fn invalid_token(why: &str) -> Self {
        Error {
            status: StatusCode::UNAUTHORIZED,
            code: INVALID_TOKEN_CODE,
            reason: "invalid_token".into(),
            message: "Invalid token".into(),
            fields: vec![FieldError::new("Authorization", why)],
        }
    }

    /// 403: a valid credential without the scope.
    pub fn forbidden(scope: Scope) -> Self {
        Error::new(StatusCode::FORBIDDEN, "forbidden", format!("This token lacks the {scope} scope"))
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Error::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Error::new(StatusCode::CONFLICT, "conflict", message)
    }

    pub fn payload_too_large(message: impl Into<String>) -> Self {
        Error::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", message)
    }

    /// 501 for an endpoint whose issue has not landed yet.
    pub fn not_implemented(what: &str) -> Self {
        Error::new(
            StatusCode::NOT_IMPLEMENTED,
            "not_implemented",
            format!("{what} is not implemented on this server yet"),
        )
    }

    /// 500: logs the cause (never shown to the client).
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Error::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal server error; the request id identifies it in the server log",
        )
    }

    /// An error answer that did not come from an `Error` (axum's rejections, 405, 413 from the
    /// body limit): keep the status, use the plain-text body as the message.
    pub fn from_status(status: StatusCode, text: &str) -> Self {
        let reason = match status {
            StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY | StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                "validation"
            }
            StatusCode::UNAUTHORIZED => "unauthorized",
            StatusCode::FORBIDDEN => "forbidden",
            StatusCode::NOT_FOUND => "not_found",
            StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
            StatusCode::CONFLICT => "conflict",
            StatusCode::PAYLOAD_TOO_LARGE => "payload_too_large",
            StatusCode::NOT_IMPLEMENTED => "not_implemented",
            s if s.is_server_error() => "internal",
            _ => "error",
        };
        let text = text.trim();
        let message = if !text.is_empty() && !status.is_server_error() {
            text.to_string()
        } else {
            match status {
                StatusCode::METHOD_NOT_ALLOWED => "Method not allowed on this path".to_string(),
                StatusCode::NOT_FOUND => "No such API path".to_string(),
                StatusCode::PAYLOAD_TOO_LARGE => "Request body is too large".to_string(),
                s => s.canonical_reason().unwrap_or("Error").to_string(),
            }
        };
        Error::new(status, reason, message)
    }

    /// The envelope body.
    pub fn envelope(&self, request_id: Option<String>) -> Envelope<()> {
        let mut body = Envelope::error(self.code, self.message.clone(), self.reason.clone(), self.fields.clone());
        body.request_id = request_id;
        body
    }

    /// The fee schedules' body.
    pub fn fee_body(&self) -> FeeErrorBody {
        FeeErrorBody::new(self.code, self.message.clone())
    }

    /// Renders in the given shape, with the headers every error carries.
    pub fn render(&self, shape: Shape, request_id: Option<String>) -> Response {
        let mut resp = match shape {
            Shape::Envelope => (self.status, Json(self.envelope(request_id))).into_response(),
            Shape::Fee => (self.status, Json(self.fee_body())).into_response(),
        };
        if self.status == StatusCode::UNAUTHORIZED {
            let value = if self.code == INVALID_TOKEN_CODE { "Bearer error=\"invalid_token\"" } else { "Bearer" };
            resp.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(value));
        }
        resp.extensions_mut().insert(Rendered(self.clone()));
        resp
    }
}

/// Which error body a path answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Envelope,
    Fee,
}

impl Shape {
    pub fn for_path(path: &str) -> Shape {
        if path.starts_with(paths::FEE_SCHEDULES) {
            Shape::Fee
        } else {
            Shape::Envelope
        }
    }
}

/// Marks a response as a rendered `Error`, so the finishing middleware can re-render it in
/// the path's shape with the request id.
#[derive(Debug, Clone)]
pub struct Rendered(pub Error);

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        self.render(Shape::Envelope, None)
    }
}

/// An `Error` that renders as the fee error body even outside the `/api` middleware.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeeError(pub Error);

impl From<Error> for FeeError {
    fn from(e: Error) -> Self {
        FeeError(e)
    }
}

impl IntoResponse for FeeError {
    fn into_response(self) -> Response {
        self.0.render(Shape::Fee, None)
    }
}

/// The one place a database error becomes an answer: a unique, foreign-key or check
/// constraint the request broke is the client's conflict (409, naming the constraint via
/// [`Error::on_constraint`]); anything else is the server's fault (500). Same on SQLite and
/// PostgreSQL (sqlx reports both as a [`sqlx::error::DatabaseError`] with a kind).
impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(db) = &e {
            use sqlx::error::ErrorKind;
            if matches!(
                db.kind(),
                ErrorKind::UniqueViolation | ErrorKind::ForeignKeyViolation | ErrorKind::CheckViolation
            ) {
                return Error::on_constraint(db.constraint(), db.message());
            }
        }
        Error::internal(format_args!("database: {e}"))
    }
}

impl Error {
    /// 409 for a broken constraint. PostgreSQL names the constraint; SQLite only says it in
    /// its message (`UNIQUE constraint failed: permissions.user_id, ...`).
    pub fn on_constraint(constraint: Option<&str>, message: &str) -> Error {
        match constraint {
            Some(name) => Error::conflict(format!("conflicts with existing data ({name})")),
            None => Error::conflict(format!("conflicts with existing data ({message})")),
        }
    }
}

impl From<anyhow::Error> for Error {
    fn from(e: anyhow::Error) -> Self {
        Error::internal(format_args!("{e:#}"))
    }
}

/// The envelope error body, for the OpenAPI document (`data` is always null). `errors`,
/// `reason` and `requestId` are marked `x-extension` by `http::members`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ErrorEnvelope)]
pub struct ErrorEnvelopeDoc {
    /// The HTTP status, or 600 for a malformed, expired or revoked token.
    #[schema(example = 400)]
    pub code: u16,
    #[schema(example = "routingNumber: must be 9 digits, got 8")]
    pub error_message: String,
    /// The detail in words: each wrong field as `field: problem`, joined by `"; "`; otherwise
    /// the same sentence as `errorMessage` (section 2.9: string or null).
    #[schema(example = "routingNumber: must be 9 digits, got 8")]
    pub error: String,
    /// Extension: every wrong field with its problem; absent when no field is to blame. A 600
    /// answer names the `Authorization` field with why the token is invalid (malformed,
    /// expired, revoked).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// Extension: a stable word for the kind of error: `validation`, `unauthorized`,
    /// `invalid_token`, `forbidden`, `not_found`, `method_not_allowed`, `conflict`,
    /// `payload_too_large`, `internal`, or an operation's finer word
    /// (`duplicate_presentment`, `illegal_transition`, `idempotency_key_reused`, ...).
    #[schema(example = "validation")]
    pub reason: String,
    /// Extension: the request id the server logged this answer under (also the
    /// `X-Request-Id` header), for support.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    #[schema(value_type = Option<Object>, nullable)]
    pub data: Option<()>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_token_is_600_in_both_shapes() {
        let e = Error::invalid_token("expired");
        let env = serde_json::to_value(e.envelope(Some("r1".into()))).unwrap();
        assert_eq!(env["code"], 600);
        assert_eq!(env["errorMessage"], "Invalid token");
        assert_eq!(env["error"], "Authorization: expired");
        assert_eq!(env["errors"][0]["problem"], "expired");
        assert_eq!(env["reason"], "invalid_token");
        assert_eq!(env["requestId"], "r1");
        assert!(env["data"].is_null());
        let fee = serde_json::to_value(e.fee_body()).unwrap();
        assert_eq!(fee, serde_json::json!({"status":"error","error_code":"600","message":"Invalid token"}));
        assert_eq!(
            e.render(Shape::Envelope, None).headers()[header::WWW_AUTHENTICATE],
            "Bearer error=\"invalid_token\""
        );
    }

    #[test]
    fn fields_are_all_named() {
        let e = Error::fields(vec![FieldError::new("a", "is required"), FieldError::new("b", "is required")]);
        assert_eq!(e.message, "a: is required; b: is required");
        assert_eq!(Shape::for_path("/api/v1/cores/money-movements/fee-schedules/fees/ach"), Shape::Fee);
        assert_eq!(Shape::for_path("/api/v1/cores/auth/me"), Shape::Envelope);
    }
}
