//! Extractors whose rejections are envelope errors naming the problem (never axum's plain
//! text). Use `extract::Json<T>` and `extract::Query<T>` instead of axum's in handlers.
//! `Query` uses serde_urlencoded, which cannot read a repeated key (`paths=a&paths=b`):
//! read those from `RawQuery` with `url::form_urlencoded::parse`.
//! Bodies are read only through these extractors (or axum's `Bytes`/`String`), never as a raw
//! `Body` stream: they honour the app's body limit (`DefaultBodyLimit`, which the guard in
//! `auth` sets on every request that has a body).

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::error::Error;

/// A raw query's pairs in order, repeated keys kept (`paths=a&paths=b`), percent-decoded:
/// `http::query::pairs` (the one query parser), owned.
pub fn query_pairs(query: Option<&str>) -> Vec<(String, String)> {
    super::query::pairs(query.unwrap_or("")).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(Error))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(Error))]
pub struct Query<T>(pub T);

#[derive(Debug, Clone, Copy, Default, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(Error))]
pub struct Path<T>(pub T);

impl From<JsonRejection> for Error {
    fn from(r: JsonRejection) -> Self {
        let status = r.status();
        let text = r.body_text();
        match status {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                Error::bad_request("Send the body as JSON with Content-Type: application/json")
            }
            // 400 for syntax and 422 for shape both become 400 naming the problem; serde's
            // message names the field ("missing field `amount`", "invalid type ... at line 1").
            _ => Error::new(StatusCode::BAD_REQUEST, "validation", text),
        }
    }
}

/// What a body past the app's body limit answers, whichever extractor read it.
fn too_large() -> Error {
    Error::payload_too_large("Request body is too large")
}

impl From<BytesRejection> for Error {
    fn from(r: BytesRejection) -> Self {
        match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(),
            _ => Error::bad_request(r.body_text()),
        }
    }
}

/// The whole body, within the app's body limit (413 past it): for handlers that read the
/// bytes themselves (a body whose shape depends on the path or the query).
pub async fn body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, Error> {
    Ok(Bytes::from_request(req, state).await?)
}

impl From<QueryRejection> for Error {
    fn from(r: QueryRejection) -> Self {
        Error::bad_request(r.body_text())
    }
}

impl From<PathRejection> for Error {
    fn from(r: PathRejection) -> Self {
        Error::bad_request(r.body_text())
    }
}

/// The longest Idempotency-Key accepted.
pub const IDEMPOTENCY_KEY_MAX: usize = 255;

/// The request's `Idempotency-Key` (trimmed), if it sent one: 1 to 255 visible ASCII
/// characters, else a 400 naming the header. One reading for every write that takes a key.
pub fn idempotency_key(headers: &axum::http::HeaderMap) -> Result<Option<&str>, Error> {
    let Some(v) = headers.get("idempotency-key") else { return Ok(None) };
    let key = v.to_str().map_err(|_| Error::field("Idempotency-Key", "must be visible ASCII"))?.trim();
    // A tab is a header value's character but not a key's: visible ASCII and spaces, as the
    // document's pattern says.
    if key.contains('\t') {
        return Err(Error::field("Idempotency-Key", "must be visible ASCII (a tab inside it)"));
    }
    if key.is_empty() || key.len() > IDEMPOTENCY_KEY_MAX {
        return Err(Error::field("Idempotency-Key", format!("must be 1 to {IDEMPOTENCY_KEY_MAX} characters")));
    }
    Ok(Some(key))
}
