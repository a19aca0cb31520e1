//! Authentication and authorisation (CONTRACT.md point 7), deny by default.
//!
//! `http::api` puts [`GuardLayer`] in front of every route of every group router. It authenticates
//! the bearer token and then checks the scopes the operation declares in its OpenAPI
//! `security(("bearer" = ["scope"]))` attribute — before any body is read. An operation that
//! declares no bearer requirement, or a route missing from the OpenAPI document, is refused,
//! so a handler cannot be reached without both a valid token and a declared scope. It also
//! owns the body limit: a body declared longer than `MONEYDESK_BODY_LIMIT` is refused (413)
//! before anything reads it, and the extractors are told the limit for the rest. Handlers
//! take a [`Caller`] to know who is calling, and may call [`Caller::require`] for finer checks.

use rustc_hash::FxHashMap;
use std::sync::Arc;

use std::convert::Infallible;
use std::task::{Context, Poll};

use axum::body::HttpBody;
use axum::extract::{DefaultBodyLimit, FromRequestParts, MatchedPath, Request};
use axum::http::request::Parts;
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::future::{BoxFuture, Either};
use moneydesk_model::auth::Session;
use moneydesk_model::Scope;
use tower::{Layer, Service, ServiceExt};

use crate::error::Error;
use crate::storage::{TokenRecord, TokenStore};
use crate::tokens;

/// The authenticated caller of an `/api` request: its token's record, shared with the token
/// cache (so handing it to a handler copies nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller(Arc<TokenRecord>);

impl Caller {
    pub fn can(&self, scope: Scope) -> bool {
        scope.granted_by(&self.0.scopes)
    }

    /// `caller.require(Scope::VaultWrite)?` — 403 unless the token holds the scope (or admin).
    pub fn require(&self, scope: Scope) -> Result<(), Error> {
        if self.can(scope) {
            Ok(())
        } else {
            Err(Error::forbidden(scope))
        }
    }

    /// The token's id: what per-caller limits are kept by.
    pub fn token_id(&self) -> i64 {
        self.0.id
    }

    /// The token's name: what records of who did something say.
    pub fn token_name(&self) -> &str {
        &self.0.name
    }

    pub fn session(&self) -> Session {
        Session {
            name: self.0.name.clone(),
            scopes: self.0.scopes.clone(),
            expires_at: self.0.expires_at.clone(),
            user_id: Some(self.0.user_id.clone()),
        }
    }

    /// The user whose document vault the token reaches (`admin` reaches any).
    pub fn user_id(&self) -> &str {
        &self.0.user_id
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Put there by the guard; absent only on a route outside the guarded routers: refuse.
        // Taken, not copied: a handler extracts its caller once.
        parts.extensions.remove::<Caller>().ok_or_else(Error::unauthorized)
    }
}

/// Authenticates an `Authorization` header value.
/// Missing → 401; not `Bearer mdk_...` → 600; unknown → 401; expired or revoked → 600.
pub async fn authenticate(db: &TokenStore, authorization: Option<&[u8]>) -> Result<Caller, Error> {
    let digest = tokens::digest(bearer(authorization)?);
    let record = db.by_digest_cached(&digest).await?.ok_or_else(Error::unauthorized)?;
    let caller = admit(record)?;
    if let Err(e) = db.touch(caller.0.id).await {
        tracing::warn!(error = %e, token_id = caller.0.id, "could not record token use");
    }
    Ok(caller)
}

/// [`authenticate`] when it needs no I/O (a token read from the table in the last seconds, or
/// a header without a bearer token); `None` when it has to read the table.
fn authenticate_now(db: &TokenStore, authorization: Option<&[u8]>) -> Option<Result<Caller, Error>> {
    let token = match bearer_text(authorization) {
        Ok(token) => token,
        Err(e) => return Some(Err(e)),
    };
    // Only well-formed tokens are ever cached, so a hit needs no shape check: the shape is
    // checked (by `bearer`) on the way to the table.
    db.if_cached(&tokens::digest(token)).map(admit)
}

