//! One error type for every API call: both error bodies of the contract (the envelope and the
//! fee schedules' `{"status":"error",...}`), network failures and answers that are not JSON.

use std::fmt;

use moneydesk_model::FieldError;
use wasm_bindgen::JsValue;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 401: no credential, or one the server does not know.
    Unauthorized {
        message: String,
    },
    /// Code 600: a malformed, expired or revoked token.
    InvalidToken {
        message: String,
    },
    /// 403: a valid credential without the scope.
    Forbidden {
        message: String,
    },
    NotFound {
        message: String,
    },
    /// 400 (or 422): what was wrong, field by field.
    Validation {
        message: String,
        fields: Vec<FieldError>,
    },
    Conflict {
        message: String,
    },
    PayloadTooLarge {
        message: String,
    },
    /// 429: over a rate limit (the fee API's); `retry_after` is the answer's `Retry-After` in
    /// seconds when it sent one.
    TooManyRequests {
        message: String,
        retry_after: Option<u32>,
    },
    /// 5xx.
    Server {
        status: u16,
        message: String,
        request_id: Option<String>,
    },
    /// Any other 4xx.
    Other {
        status: u16,
        message: String,
    },
    /// The request never got an answer: server down, wrong base URL, CORS, offline.
    Network {
        url: String,
        message: String,
    },
    /// An answer that is not JSON (an HTML error page, a proxy, the wrong base URL).
    NotJson {
        status: u16,
    },
    /// JSON, but not the shape the contract promises.
    Decode {
        status: u16,
        message: String,
    },
    /// The page that started the request went away.
    Aborted,
}

impl ApiError {
    /// Whether the credential itself was refused, so the user must sign in again.
    pub fn is_auth(&self) -> bool {
        matches!(self, ApiError::Unauthorized { .. } | ApiError::InvalidToken { .. })
    }

    /// The HTTP status the error came with, when there was an answer.
    pub fn status(&self) -> Option<u16> {
        Some(match self {
            ApiError::Unauthorized { .. } | ApiError::InvalidToken { .. } => 401,
            ApiError::Forbidden { .. } => 403,
            ApiError::NotFound { .. } => 404,
            ApiError::Validation { .. } => 400,
            ApiError::Conflict { .. } => 409,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::TooManyRequests { .. } => 429,
            ApiError::Server { status, .. }
            | ApiError::Other { status, .. }
            | ApiError::NotJson { status }
            | ApiError::Decode { status, .. } => *status,
            ApiError::Network { .. } | ApiError::Aborted => return None,
        })
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Unauthorized { message } => write!(f, "The server did not accept the token: {message}"),
            ApiError::InvalidToken { message } => {
                write!(f, "The token is malformed, expired or revoked (code 600): {message}")
            }
            ApiError::Forbidden { message } => write!(f, "Access denied: {message}"),
            ApiError::NotFound { message } => write!(f, "Not found: {message}"),
            ApiError::Validation { message, fields } => {
                f.write_str(message)?;
                for e in fields {
                    write!(f, "; {}: {}", e.field, e.problem)?;
                }
                Ok(())
            }
            ApiError::Conflict { message } => write!(f, "Conflict: {message}"),
            ApiError::PayloadTooLarge { message } => write!(f, "Too large: {message}"),
            ApiError::TooManyRequests { message, .. } => write!(f, "Too many requests: {message}"),
            ApiError::Server { status, message, request_id } => {
                write!(f, "The server failed (HTTP {status}): {message}")?;
                if let Some(id) = request_id {
                    write!(f, " (request id {id})")?;
                }
                Ok(())
            }
            ApiError::Other { status, message } => write!(f, "HTTP {status}: {message}"),
            ApiError::Network { url, message } => write!(
                f,
                "Could not reach the server at {url} ({message}). Check that it is running and that the environment's base URL is right."
            ),
            ApiError::NotJson { status } => write!(
                f,
                "The server answered HTTP {status} with something that is not JSON; the environment's base URL may point at the wrong server."
            ),
            ApiError::Decode { status, message } => {
                write!(f, "The server's answer (HTTP {status}) has an unexpected shape: {message}")
            }
            ApiError::Aborted => f.write_str("The request was cancelled."),
        }
    }
}

