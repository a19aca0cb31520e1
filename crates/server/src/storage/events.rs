//! Events, written in the transaction of the change they tell of ([`append`], or
//! [`append_many`] / [`push`] for many at once: a send of a thousand personalizations, the email
//! worker's group of outcomes, each add one statement whatever the count). The webhook
//! dispatcher takes them from `event_outbox`, which a trigger on `events` fills in the same
//! statement, so an event is handed to the endpoints once whatever order concurrent
//! transactions commit in.

use chrono::Utc;
use moneydesk_model::events::{EventType, API_VERSION};
use rand::RngCore;
use serde::Serialize;

use super::sql::Tx;
use super::time::millis;
use super::Sql;

/// A new event id: `evt_` and 24 hex digits (96 random bits).
pub fn new_id() -> String {
    let mut bytes = [0u8; 12];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("evt_{}", hex::encode(bytes))
}

/// Appends an event of `kind` about the object (`object_type`, `object_id`, as the API
/// answers it: `data`) to `tx`; its id.
pub async fn append(
    tx: &mut Tx,
    kind: EventType,
    object_type: &'static str,
    object_id: impl ToString,
    data: &impl Serialize,
) -> sqlx::Result<String> {
    let ids = append_many(tx, &[NewEvent::new(kind, object_type, &object_id.to_string(), data)]).await?;
    Ok(ids.into_iter().next().unwrap_or_default())
}

/// One event to write: its type, the object's type and id, and the object as the API answers it.
pub struct NewEvent {
    pub kind: EventType,
    pub object_type: &'static str,
    pub object_id: String,
    pub data: String,
}

impl NewEvent {
    pub fn new(kind: EventType, object_type: &'static str, object_id: &str, data: &impl Serialize) -> NewEvent {
        // The API's own types: serializing them does not fail.
        let data = serde_json::to_string(data).unwrap_or_else(|_| "null".into());
        NewEvent { kind, object_type, object_id: object_id.to_string(), data }
    }
}

/// Appends the INSERT of `events` to `q` (one statement, for SQLite's multi-statement calls;
/// their `event_outbox` rows come with it, by trigger). Nothing when `events` is empty.
pub fn push(q: &mut Sql, events: &[NewEvent]) {
    if events.is_empty() {
        return;
    }
    insert_events(q, events);
}

/// Writes `events` (their `event_outbox` rows come with them) in `tx`; their ids, in order.
pub async fn append_many(tx: &mut Tx, events: &[NewEvent]) -> sqlx::Result<Vec<String>> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = Sql::new(tx.dialect(), "");
    let ids = insert_events(&mut q, events);
    tx.exec().execute(&q).await?;
    Ok(ids)
}

fn insert_events(q: &mut Sql, events: &[NewEvent]) -> Vec<String> {
    let created = millis(Utc::now());
    q.push("INSERT INTO events (id, type, created, api_version, object_type, object_id, data) VALUES ");
    let mut ids = Vec::with_capacity(events.len());
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            q.push(", ");
        }
        let id = new_id();
        q.bind_row([
            id.as_str().into(),
            e.kind.as_str().into(),
            created.as_str().into(),
            API_VERSION.into(),
            e.object_type.into(),
            e.object_id.as_str().into(),
            e.data.as_str().into(),
        ]);
        ids.push(id);
    }
    ids
}
