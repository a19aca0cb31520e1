//! Webhook endpoints (extension, `webhooks:write`): where events are pushed, signed. Each POST
//! carries the event ([`crate::events::Event`]) as JSON and three headers: [`ID_HEADER`] (the
//! event id, the same on every attempt and replay, for the receiver to drop repeats),
//! [`TIMESTAMP_HEADER`] (Unix seconds) and [`SIGNATURE_HEADER`]
//! (`t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, with a second `v1=`
//! made with the previous secret while a rotation's overlap lasts).

use serde::{Deserialize, Serialize};

/// The event id: the same on every attempt and replay of one event.
pub const ID_HEADER: &str = "Moneydesk-Webhook-Id";
/// Unix seconds when the POST was signed: a receiver refuses one too old (a replay).
pub const TIMESTAMP_HEADER: &str = "Moneydesk-Webhook-Timestamp";
/// `t=<timestamp>,v1=<hex signature>[,v1=<hex signature with the previous secret>]`.
pub const SIGNATURE_HEADER: &str = "Moneydesk-Webhook-Signature";
/// The event types an endpoint takes when it names none: every type (but `webhook.test`, sent
/// only to the endpoint it is asked for).
pub const ALL_TYPES: &str = "*";

/// An endpoint as the API answers it. Its secret is answered only by the create and the
/// rotation, once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookEndpoint {
    /// `we_` and 24 hex digits.
    pub id: String,
    pub url: String,
    pub description: String,
    /// Event types (`deposit.settled`, …) or `*` for all.
    pub event_types: Vec<String>,
    pub enabled: bool,
    /// Why the endpoint was disabled, when the server disabled it (days of failures only).
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<String>,
    /// The last four characters of the current secret, to tell secrets apart.
    pub secret_hint: String,
    pub secret_rotated_at: String,
    /// Until when the previous secret still signs too (a rotation's overlap); `None`: it no
    /// longer does.
    pub previous_secret_until: Option<String>,
    /// Who created it (the token's user).
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
}

/// A new endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewWebhookEndpoint {
    /// https (http and private addresses only when the server's allow-list names the host).
    pub url: String,
    /// Event types or `*` (the default). When given, at least one.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_items = 1))]
    pub event_types: Option<Vec<String>>,
    #[serde(default)]
    pub description: Option<String>,
    /// Default `true`.
    #[serde(default)]
    pub enabled: Option<bool>,
}

/// A change of an endpoint: each field given is replaced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookEndpointUpdate {
    #[serde(default)]
    pub url: Option<String>,
    /// When given, at least one (`*` for all).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_items = 1))]
    pub event_types: Option<Vec<String>>,
    #[serde(default)]
    pub description: Option<String>,
    /// `true` enables again an endpoint the server disabled (and clears the reason).
    #[serde(default)]
    pub enabled: Option<bool>,
}

/// An endpoint with its secret: the answer of the create and the rotation, the only time the
/// secret is shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookEndpointWithSecret {
    pub endpoint: WebhookEndpoint,
    /// `whsec_…`: the HMAC key is the whole text. Not shown again.
    pub secret: String,
}

/// A rotation of the secret.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RotateWebhookSecret {
    /// How long the old secret keeps signing beside the new one (hours, default 24, at most
    /// 168; 0 stops it at once).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(maximum = 168))]
    pub overlap_hours: Option<u32>,
}

/// A replay: one event (`eventId`) or those created in a time range (`from`, `to`, RFC 3339
/// or dates), of the types the endpoint takes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookReplay {
    #[serde(default)]
    pub event_id: Option<String>,
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
}

/// What a replay queued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookReplayed {
    /// Deliveries queued (one per event).
    pub queued: u64,
}

/// One attempt of one delivery: a row of the delivery log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookAttempt {
    pub delivery_id: String,
    pub event_id: String,
    pub event_type: String,
    /// 1 for the first attempt of the delivery.
    pub attempt: u32,
    /// `delivering` (under way, or its holder died: see `result`), `delivered`, `retrying`
    /// (failed, tried again later) or `failed` (given up).
    pub status: String,
    /// The receiver's HTTP status, when it answered.
    pub response_code: Option<u16>,
    pub latency_ms: Option<u64>,
    /// The first 4 KB of the receiver's answer.
    pub response: Option<String>,
    /// What happened, in words.
    pub result: Option<String>,
    /// When the attempt started (RFC 3339 UTC).
    pub at: String,
}

/// One day of an endpoint's deliveries (UTC days, the last 7, oldest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDayStats {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// Attempts answered 2xx.
    pub delivered: u64,
    /// Attempts that failed (retried or given up).
    pub failed: u64,
    /// Latency percentiles of the attempts that got an answer (ms); `None` without any.
    pub p50_ms: Option<u64>,
    pub p95_ms: Option<u64>,
}

/// An endpoint's last 7 days.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookStats {
    pub endpoint_id: String,
    pub days: Vec<WebhookDayStats>,
}
