//! Gzip for the clients that ask for it ([`GzipLayer`]) and for the answers worth it
//! ([`WorthCompressing`]), through tower-http's compression.

use std::convert::Infallible;
use std::task::{Context, Poll};

use axum::body::{Body, HttpBody};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use axum::response::Response;
use futures_util::future::{Either, FutureExt, Map};
use tower::{Layer, Service};
use tower_http::compression::{Compression, CompressionBody, Predicate, ResponseFuture};

/// tower-http's `Compression` for requests whose `Accept-Encoding` names gzip (the only coding
/// built in); the others go straight to the inner service, without the compression wrapper
/// around every answer's body (API clients rarely ask; browsers always do), and get only the
/// `Vary` header the wrapper would have added.
#[derive(Clone, Copy, Debug, Default)]
pub struct GzipLayer;

impl<S> Layer<S> for GzipLayer {
    type Service = Gzip<S>;

    fn layer(&self, inner: S) -> Gzip<S> {
        Gzip(Compression::new(inner).compress_when(WorthCompressing))
    }
}

#[derive(Clone)]
pub struct Gzip<S>(Compression<S, WorthCompressing>);

type Compressed = Result<Response<CompressionBody<Body>>, Infallible>;
type Answer = Result<Response, Infallible>;

impl<S> Service<Request> for Gzip<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<
        Map<ResponseFuture<S::Future, WorthCompressing>, fn(Compressed) -> Answer>,
        Map<S::Future, fn(Answer) -> Answer>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // The same inner service answers both ways.
        self.0.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        if asks_for_gzip(req.headers()) {
            Either::Left(self.0.call(req).map(|answer| answer.map(|resp| resp.map(Body::new))))
        } else {
            Either::Right(self.0.get_mut().call(req).map(vary as fn(Answer) -> Answer))
        }
    }
}

/// `Vary: Accept-Encoding` on an answer that would have been gzipped had the client asked (as
/// tower-http does for those that asked), so a shared cache keeps the two variants apart.
fn vary(answer: Answer) -> Answer {
    let Ok(mut resp) = answer;
    if WorthCompressing.should_compress(&resp) && !mentions(resp.headers(), header::VARY, "accept-encoding") {
        resp.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(resp)
}

/// Whether any `Accept-Encoding` value mentions gzip (tower-http then reads the q-values).
fn asks_for_gzip(headers: &HeaderMap) -> bool {
    mentions(headers, header::ACCEPT_ENCODING, "gzip")
}

/// Whether any value of the header `name` contains `token`, in any case.
fn mentions(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    let token = token.as_bytes();
    headers.get_all(name).iter().any(|v| v.as_bytes().windows(token.len()).any(|w| w.eq_ignore_ascii_case(token)))
}

/// Which answers are gzipped (for clients that accept it): those of 1 KiB or more, or of
/// unknown length — below that gzip saves a few hundred bytes for the price of a compressor per
/// request — except images (already compressed; SVG is text), gRPC and event streams, as
/// tower-http's default does; and never error answers: they are small, and `FrameLayer` quotes
/// their text. One pass over the headers.
#[derive(Clone, Copy, Debug)]
pub struct WorthCompressing;

impl Predicate for WorthCompressing {
    fn should_compress<B: HttpBody>(&self, resp: &Response<B>) -> bool {
        const MIN_SIZE: u64 = 1024;
        if resp.status().is_client_error() || resp.status().is_server_error() {
            return false;
        }
        let header = |name| resp.headers().get(name).and_then(|v: &HeaderValue| v.to_str().ok());
        let size = resp.body().size_hint().exact().or_else(|| header(header::CONTENT_LENGTH)?.parse().ok());
        if size.is_some_and(|n| n < MIN_SIZE) {
            return false;
        }
        let media = header(header::CONTENT_TYPE).unwrap_or_default();
        let image = media.starts_with("image/") && !media.starts_with("image/svg+xml");
        !(image || media.starts_with("application/grpc") || media.starts_with("text/event-stream"))
    }
}

#[cfg(test)]
mod tests {
    use axum::http::{header, HeaderMap, HeaderValue};

    #[test]
    fn gzip_is_asked_for_in_any_case_and_list() {
        let ask = |values: &[&'static str]| {
            let mut headers = HeaderMap::new();
            for v in values {
                headers.append(header::ACCEPT_ENCODING, HeaderValue::from_static(v));
            }
            super::asks_for_gzip(&headers)
        };
        assert!(ask(&["gzip"]) && ask(&["br, GZip;q=0.5"]) && ask(&["identity", "deflate, gzip"]));
        assert!(!ask(&[]) && !ask(&["identity"]) && !ask(&["br, deflate"]));
    }
}
