//! Templates and their versions, both backends (tables `email_templates`,
//! `email_template_versions` of `0007_email.sql`). A new version is one transaction: the
//! version row and the template's `latest_version` move together.

use moneydesk_model::email::{NewTemplateVersion, TemplateDetail, TemplateSummary, TemplateVersion};

use super::{variables, Compiled};
use crate::storage::time::millis as time_text;
use crate::storage::{trail, Database};

#[derive(Clone, Debug)]
pub struct TemplateStore {
    pub(crate) db: Database,
}

#[derive(sqlx::FromRow)]
struct TemplateRow {
    id: String,
    name: String,
    latest_version: i64,
    created_at: String,
    updated_at: String,
}

#[derive(sqlx::FromRow)]
struct VersionRow {
    version: i64,
    subject: String,
    text_body: Option<String>,
    html_body: Option<String>,
    created_at: String,
    created_by: String,
}

impl VersionRow {
    fn record(self) -> TemplateVersion {
        let parts: Vec<&str> = [Some(self.subject.as_str()), self.text_body.as_deref(), self.html_body.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        TemplateVersion {
            version: self.version as u32,
            variables: variables(&parts),
            subject: self.subject,
            text: self.text_body,
            html: self.html_body,
            created_at: self.created_at,
            created_by: self.created_by,
        }
    }
}

impl TemplateStore {
    pub fn new(db: Database) -> TemplateStore {
        TemplateStore { db }
    }

    /// Creates a template with its version 1. A name already used (whatever its case) breaks
    /// the `name_key` constraint: a 409 by the crate's one mapping.
    pub async fn create(
        &self,
        id: &str,
        name: &str,
        parts: &NewTemplateVersion,
        by: &str,
    ) -> sqlx::Result<TemplateDetail> {
        let now = time_text(chrono::Utc::now());
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql("INSERT INTO email_templates (id, name, name_key, latest_version, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)")
            .arg(id)
            .arg(name)
            .arg(name.to_lowercase())
            .arg(now.clone())
            .arg(now.clone());
        tx.exec().execute(&q).await?;
        tx.exec().execute(&self.insert_version(id, 1, parts, by, &now)).await?;
        trail::target("email_template", id);
        trail::change("name", None::<&str>, Some(name));
        trail::change("version", None::<i64>, Some(1));
        tx.commit().await?;
        Ok(self.detail(id).await?.expect("the template just created"))
    }

    /// Saves a new version (the next number); `None` when there is no such template.
    pub async fn add_version(
        &self,
        id: &str,
        parts: &NewTemplateVersion,
        by: &str,
    ) -> sqlx::Result<Option<TemplateDetail>> {
        let now = time_text(chrono::Utc::now());
        let mut tx = self.db.begin().await?;
        // The UPDATE first: it takes the row's write lock, so two concurrent saves number
        // their versions one after the other.
        let q = self
            .db
            .sql("UPDATE email_templates SET latest_version = latest_version + 1, updated_at = ? WHERE id = ? RETURNING latest_version")
            .arg(now.clone())
            .arg(id);
        let Some(version) = tx.exec().ints(&q).await?.into_iter().next() else { return Ok(None) };
        tx.exec().execute(&self.insert_version(id, version, parts, by, &now)).await?;
        trail::target("email_template", id);
        trail::change("version", Some(version - 1), Some(version));
        tx.commit().await?;
        self.detail(id).await
    }

    fn insert_version(
        &self,
        id: &str,
        version: i64,
        parts: &NewTemplateVersion,
        by: &str,
        now: &str,
    ) -> crate::storage::Sql {
        self.db
            .sql("INSERT INTO email_template_versions (template_id, version, subject, text_body, html_body, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)")
            .arg(id)
            .arg(version)
            .arg(parts.subject.as_str())
            .arg(parts.text.clone())
            .arg(parts.html.clone())
            .arg(now)
            .arg(by)
    }

    /// Every template, by name.
    pub async fn list(&self) -> sqlx::Result<Vec<TemplateSummary>> {
        let q = self.db.sql(
            "SELECT t.id, t.name, t.latest_version, t.created_at, t.updated_at, v.subject FROM email_templates t \
             JOIN email_template_versions v ON v.template_id = t.id AND v.version = t.latest_version ORDER BY t.name_key",
        );
        #[derive(sqlx::FromRow)]
        struct Row {
            id: String,
            name: String,
            latest_version: i64,
            created_at: String,
            updated_at: String,
            subject: String,
        }
        let rows: Vec<Row> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows
            .into_iter()
            .map(|r| TemplateSummary {
                id: r.id,
                name: r.name,
                version: r.latest_version as u32,
                subject: r.subject,
                created_at: r.created_at,
                updated_at: r.updated_at,
            })
            .collect())
    }

    /// A template with every version, newest first.
    pub async fn detail(&self, id: &str) -> sqlx::Result<Option<TemplateDetail>> {
        // One snapshot: a version saved between the two reads would be listed but not latest.
        let mut tx = self.db.begin_snapshot().await?;
        let q = self
            .db
            .sql("SELECT id, name, latest_version, created_at, updated_at FROM email_templates WHERE id = ?")
            .arg(id);
        let Some(t): Option<TemplateRow> = tx.exec().row(&q).await? else { return Ok(None) };
        let q = self
            .db
            .sql("SELECT version, subject, text_body, html_body, created_at, created_by FROM email_template_versions WHERE template_id = ? ORDER BY version DESC")
            .arg(id);
        let versions: Vec<TemplateVersion> =
            tx.exec().rows::<VersionRow>(&q).await?.into_iter().map(VersionRow::record).collect();
        tx.commit_unrecorded().await?;
        let Some(latest) = versions.iter().find(|v| v.version as i64 == t.latest_version).cloned() else {
            return Ok(None);
        };
        let _ = t.updated_at;
        Ok(Some(TemplateDetail { id: t.id, name: t.name, created_at: t.created_at, latest, versions }))
    }

    /// One version (`None`: the latest) of `id`, compiled; `None` if there is no such
    /// template or version.
    pub async fn compiled(&self, id: &str, version: Option<u32>) -> sqlx::Result<Option<Compiled>> {
        let mut q = self.db.sql(
            "SELECT v.version, v.subject, v.text_body, v.html_body, v.created_at, v.created_by FROM email_template_versions v \
             JOIN email_templates t ON t.id = v.template_id WHERE v.template_id = ",
        );
        q.bind(id);
        match version {
            Some(v) => q.push(" AND v.version = ").bind(v as i64),
            None => q.push(" AND v.version = t.latest_version"),
        };
        let Some(row): Option<VersionRow> = self.db.acquire().await?.exec().row(&q).await? else { return Ok(None) };
        let parts = NewTemplateVersion { subject: row.subject, text: row.text_body, html: row.html_body };
        // Stored versions compiled when they were saved; a failure now would be a bug.
        Ok(Compiled::new(id, row.version as u32, &parts).ok())
    }

    /// The latest version of `id`, compiled.
    pub async fn compiled_latest(&self, id: &str) -> sqlx::Result<Option<Compiled>> {
        self.compiled(id, None).await
    }
}
