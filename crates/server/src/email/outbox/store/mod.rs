//! The email group's tables (migrations `0007_email.sql`), both backends: the outbox
//! (`outbox`: accept, list, read), its delivery (`delivery`: claim, attempts, outcomes, the
//! development mailbox). Templates keep their own store (`super::templates::store`).

/// The `next_attempt_at` of a paused message (`batches.rs`): after any time a claim compares
/// it with. Here, not in `batches.rs`, because the outbox's records read it too.
pub const PAUSED: &str = "9999-12-31T23:59:59.999Z";

pub mod accept;
pub mod batches;
pub mod bulk;
pub mod delivery;
pub mod outbox;
mod pages;

use serde::{Deserialize, Serialize};

use crate::storage::Database;

#[derive(Debug, thiserror::Error)]
pub enum EmailError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The outbox's store (cheap to clone).
#[derive(Clone, Debug)]
pub struct EmailStore {
    pub(crate) db: Database,
    /// Rung after messages are queued, so this process's worker starts on them at once
    /// (other instances find them at their next poll).
    pub(crate) wake: std::sync::Arc<tokio::sync::Notify>,
}

impl EmailStore {
    pub fn new(db: Database) -> EmailStore {
        EmailStore { db, wake: Default::default() }
    }

    /// Tells this process's delivery worker that messages were queued.
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// One recipient as stored in `recipients` (JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMailbox {
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `recipients` (JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRecipients {
    pub to: Vec<StoredMailbox>,
    #[serde(default)]
    pub cc: Vec<StoredMailbox>,
    #[serde(default)]
    pub bcc: Vec<StoredMailbox>,
    /// The recipients the sender domain's suppression list dropped at acceptance (or, marked
    /// `bypassed`, kept: they are in `to`/`cc`/`bcc` too). Kept with the recipients so the
    /// outbox shows each recipient's fate without a column of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<moneydesk_model::email::suppressions::SuppressedRecipient>,
    /// The send asked `mail_settings.bypass_list_management` (transactional mail): the lists
    /// are not read again at delivery either.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bypass_list_management: bool,
}

/// One element of `attachments` (JSON); the bytes are the blob `email/sha256/<sha256>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredAttachment {
    pub filename: String,
    pub content_type: String,
    /// `attachment` or `inline`.
    pub disposition: String,
    pub content_id: Option<String>,
    pub sha256: String,
    pub size: u64,
}

/// A message as the outbox keeps it: everything the MIME is built from, so every attempt
/// sends the same bytes. Written by `outbox::insert`, read by delivery and the GET extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    pub id: String,
    pub batch_id: String,
    pub index: u32,
    /// The Message-ID without angle brackets.
    pub message_id: String,
    /// RFC 5322 date-time, fixed at acceptance.
    pub date_header: String,
    pub from: StoredMailbox,
    pub reply_to: Option<StoredMailbox>,
    pub recipients: StoredRecipients,
    pub subject: String,
    pub text: Option<String>,
    pub html: Option<String>,
    pub attachments: Vec<StoredAttachment>,
    pub categories: Vec<String>,
    pub template_id: Option<String>,
    pub template_version: Option<u32>,
}

// The outbox's times are the queues' (milliseconds); one helper for every table.
pub use crate::storage::time::{millis as time_text, parse as parse_time};

/// The blob a stored attachment's bytes live at (stored once, whatever shares them).
pub fn attachment_path(sha256: &str) -> object_store::path::Path {
    object_store::path::Path::from(format!("email/sha256/{sha256}"))
}

impl StoredMailbox {
    /// `Name <addr>` or `addr`, as a list shows it (the MIME encodes names itself).
    pub fn shown(&self) -> String {
        match &self.name {
            Some(n) => format!("{n} <{}>", self.email),
            None => self.email.clone(),
        }
    }
}

impl From<EmailError> for crate::error::Error {
    fn from(e: EmailError) -> crate::error::Error {
        match e {
            EmailError::NotFound(m) => crate::error::Error::not_found(m),
            EmailError::Conflict(m) => crate::error::Error::conflict(m),
            EmailError::Invalid(m) => crate::error::Error::bad_request(m),
            EmailError::Db(e) => e.into(),
        }
    }
}
