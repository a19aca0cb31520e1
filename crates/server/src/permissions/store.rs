//! Company user permissions. A few hundred rows per company: plain indexed ORDER BY with
//! LIMIT/OFFSET, `id` as the tiebreaker.

use moneydesk_model::collections::{LocalDateTime, SortDir};
use moneydesk_model::permissions::{Permission, PermissionQuery, PermissionSortField};
use moneydesk_model::{Page, Scope, Sort};
use sqlx::{QueryBuilder, Sqlite, Transaction};

use crate::storage::Db;

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

fn order_column(f: PermissionSortField) -> &'static str {
    match f {
        PermissionSortField::Id => "id",
        PermissionSortField::UserName => "user_name COLLATE NOCASE",
        PermissionSortField::UserId => "user_id",
        PermissionSortField::CompanyName => "company_name COLLATE NOCASE",
        PermissionSortField::Scope => "scope",
        PermissionSortField::GrantedAt => "granted_ms",
        PermissionSortField::GrantedBy => "granted_by COLLATE NOCASE",
    }
}

fn push_filters(qb: &mut QueryBuilder<'_, Sqlite>, q: &PermissionQuery) {
    let f = &q.filters;
    if let Some(user) = &f.user {
        let needle = user.to_lowercase();
        qb.push(" AND (user_id = ").push_bind(user.clone());
        qb.push(" OR instr(lower(user_name), ").push_bind(needle.clone()).push(") > 0");
        qb.push(" OR instr(lower(coalesce(user_email, '')), ").push_bind(needle).push(") > 0)");
    }
    if let Some(scope) = f.scope {
        qb.push(" AND scope = ").push_bind(scope.as_str());
    }
    if let Some(company) = &f.company_id {
        qb.push(" AND company_id = ").push_bind(company.clone());
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

impl Db {
    pub async fn list_permissions(&self, q: &PermissionQuery) -> sqlx::Result<Page<Permission>> {
        let mut tx = self.pool.begin().await?;
        let mut count = QueryBuilder::new("SELECT count(*) FROM permissions WHERE 1");
        push_filters(&mut count, q);
        let total: i64 = count.build_query_scalar().fetch_one(&mut *tx).await?;

        let dir = match q.sort.map(|s| s.dir) {
            Some(SortDir::Desc) => "DESC",
            _ => "ASC",
        };
        let column = order_column(q.sort.map(|s| s.field).unwrap_or(PermissionSortField::Id));
        let mut qb = QueryBuilder::new(
            "SELECT id, user_id, user_name, user_email, company_id, company_name, scope, granted_by, granted_ms FROM permissions WHERE 1",
        );
        push_filters(&mut qb, q);
        qb.push(format_args!(" ORDER BY {column} {dir}, id {dir} LIMIT "));
        qb.push_bind(q.page.size as i64).push(" OFFSET ").push_bind(q.page.offset().min(i64::MAX as u64) as i64);
        let rows: Vec<Row> = qb.build_query_as().fetch_all(&mut *tx).await?;
        tx.commit().await?;
        let sort = if q.sort.is_some() { Sort::SORTED } else { Sort::UNSORTED };
        Ok(Page::build(q.page, total as u64, rows.into_iter().map(Row::into_permission).collect(), sort))
    }

    pub async fn permissions_writer(&self) -> sqlx::Result<PermissionsWriter> {
        Ok(PermissionsWriter { tx: self.pool.begin().await? })
    }
}

/// An open write transaction on permissions; dropped without `commit`, nothing is kept.
pub struct PermissionsWriter {
    tx: Transaction<'static, Sqlite>,
}

impl PermissionsWriter {
    /// Whether this user of this company already holds this scope.
    pub async fn exists(&mut self, p: &NewPermission) -> sqlx::Result<bool> {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM permissions WHERE user_id = ? AND company_id = ? AND scope = ?")
                .bind(&p.user_id)
                .bind(&p.company_id)
                .bind(p.scope.as_str())
                .fetch_one(&mut *self.tx)
                .await?;
        Ok(n > 0)
    }

    pub async fn insert(&mut self, rows: &[NewPermission]) -> sqlx::Result<()> {
        for chunk in rows.chunks(1000) {
            let mut qb = QueryBuilder::new(
                "INSERT INTO permissions (user_id, user_name, user_email, company_id, company_name, scope, granted_by, granted_ms) ",
            );
            qb.push_values(chunk, |mut b, p| {
                b.push_bind(p.user_id.clone())
                    .push_bind(p.user_name.clone())
                    .push_bind(p.user_email.clone())
                    .push_bind(p.company_id.clone())
                    .push_bind(p.company_name.clone())
                    .push_bind(p.scope.as_str())
                    .push_bind(p.granted_by.clone())
                    .push_bind(p.granted_at.millis());
            });
            qb.build().execute(&mut *self.tx).await?;
        }
        Ok(())
    }

    pub async fn commit(self) -> sqlx::Result<()> {
        self.tx.commit().await
    }
}
