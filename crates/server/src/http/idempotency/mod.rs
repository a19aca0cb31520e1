//! `Idempotency-Key` on every POST and DELETE of the API (a layer behind the auth guard, so the
//! caller is known: keys are per user). The same key with the same request answers the first
//! answer again (its status and body, with `Idempotent-Replayed: true`), without running the
//! operation; the same key with another request (method, path, query or body) is a 409
//! `idempotency_key_reused`; a request arriving while the first with its key runs is a 409
//! `idempotency_key_in_flight` (on any instance: the keys are in the database). Keys are kept
//! `idempotency_hours` (24) and swept hourly by a scheduled job.
//!
//! The key is reserved before the handler runs, in a transaction of its own, and the answer
//! kept after it: a 2xx answer is kept; a 4xx, a 501, or a 5xx that committed nothing (no audit
//! record was written: `storage::trail::written`) frees the key; a 5xx after its change
//! committed, or an instance that dies (or a request cut off) between the change and keeping its
//! answer, leaves the key in flight with its lease over. A retry then gets a 409
//! `idempotency_key_outcome_unknown` telling it to read the object: whether the change happened
//! is not known, and running it twice is worse than asking. An answer larger than
//! [`KEPT_ANSWER`] (a download) or not text is not kept: its key is freed and a retry runs again.
//!
//! Operations that document an `Idempotency-Key` of their own (the deposit creations: their key
//! is kept in the creating transaction, which is stronger) are left to it.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, HttpBody};
use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use futures_util::future::{BoxFuture, Either};
use rustc_hash::FxHashSet;
use tower::{Layer, Service, ServiceExt};

use crate::auth::Caller;
use crate::error::Error;
use crate::AppState;

mod document;
mod fingerprint;
mod store;

pub use document::{document, document_all};
use fingerprint::{Fingerprint, Hashed};
pub use store::Keys;
use store::{Answer, KeyId, KeyRow, Reserved};

/// The largest answer kept for a retry.
pub const KEPT_ANSWER: usize = 1 << 20;
/// How long a request holds its key before a retry is told its outcome is unknown.
pub const LEASE: chrono::Duration = chrono::Duration::seconds(60);
/// The header a replayed answer carries.
pub const REPLAYED: &str = "idempotent-replayed";

/// Whether a method's requests take a key here.
pub fn covered(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::DELETE)
}

/// `Router::route_layer(IdempotencyLayer)`, applied before the guard's `route_layer` (so it
/// runs after the guard, with the caller known).
#[derive(Clone, Debug)]
pub struct IdempotencyLayer(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    keys: Keys,
    /// `METHOD route` of the operations that handle the key themselves.
    own: FxHashSet<String>,
    /// The most a replayed request's body is read for its hash (the largest route limit).
    drain_limit: usize,
}

impl IdempotencyLayer {
    /// The layer for `state`'s database; `doc` (before `openapi::finish`) says which
    /// operations handle the key themselves.
    pub fn new(state: &AppState, doc: &utoipa::openapi::OpenApi) -> anyhow::Result<IdempotencyLayer> {
        let json = serde_json::to_value(doc)?;
        let mut own = FxHashSet::default();
        for (path, item) in json["paths"].as_object().into_iter().flatten() {
            for (method, op) in item.as_object().into_iter().flatten() {
                let declares = op["parameters"].as_array().into_iter().flatten().any(|p| {
                    p["in"] == "header" && p["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case("idempotency-key"))
                });
                if declares {
                    own.insert(format!("{} {path}", method.to_ascii_uppercase()));
                }
            }
        }
        let config = &state.config;
        let upload = usize::try_from(config.vault_upload_limit.saturating_add(1 << 20)).unwrap_or(usize::MAX);
        let drain_limit = upload.max(config.body_limit).max(moneydesk_model::email::send::MAX_REQUEST_BYTES);
        Ok(IdempotencyLayer(Arc::new(Shared { keys: keys(state), own, drain_limit })))
    }
}

impl<S> Layer<S> for IdempotencyLayer {
    type Service = Idempotent<S>;

