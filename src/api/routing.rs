//! Routing-number calls: exact lookups (bare records, 404 is an answer, not a failure), the
//! directory's status and refresh, and the search extension.

use gloo_net::http::Method;
use moneydesk_model::paths::{ROUTING_ACH_VALIDATE, ROUTING_WIRE_VALIDATE};
use moneydesk_model::routing::{
    AchParticipant, DirectoryStatus, WireParticipant, ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH,
    ROUTING_SEARCH,
};
use moneydesk_model::{Envelope, Page};
use serde::de::DeserializeOwned;
use std::future::Future;

use super::client::envelope_data;
use super::{ApiError, Client};

/// A lookup's answer: the record, or the directory does not list the number (the server's words).
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup<T> {
    Found(T),
    NotListed(String),
}

impl<T> Lookup<T> {
    pub fn found(&self) -> Option<&T> {
        match self {
            Lookup::Found(t) => Some(t),
            Lookup::NotListed(_) => None,
        }
    }
}

fn lookup<T: DeserializeOwned + 'static>(
    client: &Client,
    path: &str,
    number: &str,
) -> impl Future<Output = Result<Lookup<T>, ApiError>> + 'static {
    let fut = client.get::<T>(path, &[("routingNumber", number)]);
    async move {
        match fut.await {
            Ok(record) => Ok(Lookup::Found(record)),
            Err(ApiError::NotFound { message }) => Ok(Lookup::NotListed(message)),
            Err(e) => Err(e),
        }
    }
}

/// GET `.../routing/ach/validate?routingNumber=`.
pub fn ach(client: &Client, number: &str) -> impl Future<Output = Result<Lookup<AchParticipant>, ApiError>> + 'static {
    lookup(client, ROUTING_ACH_VALIDATE, number)
}

/// GET `.../routing/wire/validate?routingNumber=`.
pub fn wire(client: &Client, number: &str) -> impl Future<Output = Result<Lookup<WireParticipant>, ApiError>> + 'static {
    lookup(client, ROUTING_WIRE_VALIDATE, number)
}

/// The directory in service: as-of date, load time, counts, staleness.
pub fn directory(client: &Client) -> impl Future<Output = Result<DirectoryStatus, ApiError>> + 'static {
    client.get_data(ROUTING_DIRECTORY, &[])
}

/// Reloads the directory files now (scope `admin`); a bad file is a 422 naming file and line.
pub fn refresh(client: &Client) -> impl Future<Output = Result<DirectoryStatus, ApiError>> + 'static {
    let fut = client.send::<Envelope<DirectoryStatus>>(Method::POST, ROUTING_DIRECTORY_REFRESH, &[], None);
    async move { envelope_data(fut.await?) }
}

/// GET `.../routing/search` with the given (non-empty) parameters; `T` is `RoutingSearchHit`,
/// or `serde_json::Value` for the shared data table.
pub fn search<T: DeserializeOwned + 'static>(
    client: &Client,
    params: &[(String, String)],
) -> impl Future<Output = Result<Page<T>, ApiError>> + 'static {
    let query: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.get_data(ROUTING_SEARCH, &query)
}
