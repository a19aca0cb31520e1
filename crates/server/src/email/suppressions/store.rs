//! Suppression lists (table `email_suppressions` of `0026_email_suppressions.sql`), both
//! backends: read a domain's list, add entries (manual ones, an unsubscribe; bounces will add
//! theirs the same way, reason `bounce`), remove one, and find a send's suppressed recipients.
//! Each change is on record and an event, in its transaction.

use chrono::{DateTime, Utc};
use moneydesk_model::email::suppressions::{Suppression, SuppressionReason};
use moneydesk_model::events::EventType;
use moneydesk_model::{Page, PageRequest, Sort};

use crate::email::outbox::store::{time_text, EmailError, EmailStore};
use crate::storage::events::{self, NewEvent};
use crate::storage::{trail, Sql, Tx};

/// One entry to add: the address (lowercase), why, and the category ('' for every send).
#[derive(Debug, Clone)]
pub struct Entry {
    pub address: String,
    pub reason: SuppressionReason,
    pub category: String,
    /// A bounce's or complaint's words (the diagnostic, the feedback type).
    pub detail: Option<String>,
}

/// The list's filter: any of these reasons (none: all), addresses starting with `prefix`.
#[derive(Debug, Clone, Default)]
pub struct SuppressionFilter {
    pub reasons: Vec<SuppressionReason>,
    pub prefix: Option<String>,
}

/// A listed address the send must not reach: the entry's reason and category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub address: String,
    pub reason: SuppressionReason,
    pub category: Option<String>,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    domain: String,
    address: String,
    reason: String,
    category: String,
    source: String,
    created_by: Option<String>,
    created_at: String,
    detail: Option<String>,
}

const COLUMNS: &str = "id, domain, address, reason, category, source, created_by, created_at, detail";
/// Rows a statement (9 values each), far below either backend's placeholder limit; also the
/// addresses one lookup names.
const CHUNK: usize = 200;

impl Row {
    fn record(self) -> Suppression {
        Suppression {
            id: self.id,
            domain: self.domain,
            email: self.address,
            reason: SuppressionReason::parse(&self.reason).unwrap_or(SuppressionReason::Manual),
            category: Some(self.category).filter(|c| !c.is_empty()),
            source: self.source,
            created_by: self.created_by,
            created_at: self.created_at,
            detail: self.detail,
        }
    }
}

