//! The outbox: what the server knows of each accepted message (one per personalization), its
//! state and its delivery attempts. Extensions (the description shows no send response).

use serde::{Deserialize, Serialize};

use super::address::EmailAddress;
use crate::vocabulary::vocabulary;

vocabulary!(
    /// Where a message stands. `queued` → `sending` → `sent`; a temporary failure (a 4xx reply,
    /// the relay unreachable) → `deferred` (tried again at `nextAttemptAt`), a permanent one (a
    /// 5xx reply, or the attempts used up) → `failed`. `scheduled` is `queued` with a `send_at`
    /// still ahead. A message left `sending` by a process that died is sent again once its claim
    /// expires, with the same Message-ID (see the server's README).
    pub enum MessageState {
        Queued = "queued" / "Queued",
        Scheduled = "scheduled" / "Scheduled",
        Sending = "sending" / "Sending",
        Sent = "sent" / "Sent",
        Deferred = "deferred" / "Deferred",
        Failed = "failed" / "Failed",
    }
    from_str: UnknownMessageState = |s: &str| UnknownMessageState(s.to_string());
);

impl MessageState {
    /// No more attempts will be made.
    ///
    /// ```
    /// use moneydesk_model::email::MessageState;
    /// assert_eq!(MessageState::Deferred.as_str(), "deferred");
    /// assert_eq!("sent".parse::<MessageState>(), Ok(MessageState::Sent));
    /// assert!("lost".parse::<MessageState>().is_err());
    /// assert!(MessageState::Failed.is_final());
    /// ```
    pub const fn is_final(self) -> bool {
        matches!(self, MessageState::Sent | MessageState::Failed)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown message state {0:?}; the states are queued, scheduled, sending, sent, deferred and failed")]
pub struct UnknownMessageState(pub String);

/// Where a message goes: the configured SMTP relay, or (no relay configured) the development
/// mailbox kept in the database and read in the portal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Delivery {
    Relay,
    Mailbox,
}

/// One message of the outbox, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OutboxMessage {
    /// `msg_…`: what the 202 answered.
    pub id: String,
    /// The send request it came from (`req_…`): a bulk send's messages share it.
    pub batch_id: String,
    /// The personalization's index in that request.
    pub index: u32,
    pub state: MessageState,
    pub delivery: Delivery,
    /// The From address (with its name: `Name <addr>` as written in the header).
    pub from: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// How many Bcc recipients (their addresses are not shown in lists).
    pub bcc_count: u32,
    pub subject: String,
    pub template_id: Option<String>,
    pub template_version: Option<u32>,
    pub categories: Vec<String>,
    /// Attempts made so far.
    pub attempts: u32,
    /// ISO 8601 UTC.
    pub created_at: String,
    /// When it may first be sent (ISO 8601 UTC), if the request said.
    pub send_at: Option<String>,
    /// For `deferred` (and `scheduled`): when the next attempt is due.
    pub next_attempt_at: Option<String>,
    pub sent_at: Option<String>,
    /// The relay's last reply (`250 2.0.0 Ok: queued as …`, `550 5.1.1 …`), or the connection
    /// error for a relay that could not be reached.
    pub last_reply: Option<String>,
    /// Recipients the sender domain's suppression list dropped (not sent to), or that were
    /// sent to anyway (`bypassed`, transactional mail). Every other recipient is sent to.
    #[serde(default)]
    pub suppressed: Vec<super::suppressions::SuppressedRecipient>,
    /// Its batch is paused: held past its `sendAt` until the batch is resumed.
    #[serde(default)]
    pub paused: bool,
}

/// One delivery attempt, or a resend of the failed message: then `outcome` is `queued`,
/// `resentBy` says who resent it, `startedAt` when, and `number` is the failed attempt's (the
/// next attempt is `number + 1`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attempt {
    pub number: u32,
    /// ISO 8601 UTC.
    pub started_at: String,
    /// What the attempt led to: `sent`, `deferred` or `failed` (`sending` while under way, or
    /// when the process died during it); `queued` for a resend.
    pub outcome: MessageState,
    pub reply: Option<String>,
    /// Set on a resend only.
    #[serde(default)]
    pub resent_by: Option<ResentBy>,
}

/// Who resent a failed message: the token's name and its user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ResentBy {
    pub token: String,
    pub user: String,
}

/// An attachment as stored (its bytes at [`crate::paths::EMAIL_MESSAGE_ATTACHMENT`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttachmentInfo {
    pub index: u32,
    pub filename: String,
    pub content_type: String,
    pub size: u64,
    pub disposition: super::send::Disposition,
    pub content_id: Option<String>,
}

/// One message with everything it was sent with: the outbox's detail and the development
/// mailbox's reader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageDetail {
    #[serde(flatten)]
    pub message: OutboxMessage,
    /// The Message-ID header (`<…@host>`), kept across attempts.
    pub message_id: String,
    pub bcc: Vec<String>,
    pub reply_to: Option<String>,
    /// The headers as they are sent, decoded, in order.
    pub headers: Vec<MessageHeader>,
    pub text: Option<String>,
    /// Shown only in a sandboxed iframe (no scripts, no same origin).
    pub html: Option<String>,
    pub attachments: Vec<AttachmentInfo>,
    pub attempt_log: Vec<Attempt>,
    /// The bounces and complaints that came back for it, oldest first, per recipient.
    #[serde(default)]
    pub bounces: Vec<super::bounces::Bounce>,
}

/// One header of a message as people read it. An object rather than a `[name, value]` pair:
/// a pair is a tuple schema, which client generators (openapi-python-client and others) cannot
/// read (issue 44).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MessageHeader {
    /// `From`, `To`, `Subject`, … as written on the message.
    pub name: String,
    /// Decoded (the MIME encodes it).
    pub value: String,
}

impl MessageHeader {
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self { name: name.into(), value: value.into() }
    }
}

/// Who the server may send as: a whole address, or every address of a domain (`@bank.example`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SenderIdentity {
    /// `ops@bank.example`, or `@bank.example` for any address of the domain.
    pub address: String,
    /// The display name to suggest.
    pub name: Option<String>,
}

impl SenderIdentity {
    /// Whether `address` (already checked) may be sent from under this identity.
    ///
    /// ```
    /// use moneydesk_model::email::{EmailAddress, SenderIdentity};
    /// let any_at_bank = SenderIdentity { address: "@bank.example".into(), name: None };
    /// assert!(any_at_bank.allows(&EmailAddress::parse("ops@Bank.example").unwrap()));
    /// assert!(!any_at_bank.allows(&EmailAddress::parse("ops@bank.example.evil.com").unwrap()));
    /// ```
    pub fn allows(&self, address: &EmailAddress) -> bool {
        match self.address.strip_prefix('@') {
            Some(domain) => address.domain().eq_ignore_ascii_case(domain),
            None => address.canonical() == self.address.to_ascii_lowercase(),
        }
    }
}
