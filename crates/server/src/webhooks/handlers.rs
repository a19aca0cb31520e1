//! The endpoints: create (answering the secret once), list, get, change, delete, rotate.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use chrono::Utc;
use moneydesk_model::events::EventType;
use moneydesk_model::webhooks::{
    NewWebhookEndpoint, RotateWebhookSecret, WebhookEndpoint, WebhookEndpointUpdate, WebhookEndpointWithSecret,
    ALL_TYPES,
};
use moneydesk_model::{paths, Envelope};

use super::signing::{new_id, new_secret};
use super::store::{Change, EndpointRow};
use super::url::Allow;
use super::WebhooksState;
use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::storage::time::millis;

/// The longest overlap a rotation takes, in hours.
const MAX_OVERLAP_HOURS: u32 = 168;
const DEFAULT_OVERLAP_HOURS: u32 = 24;

pub(super) fn allow(state: &WebhooksState) -> Allow {
    Allow(std::sync::Arc::new(state.config().webhooks.allow.clone()))
}

async fn checked_url(state: &WebhooksState, given: &str) -> Result<String, Error> {
    super::url::check(given, &allow(state)).await.map_err(|why| Error::field("url", why))
}

/// The event types, checked: each a known type, or `*` alone.
fn event_types(given: Option<Vec<String>>) -> Result<Vec<String>, Error> {
    let given = given.unwrap_or_else(|| vec![ALL_TYPES.to_string()]);
    if given.is_empty() {
        return Err(Error::field("eventTypes", "name at least one event type, or * for all"));
    }
    let mut types = Vec::with_capacity(given.len());
    for t in given {
        let t = t.trim();
        if t == ALL_TYPES {
            types.push(t.to_string());
            continue;
        }
        let kind = EventType::parse(t).ok_or_else(|| {
            Error::field("eventTypes", format!("unknown event type {t:?}; known: * or {}", EventType::known()))
        })?;
        if !types.iter().any(|k| k == kind.as_str()) {
            types.push(kind.as_str().to_string());
        }
    }
    Ok(types)
}

fn description(given: Option<String>) -> Result<String, Error> {
    let d = given.unwrap_or_default().trim().to_string();
    if d.chars().count() > 500 {
        return Err(Error::field("description", "at most 500 characters"));
    }
    Ok(d)
}

pub(super) async fn found(state: &WebhooksState, id: &str) -> Result<EndpointRow, Error> {
    state.webhooks().endpoint(id).await?.ok_or_else(|| Error::not_found(format!("No webhook endpoint {id}")))
}

#[utoipa::path(operation_id = "list_webhook_endpoints", get, path = paths::WEBHOOK_ENDPOINTS, tag = "webhooks",
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "The webhook endpoints, oldest first (their secrets are never answered here: only their last four characters).",
    responses((status = 200, description = "The endpoints", body = Envelope<Vec<WebhookEndpoint>>)))]
pub(super) async fn list(
    State(state): State<WebhooksState>,
    _caller: Caller,
) -> Result<Json<Envelope<Vec<WebhookEndpoint>>>, Error> {
    let rows = state.webhooks().endpoints().await?;
    Ok(Json(Envelope::ok(rows.iter().map(EndpointRow::answer).collect())))
}

#[utoipa::path(operation_id = "create_webhook_endpoint", post, path = paths::WEBHOOK_ENDPOINTS, tag = "webhooks",
    request_body = NewWebhookEndpoint,
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Creates an endpoint: every event of the types it names (`*`: all) is POSTed to its URL as JSON, signed (`Moneydesk-Webhook-Signature: t=<timestamp>,v1=<hex HMAC-SHA256(secret, \"<timestamp>.<body>\")>`), with `Moneydesk-Webhook-Id` (the event id, to drop repeats: delivery is at least once) and `Moneydesk-Webhook-Timestamp`; retried with exponential backoff for 3 days; in order per object. The URL must be https and every address its host resolves to public (not loopback, private, link-local, unique-local or unspecified): a webhook must not make the server call into its own network (server-side request forgery); the server's allow-list (`MONEYDESK_WEBHOOK_ALLOW`) lifts that for development. The answer carries the secret (`whsec_…`) this once: the server keeps it to sign with, and never answers it again; rotate it to get a new one.",
    responses((status = 201, description = "Created, with its secret (shown once)", body = Envelope<WebhookEndpointWithSecret>),
        (status = 400, description = "The URL is refused (`url`, naming why), an unknown event type (`eventTypes`)", body = ErrorEnvelopeDoc)))]
pub(super) async fn create(
    State(state): State<WebhooksState>,
    caller: Caller,
    Json(new): Json<NewWebhookEndpoint>,
) -> Result<(StatusCode, Json<Envelope<WebhookEndpointWithSecret>>), Error> {
    let url = checked_url(&state, &new.url).await?;
    let types = event_types(new.event_types)?;
    let now = millis(Utc::now());
    let secret = new_secret();
    let row = EndpointRow {
        id: new_id("we_"),
        url,
        description: description(new.description)?,
        event_types: serde_json::to_string(&types).expect("strings serialize"),
        enabled: i64::from(new.enabled.unwrap_or(true)),
        disabled_reason: None,
        disabled_at: None,
        secret: secret.clone(),
        secret_rotated_at: now.clone(),
        previous_secret: None,
        previous_secret_until: None,
        created_by: caller.user_id().to_string(),
        created_at: now.clone(),
        updated_at: now,
    };
    state.webhooks().insert(&row).await?;
    let answer = WebhookEndpointWithSecret { endpoint: row.answer(), secret };
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, answer))))
}

