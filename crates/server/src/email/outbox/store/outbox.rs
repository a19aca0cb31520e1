//! Accepted messages in (one transaction a request), the outbox's list and a message's
//! detail out.

use moneydesk_model::email::{
    AttachmentInfo, Attempt, Delivery, Disposition, MessageDetail, MessageHeader, MessageState, OutboxMessage, ResentBy,
};
use moneydesk_model::events::EventType;

use super::{EmailError, EmailStore, StoredAttachment, StoredMailbox, StoredMessage, StoredRecipients};
use crate::storage::events::{self, NewEvent};
use crate::storage::{trail, Dialect, Sql, Tx};

/// A message to queue: its parts and where it stands at acceptance.
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub message: StoredMessage,
    pub state: MessageState,
    pub delivery: Delivery,
    pub created_by: String,
    pub created_at: String,
    pub send_at: Option<String>,
    pub next_attempt_at: String,
}

/// What the outbox list is filtered by.
#[derive(Debug, Clone, Default)]
pub struct OutboxFilter {
    pub states: Vec<MessageState>,
    /// A substring of a recipient, the subject, the id or the batch id (case-insensitive).
    pub q: Option<String>,
    pub batch_id: Option<String>,
    /// Created at or after this time (inclusive), in the stored form (`time_text`).
    pub created_from: Option<String>,
    /// Created at or before this time (inclusive), in the stored form.
    pub created_to: Option<String>,
}

const COLUMNS: &str = "id, batch_id, idx, state, delivery, message_id, date_header, from_email, from_name, \
    reply_to_email, reply_to_name, recipients, subject, text_body, html_body, attachments, template_id, \
    template_version, categories, created_by, created_at, send_at, next_attempt_at";

/// Rows a statement: 23 values each stays far below either backend's placeholder limit.
const ROWS_PER_INSERT: usize = 200;

#[derive(sqlx::FromRow)]
pub(crate) struct MessageRow {
    pub id: String,
    pub batch_id: String,
    pub idx: i64,
    pub state: String,
    pub delivery: String,
    pub message_id: String,
    pub date_header: String,
    pub from_email: String,
    pub from_name: Option<String>,
    pub reply_to_email: Option<String>,
    pub reply_to_name: Option<String>,
    pub recipients: String,
    pub subject: String,
    pub text_body: Option<String>,
    pub html_body: Option<String>,
    pub attachments: String,
    pub template_id: Option<String>,
    pub template_version: Option<i64>,
    pub categories: String,
    pub created_at: String,
    pub send_at: Option<String>,
    pub next_attempt_at: String,
    pub attempts: i64,
    pub sent_at: Option<String>,
    pub last_reply: Option<String>,
    /// The attempts made before the last resend (0: never resent).
    pub resent_after: i64,
}

pub(crate) const ROW_COLUMNS: &str =
    "id, batch_id, idx, state, delivery, message_id, date_header, from_email, from_name, \
    reply_to_email, reply_to_name, recipients, subject, text_body, html_body, attachments, template_id, \
    template_version, categories, created_at, send_at, next_attempt_at, attempts, sent_at, last_reply, resent_after";

/// [`ROW_COLUMNS`] without the bodies: what [`MessageRow::record`] (the API's message) needs,
/// read back for events without copying every body again.
pub(crate) const RECORD_COLUMNS: &str =
    "id, batch_id, idx, state, delivery, message_id, date_header, from_email, from_name, \
    reply_to_email, reply_to_name, recipients, subject, CAST(NULL AS TEXT) AS text_body, CAST(NULL AS TEXT) AS html_body, \
    attachments, template_id, template_version, categories, created_at, send_at, next_attempt_at, attempts, sent_at, \
    last_reply, resent_after";

/// The event of a message's state, as the API answers it.
pub(crate) fn event(kind: EventType, row: &MessageRow) -> NewEvent {
    NewEvent::new(kind, "email_message", &row.id, &row.record())
}

