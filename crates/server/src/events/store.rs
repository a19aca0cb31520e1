//! Reading events: a filtered page (newest first), one event.

use moneydesk_model::events::{Event, EventType};

use crate::storage::{counted, Database, Sql, Tx};

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

/// A page of events, newest first, and how many match. Filtered by types only (always: the
/// types the caller may read), the page is found through the counted ranges
/// (`storage::counted`), so page 10,000 costs what page 1 does; a time range or an object is
/// counted and skipped through its index.
pub async fn list(db: &Database, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<Event>)> {
    let mut tx = db.begin_snapshot().await?;
    let (total, rows) = if f.from.is_none() && f.to.is_none() && f.object_type.is_none() && f.object_id.is_none() {
        let mut parts: Vec<&str> = f.types.iter().map(|t| t.as_str()).collect();
        parts.sort_unstable();
        parts.dedup();
        let spot = counted::spot(&mut tx, "events", &parts, offset, limit, true).await?;
        let Some(w) = spot.window else { return Ok((spot.total, Vec::new())) };
        let mut q = db.sql(&format!("SELECT {COLUMNS} FROM events"));
        let table = counted::Table { name: "events", key: "seq", part: "type", alias: "" };
        counted::push_page(&mut tx, &mut q, table, Some(&parts), w, limit).await?;
        (spot.total, tx.exec().rows::<Row>(&q).await?)
    } else {
        scan(&mut tx, f, offset, limit).await?
    };
    tx.commit().await?;
    Ok((total, rows.into_iter().filter_map(event).collect()))
}

/// The same page by `COUNT(*)` and `OFFSET` (what the counted ranges must agree with).
pub async fn list_by_scanning(db: &Database, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<Event>)> {
    let mut tx = db.begin_snapshot().await?;
    let (total, rows) = scan(&mut tx, f, offset, limit).await?;
    tx.commit().await?;
    Ok((total, rows.into_iter().filter_map(event).collect()))
}

async fn scan(tx: &mut Tx, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<Row>)> {
    let mut q = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM events");
    f.push_where(&mut q);
    let total = tx.exec().int(&q).await?;
    let mut q = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM events"));
    f.push_where(&mut q);
    q.push(" ORDER BY seq DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
    Ok((total, tx.exec().rows(&q).await?))
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
