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

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use moneydesk_model::auth::Session;
use moneydesk_model::Scope;

use crate::error::Error;
use crate::tokens;
use crate::tokens::{TokenRecord, TokenStore};

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

mod audit;
mod guard;

pub use guard::{Guard, GuardLayer, GuardedRoute, Requirement, BEARER};

#[cfg(test)]
mod tests {
    use super::Requirement;
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
