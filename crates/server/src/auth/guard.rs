//! The guard in front of every group route: the operation's declared scopes (from the OpenAPI
//! document) checked against the caller's, and the body limit, before any body is read.

use rustc_hash::FxHashMap;
use std::sync::Arc;

use std::convert::Infallible;
use std::task::{Context, Poll};

use axum::body::HttpBody;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::future::{BoxFuture, Either};
use moneydesk_model::Scope;
use tower::{Layer, Service, ServiceExt};

use super::{authenticate, authenticate_now, Caller};
use crate::error::Error;
use crate::tokens::TokenStore;

/// What an operation asks of the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// Any one of these scope sets (each fully granted). An empty set means any valid token.
    AnyOf(Vec<Vec<Scope>>),
    /// No token: an operation whose request carries its own credential (a sign-in link's
    /// exchange). Only `security: [{}]` together with `x-public: true` makes one.
    Public,
}

impl Requirement {
    pub(super) fn check(&self, caller: &Caller) -> Result<(), Error> {
        let Requirement::AnyOf(sets) = self else { return Ok(()) };
        if sets.iter().any(|set| set.iter().all(|s| caller.can(*s))) {
            return Ok(());
        }
        let missing = sets.iter().flatten().find(|s| !caller.can(**s)).copied().unwrap_or(Scope::Admin);
        Err(Error::forbidden(missing))
    }
}

/// The guard's state: the database and each operation's requirement, read from the OpenAPI
/// document (so the document and the enforcement can never disagree).
/// Cloned for every request with its route, hence one `Arc`.
#[derive(Clone, Debug)]
pub struct Guard(Arc<Guarded>);

#[derive(Debug)]
struct Guarded {
    db: TokenStore,
    /// Route (as axum matched it) → method → requirement and operation id; looked up by
    /// `&str` on every request, so the lookup allocates nothing. FxHash: the keys are the
    /// app's own routes.
    table: FxHashMap<String, Vec<(Method, Requirement, Arc<str>)>>,
    /// Bodies declared longer than this are refused before anything reads them; the
    /// extractors enforce it on bodies of undeclared length (`DefaultBodyLimit`).
    body_limit: usize,
    /// Routes with a limit of their own (uploads streamed to the blob store).
    route_limits: FxHashMap<String, usize>,
}

/// The security scheme name used in the OpenAPI document.
pub const BEARER: &str = "bearer";

impl Guard {
    pub fn from_openapi(doc: &utoipa::openapi::OpenApi, db: TokenStore, body_limit: usize) -> anyhow::Result<Guard> {
        let json = serde_json::to_value(doc)?;
        let mut table = FxHashMap::default();
        // The audit trail names a write by its operation id: two operations sharing one would
        // be one name for two kinds of change.
        let mut seen = rustc_hash::FxHashSet::default();
        let paths = json["paths"].as_object().cloned().unwrap_or_default();
        for (path, item) in paths {
            let Some(ops) = item.as_object() else { continue };
            for (method, op) in ops {
                let Ok(method) = method.to_ascii_uppercase().parse::<Method>() else { continue };
                let Some(security) = op.get("security").and_then(|s| s.as_array()) else {
                    anyhow::bail!(
                        "{method} {path} declares no security requirement: add security((\"bearer\" = [\"<scope>\"]))"
                    );
                };
                let operation: Arc<str> = op.get("operationId").and_then(|o| o.as_str()).unwrap_or_default().into();
                anyhow::ensure!(
                    seen.insert(operation.clone()),
                    "{method} {path}: operation id {operation:?} is used by another operation; give it its own (operation_id = \"…\")"
                );
                let public = op.get("x-public") == Some(&serde_json::Value::Bool(true));
                if public
                    && security.iter().all(|r| r.as_object().is_some_and(|o| o.is_empty()))
                    && !security.is_empty()
                {
                    table.entry(path.clone()).or_insert_with(Vec::new).push((method, Requirement::Public, operation));
                    continue;
                }
                let mut sets = Vec::new();
                for req in security {
                    let Some(scopes) = req.get(BEARER).and_then(|s| s.as_array()) else {
                        anyhow::bail!("{method} {path}: every security requirement must use the {BEARER:?} scheme");
                    };
                    let set = scopes
                        .iter()
                        .map(|s| s.as_str().unwrap_or_default().parse::<Scope>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| anyhow::anyhow!("{method} {path}: {e}"))?;
                    sets.push(set);
                }
                anyhow::ensure!(
                    !sets.is_empty(),
                    "{method} {path} declares an empty security list: add a bearer requirement"
                );
                table.entry(path.clone()).or_insert_with(Vec::new).push((method, Requirement::AnyOf(sets), operation));
            }
        }
        Ok(Guard(Arc::new(Guarded { db, table, body_limit, route_limits: FxHashMap::default() })))
    }

