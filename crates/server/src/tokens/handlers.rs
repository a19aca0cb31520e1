//! Tokens: an admin lists every token, creates them (the text answered once) and revokes any;
//! any other token lists and revokes its own user's.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::Duration;
use moneydesk_model::tokens::{CreatedToken, NewToken, TokenInfo};
use moneydesk_model::{paths, Envelope, Scope};

use super::store::TokenRecord;
use super::TokensState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};

pub(super) fn info(t: &TokenRecord) -> TokenInfo {
    TokenInfo {
        id: t.id,
        name: t.name.clone(),
        user_id: t.user_id.clone(),
        scopes: t.scopes.clone(),
        created_at: t.created_at.clone(),
        expires_at: t.expires_at.clone(),
        last_used_at: t.last_used_at.clone(),
        revoked_at: t.revoked_at.clone(),
    }
}

/// The scope names given, checked: at least one, each known (400 naming `field` otherwise).
pub(super) fn scopes(field: &str, given: &[String]) -> Result<Vec<Scope>, Error> {
    if given.is_empty() {
        return Err(Error::field(field, "name at least one scope"));
    }
    given.iter().map(|s| s.trim().parse::<Scope>().map_err(|e| Error::field(field, e.to_string()))).collect()
}

/// A user id as the vault knows users (400 naming `field` otherwise).
pub(super) fn user(field: &str, given: &str) -> Result<String, Error> {
    given.trim().parse::<moneydesk_model::vault::UserId>().map_err(|e| Error::field(field, e.to_string()))?;
    Ok(given.trim().to_string())
}

#[utoipa::path(operation_id = "list_tokens", get, path = paths::TOKENS, tag = "tokens",
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "The tokens, oldest first, revoked and expired ones included: every token for an `admin` token, otherwise those of the caller's own user. Each with its expiry and its last use (written at most once a minute, so up to a minute behind). Never a token's text nor its hash.",
    responses((status = 200, description = "The tokens", body = Envelope<Vec<TokenInfo>>)))]
pub(super) async fn list(
    State(state): State<TokensState>,
    caller: Caller,
) -> Result<Json<Envelope<Vec<TokenInfo>>>, Error> {
    let rows = if caller.can(Scope::Admin) {
        state.tokens().list().await?
    } else {
        state.tokens().list_of(caller.user_id()).await?
    };
    Ok(Json(Envelope::ok(rows.iter().map(info).collect())))
}

#[utoipa::path(operation_id = "create_token", post, path = paths::TOKENS, tag = "tokens",
    request_body = NewToken,
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Creates a token (what `moneydesk-server token create` does). The answer carries its text (`mdk_…`) this once: the server keeps only its SHA-256 and never answers it again. `expiresInDays` (1 to 3650) sets an expiry; without it the token does not expire.",
    responses((status = 201, description = "Created, with its text (shown once)", body = Envelope<CreatedToken>),
        (status = 400, description = "A field is wrong: `name` (1 to 100 characters), `userId`, `scopes` (at least one, each known), `expiresInDays`", body = ErrorEnvelopeDoc)))]
pub(super) async fn create(
    State(state): State<TokensState>,
    _caller: Caller,
    Json(new): Json<NewToken>,
) -> Result<(StatusCode, Json<Envelope<CreatedToken>>), Error> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Error::field("name", "1 to 100 characters"));
    }
    let user_id = new.user_id.as_deref().map(|u| user("userId", u)).transpose()?;
    let scopes = scopes("scopes", &new.scopes)?;
    let expires_in = match new.expires_in_days {
        None => None,
        Some(d @ 1..=3650) => Some(Duration::days(i64::from(d))),
        Some(_) => return Err(Error::field("expiresInDays", "1 to 3650 days, or absent for no expiry")),
    };
    let made =
        state.tokens().create_for(name, user_id.as_deref(), &scopes, expires_in).await.map_err(Error::internal)?;
    let answer = CreatedToken { token: made.token, record: info(&made.record) };
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, answer))))
}

#[utoipa::path(operation_id = "revoke_token", delete, path = paths::TOKEN, tag = "tokens",
    params(("id" = i64, Path, description = "The token's id")),
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "Revokes a token: the next request with it answers 401 with `code` 600. An `admin` token revokes any; any other token only its own user's (another user's is answered 404, as an unknown one: which ids exist is not told). Revoking a revoked token answers it as it is.",
    responses((status = 200, description = "The token, revoked", body = Envelope<TokenInfo>),
        (status = 404, description = "No such token (or another user's)", body = ErrorEnvelopeDoc)))]
pub(super) async fn revoke(
    State(state): State<TokensState>,
    caller: Caller,
    Path(id): Path<i64>,
) -> Result<Json<Envelope<TokenInfo>>, Error> {
    let unknown = || Error::not_found(format!("No token {id}"));
    let token = state.tokens().by_id(id).await?.ok_or_else(unknown)?;
    if !caller.can(Scope::Admin) && token.user_id != caller.user_id() {
        return Err(unknown());
    }
    if token.is_revoked() {
        return Ok(Json(Envelope::ok(info(&token))));
    }
    let revoked = state.tokens().revoke(&id.to_string()).await?;
    let token = match revoked.into_iter().next() {
        Some(t) => t,
        // Revoked meanwhile by another request.
        None => state.tokens().by_id(id).await?.ok_or_else(unknown)?,
    };
    Ok(Json(Envelope::ok(info(&token))))
}
