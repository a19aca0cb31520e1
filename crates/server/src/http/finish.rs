//! The frame around every answer ([`FrameLayer`]): request id, security headers, access log,
//! and the last step of every `/api` answer: errors get the path's body shape
//! (fee body on the fee schedules, the envelope elsewhere) and the request id; error answers
//! that did not come from `Error` (axum rejections, 405, 413 from the body limit) are turned
//! into one, so a client never sees plain text.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use axum::body::{to_bytes, Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use axum::response::Response;
use axum::BoxError;
use futures_util::future::BoxFuture;
use pin_project_lite::pin_project;
use tower::{Layer, Service};
use tracing::Span;

use crate::error::{Error, Rendered, Shape};

/// Plain-text error bodies longer than this are not worth quoting.
const MAX_QUOTED_BODY: usize = 4096;

pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The outermost layer, around compression. Every request gets an id (the client's
/// `x-request-id` when it sent one, else 16 random hex digits) that the logs, the error
/// bodies and the answer's header all carry; every answer gets the security headers; `/api`
/// errors get the path's body shape (compression leaves error answers alone, see
/// `http::compress`, so their text can be quoted); each request is logged as a `request` span (method, path — never the query,
/// which may carry personal data — and id) closed by one event with status and latency.
/// One hand-written layer with its own future instead of six generic ones: it runs on every
/// request, and a routing lookup costs little more than this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameLayer;

impl<S> Layer<S> for FrameLayer {
    type Service = Frame<S>;

    fn layer(&self, inner: S) -> Frame<S> {
        Frame(inner)
    }
}

#[derive(Clone, Debug)]
pub struct Frame<S>(S);

impl<S, B> Service<Request> for Frame<S>
where
    S: Service<Request, Response = Response<B>, Error = Infallible>,
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = FrameFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, mut req: Request) -> Self::Future {
        let id = match req.headers().get(X_REQUEST_ID) {
            Some(id) => id.clone(),
            None => {
                // On the request too: the audit trail records it with the write.
                let id = new_request_id();
                req.headers_mut().insert(X_REQUEST_ID, id.clone());
                id
            }
        };
        let shape = is_api(req.uri().path()).then(|| Shape::for_path(req.uri().path()));
        let span = tracing::info_span!("request", method = %req.method(), path = %req.uri().path(),
            request_id = id.to_str().unwrap_or("(not text)"));
        let started = (!span.is_disabled() || crate::metrics::enabled()).then(Instant::now);
        let method = crate::metrics::enabled().then(|| (req.method().clone(), shape.is_some()));
        let answer = {
            let _entered = span.enter();
            self.0.call(req)
        };
        FrameFuture { answer, quoting: None, id: Some(id), shape, span, started, method, label: None }
    }
}

pin_project! {
    /// The inner answer, then (rarely) the re-rendering of a plain-text error, then the
    /// headers and the log line.
    pub struct FrameFuture<F> {
        #[pin]
        answer: F,
        quoting: Option<BoxFuture<'static, Response>>,
        id: Option<HeaderValue>,
        shape: Option<Shape>,
        span: Span,
        started: Option<Instant>,
        // Set when metrics are on: the method, and whether the path is under /api.
        method: Option<(axum::http::Method, bool)>,
        // The operation answered (before an error is re-rendered into a new response).
        label: Option<crate::metrics::RouteLabel>,
    }
}

impl<F, B> Future for FrameFuture<F>
where
    F: Future<Output = Result<Response<B>, Infallible>>,
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let _entered = this.span.enter();
        let mut resp = match this.quoting {
            Some(quoting) => ready!(quoting.as_mut().poll(cx)),
            None => {
                let Ok(resp) = ready!(this.answer.poll(cx));
                let resp = resp.map(Body::new);
                if this.method.is_some() {
                    *this.label = resp.extensions().get::<crate::metrics::RouteLabel>().cloned();
                }
                match this.shape.take() {
                    None => resp,
                    Some(shape) => match finish(resp, shape, this.id.as_ref()) {
                        Ok(resp) => resp,
                        Err(quoting) => {
                            let quoting = this.quoting.insert(quoting);
                            ready!(quoting.as_mut().poll(cx))
                        }
                    },
                }
            }
        };
        let id = this.id.take().expect("an answer is finished once");
        let headers = resp.headers_mut();
        headers.entry(X_REQUEST_ID).or_insert(id);
        headers.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("no-referrer"));
        headers.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
        if let (Some((method, api)), Some(started)) = (this.method.take(), this.started.as_ref()) {
            let route = match this.label.as_ref() {
                Some(r) => r.0.as_str(),
                None if api => "unmatched",
                None => "portal",
            };
            crate::metrics::request(&method, route, resp.status().as_u16(), started.elapsed());
        }
        if let Some(started) = this.started.filter(|_| !this.span.is_disabled()) {
            let (status, latency) = (resp.status().as_u16(), started.elapsed());
            if resp.status().is_server_error() {
                tracing::error!(status, ?latency, "request failed");
            } else {
                tracing::info!(status, ?latency, "finished processing request");
            }
        }
        Poll::Ready(Ok(resp))
    }
}

/// 16 random hex digits.
fn new_request_id() -> HeaderValue {
    let mut hex = [0u8; 16];
    hex::encode_to_slice(rand::random::<u64>().to_be_bytes(), &mut hex).expect("8 bytes are 16 hex digits");
    HeaderValue::from_bytes(&hex).expect("hex digits are a valid header value")
}

/// An `/api` answer with errors in the path's body shape and with the request id: at once,
/// or (`Err`) after reading a plain-text error body to quote it.
fn finish(resp: Response, shape: Shape, id: Option<&HeaderValue>) -> Result<Response, BoxFuture<'static, Response>> {
    let request_id = || id.and_then(|v| v.to_str().ok()).map(String::from);
    if let Some(Rendered(err)) = resp.extensions().get::<Rendered>().cloned() {
        let (parts, _) = resp.into_parts();
        return Ok(keep_headers(parts.headers, err.render(shape, request_id())));
    }
    if !(resp.status().is_client_error() || resp.status().is_server_error()) || is_json(&resp) {
        return Ok(resp);
    }
    let request_id = request_id();
    Err(Box::pin(async move {
        let (parts, body) = resp.into_parts();
        let text = match to_bytes(body, MAX_QUOTED_BODY).await {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => String::new(),
        };
        keep_headers(parts.headers, Error::from_status(parts.status, &text).render(shape, request_id))
    }))
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

/// Carries the headers the error answer had (`Allow`, `Retry-After`, CORS, ...) over to the
/// re-rendered one, except those that described the old body.
fn keep_headers(old: HeaderMap, mut new: Response) -> Response {
    let body = [header::CONTENT_TYPE, header::CONTENT_LENGTH, header::CONTENT_ENCODING, header::TRANSFER_ENCODING];
    let rendered: Vec<HeaderName> = new.headers().keys().cloned().collect();
    let mut name = None;
    // `None` names continue the previous header's values.
    for (next, value) in old {
        name = next.or(name);
        if let Some(name) = name.as_ref().filter(|n| !body.contains(n) && !rendered.contains(n)) {
            new.headers_mut().append(name.clone(), value);
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
