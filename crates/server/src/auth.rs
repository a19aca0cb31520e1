//! Authentication and authorisation (CONTRACT.md point 7), deny by default.
//!
//! `http::api` puts [`guard`] in front of every route of every group router. It authenticates
//! the bearer token and then checks the scopes the operation declares in its OpenAPI
//! `security(("bearer" = ["scope"]))` attribute — before any body is read. An operation that
//! declares no bearer requirement, or a route missing from the OpenAPI document, is refused,
//! so a handler cannot be reached without both a valid token and a declared scope. Handlers
//! take a [`Caller`] to know who is calling, and may call [`Caller::require`] for finer checks.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::request::Parts;
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use moneydesk_model::auth::Session;
use moneydesk_model::Scope;

use crate::error::Error;
use crate::storage::{Db, TokenRecord};
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

    pub fn session(&self) -> Session {
        Session { name: self.0.name.clone(), scopes: self.0.scopes.clone(), expires_at: self.0.expires_at.clone() }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Put there by `guard`; absent only on a route outside the guarded routers: refuse.
        parts.extensions.get::<Caller>().cloned().ok_or_else(Error::unauthorized)
    }
}

/// Authenticates an `Authorization` header value.
/// Missing → 401; not `Bearer mdk_...` → 600; unknown → 401; expired or revoked → 600.
pub async fn authenticate(db: &Db, authorization: Option<&[u8]>) -> Result<Caller, Error> {
    let Some(raw) = authorization else { return Err(Error::unauthorized()) };
    let text = std::str::from_utf8(raw).map_err(|_| Error::invalid_token("malformed"))?.trim();
    let token = match text.split_once(' ') {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => return Err(Error::invalid_token("malformed: expected Authorization: Bearer mdk_...")),
    };
    if !tokens::well_formed(token) {
        return Err(Error::invalid_token("malformed: not a Moneydesk token"));
    }
    let record = db.token_by_hash_cached(&tokens::hash(token)).await?.ok_or_else(Error::unauthorized)?;
    if record.is_revoked() {
        return Err(Error::invalid_token("revoked"));
    }
    if record.is_expired(Utc::now()) {
        return Err(Error::invalid_token("expired"));
    }
    if let Err(e) = db.touch_token(record.id).await {
        tracing::warn!(error = %e, token_id = record.id, "could not record token use");
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
    db: Db,
    /// Route (as axum matched it) → method → requirement; looked up by `&str` on every
    /// request, so the lookup allocates nothing.
    table: HashMap<String, HashMap<Method, Requirement>>,
}

/// The security scheme name used in the OpenAPI document.
pub const BEARER: &str = "bearer";

impl Guard {
    pub fn from_openapi(doc: &utoipa::openapi::OpenApi, db: Db) -> anyhow::Result<Guard> {
        let json = serde_json::to_value(doc)?;
        let mut table = HashMap::new();
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
                table.entry(path.clone()).or_insert_with(HashMap::new).insert(method, Requirement::AnyOf(sets));
            }
        }
        Ok(Guard(Arc::new(Guarded { db, table })))
    }

    pub fn requirement(&self, method: &Method, path: &str) -> Option<&Requirement> {
        let method = if method == Method::HEAD { &Method::GET } else { method };
        self.0.table.get(path)?.get(method)
    }
}

/// Middleware on every API route: authenticate, then check the operation's declared scopes.
pub async fn guard(State(guard): State<Guard>, mut req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str()).unwrap_or_default();
    let Some(requirement) = guard.requirement(req.method(), route) else {
        return guard.undocumented(req.method(), route);
    };
    let caller = match authenticate(&guard.0.db, req.headers().get(header::AUTHORIZATION).map(|v| v.as_bytes())).await {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = requirement.check(&caller) {
        return e.into_response();
    }
    req.extensions_mut().insert(caller);
    next.run(req).await
}

impl Guard {
    /// A method the route does not document is a 405 (never run: it declares no scope); a
    /// route missing from the document altogether is refused and logged as a bug.
    fn undocumented(&self, method: &Method, route: &str) -> Response {
        let mut allowed: Vec<&str> =
            self.0.table.get(route).map(|methods| methods.keys().map(|m| m.as_str()).collect()).unwrap_or_default();
        if allowed.is_empty() {
            tracing::error!(%method, route, "route is not in the OpenAPI document; refusing it (deny by default)");
            return Error::forbidden(Scope::Admin).into_response();
        }
        if allowed.contains(&"GET") {
            allowed.push("HEAD");
        }
        allowed.sort_unstable();
        let mut resp = Error::new(
            axum::http::StatusCode::METHOD_NOT_ALLOWED,
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