impl EmailStore {
    /// A domain's list, by address (then category).
    pub async fn suppressions(
        &self,
        domain: &str,
        filter: &SuppressionFilter,
        page: PageRequest,
    ) -> Result<Page<Suppression>, EmailError> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut count = self.db.sql("SELECT COUNT(*) FROM email_suppressions");
        where_clause(&mut count, domain, filter);
        let total = tx.exec().int(&count).await? as u64;
        let mut q = self.db.sql(&format!("SELECT {COLUMNS} FROM email_suppressions"));
        where_clause(&mut q, domain, filter);
        q.push(" ORDER BY address, category LIMIT ").bind(page.size as i64).push(" OFFSET ").bind(page.offset() as i64);
        let rows: Vec<Row> = tx.exec().rows(&q).await?;
        tx.commit_unrecorded().await?;
        Ok(Page::build(page, total, rows.into_iter().map(Row::record).collect(), Sort::UNSORTED))
    }

    /// Adds entries to `domain`'s list (one already there for that address and category stays
    /// as it was); every entry as the list now holds it, in the order given.
    pub async fn suppress(
        &self,
        domain: &str,
        entries: &[Entry],
        source: &str,
        by: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Suppression>, EmailError> {
        let mut tx = self.db.begin().await?;
        let answer = self.suppress_in(&mut tx, domain, entries, source, by, now).await?;
        tx.commit().await?;
        Ok(answer)
    }

    /// [`EmailStore::suppress`] in the caller's transaction (a bounce adds its entries with
    /// its report): the entries as the list holds them, the new ones on record and events.
    pub(crate) async fn suppress_in(
        &self,
        tx: &mut Tx,
        domain: &str,
        entries: &[Entry],
        source: &str,
        by: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Suppression>, EmailError> {
        let created_at = time_text(now);
        let mut new_ids = Vec::with_capacity(entries.len());
        for chunk in entries.chunks(CHUNK) {
            let mut q = self.db.sql(&format!("INSERT INTO email_suppressions ({COLUMNS}) VALUES "));
            for (i, e) in chunk.iter().enumerate() {
                if i > 0 {
                    q.push(", ");
                }
                let id = format!("sup_{}", uuid::Uuid::new_v4().simple());
                q.bind_row([
                    id.clone().into(),
                    domain.into(),
                    e.address.as_str().into(),
                    e.reason.as_str().into(),
                    e.category.as_str().into(),
                    source.into(),
                    by.map(str::to_string).into(),
                    created_at.clone().into(),
                    e.detail.clone().into(),
                ]);
                new_ids.push(id);
            }
            q.push(" ON CONFLICT (domain, address, category) DO NOTHING");
            tx.exec().execute(&q).await?;
        }
        let mut found: Vec<Suppression> = Vec::with_capacity(entries.len());
        for chunk in entries.chunks(CHUNK) {
            let mut q = self.db.sql(&format!("SELECT {COLUMNS} FROM email_suppressions WHERE domain = "));
            q.bind(domain).push(" AND address IN (");
            q.bind_list(chunk.iter().map(|e| e.address.as_str()));
            q.push(")");
            let rows: Vec<Row> = tx.exec().rows(&q).await?;
            found.extend(rows.into_iter().map(Row::record));
        }
        let key = |address: &str, category: &str| (address.to_string(), category.to_string());
        let mut answer = Vec::with_capacity(entries.len());
        for e in entries {
            let k = key(&e.address, &e.category);
            if let Some(s) = found.iter().find(|s| key(&s.email, s.category.as_deref().unwrap_or("")) == k) {
                answer.push(s.clone());
            }
        }
        let added: Vec<&Suppression> = answer.iter().filter(|s| new_ids.contains(&s.id)).collect();
        match added.as_slice() {
            [] => {}
            [one] => {
                trail::target("email_suppression", &one.id);
                trail::change("reason", None::<&str>, Some(one.reason));
            }
            many => {
                trail::target("email_suppressions", domain);
                trail::change("entries", None::<usize>, Some(many.len()));
            }
        }
        let added: Vec<NewEvent> = added
            .iter()
            .map(|s| NewEvent::new(EventType::EmailSuppressionAdded, "email_suppression", &s.id, s))
            .collect();
        events::append_many(tx, &added).await?;
        Ok(answer)
    }

    /// Removes an entry from `domain`'s list; the entry removed, or `None`.
    pub async fn unsuppress(&self, domain: &str, id: &str) -> Result<Option<Suppression>, EmailError> {
        let mut tx = self.db.begin().await?;
        let q = self
            .db
            .sql(&format!("SELECT {COLUMNS} FROM email_suppressions WHERE domain = ? AND id = ?"))
            .arg(domain)
            .arg(id);
        let Some(row): Option<Row> = tx.exec().row(&q).await? else { return Ok(None) };
        let q = self.db.sql("DELETE FROM email_suppressions WHERE id = ?").arg(id);
        tx.exec().execute(&q).await?;
        let removed = row.record();
        trail::target("email_suppression", id);
        trail::change("reason", Some(removed.reason), None::<&str>);
        events::append(&mut tx, EventType::EmailSuppressionRemoved, "email_suppression", id, &removed).await?;
        tx.commit().await?;
        Ok(Some(removed))
    }

    /// Which of `addresses` (lowercase) `domain`'s list holds for a send with `categories`: an
    /// entry for every send, or for one of its categories.
    pub async fn suppressed(
        &self,
        domain: &str,
        addresses: &[String],
        categories: &[String],
    ) -> Result<Vec<Match>, EmailError> {
        let mut out = Vec::new();
        let mut conn = self.db.acquire().await?;
        for chunk in addresses.chunks(CHUNK) {
            let mut q = self.db.sql("SELECT address, reason, category FROM email_suppressions WHERE domain = ");
            q.bind(domain).push(" AND address IN (");
            q.bind_list(chunk.iter().map(String::as_str));
            q.push(") AND (category = ''");
            if !categories.is_empty() {
                q.push(" OR category IN (");
                q.bind_list(categories.iter().map(String::as_str));
                q.push(")");
            }
            q.push(") ORDER BY address, category");
            let rows: Vec<(String, String, String)> = conn.exec().rows(&q).await?;
            out.extend(rows.into_iter().map(|(address, reason, category)| Match {
                address,
                reason: SuppressionReason::parse(&reason).unwrap_or(SuppressionReason::Manual),
                category: Some(category).filter(|c| !c.is_empty()),
            }));
        }
        Ok(out)
    }
}

fn where_clause(q: &mut Sql, domain: &str, f: &SuppressionFilter) {
    q.push(" WHERE domain = ").bind(domain);
    if !f.reasons.is_empty() {
        q.push(" AND reason IN (");
        q.bind_list(f.reasons.iter().map(|r| r.as_str()));
        q.push(")");
    }
    if let Some(prefix) = f.prefix.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
        // LIKE's own wildcards in the prefix are matched literally.
        let pattern =
            format!("{}%", prefix.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        q.push(" AND address LIKE ").bind(pattern).push(" ESCAPE '\\'");
    }
}
