//! The last step of every `/api` answer: errors get the path's body shape (fee body on the
//! fee schedules, the envelope elsewhere) and the request id; error answers that did not come
//! from `Error` (axum rejections, 405, 413 from the body limit) are turned into one, so a
//! client never sees plain text.

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use crate::error::{Error, Rendered, Shape};

/// Plain-text error bodies longer than this are not worth quoting.
const MAX_QUOTED_BODY: usize = 4096;

pub async fn finish(req: Request, next: Next) -> Response {
    // It wraps the whole app (see `server::app`); the portal's files keep their own answers.
    if !is_api(req.uri().path()) {
        return next.run(req).await;
    }
    let shape = Shape::for_path(req.uri().path());
    let request_id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).map(String::from);
    let resp = next.run(req).await;

    if let Some(Rendered(err)) = resp.extensions().get::<Rendered>().cloned() {
        return keep_allow(&resp, err.render(shape, request_id));
    }
    if !(resp.status().is_client_error() || resp.status().is_server_error()) || is_json(&resp) {
        return resp;
    }
    let status = resp.status();
    let allow = resp.headers().get(header::ALLOW).cloned();
    let text = match to_bytes(resp.into_body(), MAX_QUOTED_BODY).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    };
    let mut out = Error::from_status(status, &text).render(shape, request_id);
    if let Some(allow) = allow {
        out.headers_mut().insert(header::ALLOW, allow);
    }
    out
}

/// `/api` and everything under it.
pub fn is_api(path: &str) -> bool {
    path.strip_prefix("/api").is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn is_json(resp: &Response<Body>) -> bool {
    resp.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json") || ct.ends_with("+json"))
}

/// Carries headers an error answer set on purpose (e.g. `Allow`, `Retry-After`) over to the
/// re-rendered one.
fn keep_allow(old: &Response, mut new: Response) -> Response {
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = old.headers().get(&name) {
            new.headers_mut().insert(name, v.clone());
        }
    }
    new
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_api_paths_are_finished() {
        for path in ["/api", "/api/", "/api/v1/cores/auth/me", "/api/openapi.json"] {
            assert!(super::is_api(path), "{path}");
        }
        for path in ["/", "/apis", "/api.js", "/accounts", "/embed.js"] {
            assert!(!super::is_api(path), "{path}");
        }
    }
}
