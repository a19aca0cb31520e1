//! Inbound routes, messages and attempts, both backends (`0009_email_inbound.sql`).
//!
//! The messages are a queue (`storage::queue`, as the outbox's): due messages move to
//! `delivering` under a worker's name until `claim_until`, the attempt row is written with the
//! claim (with the route's URL at that moment), and an outcome is recorded only while the
//! claim is still that worker's.

use chrono::Utc;
use moneydesk_model::email::inbound::{InboundAttachment, InboundAttempt, InboundMessage, InboundState};

use moneydesk_model::events::EventType;

use crate::storage::events::{self, NewEvent};
use crate::storage::sql::Arg;
use crate::storage::time::millis as time_text;
use crate::storage::{trail, Database, Sql};

mod queue;

pub use queue::{Claimed, Outcome};

#[derive(Clone, Debug)]
pub struct InboundStore {
    pub(crate) db: Database,
    /// Rung when messages arrive or are redelivered, so this process's worker posts them at
    /// once (other instances find them at their next poll).
    pub(crate) wake: std::sync::Arc<tokio::sync::Notify>,
}

/// A route as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredRoute {
    pub domain: String,
    pub url: String,
    pub secret: String,
    pub created_at: String,
    pub secret_rotated_at: String,
    pub received: i64,
    pub failed: i64,
}

const ROUTE_COLUMNS: &str = "r.domain, r.url, r.secret, r.created_at, r.secret_rotated_at, \
    (SELECT COUNT(*) FROM email_inbound_messages m WHERE m.domain = r.domain) AS received, \
    (SELECT COUNT(*) FROM email_inbound_messages m WHERE m.domain = r.domain AND m.state = 'failed') AS failed";

/// A message about to be stored (one per routed domain among the recipients).
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub id: String,
    pub domain: String,
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    pub from: String,
    pub subject: String,
    pub size: u64,
    pub raw_sha256: String,
    pub attachments: Vec<InboundAttachment>,
    pub received_by: &'static str,
    /// What makes an SMTP delivery the same as a relay's retry of it (migration 0033).
    pub delivery: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRow {
    pub id: String,
    pub domain: String,
    pub mail_from: String,
    pub rcpt_to: String,
    pub from_header: String,
    pub subject: String,
    pub size: i64,
    pub raw_sha256: String,
    pub attachments: String,
    pub received_by: String,
    pub received_at: String,
    pub state: String,
    pub attempts: i64,
    pub next_attempt_at: Option<String>,
    pub retry_until: String,
    pub last_result: Option<String>,
}

const MESSAGE_COLUMNS: &str = "id, domain, mail_from, rcpt_to, from_header, subject, size, raw_sha256, attachments, received_by, received_at, state, attempts, next_attempt_at, retry_until, last_result";

impl MessageRow {
    pub fn answer(&self) -> InboundMessage {
        let state: InboundState = self.state.parse().unwrap_or(InboundState::Pending);
        InboundMessage {
            id: self.id.clone(),
            domain: self.domain.clone(),
            mail_from: self.mail_from.clone(),
            rcpt_to: serde_json::from_str(&self.rcpt_to).unwrap_or_default(),
            from: self.from_header.clone(),
            subject: self.subject.clone(),
            size: self.size.max(0) as u64,
            received_by: self.received_by.clone(),
            received_at: self.received_at.clone(),
            state,
            attempts: self.attempts.max(0) as u32,
            next_attempt_at: (state == InboundState::Pending).then(|| self.next_attempt_at.clone()).flatten(),
            last_result: self.last_result.clone(),
        }
    }