impl MessageRow {
    pub fn stored(&self) -> StoredMessage {
        StoredMessage {
            id: self.id.clone(),
            batch_id: self.batch_id.clone(),
            index: self.idx as u32,
            message_id: self.message_id.clone(),
            date_header: self.date_header.clone(),
            from: StoredMailbox { email: self.from_email.clone(), name: self.from_name.clone() },
            reply_to: self
                .reply_to_email
                .clone()
                .map(|email| StoredMailbox { email, name: self.reply_to_name.clone() }),
            recipients: serde_json::from_str(&self.recipients).unwrap_or_default(),
            subject: self.subject.clone(),
            text: self.text_body.clone(),
            html: self.html_body.clone(),
            attachments: serde_json::from_str(&self.attachments).unwrap_or_default(),
            categories: serde_json::from_str(&self.categories).unwrap_or_default(),
            template_id: self.template_id.clone(),
            template_version: self.template_version.map(|v| v as u32),
        }
    }

    pub(crate) fn state(&self) -> MessageState {
        self.state.parse().unwrap_or(MessageState::Queued)
    }

    pub fn record(&self) -> OutboxMessage {
        let recipients: StoredRecipients = serde_json::from_str(&self.recipients).unwrap_or_default();
        let state = self.state();
        let paused = self.next_attempt_at == super::PAUSED;
        OutboxMessage {
            id: self.id.clone(),
            batch_id: self.batch_id.clone(),
            index: self.idx as u32,
            state,
            delivery: if self.delivery == "relay" { Delivery::Relay } else { Delivery::Mailbox },
            from: StoredMailbox { email: self.from_email.clone(), name: self.from_name.clone() }.shown(),
            to: recipients.to.iter().map(StoredMailbox::shown).collect(),
            cc: recipients.cc.iter().map(StoredMailbox::shown).collect(),
            bcc_count: recipients.bcc.len() as u32,
            subject: self.subject.clone(),
            template_id: self.template_id.clone(),
            template_version: self.template_version.map(|v| v as u32),
            categories: serde_json::from_str(&self.categories).unwrap_or_default(),
            attempts: self.attempts as u32,
            created_at: self.created_at.clone(),
            send_at: self.send_at.clone(),
            next_attempt_at: (matches!(state, MessageState::Deferred | MessageState::Scheduled) && !paused)
                .then(|| self.next_attempt_at.clone()),
            sent_at: self.sent_at.clone(),
            last_reply: self.last_reply.clone(),
            suppressed: recipients.suppressed,
            paused,
        }
    }
}

#[derive(sqlx::FromRow)]
struct ResendRow {
    after_attempt: i64,
    resent_at: String,
    resent_by: String,
    resent_by_user: String,
}

#[derive(sqlx::FromRow)]
struct AttemptRow {
    number: i64,
    started_at: String,
    outcome: String,
    reply: Option<String>,
}