#[utoipa::path(operation_id = "get_webhook_endpoint", get, path = paths::WEBHOOK_ENDPOINT, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id (`we_…`)")),
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The endpoint", body = Envelope<WebhookEndpoint>),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn detail(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Envelope<WebhookEndpoint>>, Error> {
    Ok(Json(Envelope::ok(found(&state, &id).await?.answer())))
}

#[utoipa::path(operation_id = "update_webhook_endpoint", patch, path = paths::WEBHOOK_ENDPOINT, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    request_body = WebhookEndpointUpdate,
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Changes the fields given: the URL (checked as at creation), the event types, the description, enabled. Enabling an endpoint the server disabled clears its reason. Deliveries not yet made go to the new URL.",
    responses((status = 200, description = "Changed", body = Envelope<WebhookEndpoint>),
        (status = 400, description = "The URL is refused (`url`), an unknown event type (`eventTypes`)", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn update(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
    Json(change): Json<serde_json::Map<String, serde_json::Value>>,
) -> Result<Json<Envelope<WebhookEndpoint>>, Error> {
    let change: WebhookEndpointUpdate = object(change, "a change of an endpoint")?;
    found(&state, &id).await?;
    let url = match &change.url {
        Some(u) => Some(checked_url(&state, u).await?),
        None => None,
    };
    let event_types = change.event_types.map(|t| event_types(Some(t))).transpose()?;
    let description = change.description.map(|d| description(Some(d))).transpose()?;
    let c = Change { url, event_types, description, enabled: change.enabled };
    let row =
        state.webhooks().update(&id, &c).await?.ok_or_else(|| Error::not_found(format!("No webhook endpoint {id}")))?;
    Ok(Json(Envelope::ok(row.answer())))
}

#[utoipa::path(operation_id = "delete_webhook_endpoint", delete, path = paths::WEBHOOK_ENDPOINT, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Removes the endpoint with its deliveries and their log: nothing more is sent to it.",
    responses((status = 204, description = "Removed"),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn delete(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, Error> {
    if !state.webhooks().delete(&id).await? {
        return Err(Error::not_found(format!("No webhook endpoint {id}")));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(operation_id = "rotate_webhook_secret", post, path = paths::WEBHOOK_ENDPOINT_SECRET, tag = "webhooks",
    params(("id" = String, Path, description = "The endpoint's id")),
    // Optional: no body (or `null`) is the default overlap.
    request_body = Option<RotateWebhookSecret>,
    security(("bearer" = ["webhooks:write"])),
    extensions(("x-extension" = json!(true))),
    description = "Replaces the secret with a new one, answered this once (never again). The old secret keeps signing beside it for `overlapHours` (default 24, at most 168; 0: stops at once): during the overlap each POST carries two `v1=` signatures, so the receiver can switch secrets without refusing one.",
    responses((status = 200, description = "The endpoint and its new secret (shown once)", body = Envelope<WebhookEndpointWithSecret>),
        (status = 400, description = "`overlapHours` over 168", body = ErrorEnvelopeDoc),
        (status = 404, description = "No such endpoint", body = ErrorEnvelopeDoc)))]
pub(super) async fn rotate_secret(
    State(state): State<WebhooksState>,
    _caller: Caller,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Envelope<WebhookEndpointWithSecret>>, Error> {
    // The body is optional (none, or JSON `null`: the default overlap).
    let asked: RotateWebhookSecret = match body.iter().all(u8::is_ascii_whitespace) {
        true => RotateWebhookSecret::default(),
        false => match serde_json::from_slice::<Option<serde_json::Map<String, serde_json::Value>>>(&body)
            .map_err(|e| Error::bad_request(format!("The body is not a rotation: {e}")))?
        {
            None => RotateWebhookSecret::default(),
            Some(map) => object(map, "a rotation")?,
        },
    };
    let hours = asked.overlap_hours.unwrap_or(DEFAULT_OVERLAP_HOURS);
    if hours > MAX_OVERLAP_HOURS {
        return Err(Error::field("overlapHours", format!("at most {MAX_OVERLAP_HOURS} hours, got {hours}")));
    }
    let secret = new_secret();
    let overlap = Duration::from_secs(u64::from(hours) * 3600);
    let row = (state.webhooks().rotate(&id, &secret, overlap).await?)
        .ok_or_else(|| Error::not_found(format!("No webhook endpoint {id}")))?;
    Ok(Json(Envelope::ok(WebhookEndpointWithSecret { endpoint: row.answer(), secret })))
}

/// A body read as a JSON object first: serde reads a struct from an array too (`[null, null]`
/// is a change of two optional fields to it), which the document does not allow.
pub(super) fn object<T: serde::de::DeserializeOwned>(
    body: serde_json::Map<String, serde_json::Value>,
    what: &str,
) -> Result<T, Error> {
    serde_json::from_value(serde_json::Value::Object(body))
        .map_err(|e| Error::bad_request(format!("The body is not {what}: {e}")))
}