    /// Gives `route` (as the router writes it) its own body limit instead of the server's.
    pub fn with_body_limit(mut self, route: &str, limit: usize) -> Guard {
        let guarded = Arc::get_mut(&mut self.0).expect("limits are set before the guard is shared");
        guarded.route_limits.insert(route.to_string(), limit);
        self
    }

    fn body_limit(&self, route: &str) -> usize {
        self.0.route_limits.get(route).copied().unwrap_or(self.0.body_limit)
    }

    pub fn requirement(&self, method: &Method, path: &str) -> Option<&Requirement> {
        self.operation(method, path).map(|(requirement, _)| requirement)
    }

    /// The operation's requirement and id.
    pub fn operation(&self, method: &Method, path: &str) -> Option<(&Requirement, &Arc<str>)> {
        let method = if method == Method::HEAD { &Method::GET } else { method };
        self.0.table.get(path)?.iter().find(|(m, _, _)| m == method).map(|(_, r, o)| (r, o))
    }
}

/// `Router::route_layer(GuardLayer)` puts the guard in front of every group route: after
/// routing (it knows the operation), before any extractor (no body is read for a refused call).
#[derive(Clone, Debug)]
pub struct GuardLayer(pub Guard);

impl<S> Layer<S> for GuardLayer {
    type Service = GuardedRoute<S>;

    fn layer(&self, inner: S) -> GuardedRoute<S> {
        GuardedRoute { guard: self.0.clone(), inner }
    }
}

/// One route behind the guard: authenticate, check the operation's declared scopes, then hand
/// the request on with its [`Caller`]. A token read from the table in the last seconds is
/// decided without awaiting or boxing anything (the hot path); otherwise the table is read first.
#[derive(Clone, Debug)]
pub struct GuardedRoute<S> {
    guard: Guard,
    inner: S,
}

type Answer = BoxFuture<'static, Result<Response, Infallible>>;

impl<S> Service<Request> for GuardedRoute<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = crate::metrics::Tagged<Either<S::Future, Answer>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        // The operation, for the request metrics (when they are on).
        let route = crate::metrics::enabled().then(|| req.extensions().get::<MatchedPath>().cloned()).flatten();
        crate::metrics::Tagged::new(self.decide(req), route)
    }
}