    pub fn attachment_info(&self) -> Vec<InboundAttachment> {
        serde_json::from_str(&self.attachments).unwrap_or_default()
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
struct AttemptRow {
    number: i64,
    url: String,
    started_at: String,
    duration_ms: Option<i64>,
    status: Option<i64>,
    result: String,
}

impl InboundStore {
    pub fn new(db: Database) -> InboundStore {
        InboundStore { db, wake: Default::default() }
    }

    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Creates a route; a domain that has one breaks the primary key (409 by the crate's one
    /// mapping).
    pub async fn insert_route(&self, domain: &str, url: &str, secret: &str, by: &str) -> sqlx::Result<StoredRoute> {
        let now = time_text(Utc::now());
        let q = self
            .db
            .sql("INSERT INTO email_inbound_routes (domain, url, secret, created_by, created_at, secret_rotated_at) VALUES (?, ?, ?, ?, ?, ?)")
            .arg(domain)
            .arg(url)
            .arg(secret)
            .arg(by)
            .arg(now.clone())
            .arg(now);
        let mut tx = self.db.begin().await?;
        tx.exec().execute(&q).await?;
        trail::target("inbound_route", domain);
        trail::change("url", None::<&str>, Some(url));
        tx.commit().await?;
        Ok(self.route(domain).await?.expect("the route just created"))
    }

    pub async fn route(&self, domain: &str) -> sqlx::Result<Option<StoredRoute>> {
        let q =
            self.db.sql(&format!("SELECT {ROUTE_COLUMNS} FROM email_inbound_routes r WHERE r.domain = ?")).arg(domain);
        self.db.acquire().await?.exec().row(&q).await
    }

    pub async fn routes(&self) -> sqlx::Result<Vec<StoredRoute>> {
        let q = self.db.sql(&format!("SELECT {ROUTE_COLUMNS} FROM email_inbound_routes r ORDER BY r.domain"));
        self.db.acquire().await?.exec().rows(&q).await
    }

    /// Of `domains`, those that have a route.
    pub async fn routed(&self, domains: &[String]) -> sqlx::Result<Vec<String>> {
        if domains.is_empty() {
            return Ok(Vec::new());
        }
        let mut q = self.db.sql("SELECT domain FROM email_inbound_routes WHERE domain IN (");
        q.bind_list(domains.iter().map(String::as_str));
        q.push(")");
        self.db.acquire().await?.exec().texts(&q).await
    }

    /// Runs `change` on the route of `domain` in a transaction with the route's URL before it
    /// on record (`field`: before → `after`); `false`, nothing written, when there is no route.
    async fn change_route(&self, domain: &str, change: Sql, field: &str, after: Option<&str>) -> sqlx::Result<bool> {
        let mut tx = self.db.begin().await?;
        let q = self.db.sql("SELECT url FROM email_inbound_routes WHERE domain = ?").arg(domain);
        let Some(before) = tx.exec().texts(&q).await?.pop() else { return Ok(false) };
        tx.exec().execute(&change).await?;
        trail::target("inbound_route", domain);
        match field {
            "url" => trail::change("url", Some(before), after),
            _ => trail::change(field, None::<&str>, after),
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Changes a route's URL (messages not yet delivered go to the new one); `None` when there
    /// is no such route.
    pub async fn set_url(&self, domain: &str, url: &str) -> sqlx::Result<Option<StoredRoute>> {
        let q = self.db.sql("UPDATE email_inbound_routes SET url = ? WHERE domain = ?").arg(url).arg(domain);
        if !self.change_route(domain, q, "url", Some(url)).await? {
            return Ok(None);
        }
        self.route(domain).await
    }

    /// Replaces a route's secret: the next attempt is signed with the new one. On record as
    /// the rotation's time (never the secret).
    pub async fn set_secret(&self, domain: &str, secret: &str) -> sqlx::Result<Option<StoredRoute>> {
        let now = time_text(Utc::now());
        let q = self
            .db
            .sql("UPDATE email_inbound_routes SET secret = ?, secret_rotated_at = ? WHERE domain = ?")
            .arg(secret)
            .arg(now.as_str())
            .arg(domain);
        if !self.change_route(domain, q, "secretRotatedAt", Some(&now)).await? {
            return Ok(None);
        }
        self.route(domain).await
    }

    /// Removes a route: mail for the domain is refused from then on, and its messages not yet
    /// delivered fail at their next attempt. Whether there was one.
    pub async fn delete_route(&self, domain: &str) -> sqlx::Result<bool> {
        let q = self.db.sql("DELETE FROM email_inbound_routes WHERE domain = ?").arg(domain);
        self.change_route(domain, q, "url", None).await
    }

    /// Stores messages (their raw MIME already in the blob store), due at once, in one
    /// transaction: a crash leaves all or none, and SMTP answers 250 only after it.
    pub async fn insert_messages(&self, messages: &[NewMessage], retry_for: std::time::Duration) -> sqlx::Result<()> {
        let now = Utc::now();
        let until = now + chrono::Duration::from_std(retry_for).unwrap_or(chrono::Duration::days(3));
        let mut tx = self.db.begin().await?;
        for m in messages {
            let q = self
                .db
                .sql(
                    "INSERT INTO email_inbound_messages (id, domain, mail_from, rcpt_to, from_header, subject, size, raw_sha256, attachments, \
                     received_by, received_at, state, attempts, next_attempt_at, retry_until, delivery) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)",
                )
                .arg(m.id.as_str())
                .arg(m.domain.as_str())
                .arg(m.mail_from.as_str())
                .arg(serde_json::to_string(&m.rcpt_to).expect("strings serialize"))
                .arg(m.from.as_str())
                .arg(m.subject.as_str())
                .arg(m.size as i64)
                .arg(m.raw_sha256.as_str())
                .arg(serde_json::to_string(&m.attachments).expect("attachments serialize"))
                .arg(m.received_by)
                .arg(time_text(now))
                .arg(time_text(now))
                .arg(time_text(until))
                .arg(Arg::Text(m.delivery.clone()));
            tx.exec().execute(&q).await?;
        }
        // On record (a POST of raw mail; SMTP's arrivals have no recording) and told: each
        // message as the API answers it.
        let ids: Vec<&str> = messages.iter().map(|m| m.id.as_str()).collect();
        if let Some(first) = ids.first() {
            trail::target("inbound_message", first);
        }
        let mut q = self.db.sql(&format!("SELECT {MESSAGE_COLUMNS} FROM email_inbound_messages WHERE id IN ("));
        q.bind_list(ids.iter().copied()).push(") ORDER BY domain");
        let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
        let received: Vec<NewEvent> = rows
            .iter()
            .map(|r| NewEvent::new(EventType::EmailInboundReceived, "inbound_message", &r.id, &r.answer()))
            .collect();
        events::append_many(&mut tx, &received).await?;
        tx.commit().await
    }

    /// The messages an SMTP delivery was kept as, by route (none when it is new).
    pub async fn by_delivery(&self, delivery: &str) -> sqlx::Result<Vec<String>> {
        let q = self.db.sql("SELECT id FROM email_inbound_messages WHERE delivery = ? ORDER BY domain").arg(delivery);
        let mut conn = self.db.acquire().await?;
        let rows: Vec<(String,)> = conn.exec().rows(&q).await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// Newest first, optionally of one domain and one state; at most `limit`, older than
    /// `before` (a `receivedAt|id` cursor) when given.
    pub async fn messages(
        &self,
        domain: Option<&str>,
        state: Option<InboundState>,
        before: Option<(&str, &str)>,
        limit: u32,
    ) -> sqlx::Result<Vec<MessageRow>> {
        let mut q = self.db.sql(&format!("SELECT {MESSAGE_COLUMNS} FROM email_inbound_messages WHERE 1 = 1"));
        if let Some(d) = domain {
            q.push(" AND domain = ").bind(d);
        }
        if let Some(s) = state {
            q.push(" AND state = ").bind(s.as_str());
        }
        if let Some((at, id)) = before {
            q.push(" AND (received_at < ")
                .bind(at)
                .push(" OR (received_at = ")
                .bind(at)
                .push(" AND id < ")
                .bind(id)
                .push("))");
        }
        q.push(" ORDER BY received_at DESC, id DESC LIMIT ").bind(i64::from(limit));
        self.db.acquire().await?.exec().rows(&q).await
    }

    pub async fn message(&self, id: &str) -> sqlx::Result<Option<MessageRow>> {
        self.db.acquire().await?.exec().row(&self.message_query(id)).await
    }

    fn message_query(&self, id: &str) -> Sql {
        self.db.sql(&format!("SELECT {MESSAGE_COLUMNS} FROM email_inbound_messages WHERE id = ?")).arg(id)
    }

    /// A message with its attempts, both read in one snapshot: read one after the other, an
    /// outcome recorded between the two showed the message still `delivering` beside its
    /// attempt's result (seen in CI).
    pub async fn detail(&self, id: &str) -> sqlx::Result<Option<(MessageRow, Vec<InboundAttempt>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let Some(row): Option<MessageRow> = tx.exec().row(&self.message_query(id)).await? else { return Ok(None) };
        let q = self.db.sql("SELECT number, url, started_at, duration_ms, status, result FROM email_inbound_attempts WHERE message_id = ? ORDER BY number").arg(id);
        let rows: Vec<AttemptRow> = tx.exec().rows(&q).await?;
        tx.commit_unrecorded().await?;
        let attempts = rows
            .into_iter()
            .map(|r| InboundAttempt {
                number: r.number as u32,
                url: r.url,
                started_at: r.started_at,
                duration_ms: r.duration_ms.map(|d| d.max(0) as u64),
                status: r.status.and_then(|s| u16::try_from(s).ok()),
                result: r.result,
            })
            .collect();
        Ok(Some((row, attempts)))
    }

    /// Makes a delivered or failed message due again at once, with a new retry window.
    /// `Ok(None)`: no such message; `Ok(Some(false))`: it is still pending or under way.
    pub async fn redeliver(&self, id: &str, retry_for: std::time::Duration) -> sqlx::Result<Option<bool>> {
        let now = Utc::now();
        let until = now + chrono::Duration::from_std(retry_for).unwrap_or(chrono::Duration::days(3));
        let q = self
            .db
            .sql("UPDATE email_inbound_messages SET state = 'pending', next_attempt_at = ?, retry_until = ? WHERE id = ? AND state IN ('delivered', 'failed')")
            .arg(time_text(now))
            .arg(time_text(until))
            .arg(id);
        let mut tx = self.db.begin().await?;
        if tx.exec().execute(&q).await? > 0 {
            trail::target("inbound_message", id);
            trail::change("state", None::<&str>, Some(InboundState::Pending));
            tx.commit().await?;
            return Ok(Some(true));
        }
        drop(tx);
        Ok(self.message(id).await?.map(|_| false))
    }
}