    fn layer(&self, inner: S) -> Idempotent<S> {
        Idempotent { shared: self.0.clone(), inner }
    }
}

/// One route behind the layer. A request without a key (every GET) goes straight through.
#[derive(Clone, Debug)]
pub struct Idempotent<S> {
    shared: Arc<Shared>,
    inner: S,
}

type Answering = BoxFuture<'static, Result<Response, Infallible>>;

impl<S> Service<Request> for Idempotent<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, Answering>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        if !covered(req.method()) || !req.headers().contains_key("idempotency-key") {
            return Either::Left(self.inner.call(req));
        }
        let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str()).unwrap_or_default();
        let operation = format!("{} {route}", req.method());
        if self.shared.own.contains(&operation) {
            return Either::Left(self.inner.call(req));
        }
        // The service made ready by `poll_ready` runs this request; a clone takes its place.
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        Either::Right(Box::pin(self.shared.clone().run(inner, req, operation)))
    }
}

impl Shared {
    async fn run<S>(self: Arc<Self>, inner: S, req: Request, operation: String) -> Result<Response, Infallible>
    where
        S: Service<Request, Response = Response, Error = Infallible> + Send + 'static,
        S::Future: Send + 'static,
    {
        let key = match crate::http::extract::idempotency_key(req.headers()) {
            Ok(Some(key)) => key.to_string(),
            Ok(None) => return inner.oneshot(req).await,
            Err(e) => return Ok(e.into_response()),
        };
        // The guard put the caller there; without one (never behind the guard) nothing is kept.
        let Some(user) = req.extensions().get::<Caller>().map(|c| c.user_id().to_string()) else {
            return inner.oneshot(req).await;
        };
        let id = KeyId { user, key };
        let request =
            format!("{} {}", req.method(), req.uri().path_and_query().map(|p| p.as_str()).unwrap_or(req.uri().path()));
        Ok(match self.keys.reserve(&id, &operation, &request, Utc::now(), LEASE).await {
            Err(e) => Error::from(e).into_response(),
            Ok(Reserved::Mine) => self.first(inner, req, &id).await,
            Ok(Reserved::Taken(row)) => self.again(req, &id, &operation, &request, row).await,
        })
    }

    /// The first request with the key: run it, then keep its answer (or free the key).
    async fn first<S>(&self, inner: S, req: Request, id: &KeyId) -> Response
    where
        S: Service<Request, Response = Response, Error = Infallible> + Send + 'static,
        S::Future: Send + 'static,
    {
        let fingerprint = Arc::new(Mutex::new(Fingerprint::new(content_type(&req))));
        let req = req.map(|body| Body::new(Hashed::new(body, fingerprint.clone())));
        let resp = match inner.oneshot(req).await {
            Ok(resp) => resp,
            Err(never) => match never {},
        };
        let status = resp.status();
        let outcome = if status.is_success() {
            let body_sha256 = fingerprint.lock().ok().and_then(|f| f.digest());
            match keepable(resp).await {
                Ok((resp, Some((content_type, response)))) => {
                    let answer = Answer { body_sha256, status: status.as_u16(), content_type, response };
                    let kept = self.keys.done(id, &answer).await;
                    return log(kept, resp, "keeping an idempotent answer (a retry will be told to read the object)");
                }
                Ok((resp, None)) => return log(self.keys.release(id).await, resp, "freeing an idempotency key"),
                Err(resp) => (self.keys.abandon(id, Utc::now()).await, resp),
            }
        } else if status.is_server_error() && status != StatusCode::NOT_IMPLEMENTED && crate::storage::trail::written()
        {
            // The change committed (its audit record with it) and the answer is lost: a retry
            // must not run it again. A 5xx that committed nothing frees the key below.
            (self.keys.abandon(id, Utc::now()).await, resp)
        } else {
            (self.keys.release(id).await, resp)
        };
        log(outcome.0, outcome.1, "ending an idempotency key's reservation")
    }

    /// A request whose key an earlier one holds: its answer again, or a 409 saying why not.
    async fn again(&self, req: Request, id: &KeyId, operation: &str, request: &str, row: KeyRow) -> Response {
        let key = &id.key;
        if row.operation != operation || row.request != request {
            return reused(key, &row.request);
        }
        if row.state != "done" {
            let now = crate::storage::time::millis(Utc::now());
            return if row.lease_until > now {
                let mut e = Error::conflict(format!(
                    "A request with Idempotency-Key {key:?} is still running; retry in a few seconds"
                ));
                e.reason = "idempotency_key_in_flight".into();
                let mut resp = e.into_response();
                resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
                resp
            } else {
                let mut e = Error::conflict(format!(
                    "The request with Idempotency-Key {key:?} did not finish and may or may not have made its \
                     change: read the object to find out, and use a new key to try again"
                ));
                e.reason = "idempotency_key_outcome_unknown".into();
                e.into_response()
            };
        }
        if let Some(kept) = &row.body_sha256 {
            match self.body_sha256(req).await {
                Ok(sha) if &sha == kept => {}
                Ok(_) => return reused(key, &row.request),
                Err(e) => return e.into_response(),
            }
        }
        replay(&row)
    }

