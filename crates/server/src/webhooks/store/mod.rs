//! Webhook endpoints, deliveries and attempts, both backends (`0020_webhooks.sql`).
//!
//! - here: the endpoints (each change in one recorded transaction: the audit trail's);
//! - `deliveries.rs`: the dispatch from `event_outbox`, replays;
//! - `log.rs`: the delivery log (counted ranges per endpoint) and the 7-day figures;
//! - `queue.rs`: the deliveries as the worker's queue (claims, outcomes, order per object,
//!   auto-disable).

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use moneydesk_model::events::EventType;
use moneydesk_model::webhooks::WebhookEndpoint;
use tokio::sync::Notify;

use crate::storage::time::millis;
use crate::storage::{events, trail, Database};

mod deliveries;
mod log;
mod queue;

pub use deliveries::{Dispatched, ReplayOf};
pub use log::AttemptRow;
pub use queue::{Claimed, Outcome, LANES};

#[derive(Clone, Debug)]
pub struct WebhookStore {
    pub(crate) db: Database,
    /// Rung when events may wait in the outbox (a test event, a replay): the dispatcher and
    /// the worker look at once rather than at their next poll.
    pub(crate) wake: Arc<Notify>,
    /// Rung when deliveries were queued: the worker claims at once.
    pub(crate) deliver: Arc<Notify>,
    /// The email an endpoint disabled by the server sends its owner (set by the worker that
    /// records outcomes: `with_alerts`); `None`: only logged.
    pub(crate) alerts: Option<Arc<crate::webhooks::alert::Alerts>>,
}

/// An endpoint as stored (its secrets included: never answered from here).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EndpointRow {
    pub id: String,
    pub url: String,
    pub description: String,
    pub event_types: String,
    pub enabled: i64,
    pub disabled_reason: Option<String>,
    pub disabled_at: Option<String>,
    pub secret: String,
    pub secret_rotated_at: String,
    pub previous_secret: Option<String>,
    pub previous_secret_until: Option<String>,
    pub created_by: String,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str = "id, url, description, event_types, enabled, disabled_reason, disabled_at, secret, \
    secret_rotated_at, previous_secret, previous_secret_until, created_by, created_at, updated_at";

impl EndpointRow {
    pub fn types(&self) -> Vec<String> {
        serde_json::from_str(&self.event_types).unwrap_or_default()
    }

    /// The answer: everything but the secrets (the current one's last four characters).
    pub fn answer(&self) -> WebhookEndpoint {
        let hint: String = self.secret.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect();
        let now = millis(Utc::now());
        WebhookEndpoint {
            id: self.id.clone(),
            url: self.url.clone(),
            description: self.description.clone(),
            event_types: self.types(),
            enabled: self.enabled != 0,
            disabled_reason: self.disabled_reason.clone(),
            disabled_at: self.disabled_at.clone(),
            secret_hint: hint,
            secret_rotated_at: self.secret_rotated_at.clone(),
            previous_secret_until: self.previous_secret_until.clone().filter(|u| *u > now),
            created_by: self.created_by.clone(),
            created_at: self.created_at.clone(),
            updated_at: self.updated_at.clone(),
        }
    }
}

/// A change of an endpoint, checked.
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub url: Option<String>,
    pub event_types: Option<Vec<String>>,
    pub description: Option<String>,
    pub enabled: Option<bool>,
}

impl WebhookStore {
    pub fn new(db: Database) -> WebhookStore {
        WebhookStore { db, wake: Arc::default(), deliver: Arc::default(), alerts: None }
    }

    /// This store, emailing the owners of the endpoints it disables.
    pub fn with_alerts(self, alerts: crate::webhooks::alert::Alerts) -> WebhookStore {
        WebhookStore { alerts: Some(Arc::new(alerts)), ..self }
    }

    pub fn wake(&self) {
        self.wake.notify_one();
    }