impl std::error::Error for ApiError {}

/// Reads `key` of a JS object, `None` when missing or null.
pub(crate) fn js_get(o: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(o, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null())
}

pub(crate) fn js_string(o: &JsValue, key: &str) -> Option<String> {
    js_get(o, key).and_then(|v| v.as_string())
}

/// Parses JSON text into a JS object (not an array, not a scalar). The browser's parser keeps
/// serde's per-type code out of the bundle for these loosely shaped bodies.
pub(crate) fn parse_object(text: &str) -> Option<JsValue> {
    js_sys::JSON::parse(text).ok().filter(|v| v.is_object() && !js_sys::Array::is_array(v))
}

/// Maps a non-2xx answer to an [`ApiError`] from its raw body text: the envelope
/// (`code`, `errorMessage`, and the added `errors` and `requestId`; `error` is the same detail in
/// words, for clients that read only the description) or the fee schedules' body
/// (`status`, `error_code`, `message`). A body that is not a JSON object is [`ApiError::NotJson`].
pub fn decode_error(status: u16, body: &str) -> ApiError {
    let Some(b) = parse_object(body) else {
        return ApiError::NotJson { status };
    };
    // The envelope's code wins (600 rides on a 401); the fee body's error_code otherwise.
    let code = js_get(&b, "code")
        .and_then(|c| c.as_f64())
        .map(|c| c as u16)
        .or_else(|| js_string(&b, "error_code").and_then(|c| c.trim().parse().ok()))
        .unwrap_or(status);
    let message = js_string(&b, "errorMessage")
        .or_else(|| js_string(&b, "message"))
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| default_message(status).to_string());
    let fields = js_get(&b, "errors")
        .filter(js_sys::Array::is_array)
        .map(|f| {
            js_sys::Array::from(&f)
                .iter()
                .filter_map(|e| Some(FieldError { field: js_string(&e, "field")?, problem: js_string(&e, "problem")? }))
                .collect()
        })
        .unwrap_or_default();
    let request_id = js_string(&b, "requestId");
    // A body code that is not an error code (say 200 on a 500) says less than the status.
    let code = if code >= 400 { code } else { status };
    from_code(code, status, message, fields, request_id)
}

fn from_code(code: u16, status: u16, message: String, fields: Vec<FieldError>, request_id: Option<String>) -> ApiError {
    match (code, status) {
        (600, _) => ApiError::InvalidToken { message },
        (401, _) | (_, 401) => ApiError::Unauthorized { message },
        (403, _) | (_, 403) => ApiError::Forbidden { message },
        (404, _) => ApiError::NotFound { message },
        (400, _) | (422, _) => ApiError::Validation { message, fields },
        (409, _) => ApiError::Conflict { message },
        (413, _) => ApiError::PayloadTooLarge { message },
        (429, _) => ApiError::TooManyRequests { message, retry_after: None },
        (c, _) if c >= 500 => ApiError::Server { status: c, message, request_id },
        (c, _) => ApiError::Other { status: c, message },
    }
}

fn default_message(status: u16) -> &'static str {
    match status {
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not found",
        _ => "no message",
    }
}