    /// Reads a repeated request's body (never run) for its hash.
    async fn body_sha256(&self, req: Request) -> Result<String, Error> {
        let fingerprint = Arc::new(Mutex::new(Fingerprint::new(content_type(&req))));
        let mut body = Hashed::new(req.into_body(), fingerprint.clone());
        let mut read = 0usize;
        while let Some(frame) = http_body_util::BodyExt::frame(&mut body).await {
            let frame = frame.map_err(|e| Error::bad_request(format!("reading the request body: {e}")))?;
            read += frame.data_ref().map_or(0, |d| d.len());
            if read > self.drain_limit {
                return Err(Error::payload_too_large("Request body is too large"));
            }
        }
        let digest = fingerprint.lock().ok().and_then(|f| f.digest());
        digest.ok_or_else(|| Error::internal("request body hash incomplete"))
    }
}

fn content_type(req: &Request) -> Option<&str> {
    req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok())
}

/// The answer with its body read, and what is kept of it (content type, text) if it can be:
/// at most [`KEPT_ANSWER`] bytes of UTF-8. `Err` when its body failed.
async fn keepable(resp: Response) -> Result<(Response, Option<(Option<String>, String)>), Response> {
    let small = resp.body().size_hint().upper().is_some_and(|n| n <= KEPT_ANSWER as u64);
    if !small {
        return Ok((resp, None));
    }
    let (parts, body) = resp.into_parts();
    let bytes = match axum::body::to_bytes(body, KEPT_ANSWER).await {
        Ok(bytes) => bytes,
        Err(e) => return Err(Error::internal(format_args!("reading an answer to keep: {e}")).into_response()),
    };
    let content_type = parts.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_string);
    let text = std::str::from_utf8(&bytes).ok().map(str::to_string);
    let resp = Response::from_parts(parts, Body::from(bytes));
    Ok((resp, text.map(|t| (content_type, t))))
}

fn replay(row: &KeyRow) -> Response {
    let status = row.status.and_then(|s| u16::try_from(s).ok()).and_then(|s| StatusCode::from_u16(s).ok());
    let mut resp = Response::new(Body::from(row.response.clone().unwrap_or_default()));
    *resp.status_mut() = status.unwrap_or(StatusCode::OK);
    if let Some(v) = row.content_type.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
        resp.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    resp.headers_mut().insert(REPLAYED, HeaderValue::from_static("true"));
    resp
}

fn reused(key: &str, first: &str) -> Response {
    let mut e = Error::conflict(format!(
        "Idempotency-Key {key:?} was used for a different request ({first}); use a new key for a new request"
    ));
    e.reason = "idempotency_key_reused".into();
    e.into_response()
}

fn log(done: sqlx::Result<()>, resp: Response, what: &str) -> Response {
    if let Err(e) = done {
        tracing::warn!(error = %e, "{what}");
    }
    resp
}

/// The keys of `state`'s database, kept `idempotency_hours`.
fn keys(state: &AppState) -> Keys {
    Keys::new(state.stores.database.clone(), chrono::Duration::hours(i64::from(state.config.idempotency_hours)))
}

/// Sweeps the keys past their time once an hour across the instances (`storage::queue::
/// schedule`: each asks every minute; the first to claim the run sweeps).
pub fn spawn_sweeper(state: &AppState) {
    use crate::storage::queue::schedule::{self, Every};
    let when = Every { every: std::time::Duration::from_secs(3600), ask: std::time::Duration::from_secs(60) };
    let keys = keys(state);
    let db = state.stores.database.clone();
    let sweep = move || {
        let keys = keys.clone();
        async move {
            match keys.sweep(Utc::now()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(removed = n, "idempotency sweeper forgot expired keys"),
                Err(e) => tracing::warn!(error = %e, "idempotency sweeper failed; it runs again in an hour"),
            }
        }
    };
    schedule::spawn(db, "idempotency-sweep", when, |_| crate::metrics::taken_over("job", 1), sweep);
}
