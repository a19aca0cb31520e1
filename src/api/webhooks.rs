//! Webhook endpoints (extension, `webhooks:write`): list, create (its secret answered once),
//! change, delete, rotate the secret (answered once), a test event, the delivery log, replays
//! and the last 7 days. Every call is aborted when the component that made it goes away
//! (client.rs); a create carries an `Idempotency-Key` so a retried submission makes one endpoint.

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::webhooks::{
    NewWebhookEndpoint, RotateWebhookSecret, WebhookAttempt, WebhookEndpoint, WebhookEndpointUpdate,
    WebhookEndpointWithSecret, WebhookReplay, WebhookReplayed, WebhookStats,
};
use moneydesk_model::{paths, Envelope, Page};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::client::{envelope_data, Body};
use super::{ApiError, Client};

fn at(template: &str, id: &str) -> String {
    paths::fill(template, "id", id)
}

/// Sends `body` as JSON with `method` and answers the envelope's `data`.
fn call<B: Serialize + ?Sized, T: DeserializeOwned + 'static>(
    client: &Client,
    method: Method,
    path: String,
    body: &B,
) -> impl Future<Output = Result<T, ApiError>> + 'static {
    let body = Body::json(body);
    let client = client.clone();
    async move {
        let sent = client.send::<Envelope<T>>(method, &path, &[], Some(body?));
        envelope_data(sent.await?)
    }
}

/// GET `…/webhooks/endpoints`: every endpoint, oldest first (secrets as their last four characters).
pub fn endpoints(client: &Client) -> impl Future<Output = Result<Vec<WebhookEndpoint>, ApiError>> + 'static {
    client.get_data(paths::WEBHOOK_ENDPOINTS, &[])
}

/// GET `…/webhooks/endpoints/{id}`.
pub fn endpoint(client: &Client, id: &str) -> impl Future<Output = Result<WebhookEndpoint, ApiError>> + 'static {
    client.get_data(&at(paths::WEBHOOK_ENDPOINT, id), &[])
}

/// POST `…/webhooks/endpoints` with `key` as its `Idempotency-Key`: the endpoint and its secret,
/// the only time the secret is answered.
pub fn create(
    client: &Client,
    new: &NewWebhookEndpoint,
    key: &str,
) -> impl Future<Output = Result<WebhookEndpointWithSecret, ApiError>> + 'static {
    let client = client.clone().with_header("Idempotency-Key", key);
    call(&client, Method::POST, paths::WEBHOOK_ENDPOINTS.to_string(), new)
}

/// PATCH `…/webhooks/endpoints/{id}`: the fields given are replaced (`enabled` enables or disables).
pub fn update(
    client: &Client,
    id: &str,
    change: &WebhookEndpointUpdate,
) -> impl Future<Output = Result<WebhookEndpoint, ApiError>> + 'static {
    call(client, Method::PATCH, at(paths::WEBHOOK_ENDPOINT, id), change)
}

/// DELETE `…/webhooks/endpoints/{id}` (204): the endpoint with its deliveries and their log.
pub fn delete(client: &Client, id: &str) -> impl Future<Output = Result<(), ApiError>> + 'static {
    let sent = client.send::<serde::de::IgnoredAny>(Method::DELETE, &at(paths::WEBHOOK_ENDPOINT, id), &[], None);
    async move { sent.await.map(|_| ()) }
}

/// POST `…/webhooks/endpoints/{id}/secret`: a new secret (answered this once); the old one
/// keeps signing beside it for `overlapHours`.
pub fn rotate_secret(
    client: &Client,
    id: &str,
    rotation: &RotateWebhookSecret,
) -> impl Future<Output = Result<WebhookEndpointWithSecret, ApiError>> + 'static {
    call(client, Method::POST, at(paths::WEBHOOK_ENDPOINT_SECRET, id), rotation)
}

/// POST `…/webhooks/endpoints/{id}/test` (202): a `webhook.test` event queued; answers its id.
pub fn send_test(client: &Client, id: &str) -> impl Future<Output = Result<String, ApiError>> + 'static {
    let sent = client.send::<Envelope<String>>(Method::POST, &at(paths::WEBHOOK_ENDPOINT_TEST, id), &[], None);
    async move { envelope_data(sent.await?) }
}

/// GET `…/webhooks/endpoints/{id}/deliveries?page=&size=`: a page of attempts, newest first.
pub fn deliveries(
    client: &Client,
    id: &str,
    page: u64,
    size: u32,
) -> impl Future<Output = Result<Page<WebhookAttempt>, ApiError>> + 'static {
    let (page, size) = (page.to_string(), size.to_string());
    client.get_data(&at(paths::WEBHOOK_ENDPOINT_DELIVERIES, id), &[("page", page.as_str()), ("size", size.as_str())])
}

/// POST `…/webhooks/endpoints/{id}/replay` (202): one event (`eventId`) or a time range
/// (`from`, `to`) delivered again, with the same event ids.
pub fn replay(
    client: &Client,
    id: &str,
    replay: &WebhookReplay,
) -> impl Future<Output = Result<WebhookReplayed, ApiError>> + 'static {
    call(client, Method::POST, at(paths::WEBHOOK_ENDPOINT_REPLAY, id), replay)
}

/// GET `…/webhooks/endpoints/{id}/stats`: the last 7 UTC days, oldest first.
pub fn stats(client: &Client, id: &str) -> impl Future<Output = Result<WebhookStats, ApiError>> + 'static {
    client.get_data(&at(paths::WEBHOOK_ENDPOINT_STATS, id), &[])
}