/// Maps a failed `fetch` (no answer at all) to an [`ApiError`].
pub fn network_error(url: &str, err: gloo_net::Error) -> ApiError {
    match err {
        gloo_net::Error::JsError(e) if e.name == "AbortError" => ApiError::Aborted,
        gloo_net::Error::JsError(e) => ApiError::Network { url: url.to_string(), message: e.message },
        other => ApiError::Network { url: url.to_string(), message: other.to_string() },
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn envelope_401_is_unauthorized() {
        let e = decode_error(
            401,
            r#"{"code":401,"errorMessage":"Missing bearer token","error":"Missing bearer token","reason":"unauthorized","data":null}"#,
        );
        assert_eq!(e, ApiError::Unauthorized { message: "Missing bearer token".into() });
        assert!(e.is_auth());
    }

    #[wasm_bindgen_test]
    fn code_600_is_invalid_token() {
        let e = decode_error(
            401,
            r#"{"code":600,"errorMessage":"Invalid token","error":"Authorization: expired","errors":[{"field":"Authorization","problem":"expired"}],"reason":"invalid_token","data":null}"#,
        );
        assert_eq!(e, ApiError::InvalidToken { message: "Invalid token".into() });
        assert!(e.is_auth());
        assert!(e.to_string().contains("code 600"));
    }

    #[wasm_bindgen_test]
    fn envelope_403_is_forbidden() {
        let e = decode_error(
            403,
            r#"{"code":403,"errorMessage":"needs scope fees:read","error":"needs scope fees:read","reason":"forbidden","data":null}"#,
        );
        assert_eq!(e, ApiError::Forbidden { message: "needs scope fees:read".into() });
        assert!(!e.is_auth());
    }

    #[wasm_bindgen_test]
    fn envelope_400_keeps_every_field() {
        let body = r#"{"code":400,"errorMessage":"2 fields are invalid",
            "error":"routingNumber: routing number must be 9 digits, got 8; size: size must be a positive integer, got \"x\"",
            "errors":[{"field":"routingNumber","problem":"routing number must be 9 digits, got 8"},
            {"field":"size","problem":"size must be a positive integer, got \"x\""}],"reason":"validation","requestId":"r-1","data":null}"#;
        match decode_error(400, body) {
            ApiError::Validation { message, fields } => {
                assert_eq!(message, "2 fields are invalid");
                assert_eq!(fields.len(), 2);
                assert_eq!(fields[0].field, "routingNumber");
                assert_eq!(fields[1].problem, "size must be a positive integer, got \"x\"");
            }
            other => panic!("expected Validation, got {other:?}"),
        }
    }

    #[wasm_bindgen_test]
    fn fee_error_body_is_understood() {
        let e = decode_error(
            400,
            r#"{"status":"error","error_code":"400","message":"amount must be a decimal number like 123.45, got \"abc\""}"#,
        );
        assert_eq!(
            e,
            ApiError::Validation {
                message: "amount must be a decimal number like 123.45, got \"abc\"".into(),
                fields: vec![]
            }
        );
        let e = decode_error(401, r#"{"status":"error","error_code":"401","message":"Missing bearer token"}"#);
        assert_eq!(e, ApiError::Unauthorized { message: "Missing bearer token".into() });
    }

    #[wasm_bindgen_test]
    fn server_errors_keep_the_request_id() {
        let e = decode_error(
            500,
            r#"{"code":500,"errorMessage":"internal error","error":"internal error","reason":"internal","requestId":"abc-123","data":null}"#,
        );
        assert_eq!(
            e,
            ApiError::Server { status: 500, message: "internal error".into(), request_id: Some("abc-123".into()) }
        );
        assert!(e.to_string().contains("abc-123"));
        // No operation answers 501: one would be a server error like any other 5xx.
        let e = decode_error(
            501,
            r#"{"code":501,"errorMessage":"not here","error":"not here","reason":"not_implemented","data":null}"#,
        );
        assert_eq!(e, ApiError::Server { status: 501, message: "not here".into(), request_id: None });
    }

    #[wasm_bindgen_test]
    fn non_json_answers_say_so() {
        assert_eq!(decode_error(502, "<html><body>Bad Gateway</body></html>"), ApiError::NotJson { status: 502 });
        assert_eq!(decode_error(404, ""), ApiError::NotJson { status: 404 });
        assert!(ApiError::NotJson { status: 502 }.to_string().contains("not JSON"));
    }

    #[wasm_bindgen_test]
    fn odd_error_details_still_carry_the_message() {
        // A description-only body (no `errors`, `reason`, `requestId`; `error` null) reads too.
        let e = decode_error(409, r#"{"code":409,"errorMessage":"target exists","error":null,"data":null}"#);
        assert_eq!(e, ApiError::Conflict { message: "target exists".into() });
        let e = decode_error(
            409,
            r#"{"code":409,"errorMessage":"target exists","error":{"odd":1},"errors":7,"data":null}"#,
        );
        assert_eq!(e, ApiError::Conflict { message: "target exists".into() });
        let e = decode_error(418, r#"{}"#);
        assert_eq!(e, ApiError::Other { status: 418, message: "no message".into() });
    }
}
