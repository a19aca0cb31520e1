//! Sign-in links: an admin makes one for a user (one use, 15 minutes); the portal exchanges its
//! secret, without a token, for a session token of the link's scopes (12 hours).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, Extensions, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use moneydesk_model::tokens::{
    CreatedSignInLink, NewSignInLink, SignInLink, SignInLinkExchange, SignInSession, SIGN_IN_LINK_ROUTE,
};
use moneydesk_model::{auth::Session, paths, Envelope};

use super::handlers::{scopes, user};
use super::link_store::Refused;
use super::TokensState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::rate_limit::header_seconds;

/// The portal's address as the caller reached it: the browser's `Origin`, else the `Host`.
fn portal_origin(headers: &HeaderMap) -> String {
    let text = |name| headers.get(name).and_then(|v: &HeaderValue| v.to_str().ok()).map(str::trim);
    if let Some(origin) = text(header::ORIGIN).filter(|o| o.starts_with("http") && *o != "null") {
        return origin.trim_end_matches('/').to_string();
    }
    let proto = text(HeaderName::from_static("x-forwarded-proto")).unwrap_or("http");
    format!("{proto}://{}", text(header::HOST).unwrap_or("localhost"))
}

#[utoipa::path(operation_id = "list_sign_in_links", get, path = paths::SIGN_IN_LINKS, tag = "tokens",
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Every sign-in link, newest first, used, revoked and expired ones included (never a secret).",
    responses((status = 200, description = "The links", body = Envelope<Vec<SignInLink>>)))]
pub(super) async fn list(
    State(state): State<TokensState>,
    _caller: Caller,
) -> Result<Json<Envelope<Vec<SignInLink>>>, Error> {
    Ok(Json(Envelope::ok(state.links().list().await?)))
}

#[utoipa::path(operation_id = "create_sign_in_link", post, path = paths::SIGN_IN_LINKS, tag = "tokens",
    request_body = NewSignInLink,
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Makes a sign-in link for a user, so that a new operator never handles a long-lived secret: one use, for 15 minutes. Exchanging it gives a session token of the user with exactly the `scopes` named here (there is no user directory: scopes live on tokens), expiring 12 hours after the exchange. The answer carries the secret (`mdl_…`) and `url`, the portal's address (the request's `Origin`, else its `Host`) with `/signin?link=<secret>`, this once: the server keeps only the secret's SHA-256.",
    responses((status = 201, description = "Made, with its URL (shown once)", body = Envelope<CreatedSignInLink>),
        (status = 400, description = "A field is wrong: `userId`, `scopes` (at least one, each known)", body = ErrorEnvelopeDoc)))]
pub(super) async fn create(
    State(state): State<TokensState>,
    caller: Caller,
    headers: HeaderMap,
    Json(new): Json<NewSignInLink>,
) -> Result<(StatusCode, Json<Envelope<CreatedSignInLink>>), Error> {
    let user_id = user("userId", &new.user_id)?;
    let mut scopes = scopes("scopes", &new.scopes)?;
    scopes.sort();
    scopes.dedup();
    let (link, secret) = state.links().create(&user_id, &scopes, caller.user_id(), Utc::now()).await?;
    let url = format!("{}{SIGN_IN_LINK_ROUTE}{secret}", portal_origin(&headers));
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, CreatedSignInLink { url, secret, link }))))
}

#[utoipa::path(operation_id = "revoke_sign_in_link", delete, path = paths::SIGN_IN_LINK, tag = "tokens",
    params(("id" = i64, Path, description = "The link's id")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Revokes a link not yet used: exchanging it then answers 410 (`reason` `link_revoked`). A used or revoked link is answered as it is (a session it gave is a token: revoke that).",
    responses((status = 200, description = "The link", body = Envelope<SignInLink>),
        (status = 404, description = "No such link", body = ErrorEnvelopeDoc)))]
pub(super) async fn revoke(
    State(state): State<TokensState>,
    _caller: Caller,
    Path(id): Path<i64>,
) -> Result<Json<Envelope<SignInLink>>, Error> {
    let link = state.links().revoke(id, Utc::now()).await?;
    Ok(Json(Envelope::ok(link.ok_or_else(|| Error::not_found(format!("No sign-in link {id}")))?)))
}

#[utoipa::path(operation_id = "exchange_sign_in_link", post, path = paths::SIGN_IN_LINK_EXCHANGE, tag = "tokens",
    request_body = SignInLinkExchange,
    security(()),
    extensions(("x-extension" = json!(true)), ("x-public" = json!(true))),
    description = "Exchanges a sign-in link's secret for a session token: no token is needed (the secret is the credential). The token belongs to the link's user, holds exactly the link's scopes and expires 12 hours later; the link is used up. An unknown secret answers 404; a link expired (15 minutes after it was made), used or revoked answers 410 whose `reason` is `link_expired`, `link_used` or `link_revoked` (only the secret's holder learns which). Rate limited per client address: bursts of 10, then one a second; 429 with `Retry-After` beyond.",
    responses((status = 200, description = "The session", body = Envelope<SignInSession>),
        (status = 404, description = "No sign-in link has this secret", body = ErrorEnvelopeDoc),
        (status = 410, description = "The link is expired, used or revoked (`reason` says which)", body = ErrorEnvelopeDoc),
        (status = 429, description = "Too many exchanges from this address; retry after `Retry-After` seconds", body = ErrorEnvelopeDoc)))]
pub(super) async fn exchange(
    State(state): State<TokensState>,
    extensions: Extensions,
    Json(body): Json<SignInLinkExchange>,
) -> Result<Json<Envelope<SignInSession>>, Response> {
    let address = extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    // Keyed by a hash of the address (the limiter keys by i64); no address: one shared bucket.
    let key =
        address.map(|a| i64::from_le_bytes(crate::tokens::digest(&a.to_string())[..8].try_into().unwrap_or_default()));
    let decision = state.exchanges().check(key.unwrap_or(0));
    if !decision.allowed {
        let wait = header_seconds(decision.retry_after);
        let e = Error::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("Too many sign-in link exchanges; retry after {wait} s"),
        );
        let mut r = e.into_response();
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
        return Err(r);
    }
    let made =
        state.links().exchange(body.secret.trim(), Utc::now()).await.map_err(|e| Error::internal(e).into_response())?;
    match made {
        Ok(new) => {
            let t = new.record;
            let session =
                Session { name: t.name, scopes: t.scopes, expires_at: t.expires_at, user_id: Some(t.user_id) };
            Ok(Json(Envelope::ok(SignInSession { token: new.token, session })))
        }
        Err(Refused::Unknown) => Err(Error::not_found("No sign-in link has this secret").into_response()),
        Err(Refused::Gone(reason)) => Err(Error::new(StatusCode::GONE, reason, gone_message(reason)).into_response()),
    }
}

fn gone_message(reason: &str) -> String {
    match reason {
        moneydesk_model::tokens::LINK_USED => "This sign-in link was used already: ask an admin for a new one",
        moneydesk_model::tokens::LINK_REVOKED => "This sign-in link was revoked: ask an admin for a new one",
        _ => "This sign-in link expired (links last 15 minutes): ask an admin for a new one",
    }
    .to_string()
}
