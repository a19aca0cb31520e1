//! The send request (CONTRACT.md point 13: the shape of the v3 mail-send API) and every rule it
//! must pass. The request is read leniently (strings as given) so that [`SendRequest::check`]
//! can name the exact field of each problem (`personalizations[3].to[0].email`); what passes
//! comes out as a [`SendPlan`] of checked values, the only thing the server queues. The portal
//! runs the same check before it sends.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod check;

pub use check::header_text_problem;

use super::address::EmailAddress;
use crate::vocabulary::vocabulary;

/// 1 to 1000 personalizations (each one message).
pub const MAX_PERSONALIZATIONS: usize = 1000;
/// To, cc and bcc of every personalization together.
pub const MAX_RECIPIENTS: usize = 1000;
/// The whole request's subjects, contents and decoded attachments: 30 MiB.
pub const MAX_TOTAL_BYTES: usize = 30 * 1024 * 1024;
/// `send_at` at most 72 hours ahead.
pub const MAX_SCHEDULE_AHEAD_SECS: i64 = 72 * 3600;
pub const MAX_ATTACHMENTS: usize = 100;
pub const MAX_CATEGORIES: usize = 10;
/// RFC 5322's line limit, for a subject before encoding.
pub const MAX_SUBJECT_BYTES: usize = 998;
pub const MAX_FILENAME_BYTES: usize = 255;
/// What the server's body limit must let through: the 30 MiB in base64 and JSON around it.
pub const MAX_REQUEST_BYTES: usize = MAX_TOTAL_BYTES / 3 * 4 + 8 * 1024 * 1024;

pub const TEXT_PLAIN: &str = "text/plain";
pub const TEXT_HTML: &str = "text/html";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SendRequest {
    /// The sender: one of the server's identities (GET …/email/senders).
    pub from: Mailbox,
    /// The subject of every personalization that has none of its own (and, with a template,
    /// overrides the template's subject).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// `text/plain` and/or `text/html`, plain first. Absent with `template_id`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub content: Vec<Content>,
    /// One message each: 1 to 1000.
    #[cfg_attr(feature = "openapi", schema(min_items = 1, max_items = 1000))]
    pub personalizations: Vec<Personalization>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// A stored template (`tmpl_…`); its latest version renders each personalization's subject,
    /// text and HTML from its `dynamic_template_data`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9_-]{1,64}$"))]
    pub template_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<Mailbox>,
    /// Unix seconds; at most 72 hours ahead. A time already past sends now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_at: Option<i64>,
    /// At most 10, each given once: 1 to 255 characters, not only blanks, no control characters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(schema_with = categories_schema))]
    pub categories: Vec<String>,
    /// The batch (`batch_…` from POST …/email/batches) the messages join, so a scheduled send
    /// can be paused or cancelled with others; absent: the request's own (`req_…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail_settings: Option<super::suppressions::MailSettings>,
}

/// What a category holds (`check.rs` refuses anything else): a text with a visible character
/// and no control character (Unicode's Cc), at most 255 characters.
pub const CATEGORY_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$";

#[cfg(feature = "openapi")]
fn categories_schema() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    let item = ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(255))
        .pattern(Some(CATEGORY_PATTERN));
    ArrayBuilder::new().items(item).max_items(Some(MAX_CATEGORIES)).unique_items(true).build()
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mailbox {
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub email: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Content {
    /// `text/plain` or `text/html`.
    #[serde(rename = "type")]
    pub kind: String,
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Personalization {
    /// Required, at least one.
    #[cfg_attr(feature = "openapi", schema(min_items = 1))]
    pub to: Vec<Mailbox>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cc: Vec<Mailbox>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bcc: Vec<Mailbox>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The template's variables for this message (needs `template_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub dynamic_template_data: Option<Map<String, Value>>,
    /// Unix seconds; overrides the request's `send_at` for this message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_at: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attachment {
    /// Base64 (standard alphabet; line breaks allowed).
    pub content: String,
    pub filename: String,
    /// The media type (`application/pdf`); `application/octet-stream` when absent.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `attachment` (the default) or `inline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disposition: Option<String>,
    /// Required for `inline`: the HTML refers to it as `cid:<content_id>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_id: Option<String>,
}

vocabulary!(
    pub enum Disposition {
        Attachment = "attachment",
        Inline = "inline",
    }
);

/// A checked address with its display name (no CR, LF or other control characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedMailbox {
    pub email: EmailAddress,
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedAttachment {
    /// The last path segment of what was given, without control characters.
    pub filename: String,
    pub content_type: String,
    pub disposition: Disposition,
    pub content_id: Option<String>,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CheckedPersonalization {
    pub to: Vec<CheckedMailbox>,
    pub cc: Vec<CheckedMailbox>,
    pub bcc: Vec<CheckedMailbox>,
    /// Its own subject, else the request's; `None` only with a template (the template's).
    pub subject: Option<String>,
    pub data: Map<String, Value>,
    /// Unix seconds, if later than now.
    pub send_at: Option<i64>,
}

/// A request that passed every rule: what the server renders and queues.
#[derive(Debug, Clone, PartialEq)]
pub struct SendPlan {
    pub from: CheckedMailbox,
    pub reply_to: Option<CheckedMailbox>,
    pub text: Option<String>,
    pub html: Option<String>,
    pub template_id: Option<String>,
    pub attachments: Vec<CheckedAttachment>,
    pub categories: Vec<String>,
    pub personalizations: Vec<CheckedPersonalization>,
    /// A batch named by the request (checked in form only: the server knows which exist).
    pub batch_id: Option<String>,
    /// `mail_settings.bypass_list_management.enable`.
    pub bypass_list_management: bool,
}

/// Standard base64, padded or not; line breaks (as MIME wraps it) are skipped.
///
/// ```
/// use moneydesk_model::email::send::decode_base64;
/// assert_eq!(decode_base64("aGVs\r\nbG8=").unwrap(), b"hello");
/// assert!(decode_base64("aGVsbG8*").unwrap_err().contains("offset 7"));
/// ```
pub fn decode_base64(s: &str) -> Result<Vec<u8>, String> {
    use base64::Engine;
    let engine = base64::engine::GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        base64::engine::GeneralPurposeConfig::new()
            .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
    );
    let compact: Vec<u8> = s.bytes().filter(|b| !b" \t\r\n".contains(b)).collect();
    engine.decode(compact).map_err(|e| format!("is not base64: {e}"))
}

/// Standard base64 with padding (the portal's attachments; the server's tests).
///
/// ```
/// use moneydesk_model::email::send::encode_base64;
/// assert_eq!(encode_base64(b"hello"), "aGVsbG8=");
/// ```
pub fn encode_base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests;
