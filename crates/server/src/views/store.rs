//! The `saved_views` table (`0023_saved_views.sql`): a user's views, one per table and name.
//! Each write is one recorded transaction (the audit trail's), naming the view.

use moneydesk_model::views::{SavedView, TableId, ViewName, ViewQuery, MAX_VIEWS_PER_TABLE};
use sqlx::FromRow;

use crate::storage::time::now_text;
use crate::storage::{trail, Database, Dialect};

const COLUMNS: &str = "id, table_id, name, query, created_at, updated_at";

#[derive(FromRow)]
struct Row {
    id: i64,
    table_id: String,
    name: String,
    query: String,
    created_at: String,
    updated_at: String,
}

impl Row {
    fn answer(self) -> SavedView {
        SavedView {
            id: self.id,
            table: self.table_id,
            name: self.name,
            query: self.query,
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
    }
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    Created(SavedView),
    Replaced(SavedView),
    /// A new name past [`MAX_VIEWS_PER_TABLE`]: nothing saved.
    TooMany,
}

/// The list's order: by name, byte order on both backends (PostgreSQL would otherwise sort by
/// the database's locale, SQLite by bytes).
fn by_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => "ORDER BY table_id, name",
        Dialect::Postgres => "ORDER BY table_id COLLATE \"C\", name COLLATE \"C\"",
    }
}

/// One view: a user's, of a table, by name.
fn one() -> String {
    format!("SELECT {COLUMNS} FROM saved_views WHERE user_id = ? AND table_id = ? AND name = ?")
}

/// The view a save replaces, held until the save commits: SQLite's write transaction
/// (`BEGIN IMMEDIATE`) already holds the database; PostgreSQL locks the row.
fn replaced(dialect: Dialect) -> String {
    match dialect {
        Dialect::Sqlite => one(),
        Dialect::Postgres => format!("{} FOR UPDATE", one()),
    }
}

#[derive(Clone, Debug)]
pub struct ViewStore {
    db: Database,
}

impl ViewStore {
    pub fn new(db: Database) -> ViewStore {
        ViewStore { db }
    }

    /// `user`'s views, of `table` when given, by table and name.
    pub async fn list(&self, user: &str, table: Option<&TableId>) -> sqlx::Result<Vec<SavedView>> {
        let mut q = self.db.sql(&format!("SELECT {COLUMNS} FROM saved_views WHERE user_id = ?")).arg(user);
        if let Some(t) = table {
            q.push(" AND table_id = ").bind(t.as_str());
        }
        q.push(" ").push(by_name(self.db.dialect()));
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(Row::answer).collect())
    }

    /// `user`'s view `name` of `table`; `None`: the user has none (whoever else may).
    pub async fn get(&self, user: &str, table: &TableId, name: &ViewName) -> sqlx::Result<Option<SavedView>> {
        let q = self.db.sql(&one()).arg(user).arg(table.as_str()).arg(name.as_str());
        Ok(self.db.acquire().await?.exec().row::<Row>(&q).await?.map(Row::answer))
    }

    /// Saves `user`'s view `name` of `table` with `query`: a new one, or the one of that name
    /// replaced (its id and `createdAt` kept).
    pub async fn save(&self, user: &str, table: &TableId, name: &ViewName, query: &ViewQuery) -> sqlx::Result<Saved> {
        let now = now_text();
        let mut tx = self.db.begin().await?;
        let q = self.db.sql(&replaced(self.db.dialect())).arg(user).arg(table.as_str()).arg(name.as_str());
        let before = tx.exec().row::<Row>(&q).await?;
        if before.is_none() {
            let count = self
                .db
                .sql("SELECT COUNT(*) FROM saved_views WHERE user_id = ? AND table_id = ?")
                .arg(user)
                .arg(table.as_str());
            if tx.exec().int(&count).await? >= MAX_VIEWS_PER_TABLE as i64 {
                return Ok(Saved::TooMany);
            }
        }
        // An upsert, so that two first saves of one name at once both land (the second replaces).
        let q = self
            .db
            .sql(&format!(
                "INSERT INTO saved_views (user_id, table_id, name, query, created_at, updated_at) \
                 VALUES (?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (user_id, table_id, name) DO UPDATE SET query = excluded.query, \
                 updated_at = excluded.updated_at RETURNING {COLUMNS}"
            ))
            .arg(user)
            .arg(table.as_str())
            .arg(name.as_str())
            .arg(query.as_str())
            .arg(now.as_str())
            .arg(now.as_str());
        let row: Row = tx.exec().row(&q).await?.ok_or(sqlx::Error::RowNotFound)?;
        trail::target("saved_view", row.id);
        if before.is_none() {
            trail::change("table", None::<&str>, Some(table.as_str()));
            trail::change("name", None::<&str>, Some(name.as_str()));
        }
        trail::change("query", before.as_ref().map(|b| b.query.as_str()), Some(query.as_str()));
        tx.commit().await?;
        let view = row.answer();
        Ok(if before.is_some() { Saved::Replaced(view) } else { Saved::Created(view) })
    }

    /// Deletes `user`'s view `name` of `table`; `None`: the user has none.
    pub async fn delete(&self, user: &str, table: &TableId, name: &ViewName) -> sqlx::Result<Option<SavedView>> {
        let q = self
            .db
            .sql(&format!(
                "DELETE FROM saved_views WHERE user_id = ? AND table_id = ? AND name = ? RETURNING {COLUMNS}"
            ))
            .arg(user)
            .arg(table.as_str())
            .arg(name.as_str());
        let mut tx = self.db.begin().await?;
        let Some(row) = tx.exec().row::<Row>(&q).await? else { return Ok(None) };
        trail::target("saved_view", row.id);
        trail::change("name", Some(row.name.as_str()), None::<&str>);
        trail::change("query", Some(row.query.as_str()), None::<&str>);
        tx.commit().await?;
        Ok(Some(row.answer()))
    }
}
