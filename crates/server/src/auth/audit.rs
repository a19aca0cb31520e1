//! What the guard records of a write (`storage::trail`): who (the token's id, user and name),
//! from where (the peer address, the `User-Agent`), what (the operation, its route and method,
//! the route's `{id}`), and the request id. A write refused for want of a scope (by the guard,
//! or by its handler with nothing committed) is recorded with no change: an operator asked "who
//! tried to do what" wants those too.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use axum::extract::{ConnectInfo, MatchedPath, Request};
use axum::http::{header, Method, StatusCode};
use axum::response::Response;

use super::Caller;
use crate::http::finish::X_REQUEST_ID;
use crate::storage::trail::{self, Recording};
use crate::tokens::TokenStore;

/// Whether a request with this method is a write, recorded on the trail.
pub(super) fn audited(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE)
}

/// The recording of `req` made by `caller`, calling `operation`.
pub(super) fn recording(req: &Request, caller: &Caller, operation: &str) -> Recording {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok()).map(|v| v.chars().take(300).collect());
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string());
    let path_id = route.as_deref().and_then(|r| first_parameter(r, req.uri().path()));
    Recording {
        token_id: Some(caller.token_id()),
        user_id: Some(caller.user_id().to_string()),
        token_name: Some(caller.token_name().to_string()),
        client_address: req.extensions().get::<ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip().to_string()),
        user_agent: header(header::USER_AGENT),
        operation: operation.to_string(),
        method: Some(req.method().to_string()),
        path: route,
        request_id: header(X_REQUEST_ID),
        path_id,
        ..Recording::default()
    }
}

/// The recording of a write that needs no token (`Requirement::Public`): who is the store's
/// to say (a sign-in link's exchange names the link and the user it signs in).
pub(super) fn anonymous(req: &Request, operation: &str) -> Recording {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok()).map(|v| v.chars().take(300).collect());
    Recording {
        client_address: req.extensions().get::<ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip().to_string()),
        user_agent: header(header::USER_AGENT),
        operation: operation.to_string(),
        method: Some(req.method().to_string()),
        path: req.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string()),
        request_id: header(X_REQUEST_ID),
        ..Recording::default()
    }
}

/// Runs the write inside its recording. A 403 its handler answered with nothing committed (a
/// finer check than the guard's: settling without `admin`) is on record as denied too.
pub(super) async fn run_recorded<F>(tokens: TokenStore, recording: Recording, f: F) -> Result<Response, Infallible>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    let recording = Arc::new(recording);
    let answer = trail::within(Some(recording.clone()), f).await;
    if let Ok(resp) = &answer {
        if resp.status() == StatusCode::FORBIDDEN && !recording.written() {
            record_denied(&tokens, recording);
        }
    }
    answer
}

/// Records a write the guard refused for want of a scope.
pub(super) fn denied(tokens: &TokenStore, req: &Request, caller: &Caller, operation: &str) {
    record_denied(tokens, Arc::new(recording(req, caller, operation)));
}

/// Appends a denied record (outside any transaction: nothing changed), in the background so
/// the refusal is not held up; a failure to record is logged.
fn record_denied(tokens: &TokenStore, recording: Arc<Recording>) {
    let db = tokens.database().clone();
    tokio::spawn(async move {
        let target = recording.path_id.clone().map(|id| (String::new(), id));
        let q = trail::insert(db.dialect(), &recording, "denied", target, "[]");
        let done = match db.acquire().await {
            Ok(mut conn) => conn.exec().execute(&q).await.map(|_| ()),
            Err(e) => Err(e),
        };
        if let Err(e) = done {
            tracing::warn!(error = %e, operation = recording.operation, "recording a refused write failed");
        }
    });
}

/// The value of the route's first `{parameter}` in the request's path, percent-decoded.
///
/// ```ignore
/// assert_eq!(first_parameter("/a/{id}/b", "/a/42/b"), Some("42".into()));
/// ```
fn first_parameter(route: &str, path: &str) -> Option<String> {
    route.split('/').zip(path.split('/')).find(|(r, _)| r.starts_with('{')).map(|(_, p)| percent_decode(p))
}

fn percent_decode(s: &str) -> String {
    url::form_urlencoded::parse(format!("v={}", s.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::first_parameter;

    #[test]
    fn the_routes_first_parameter_is_the_target() {
        assert_eq!(first_parameter("/api/d/{id}/actions", "/api/d/42/actions").as_deref(), Some("42"));
        assert_eq!(first_parameter("/api/r/{userId}/file", "/api/r/u%201/file").as_deref(), Some("u 1"));
        assert_eq!(first_parameter("/api/d", "/api/d"), None);
    }
}
