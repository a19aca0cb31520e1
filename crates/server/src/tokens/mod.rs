//! Tokens (extension): `text.rs` what a token's text is (made, shaped, hashed); `store.rs`
//! the `tokens` table (hashes only); `handlers.rs` an admin lists, creates and revokes
//! tokens, any token lists and revokes its own user's; `links.rs` sign-in links: an admin
//! makes one for a user, the portal exchanges its secret (without a token) for a session
//! token; `link_store.rs` their table.

use std::sync::Arc;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::rate_limit::{Quota, RateLimiter};
use crate::AppState;

mod handlers;
pub mod link_store;
mod links;
mod store;
mod text;

pub use store::{NewToken, TokenCache, TokenRecord, TokenStore};
pub use text::*;

crate::group_state! {
    /// What the tokens handlers reach: the tokens, the links and the exchange's rate limiter.
    pub struct TokensState {
        tokens: store::TokenStore = stores.tokens,
        links: link_store::LinkStore = stores.sign_in_links,
        exchanges: Arc<RateLimiter> = sign_in_limiter,
    }
}

/// Exchanges per client address: bursts of 10, then one a second. A secret is 256 random
/// bits, so this only keeps a client from hammering the table.
pub fn exchange_limiter() -> Arc<RateLimiter> {
    Arc::new(RateLimiter::new(Quota { per_second: 1, burst: 10 }))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::list, handlers::create))
        .routes(routes!(handlers::revoke))
        .routes(routes!(links::list, links::create))
        .routes(routes!(links::revoke))
        .routes(routes!(links::exchange))
}
