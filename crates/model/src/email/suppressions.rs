//! Suppression lists, unsubscribe and scheduled batches (issue 46; extensions). A sender
//! domain's suppression list names the addresses not to send to, and why; a send drops a
//! suppressed recipient and says so (the 202's `suppressed`, the outbox message's
//! `suppressed`), unless the request asks `mail_settings.bypass_list_management` (transactional
//! mail), which is recorded on the message too. A scheduled send's `batch_id` may be paused,
//! resumed or cancelled before its `send_at`.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

vocabulary!(
    /// Why an address is on a suppression list: a hard `bounce`, an `unsubscribe` (from one
    /// category, or from everything), a `spam_complaint` (an ARF report), or a `manual` entry.
    pub enum SuppressionReason {
        Bounce = "bounce" / "Bounce",
        Unsubscribe = "unsubscribe" / "Unsubscribe",
        SpamComplaint = "spam_complaint" / "Spam complaint",
        Manual = "manual" / "Manual",
    }
    from_str: UnknownReason = |s: &str| UnknownReason(s.to_string());
);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown suppression reason {0:?}; the reasons are bounce, unsubscribe, spam_complaint and manual")]
pub struct UnknownReason(pub String);

/// One entry of a domain's suppression list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Suppression {
    /// `sup_…`.
    pub id: String,
    /// The sender domain whose list it is on.
    pub domain: String,
    /// The suppressed address (lowercase).
    pub email: String,
    pub reason: SuppressionReason,
    /// The category unsubscribed from; none: every send from the domain.
    pub category: Option<String>,
    /// Where the entry came from: `manual:<user>`, `unsubscribe:<message id>`, `bounce:<message id>`,
    /// `complaint:<message id>` (`bounce:report:<report id>` when no message was matched).
    pub source: String,
    /// The user who added it (none for an unsubscribe link or a bounce).
    pub created_by: Option<String>,
    /// For a bounce or a complaint: the remote server's words (`550 5.1.1 No such user`), or
    /// the complaint's feedback type.
    #[serde(default)]
    pub detail: Option<String>,
    /// ISO 8601 UTC.
    pub created_at: String,
}

/// Manual entries to add to a domain's list (1 to 1000).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSuppressions {
    #[cfg_attr(feature = "openapi", schema(min_items = 1, max_items = 1000))]
    pub entries: Vec<NewSuppression>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSuppression {
    /// An address (an empty one is refused, as the document says).
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub email: String,
    /// Only sends with this category; absent: every send from the domain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
}

/// At most this many entries in one add.
pub const MAX_NEW_SUPPRESSIONS: usize = 1000;

/// A recipient a send dropped (or, with `bypassed`, sent to anyway) because of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SuppressedRecipient {
    pub email: String,
    /// `to`, `cc` or `bcc`.
    pub field: String,
    pub reason: SuppressionReason,
    pub category: Option<String>,
    /// Sent anyway: the request set `mail_settings.bypass_list_management`.
    #[serde(default)]
    pub bypassed: bool,
}

/// A send's suppressed recipient in the 202 answer: which message, which recipient, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SendSuppression {
    /// The message (`msg_…`) the recipient was dropped from.
    pub message_id: String,
    /// The personalization's index.
    pub index: u32,
    #[serde(flatten)]
    pub recipient: SuppressedRecipient,
}

/// The send's 202: the envelope (`data`: the message ids, in personalization order) and the
/// recipients the suppression lists dropped (or that were sent to anyway, `bypassed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SendAccepted {
    pub code: u16,
    pub error_message: Option<String>,
    pub error: Option<String>,
    pub data: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<SendSuppression>,
}

vocabulary!(
    /// A scheduled batch: `active` (its messages go at their `send_at`), `paused` (held until
    /// resumed; a time passed meanwhile sends at the resume), `cancelled` (never sent).
    pub enum BatchState {
        Active = "active" / "Active",
        Paused = "paused" / "Paused",
        Cancelled = "cancelled" / "Cancelled",
    }
);

/// A batch (`batch_id`) and its messages' schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduledBatch {
    pub batch_id: String,
    pub state: BatchState,
    /// Messages of the batch in all, and those still waiting for their send time (or paused).
    pub messages: u32,
    pub waiting: u32,
    /// The earliest `send_at` among the waiting messages (ISO 8601 UTC).
    pub next_send_at: Option<String>,
}

/// The `mail_settings` of a send (the v3 API's names).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MailSettings {
    /// Transactional mail: send to suppressed recipients anyway (each is recorded on the
    /// message as `bypassed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bypass_list_management: Option<Enable>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Enable {
    pub enable: bool,
}

/// Whether `id` may name a batch: `batch_…` or a send's `req_…`, letters and digits after.
///
/// ```
/// use moneydesk_model::email::suppressions::batch_id_ok;
/// assert!(batch_id_ok("batch_0a1b") && batch_id_ok("req_9f"));
/// assert!(!batch_id_ok("batch_") && !batch_id_ok("x_1") && !batch_id_ok("batch_a/b"));
/// ```
pub fn batch_id_ok(id: &str) -> bool {
    let rest = id.strip_prefix("batch_").or_else(|| id.strip_prefix("req_"));
    rest.is_some_and(|r| (1..=60).contains(&r.len()) && r.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}