impl<S> GuardedRoute<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    fn decide(&mut self, mut req: Request) -> Either<S::Future, Answer> {
        let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str()).unwrap_or_default();
        let Some((requirement, operation)) = self.guard.operation(req.method(), route) else {
            return Either::Right(refuse(self.guard.undocumented(req.method(), route)));
        };
        // A write is recorded (audit trail): it runs inside a recording of who asked what.
        let audited = super::audit::audited(req.method()).then(|| operation.clone());
        // A request without a body (most: every GET) has nothing to limit, and skips the
        // route's limit lookup and the extension map entry.
        if !req.body().is_end_stream() || req.headers().contains_key(header::CONTENT_LENGTH) {
            let limit = self.guard.body_limit(route);
            if let Some(refusal) = oversize(&req, limit) {
                return Either::Right(refuse(refusal));
            }
            // The limit the body extractors honour (`http::extract`).
            DefaultBodyLimit::max(limit).apply(&mut req);
        }
        if *requirement == Requirement::Public {
            return match audited {
                None => Either::Left(self.inner.call(req)),
                Some(operation) => {
                    let recording = super::audit::anonymous(&req, &operation);
                    let db = self.guard.0.db.clone();
                    Either::Right(Box::pin(super::audit::run_recorded(db, recording, self.inner.call(req))))
                }
            };
        }
        let authorization = req.headers().get(header::AUTHORIZATION).map(|v| v.as_bytes());
        match authenticate_now(&self.guard.0.db, authorization) {
            Some(Ok(caller)) => match requirement.check(&caller) {
                Ok(()) => match audited {
                    None => {
                        req.extensions_mut().insert(caller);
                        Either::Left(self.inner.call(req))
                    }
                    Some(operation) => {
                        let recording = super::audit::recording(&req, &caller, &operation);
                        req.extensions_mut().insert(caller);
                        Either::Right(Box::pin(super::audit::run_recorded(
                            self.guard.0.db.clone(),
                            recording,
                            self.inner.call(req),
                        )))
                    }
                },
                Err(e) => {
                    if let Some(operation) = audited {
                        super::audit::denied(&self.guard.0.db, &req, &caller, &operation);
                    }
                    Either::Right(refuse(e.into_response()))
                }
            },
            Some(Err(e)) => Either::Right(refuse(e.into_response())),
            None => {
                let requirement = requirement.clone();
                let guard = self.guard.clone();
                // `self.inner` was made ready by `poll_ready`; the clone is readied by `oneshot`.
                let inner = self.inner.clone();
                Either::Right(Box::pin(async move {
                    let authorization = req.headers().get(header::AUTHORIZATION).map(|v| v.as_bytes());
                    let caller = match authenticate(&guard.0.db, authorization).await {
                        Ok(caller) => caller,
                        Err(e) => return Ok(e.into_response()),
                    };
                    if let Err(e) = requirement.check(&caller) {
                        if let Some(operation) = audited {
                            super::audit::denied(&guard.0.db, &req, &caller, &operation);
                        }
                        return Ok(e.into_response());
                    }
                    match audited {
                        None => {
                            req.extensions_mut().insert(caller);
                            inner.oneshot(req).await
                        }
                        Some(operation) => {
                            let recording = super::audit::recording(&req, &caller, &operation);
                            req.extensions_mut().insert(caller);
                            super::audit::run_recorded(guard.0.db.clone(), recording, inner.oneshot(req)).await
                        }
                    }
                }))
            }
        }
    }
}

fn refuse(response: Response) -> Answer {
    Box::pin(std::future::ready(Ok(response)))
}

/// 413 for a body declared longer than the limit.
fn oversize(req: &Request, limit: usize) -> Option<Response> {
    let length = req.headers().get(header::CONTENT_LENGTH)?.to_str().ok()?.parse::<u64>().ok()?;
    (length > limit as u64).then(|| {
        Error::from_status(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("Request body is {length} bytes; the limit is {limit}"),
        )
        .into_response()
    })
}

impl Guard {
    /// A method the route does not document is a 405 (never run: it declares no scope); a
    /// route missing from the document altogether is refused and logged as a bug.
    fn undocumented(&self, method: &Method, route: &str) -> Response {
        let mut allowed: Vec<&str> = self
            .0
            .table
            .get(route)
            .map(|methods| methods.iter().map(|(m, _, _)| m.as_str()).collect())
            .unwrap_or_default();
        if allowed.is_empty() {
            tracing::error!(%method, route, "route is not in the OpenAPI document; refusing it (deny by default)");
            return Error::forbidden(Scope::Admin).into_response();
        }
        if allowed.contains(&"GET") {
            allowed.push("HEAD");
        }
        allowed.sort_unstable();
        let mut resp = Error::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{method} is not allowed here; use {}", allowed.join(" or ")),
        )
        .into_response();
        if let Ok(v) = axum::http::HeaderValue::from_str(&allowed.join(", ")) {
            resp.headers_mut().insert(header::ALLOW, v);
        }
        resp
    }
}
