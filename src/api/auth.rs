//! The caller's own credential (extension `AUTH_ME`).

use std::future::Future;

use moneydesk_model::auth::Session;
use moneydesk_model::paths::AUTH_ME;

use super::{ApiError, Client};

/// Who the token is and what it may do: `Envelope<Session>`. The request starts (and is tied
/// to the current owner for aborting) when this is called, not when it is awaited.
pub fn me(client: &Client) -> impl Future<Output = Result<Session, ApiError>> + 'static {
    client.get_data::<Session>(AUTH_ME, &[])
}