impl EmailStore {
    /// Queues a request's messages in one transaction: all of them, or none.
    pub async fn insert(&self, messages: &[NewMessage]) -> Result<(), EmailError> {
        let mut tx = self.db.begin().await?;
        if messages.is_empty() {
            return Ok(tx.commit_unrecorded().await?);
        }
        insert_in(&mut tx, messages).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(crate) async fn row(&self, id: &str) -> Result<Option<MessageRow>, EmailError> {
        Ok(self.db.acquire().await?.exec().row(&self.row_query(id)).await?)
    }

    fn row_query(&self, id: &str) -> Sql {
        self.db.sql(&format!("SELECT {ROW_COLUMNS} FROM email_messages WHERE id = ?")).arg(id)
    }

    /// One message with its parts and attempts; `headers` are the ones it is sent with.
    pub async fn detail(
        &self,
        id: &str,
        headers: impl FnOnce(&StoredMessage) -> Vec<MessageHeader>,
    ) -> Result<Option<MessageDetail>, EmailError> {
        // One snapshot: the message's state, its attempts and its resends agree even while the
        // relay records an outcome (read one after another, they did not; inbound's detail
        // was seen so in CI).
        let mut tx = self.db.begin_snapshot().await?;
        let Some(row): Option<MessageRow> = tx.exec().row(&self.row_query(id)).await? else { return Ok(None) };
        let q = self
            .db
            .sql("SELECT number, started_at, outcome, reply FROM email_attempts WHERE message_id = ? ORDER BY number")
            .arg(id);
        let attempts: Vec<AttemptRow> = tx.exec().rows(&q).await?;
        let q = self.db.sql("SELECT after_attempt, resent_at, resent_by, resent_by_user FROM email_resends WHERE message_id = ? ORDER BY after_attempt").arg(id);
        let resends: Vec<ResendRow> = tx.exec().rows(&q).await?;
        let bounces = self.message_bounces(&mut tx, id).await?;
        tx.commit_unrecorded().await?;
        let mut attempt_log: Vec<Attempt> = attempts
            .into_iter()
            .map(|a| Attempt {
                number: a.number as u32,
                started_at: a.started_at,
                outcome: a.outcome.parse().unwrap_or(MessageState::Sending),
                reply: a.reply,
                resent_by: None,
            })
            .collect();
        // Each resend right after the failed attempt it follows.
        for r in resends.into_iter().rev() {
            let at =
                attempt_log.iter().position(|a| i64::from(a.number) > r.after_attempt).unwrap_or(attempt_log.len());
            let resend = Attempt {
                number: r.after_attempt as u32,
                started_at: r.resent_at,
                outcome: MessageState::Queued,
                reply: None,
                resent_by: Some(ResentBy { token: r.resent_by, user: r.resent_by_user }),
            };
            attempt_log.insert(at, resend);
        }
        let stored = row.stored();
        Ok(Some(MessageDetail {
            message: row.record(),
            message_id: format!("<{}>", stored.message_id),
            bcc: stored.recipients.bcc.iter().map(StoredMailbox::shown).collect(),
            reply_to: stored.reply_to.as_ref().map(StoredMailbox::shown),
            headers: headers(&stored),
            text: stored.text.clone(),
            html: stored.html.clone(),
            attachments: stored.attachments.iter().enumerate().map(|(i, a)| info(i, a)).collect(),
            attempt_log,
            bounces,
        }))
    }

    /// The MIME the development mailbox holds for `id`, if it was delivered there.
    pub async fn mailbox_raw(&self, id: &str) -> Result<Option<String>, EmailError> {
        let q = self.db.sql("SELECT raw FROM email_mailbox WHERE message_id = ?").arg(id);
        Ok(self.db.acquire().await?.exec().texts(&q).await?.into_iter().next())
    }
}

pub fn info(index: usize, a: &StoredAttachment) -> AttachmentInfo {
    AttachmentInfo {
        index: index as u32,
        filename: a.filename.clone(),
        content_type: a.content_type.clone(),
        size: a.size,
        disposition: if a.disposition == "inline" { Disposition::Inline } else { Disposition::Attachment },
        content_id: a.content_id.clone(),
    }
}

/// `n` new `seq` values for one request's messages, highest first: the first message gets the
/// highest, so newest first lists the request in personalization order. SQLite has one writer
/// (the insert's transaction holds it), so the next values follow the highest stored;
/// PostgreSQL's writers run at once and take theirs from the sequence.
async fn reserve(tx: &mut Tx, n: usize) -> sqlx::Result<Vec<i64>> {
    let mut seqs = match tx.dialect() {
        Dialect::Sqlite => {
            let q = Sql::new(Dialect::Sqlite, "SELECT COALESCE(MAX(seq), 0) FROM email_messages");
            let top = tx.exec().int(&q).await?;
            (1..=n as i64).map(|i| top + i).collect()
        }
        Dialect::Postgres => {
            let q = Sql::new(Dialect::Postgres, "SELECT nextval('email_messages_seq') FROM generate_series(1, ?)")
                .arg(n as i64);
            tx.exec().ints(&q).await?
        }
    };
    seqs.sort_unstable_by(|a, b| b.cmp(a));
    Ok(seqs)
}

/// Queues messages (with their `email.accepted` events) in the caller's transaction: for a
/// change that sends mail as part of itself (a webhook endpoint the server disables).
pub(crate) async fn insert_in(tx: &mut crate::storage::Tx, messages: &[NewMessage]) -> sqlx::Result<()> {
    let mut seqs = reserve(tx, messages.len()).await?.into_iter();
    for chunk in messages.chunks(ROWS_PER_INSERT) {
        let mut q = Sql::new(tx.dialect(), &format!("INSERT INTO email_messages (seq, {COLUMNS}) VALUES "));
        for (i, n) in chunk.iter().enumerate() {
            if i > 0 {
                q.push(", ");
            }
            let m = &n.message;
            q.push("(").bind(seqs.next().unwrap_or_default()).push(", ");
            q.bind_list::<crate::storage::sql::Arg>([
                m.id.clone().into(),
                m.batch_id.clone().into(),
                (m.index as i64).into(),
                n.state.as_str().into(),
                match n.delivery {
                    Delivery::Relay => "relay",
                    Delivery::Mailbox => "mailbox",
                }
                .into(),
                m.message_id.clone().into(),
                m.date_header.clone().into(),
                m.from.email.clone().into(),
                m.from.name.clone().into(),
                m.reply_to.as_ref().map(|r| r.email.clone()).into(),
                m.reply_to.as_ref().and_then(|r| r.name.clone()).into(),
                json(&m.recipients).into(),
                m.subject.clone().into(),
                m.text.clone().into(),
                m.html.clone().into(),
                json(&m.attachments).into(),
                m.template_id.clone().into(),
                m.template_version.map(i64::from).into(),
                json(&m.categories).into(),
                n.created_by.clone().into(),
                n.created_at.clone().into(),
                n.send_at.clone().into(),
                n.next_attempt_at.clone().into(),
            ])
            .push(")");
        }
        tx.exec().execute(&q).await?;
    }
    // On record: the request's messages (one: the message; more: their batch), and an
    // `email.accepted` for each, as the outbox answers it.
    let Some(first) = messages.first() else { return Ok(()) };
    match messages.len() {
        1 => trail::target("email_message", &first.message.id),
        n => {
            trail::target("email_batch", &first.message.batch_id);
            trail::change("messages", None::<u32>, Some(n));
        }
    }
    let q =
        Sql::new(tx.dialect(), &format!("SELECT {RECORD_COLUMNS} FROM email_messages WHERE batch_id = ? ORDER BY idx"))
            .arg(first.message.batch_id.as_str());
    let rows: Vec<MessageRow> = tx.exec().rows(&q).await?;
    let accepted: Vec<NewEvent> = rows.iter().map(|r| event(EventType::EmailAccepted, r)).collect();
    events::append_many(tx, &accepted).await.map(|_| ())
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

pub(super) fn where_clause(q: &mut Sql, f: &OutboxFilter) {
    let mut and = " WHERE ";
    if !f.states.is_empty() {
        q.push(and).push("state IN (");
        q.bind_list(f.states.iter().map(|s| s.as_str()));
        q.push(")");
        and = " AND ";
    }
    if let Some(batch) = &f.batch_id {
        q.push(and).push("batch_id = ").bind(batch.as_str());
        and = " AND ";
    }
    // `created_at` is `time_text` on both backends (TEXT; PostgreSQL's column is COLLATE "C",
    // SQLite compares bytes): one fixed-width UTC form, so comparing the text compares the times,
    // and the same SQL serves both (the `email_messages_created` index keeps it a range scan).
    if let Some(from) = &f.created_from {
        q.push(and).push("created_at >= ").bind(from.as_str());
        and = " AND ";
    }
    if let Some(to) = &f.created_to {
        q.push(and).push("created_at <= ").bind(to.as_str());
        and = " AND ";
    }
    if let Some(text) = f.q.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        // LIKE's own wildcards in the text are matched literally.
        let pattern =
            format!("%{}%", text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        q.push(and).push("(LOWER(subject) LIKE ").bind(pattern.clone()).push(" ESCAPE '\\' OR LOWER(recipients) LIKE ");
        q.bind(pattern.clone()).push(" ESCAPE '\\' OR id = ").bind(text).push(" OR batch_id = ").bind(text).push(")");
    }
}
