//! Reading events: a filtered page (newest first), one event.

use moneydesk_model::events::{Event, EventType};

use crate::storage::{Database, Sql};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Row {
    pub seq: i64,
    pub id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub created: String,
    pub api_version: String,
    pub object_type: String,
    pub object_id: String,
    pub data: String,
}

pub const COLUMNS: &str = "seq, id, type, created, api_version, object_type, object_id, data";

/// What a listing is narrowed to: the types (those the caller may read, at least one),
/// a time range (RFC 3339 texts), an object.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub types: Vec<EventType>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub object_type: Option<String>,
    pub object_id: Option<String>,
}

impl Filter {
    fn push_where(&self, q: &mut Sql) {
        q.push(" WHERE type IN (").bind_list(self.types.iter().map(|t| t.as_str())).push(")");
        if let Some(v) = &self.from {
            q.push(" AND created >= ").bind(v.as_str());
        }
        if let Some(v) = &self.to {
            q.push(" AND created < ").bind(v.as_str());
        }
        if let Some(v) = &self.object_type {
            q.push(" AND object_type = ").bind(v.as_str());
        }
        if let Some(v) = &self.object_id {
            q.push(" AND object_id = ").bind(v.as_str());
        }
    }
}

pub async fn list(db: &Database, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<Event>)> {
    let mut tx = db.begin_snapshot().await?;
    let mut q = db.sql("SELECT COUNT(*) FROM events");
    f.push_where(&mut q);
    let total = tx.exec().int(&q).await?;
    let mut q = db.sql(&format!("SELECT {COLUMNS} FROM events"));
    f.push_where(&mut q);
    q.push(" ORDER BY seq DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
    let rows: Vec<Row> = tx.exec().rows(&q).await?;
    Ok((total, rows.into_iter().filter_map(event).collect()))
}

pub async fn get(db: &Database, id: &str) -> sqlx::Result<Option<Event>> {
    let q = db.sql(&format!("SELECT {COLUMNS} FROM events WHERE id = ?")).arg(id);
    Ok(db.acquire().await?.exec().row::<Row>(&q).await?.and_then(event))
}

/// A stored row as the API answers it (a type this server no longer knows is left out).
pub fn event(r: Row) -> Option<Event> {
    Some(Event {
        id: r.id,
        kind: EventType::parse(&r.kind)?,
        created: r.created,
        api_version: r.api_version,
        object_type: r.object_type,
        object_id: r.object_id,
        data: serde_json::from_str(&r.data).unwrap_or(serde_json::Value::Null),
    })
}
