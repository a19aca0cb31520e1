//! Tokens and sign-in links (extension): list (an admin's all, anyone's own), create (the text
//! answered once), revoke; an admin's sign-in links; and the exchange of a link's secret for a
//! session token, sent without a token (the sign-in page's).

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::tokens::{
    CreatedSignInLink, CreatedToken, NewSignInLink, NewToken, SignInLink, SignInLinkExchange, SignInSession, TokenInfo,
};
use moneydesk_model::{paths, Envelope};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::client::{envelope_data, Body};
use super::{ApiError, Client};

fn call<B: Serialize + ?Sized, T: DeserializeOwned + 'static>(
    client: &Client,
    method: Method,
    path: String,
    body: Option<&B>,
) -> impl Future<Output = Result<T, ApiError>> + 'static {
    let body = body.map(Body::json).transpose();
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<T>>(method, &path, &[], body?);
        envelope_data(sent.await?)
    }
}

/// GET `…/tokens`: every token for an admin, else the caller's own user's.
pub fn list(client: &Client) -> impl Future<Output = Result<Vec<TokenInfo>, ApiError>> + 'static {
    client.get_data(paths::TOKENS, &[])
}

/// POST `…/tokens` (admin): the token's text, the only time it is answered.
pub fn create(client: &Client, new: &NewToken) -> impl Future<Output = Result<CreatedToken, ApiError>> + 'static {
    call(client, Method::POST, paths::TOKENS.to_string(), Some(new))
}

/// DELETE `…/tokens/{id}`.
pub fn revoke(client: &Client, id: i64) -> impl Future<Output = Result<TokenInfo, ApiError>> + 'static {
    call::<(), _>(client, Method::DELETE, paths::fill(paths::TOKEN, "id", &id.to_string()), None)
}

/// GET `…/sign-in-links` (admin).
pub fn links(client: &Client) -> impl Future<Output = Result<Vec<SignInLink>, ApiError>> + 'static {
    client.get_data(paths::SIGN_IN_LINKS, &[])
}

/// POST `…/sign-in-links` (admin): the link's secret and URL, answered once.
pub fn create_link(
    client: &Client,
    new: &NewSignInLink,
) -> impl Future<Output = Result<CreatedSignInLink, ApiError>> + 'static {
    call(client, Method::POST, paths::SIGN_IN_LINKS.to_string(), Some(new))
}

/// DELETE `…/sign-in-links/{id}` (admin).
pub fn revoke_link(client: &Client, id: i64) -> impl Future<Output = Result<SignInLink, ApiError>> + 'static {
    call::<(), _>(client, Method::DELETE, paths::fill(paths::SIGN_IN_LINK, "id", &id.to_string()), None)
}

/// POST `…/sign-in-links/exchange` with no token: a session token for the link's user (410
/// when the link is expired, used or revoked; 404 when unknown).
pub fn exchange(base_url: &str, secret: &str) -> impl Future<Output = Result<SignInSession, ApiError>> + 'static {
    let client = Client::new(base_url.to_string(), None);
    let body = SignInLinkExchange { secret: secret.to_string() };
    call(&client, Method::POST, paths::SIGN_IN_LINK_EXCHANGE.to_string(), Some(&body))
}