/// The token of a `Bearer mdk_...` header value.
fn bearer(authorization: Option<&[u8]>) -> Result<&str, Error> {
    let token = bearer_text(authorization)?;
    if !tokens::well_formed(token) {
        return Err(Error::invalid_token("malformed: not a Moneydesk token"));
    }
    Ok(token)
}

/// The text after `Bearer ` (of any shape).
fn bearer_text(authorization: Option<&[u8]>) -> Result<&str, Error> {
    let Some(raw) = authorization else { return Err(Error::unauthorized()) };
    let text = std::str::from_utf8(raw).map_err(|_| Error::invalid_token("malformed"))?.trim();
    match text.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => Ok(rest.trim()),
        _ => Err(Error::invalid_token("malformed: expected Authorization: Bearer mdk_...")),
    }
}

/// A known token's record as a caller, unless it is revoked or expired.
fn admit(record: Arc<TokenRecord>) -> Result<Caller, Error> {
    if record.is_revoked() {
        return Err(Error::invalid_token("revoked"));
    }
    if record.is_expired_now() {
        return Err(Error::invalid_token("expired"));
    }
    Ok(Caller(record))
}

/// What an operation asks of the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Requirement {
    /// Any one of these scope sets (each fully granted). An empty set means any valid token.
    AnyOf(Vec<Vec<Scope>>),
}

impl Requirement {
    fn check(&self, caller: &Caller) -> Result<(), Error> {
        let Requirement::AnyOf(sets) = self;
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
    /// Route (as axum matched it) → method → requirement; looked up by `&str` on every
    /// request, so the lookup allocates nothing. FxHash: the keys are the app's own routes.
    table: FxHashMap<String, Vec<(Method, Requirement)>>,
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
                table.entry(path.clone()).or_insert_with(Vec::new).push((method, Requirement::AnyOf(sets)));
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
        let method = if method == Method::HEAD { &Method::GET } else { method };
        self.0.table.get(path)?.iter().find(|(m, _)| m == method).map(|(_, requirement)| requirement)
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
        let Some(requirement) = self.guard.requirement(req.method(), route) else {
            return Either::Right(refuse(self.guard.undocumented(req.method(), route)));
        };
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
        let authorization = req.headers().get(header::AUTHORIZATION).map(|v| v.as_bytes());
        match authenticate_now(&self.guard.0.db, authorization) {
            Some(Ok(caller)) => match requirement.check(&caller) {
                Ok(()) => {
                    req.extensions_mut().insert(caller);
                    Either::Left(self.inner.call(req))
                }
                Err(e) => Either::Right(refuse(e.into_response())),
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
                        return Ok(e.into_response());
                    }
                    req.extensions_mut().insert(caller);
                    inner.oneshot(req).await
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
            .map(|methods| methods.iter().map(|(m, _)| m.as_str()).collect())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(scopes: &[Scope]) -> Caller {
        Caller(Arc::new(TokenRecord {
            id: 1,
            name: "t".into(),
            scopes: scopes.to_vec(),
            created_at: String::new(),
            expires_at: None,
            revoked_at: None,
            last_used_at: None,
            user_id: "t".into(),
        }))
    }

    #[test]
    fn requirement_sets() {
        let any = Requirement::AnyOf(vec![vec![]]);
        assert!(any.check(&caller(&[Scope::FeesRead])).is_ok());
        let write = Requirement::AnyOf(vec![vec![Scope::VaultWrite]]);
        assert_eq!(write.check(&caller(&[Scope::VaultRead])).unwrap_err().status, 403);
        assert!(write.check(&caller(&[Scope::Admin])).is_ok());
        assert!(caller(&[Scope::VaultRead]).require(Scope::VaultRead).is_ok());
    }
}
