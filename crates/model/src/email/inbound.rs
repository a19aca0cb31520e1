//! Inbound mail (description section 6, "announced as coming soon"; extension): per domain, a
//! route — the URL to which every message received for the domain is posted as
//! multipart/form-data, signed with the route's secret. Mail arrives by SMTP (the server's
//! listener, the domain's MX pointing at it) or as raw MIME posted to
//! [`crate::paths::EMAIL_INBOUND_MESSAGES`]. Each message is kept with every delivery attempt.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// The request headers of a webhook POST. The signature is
/// `v1=` + hex(HMAC-SHA256(secret, timestamp + "." + body)), the timestamp Unix seconds; a
/// receiver recomputes it over the raw body and refuses a timestamp far from its clock.
pub const SIGNATURE_HEADER: &str = "Moneydesk-Signature";
pub const TIMESTAMP_HEADER: &str = "Moneydesk-Timestamp";
/// The inbound message's id: the same on every attempt, so a receiver can drop a repeat.
pub const DELIVERY_HEADER: &str = "Moneydesk-Delivery";
pub const ATTEMPT_HEADER: &str = "Moneydesk-Attempt";

/// The names of the form's parts, in the order they are sent (then `attachment1..N`).
pub const FORM_PARTS: [&str; 12] = [
    "headers",
    "text",
    "html",
    "from",
    "to",
    "cc",
    "subject",
    "envelope",
    "charsets",
    "spam_score",
    "attachments",
    "attachment-info",
];

/// POST `…/email/inbound/routes`: `{"domain": "in.bank.example", "url": "https://…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewInboundRoute {
    pub domain: String,
    pub url: String,
}

/// PUT `…/email/inbound/routes/{domain}`: `{"url": "https://…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct InboundRouteUpdate {
    pub url: String,
}

/// A route as listed: the secret itself is only in [`InboundSecret`], asked for on purpose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundRoute {
    /// ASCII, lowercase (Unicode domains as A-labels).
    pub domain: String,
    pub url: String,
    /// The MX record the domain needs so that mail reaches the server's listener:
    /// `<domain> MX 10 mx.<service domain>`.
    pub mx_host: String,
    /// The secret's last four characters, to tell secrets apart.
    pub secret_hint: String,
    pub created_at: String,
    pub secret_rotated_at: String,
    /// Messages received for the domain in all, and those whose delivery gave up.
    pub received: u64,
    pub failed: u64,
}

/// GET or POST (rotate) `…/email/inbound/routes/{domain}/secret`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundSecret {
    pub domain: String,
    /// `whsec_` and 43 base64url characters; the HMAC key is this whole text's bytes.
    pub secret: String,
    pub rotated_at: String,
}

vocabulary!(
    /// Where an inbound message's delivery stands: `pending` (due, or waiting for its next
    /// attempt), `delivering` (an attempt under way), `delivered` (the receiver answered 2xx),
    /// `failed` (no 2xx before the retry window closed, or the route is gone).
    ///
    /// ```
    /// use moneydesk_model::email::inbound::InboundState;
    /// assert_eq!(InboundState::Delivered.as_str(), "delivered");
    /// assert_eq!(serde_json::to_value(InboundState::Failed).unwrap(), "failed");
    /// assert_eq!("pending".parse::<InboundState>(), Ok(InboundState::Pending));
    /// assert!("sent".parse::<InboundState>().is_err());
    /// ```
    pub enum InboundState {
        Pending = "pending" / "Pending",
        Delivering = "delivering" / "Delivering",
        Delivered = "delivered" / "Delivered",
        Failed = "failed" / "Failed",
    }
    from_str: String = |s: &str| format!("no inbound state {s:?}");
);

/// An inbound message as listed (newest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundMessage {
    pub id: String,
    pub domain: String,
    /// The envelope: SMTP's MAIL FROM (empty for a bounce) and the RCPT TO addresses of this
    /// domain.
    pub mail_from: String,
    pub rcpt_to: Vec<String>,
    /// The `From` and `Subject` headers, decoded.
    pub from: String,
    pub subject: String,
    /// Size of the raw message in bytes.
    pub size: u64,
    /// `smtp` or `api`.
    pub received_by: String,
    pub received_at: String,
    pub state: InboundState,
    pub attempts: u32,
    /// When the next attempt is due (pending ones).
    pub next_attempt_at: Option<String>,
    /// The last attempt's outcome in words (`200 OK`, `503 Service Unavailable`, `connection
    /// refused`).
    pub last_result: Option<String>,
}

/// One POST to the receiver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundAttempt {
    pub number: u32,
    pub url: String,
    pub started_at: String,
    /// How long the receiver took, when it answered.
    pub duration_ms: Option<u64>,
    /// The receiver's HTTP status; none when it could not be reached.
    pub status: Option<u16>,
    /// The status line, or why there was none; the first 500 characters of the receiver's
    /// answer follow.
    pub result: String,
}

/// One inbound message with its attempts and what was parsed from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundDetail {
    #[serde(flatten)]
    pub message: InboundMessage,
    pub attempts_made: Vec<InboundAttempt>,
    /// The attachments as the form's `attachment-info` describes them.
    pub attachments: Vec<InboundAttachment>,
}

/// An attachment of an inbound message (`attachment-info` of the form, keyed `attachmentN`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundAttachment {
    pub filename: String,
    #[serde(rename = "type")]
    pub content_type: String,
    pub size: u64,
    #[serde(rename = "content-id", skip_serializing_if = "Option::is_none")]
    pub content_id: Option<String>,
}

/// POST `…/email/inbound/messages` (raw MIME) answers the messages it made: one per domain
/// among the recipients that has a route.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboundReceipt {
    pub ids: Vec<String>,
}

/// Whether `url` may be a route's URL: `http` or `https`, with a host, no credentials, at most
/// 2000 characters. Private addresses are allowed: receivers of a back office are often on its
/// own network.
///
/// ```
/// use moneydesk_model::email::inbound::check_url;
/// assert!(check_url("https://hooks.bank.example/inbound").is_ok());
/// assert!(check_url("http://127.0.0.1:8080/mail").is_ok());
/// assert!(check_url("ftp://bank.example/").is_err());
/// assert!(check_url("https://user:pw@bank.example/").is_err());
/// assert!(check_url("not a url").is_err());
/// ```
pub fn check_url(url: &str) -> Result<(), String> {
    let url = url.trim();
    if url.len() > 2000 {
        return Err("the URL is longer than 2000 characters".into());
    }
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("{url:?} is not a URL (like https://hooks.bank.example/inbound)"))?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(format!("the URL must be http or https, not {scheme}"));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Err("the URL must not carry a user name or password: the signature authenticates the server".into());
    }
    let host = authority.rsplit_once(':').map(|(h, _)| h).unwrap_or(authority);
    if host.is_empty() || host.contains(char::is_whitespace) || url.contains(char::is_control) {
        return Err(format!("{url:?} has no host"));
    }
    Ok(())
}
