//! Company user permissions. A few hundred rows per company: plain indexed ORDER BY with
//! LIMIT/OFFSET, `id` as the tiebreaker. One SQL text for SQLite and PostgreSQL but for
//! case-insensitive order (SQLite's NOCASE, PostgreSQL's `lower`) and "contains".

use crate::storage::{Database, Dialect, Sql, Tx};
use moneydesk_model::collections::{LocalDateTime, SortDir};
use moneydesk_model::permissions::{Permission, PermissionQuery, PermissionSortField};
use moneydesk_model::{Page, Scope, Sort};

/// A permission to be stored (the id is assigned on insert).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPermission {
    pub user_id: String,
    pub user_name: String,
    pub user_email: Option<String>,
    pub company_id: String,
    pub company_name: String,
    pub scope: Scope,
    pub granted_by: String,
    pub granted_at: LocalDateTime,
}

fn order_column(f: PermissionSortField, d: Dialect) -> &'static str {
    match (f, d) {
        (PermissionSortField::Id, _) => "id",
        (PermissionSortField::UserName, Dialect::Sqlite) => "user_name COLLATE NOCASE",
        (PermissionSortField::UserName, Dialect::Postgres) => "lower(user_name)",
        (PermissionSortField::UserId, _) => "user_id",
        (PermissionSortField::CompanyName, Dialect::Sqlite) => "company_name COLLATE NOCASE",
        (PermissionSortField::CompanyName, Dialect::Postgres) => "lower(company_name)",
        (PermissionSortField::Scope, _) => "scope",
        (PermissionSortField::GrantedAt, _) => "granted_ms",
        (PermissionSortField::GrantedBy, Dialect::Sqlite) => "granted_by COLLATE NOCASE",
        (PermissionSortField::GrantedBy, Dialect::Postgres) => "lower(granted_by)",
    }
}

/// The position of a substring (0 when absent): SQLite's `instr`, PostgreSQL's `strpos`.
fn position(d: Dialect) -> &'static str {
    match d {
        Dialect::Sqlite => "instr",
        Dialect::Postgres => "strpos",
    }
}

fn push_filters(qb: &mut Sql, q: &PermissionQuery) {
    let f = &q.filters;
    if let Some(user) = &f.user {
        let needle = user.to_lowercase();
        let pos = position(qb.dialect());
        qb.push(" AND (user_id = ").bind(user.as_str());
        qb.push(format_args!(" OR {pos}(lower(user_name), ")).bind(needle.as_str()).push(") > 0");
        qb.push(format_args!(" OR {pos}(lower(coalesce(user_email, '')), ")).bind(needle).push(") > 0)");
    }
    if let Some(scope) = f.scope {
        qb.push(" AND scope = ").bind(scope.as_str());
    }
    if let Some(company) = &f.company_id {
        qb.push(" AND company_id = ").bind(company.as_str());
    }
}

#[derive(sqlx::FromRow)]
struct Row {
    id: i64,
    user_id: String,
    user_name: String,
    user_email: Option<String>,
    company_id: String,
    company_name: String,
    scope: String,
    granted_by: String,
    granted_ms: i64,
}

impl Row {
    fn into_permission(self) -> Permission {
        Permission {
            id: self.id,
            user_id: self.user_id,
            user_name: self.user_name,
            user_email: self.user_email,
            company_id: self.company_id,
            company_name: self.company_name,
            // Written by us from a Scope; a row with another text was edited out of band.
            scope: self.scope.parse().unwrap_or(Scope::PermissionsRead),
            granted_by: self.granted_by,
            granted_at: LocalDateTime::from_millis(self.granted_ms),
        }
    }
}

/// The permissions group's store.
#[derive(Clone, Debug)]
pub struct PermissionStore {
    db: Database,
}

impl PermissionStore {
    pub fn new(db: Database) -> PermissionStore {
        PermissionStore { db }
    }

    pub async fn list(&self, q: &PermissionQuery) -> sqlx::Result<Page<Permission>> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut count = self.db.sql("SELECT count(*) FROM permissions WHERE TRUE");
        push_filters(&mut count, q);
        let total = tx.exec().int(&count).await?;

        let dir = match q.sort.map(|s| s.dir) {
            Some(SortDir::Desc) => "DESC",
            _ => "ASC",
        };
        let column = order_column(q.sort.map(|s| s.field).unwrap_or(PermissionSortField::Id), self.db.dialect());
        let mut qb = self.db.sql(
            "SELECT id, user_id, user_name, user_email, company_id, company_name, scope, granted_by, granted_ms FROM permissions WHERE TRUE",
        );
        push_filters(&mut qb, q);
        qb.push(format_args!(" ORDER BY {column} {dir}, id {dir} LIMIT "));
        qb.bind(q.page.size as i64).push(" OFFSET ").bind(q.page.offset().min(i64::MAX as u64) as i64);
        let rows: Vec<Row> = tx.exec().rows(&qb).await?;
        // A read: never the change a write is recorded with.
        tx.commit_unrecorded().await?;
        let sort = if q.sort.is_some() { Sort::SORTED } else { Sort::UNSORTED };
        Ok(Page::build(q.page, total as u64, rows.into_iter().map(Row::into_permission).collect(), sort))
    }

    pub async fn writer(&self) -> sqlx::Result<PermissionsWriter> {
        Ok(PermissionsWriter { tx: self.db.begin().await? })
    }
}

/// An open write transaction on permissions; dropped without `commit`, nothing is kept.
pub struct PermissionsWriter {
    tx: Tx,
}

impl PermissionsWriter {
    /// Whether this user of this company already holds this scope.
    pub async fn exists(&mut self, p: &NewPermission) -> sqlx::Result<bool> {
        let q = Sql::new(
            self.tx.dialect(),
            "SELECT count(*) FROM permissions WHERE user_id = ? AND company_id = ? AND scope = ?",
        )
        .arg(p.user_id.as_str())
        .arg(p.company_id.as_str())
        .arg(p.scope.as_str());
        Ok(self.tx.exec().int(&q).await? > 0)
    }

    pub async fn insert(&mut self, rows: &[NewPermission]) -> sqlx::Result<()> {
        for chunk in rows.chunks(1000) {
            let mut qb = Sql::new(
                self.tx.dialect(),
                "INSERT INTO permissions (user_id, user_name, user_email, company_id, company_name, scope, granted_by, granted_ms) VALUES ",
            );
            for (i, p) in chunk.iter().enumerate() {
                qb.push(if i == 0 { "" } else { ", " }).bind_row([
                    p.user_id.as_str().into(),
                    p.user_name.as_str().into(),
                    p.user_email.as_deref().into(),
                    p.company_id.as_str().into(),
                    p.company_name.as_str().into(),
                    p.scope.as_str().into(),
                    p.granted_by.as_str().into(),
                    p.granted_at.millis().into(),
                ]);
            }
            self.tx.exec().execute(&qb).await?;
        }
        Ok(())
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        self.tx.commit().await
    }
}