    pub async fn insert(&self, row: &EndpointRow) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        trail::target("webhook_endpoint", &row.id);
        let q = self
            .db
            .sql(&format!(
                "INSERT INTO webhook_endpoints ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ))
            .arg(row.id.as_str())
            .arg(row.url.as_str())
            .arg(row.description.as_str())
            .arg(row.event_types.as_str())
            .arg(row.enabled)
            .arg(row.disabled_reason.as_deref())
            .arg(row.disabled_at.as_deref())
            .arg(row.secret.as_str())
            .arg(row.secret_rotated_at.as_str())
            .arg(row.previous_secret.as_deref())
            .arg(row.previous_secret_until.as_deref())
            .arg(row.created_by.as_str())
            .arg(row.created_at.as_str())
            .arg(row.updated_at.as_str());
        tx.exec().execute(&q).await?;
        tx.commit().await
    }

    pub async fn endpoint(&self, id: &str) -> sqlx::Result<Option<EndpointRow>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = ?")).arg(id);
        self.db.acquire().await?.exec().row(&q).await
    }

    pub async fn endpoints(&self) -> sqlx::Result<Vec<EndpointRow>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM webhook_endpoints ORDER BY created_at, id"));
        self.db.acquire().await?.exec().rows(&q).await
    }

    /// Applies a change; `None`: no such endpoint. Enabling clears the server's reason and the
    /// failure streak.
    pub async fn update(&self, id: &str, change: &Change) -> sqlx::Result<Option<EndpointRow>> {
        let mut tx = self.db.begin().await?;
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM webhook_endpoints WHERE id = ?")).arg(id);
        let Some(before): Option<EndpointRow> = tx.exec().row(&q).await? else { return Ok(None) };
        trail::target("webhook_endpoint", id);
        let now = millis(Utc::now());
        let mut q = self.db.sql("UPDATE webhook_endpoints SET updated_at = ");
        q.bind(now.as_str());
        if let Some(url) = &change.url {
            trail::change("url", Some(&before.url), Some(url));
            q.push(", url = ").bind(url.as_str());
        }
        if let Some(types) = &change.event_types {
            let text = serde_json::to_string(types).expect("strings serialize");
            trail::change("eventTypes", Some(&before.event_types), Some(&text));
            q.push(", event_types = ").bind(text);
        }
        if let Some(d) = &change.description {
            q.push(", description = ").bind(d.as_str());
        }
        if let Some(enabled) = change.enabled {
            trail::change("enabled", Some(before.enabled != 0), Some(enabled));
            q.push(", enabled = ").bind(i64::from(enabled));
            if enabled {
                q.push(", disabled_reason = NULL, disabled_at = NULL, failing_since = NULL");
            } else if before.enabled != 0 {
                q.push(", disabled_at = ").bind(now.as_str());
            }
        }
        q.push(" WHERE id = ").bind(id);
        tx.exec().execute(&q).await?;
        tx.commit().await?;
        self.endpoint(id).await
    }

    /// Removes an endpoint with its deliveries and their attempts. Whether there was one.
    pub async fn delete(&self, id: &str) -> sqlx::Result<bool> {
        let mut tx = self.db.begin().await?;
        trail::target("webhook_endpoint", id);
        let q = self.db.sql("DELETE FROM webhook_endpoints WHERE id = ?").arg(id);
        let n = tx.exec().execute(&q).await?;
        if n == 0 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Replaces the secret; the old one keeps signing for `overlap` (none: stops at once).
    pub async fn rotate(&self, id: &str, secret: &str, overlap: Duration) -> sqlx::Result<Option<EndpointRow>> {
        let now = Utc::now();
        let until = (!overlap.is_zero())
            .then(|| millis(now + chrono::Duration::from_std(overlap).unwrap_or(chrono::Duration::days(7))));
        let mut tx = self.db.begin().await?;
        trail::target("webhook_endpoint", id);
        trail::change("secret", Some("(hidden)"), Some("(rotated)"));
        let q = self
            .db
            .sql(
                "UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?, \
                 secret_rotated_at = ?, updated_at = ? WHERE id = ?",
            )
            .arg(until)
            .arg(secret)
            .arg(millis(now))
            .arg(millis(now))
            .arg(id);
        if tx.exec().execute(&q).await? == 0 {
            return Ok(None);
        }
        tx.commit().await?;
        self.endpoint(id).await
    }

    /// Writes a `webhook.test` event about the endpoint (sent to it alone); its id.
    pub async fn test_event(&self, endpoint: &WebhookEndpoint) -> sqlx::Result<String> {
        let mut tx = self.db.begin().await?;
        trail::target("webhook_endpoint", &endpoint.id);
        let id = events::append(&mut tx, EventType::WebhookTest, "webhook_endpoint", &endpoint.id, endpoint).await?;
        tx.commit().await?;
        self.wake();
        Ok(id)
    }
}
