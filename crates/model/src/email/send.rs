//! The send request (CONTRACT.md point 13: the shape of the v3 mail-send API) and every rule it
//! must pass. The request is read leniently (strings as given) so that [`SendRequest::check`]
//! can name the exact field of each problem (`personalizations[3].to[0].email`); what passes
//! comes out as a [`SendPlan`] of checked values, the only thing the server queues. The portal
//! runs the same check before it sends.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::address::EmailAddress;
use crate::FieldError;

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
    pub template_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<Mailbox>,
    /// Unix seconds; at most 72 hours ahead. A time already past sends now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_at: Option<i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mailbox {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Disposition {
    Attachment,
    Inline,
}

impl Disposition {
    pub const fn as_str(self) -> &'static str {
        match self {
            Disposition::Attachment => "attachment",
            Disposition::Inline => "inline",
        }
    }
}

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
}

/// The problems found so far, each under its field path.
struct Problems(Vec<FieldError>);

impl Problems {
    fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        // Enough to fix a request; a thousand bad addresses need not all be listed.
        if self.0.len() < 100 {
            self.0.push(FieldError::new(field, message));
        }
    }
}

/// A header value: no CR or LF (header injection) nor other control characters.
///
/// ```
/// use moneydesk_model::email::send::header_text_problem;
/// assert_eq!(header_text_problem("Your statement"), None);
/// assert!(header_text_problem("Hi\r\nBcc: x@evil.example").unwrap().contains("line break"));
/// ```
pub fn header_text_problem(value: &str) -> Option<&'static str> {
    if value.contains(['\r', '\n']) {
        Some("must not contain a line break (CR or LF)")
    } else if value.chars().any(|c| c.is_control()) {
        Some("must not contain control characters")
    } else {
        None
    }
}

impl SendRequest {
    /// Checks every rule of CONTRACT.md point 13 and the OpenAPI document, at `now` (Unix
    /// seconds): the plan, or every problem found, each naming its field.
    pub fn check(&self, now: i64) -> Result<SendPlan, Vec<FieldError>> {
        let mut p = Problems(Vec::new());
        let mut total: usize = 0;
        let mut seen: HashSet<String> = HashSet::new();
        let mut recipients = 0usize;

        let from = mailbox(&mut p, "from", &self.from);
        let reply_to = self.reply_to.as_ref().and_then(|m| mailbox(&mut p, "reply_to", m));

        if let Some(s) = &self.subject {
            subject(&mut p, "subject", s);
            total += s.len();
        }

        let template_id = match &self.template_id {
            None => None,
            Some(t)
                if t.is_empty()
                    || t.len() > 64
                    || !t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
            {
                p.add("template_id", "is not a template id (letters, digits, `_` and `-`, like tmpl_01HX…)");
                None
            }
            Some(t) => Some(t.clone()),
        };

        let (mut text, mut html) = (None, None);
        if self.template_id.is_some() && !self.content.is_empty() {
            p.add("content", "give either content or template_id, not both (the template makes the content)");
        } else if self.template_id.is_none() && self.content.is_empty() {
            p.add("content", "is required (text/plain and/or text/html) unless template_id is given");
        }
        for (i, c) in self.content.iter().enumerate() {
            let at = format!("content[{i}]");
            total += c.value.len();
            if c.value.is_empty() {
                p.add(format!("{at}.value"), "must not be empty");
            }
            match c.kind.as_str() {
                TEXT_PLAIN if text.is_some() => p.add(format!("{at}.type"), "text/plain is given more than once"),
                TEXT_PLAIN if html.is_some() => p.add(format!("{at}.type"), "text/plain must come before text/html"),
                TEXT_PLAIN => text = Some(c.value.clone()),
                TEXT_HTML if html.is_some() => p.add(format!("{at}.type"), "text/html is given more than once"),
                TEXT_HTML => html = Some(c.value.clone()),
                other => {
                    p.add(format!("{at}.type"), format!("{other:?} is not supported; use text/plain or text/html"))
                }
            }
        }

        let send_at = self.send_at.and_then(|t| schedule(&mut p, "send_at", t, now));

        let n = self.personalizations.len();
        if n == 0 {
            p.add("personalizations", "needs at least one personalization");
        } else if n > MAX_PERSONALIZATIONS {
            p.add(
                "personalizations",
                format!("has {n} personalizations; at most {MAX_PERSONALIZATIONS} are allowed in one request"),
            );
        }
        let mut personalizations = Vec::with_capacity(n.min(MAX_PERSONALIZATIONS));
        for (i, pz) in self.personalizations.iter().enumerate().take(MAX_PERSONALIZATIONS) {
            let at = format!("personalizations[{i}]");
            if pz.to.is_empty() {
                p.add(format!("{at}.to"), "is required: at least one recipient");
            }
            let mut list = |p: &mut Problems, kind: &str, given: &[Mailbox]| -> Vec<CheckedMailbox> {
                let mut out = Vec::with_capacity(given.len());
                for (j, m) in given.iter().enumerate() {
                    let field = format!("{at}.{kind}[{j}]");
                    recipients += 1;
                    if let Some(checked) = mailbox(p, &field, m) {
                        if !seen.insert(checked.email.canonical()) {
                            p.add(
                                format!("{field}.email"),
                                format!(
                                    "{} appears more than once in this request; an address may appear only once",
                                    checked.email
                                ),
                            );
                        }
                        out.push(checked);
                    }
                }
                out
            };
            let to = list(&mut p, "to", &pz.to);
            let cc = list(&mut p, "cc", &pz.cc);
            let bcc = list(&mut p, "bcc", &pz.bcc);
            if let Some(s) = &pz.subject {
                subject(&mut p, &format!("{at}.subject"), s);
                total += s.len();
            }
            let subject = pz.subject.clone().or_else(|| self.subject.clone());
            if subject.as_deref().is_none_or(str::is_empty) && template_id.is_none() && self.template_id.is_none() {
                p.add(format!("{at}.subject"), "is required: give a subject here or for the whole request");
            }
            if pz.dynamic_template_data.is_some() && self.template_id.is_none() {
                p.add(format!("{at}.dynamic_template_data"), "needs template_id: without a template nothing uses it");
            }
            let send_at = pz.send_at.and_then(|t| schedule(&mut p, &format!("{at}.send_at"), t, now)).or(send_at);
            personalizations.push(CheckedPersonalization {
                to,
                cc,
                bcc,
                subject,
                data: pz.dynamic_template_data.clone().unwrap_or_default(),
                send_at,
            });
        }
        if recipients > MAX_RECIPIENTS {
            p.add("personalizations", format!("has {recipients} recipients in all (to, cc and bcc); at most {MAX_RECIPIENTS} are allowed in one request"));
        }

        let mut categories = Vec::new();
        if self.categories.len() > MAX_CATEGORIES {
            p.add(
                "categories",
                format!("has {} categories; at most {MAX_CATEGORIES} are allowed", self.categories.len()),
            );
        }
        for (i, c) in self.categories.iter().enumerate() {
            let at = format!("categories[{i}]");
            if c.trim().is_empty() || c.len() > 255 {
                p.add(at, "must be 1 to 255 characters");
            } else if let Some(why) = header_text_problem(c) {
                p.add(at, why);
            } else if categories.contains(c) {
                p.add(at, format!("{c:?} is given more than once"));
            } else {
                categories.push(c.clone());
            }
        }

        if self.attachments.len() > MAX_ATTACHMENTS {
            p.add(
                "attachments",
                format!("has {} attachments; at most {MAX_ATTACHMENTS} are allowed", self.attachments.len()),
            );
        }
        let mut attachments = Vec::new();
        let mut content_ids = HashSet::new();
        for (i, a) in self.attachments.iter().enumerate().take(MAX_ATTACHMENTS) {
            if let Some(checked) = attachment(&mut p, &format!("attachments[{i}]"), a, &mut content_ids) {
                total += checked.bytes.len();
                attachments.push(checked);
            }
        }

        if total > MAX_TOTAL_BYTES {
            p.add("attachments", format!("the request's subjects, contents and attachments come to {total} bytes; at most {MAX_TOTAL_BYTES} (30 MiB) are allowed"));
        }

        match (p.0.is_empty(), from) {
            (true, Some(from)) => {
                Ok(SendPlan { from, reply_to, text, html, template_id, attachments, categories, personalizations })
            }
            _ => Err(p.0),
        }
    }
}

fn mailbox(p: &mut Problems, at: &str, m: &Mailbox) -> Option<CheckedMailbox> {
    let email = match EmailAddress::parse(&m.email) {
        Ok(e) => Some(e),
        Err(e) => {
            p.add(format!("{at}.email"), e.to_string());
            None
        }
    };
    let name = match m.name.as_deref() {
        None | Some("") => None,
        Some(n) if n.len() > 256 => {
            p.add(format!("{at}.name"), "must be at most 256 bytes");
            None
        }
        Some(n) => match header_text_problem(n) {
            Some(why) => {
                p.add(format!("{at}.name"), why);
                None
            }
            None => Some(n.to_string()),
        },
    };
    email.map(|email| CheckedMailbox { email, name })
}

fn subject(p: &mut Problems, at: &str, s: &str) {
    if let Some(why) = header_text_problem(s) {
        p.add(at, why);
    } else if s.len() > MAX_SUBJECT_BYTES {
        p.add(at, format!("is {} bytes long; at most {MAX_SUBJECT_BYTES} are allowed", s.len()));
    }
}

fn schedule(p: &mut Problems, at: &str, t: i64, now: i64) -> Option<i64> {
    if t > now + MAX_SCHEDULE_AHEAD_SECS {
        p.add(at, format!("is {} hours ahead; a message may be scheduled at most 72 hours ahead", (t - now) / 3600));
        None
    } else if t > now {
        Some(t)
    } else {
        None
    }
}

/// A media type `type/subtype` (parameters allowed), as a header may carry it.
fn media_type_ok(t: &str) -> bool {
    let token = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c));
    let essence = t.split(';').next().unwrap_or("").trim();
    matches!(essence.split_once('/'), Some((a, b)) if token(a) && token(b)) && header_text_problem(t).is_none()
}

fn attachment(
    p: &mut Problems,
    at: &str,
    a: &Attachment,
    content_ids: &mut HashSet<String>,
) -> Option<CheckedAttachment> {
    let before = p.0.len();
    // A path someone pasted is not a name: keep its last segment.
    let filename = a.filename.rsplit(['/', '\\']).next().unwrap_or("").trim().to_string();
    if filename.is_empty() || filename == "." || filename == ".." {
        p.add(format!("{at}.filename"), "is required: a file name like statement.pdf");
    } else if let Some(why) = header_text_problem(&filename) {
        p.add(format!("{at}.filename"), why);
    } else if filename.len() > MAX_FILENAME_BYTES {
        p.add(
            format!("{at}.filename"),
            format!("is {} bytes long; at most {MAX_FILENAME_BYTES} are allowed", filename.len()),
        );
    }
    let content_type = a.kind.clone().unwrap_or_else(|| "application/octet-stream".to_string());
    if !media_type_ok(&content_type) {
        p.add(format!("{at}.type"), format!("{content_type:?} is not a media type like application/pdf"));
    }
    let disposition = match a.disposition.as_deref() {
        None | Some("attachment") => Disposition::Attachment,
        Some("inline") => Disposition::Inline,
        Some(other) => {
            p.add(format!("{at}.disposition"), format!("{other:?} is neither attachment nor inline"));
            Disposition::Attachment
        }
    };
    let content_id = match a.content_id.as_deref() {
        None | Some("") if disposition == Disposition::Inline => {
            p.add(format!("{at}.content_id"), "is required for an inline attachment (the HTML refers to it as cid:…)");
            None
        }
        None | Some("") => None,
        Some(id) if id.len() > 255 || !id.chars().all(|c| c.is_ascii_graphic() && !"<>\"\\()[],;:".contains(c)) => {
            p.add(
                format!("{at}.content_id"),
                "must be 1 to 255 printable characters without spaces, <, >, quotes, brackets or separators",
            );
            None
        }
        Some(id) if !content_ids.insert(id.to_string()) => {
            p.add(format!("{at}.content_id"), format!("{id:?} is used by another attachment"));
            None
        }
        Some(id) => Some(id.to_string()),
    };
    let bytes = match decode_base64(&a.content) {
        Ok(b) if b.is_empty() => {
            p.add(format!("{at}.content"), "is empty");
            None
        }
        Ok(b) => Some(b),
        Err(why) => {
            p.add(format!("{at}.content"), why);
            None
        }
    };
    match bytes {
        Some(bytes) if p.0.len() == before => {
            Some(CheckedAttachment { filename, content_type, disposition, content_id, bytes })
        }
        _ => None,
    }
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
mod tests {
    use serde_json::json;

    use super::*;

    const NOW: i64 = 1_790_000_000;

    fn request(v: Value) -> SendRequest {
        serde_json::from_value(v).expect("the shape parses")
    }

    fn plain() -> Value {
        json!({
            "from": {"email": "ops@bank.example", "name": "Operations"},
            "subject": "Your statement",
            "content": [{"type": "text/plain", "value": "Hello"}, {"type": "text/html", "value": "<p>Hello</p>"}],
            "personalizations": [{"to": [{"email": "a@client.example"}]}]
        })
    }

    fn fields(v: Value) -> Vec<String> {
        request(v).check(NOW).expect_err("refused").into_iter().map(|e| e.field).collect()
    }

    #[test]
    fn a_plain_and_html_message_passes_with_its_parts_in_place() {
        let plan = request(plain()).check(NOW).unwrap();
        assert_eq!(plan.text.as_deref(), Some("Hello"));
        assert_eq!(plan.html.as_deref(), Some("<p>Hello</p>"));
        assert_eq!(plan.personalizations[0].subject.as_deref(), Some("Your statement"));
    }

    #[test]
    fn each_problem_names_its_field_path() {
        let mut v = plain();
        v["personalizations"] = json!([
            {"to": [{"email": "a@client.example"}]},
            {"to": [{"email": "b@client.example"}, {"email": "not-an-address"}], "cc": [{"email": "A@client.example"}]},
            {"to": [], "cc": [{"email": "c@client.example"}]}
        ]);
        assert_eq!(
            fields(v),
            ["personalizations[1].to[1].email", "personalizations[1].cc[0].email", "personalizations[2].to"]
        );
    }

    #[test]
    fn html_before_plain_and_a_type_twice_are_refused() {
        let mut v = plain();
        v["content"] = json!([{"type": "text/html", "value": "<p>x</p>"}, {"type": "text/plain", "value": "x"}, {"type": "text/plain", "value": ""}]);
        assert_eq!(fields(v), ["content[1].type", "content[2].value", "content[2].type"]);
    }

    #[test]
    fn line_breaks_in_header_values_are_refused() {
        let mut v = plain();
        v["subject"] = json!("Hi\r\nBcc: x@evil.example");
        v["from"]["name"] = json!("Ops\nX-Evil: 1");
        v["categories"] = json!(["a\rb"]);
        assert_eq!(fields(v), ["from.name", "subject", "categories[0]"]);
    }

    #[test]
    fn more_than_a_thousand_personalizations_or_recipients_are_refused() {
        let mut v = plain();
        v["personalizations"] =
            json!((0..1001).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect::<Vec<_>>());
        assert_eq!(fields(v.clone()), ["personalizations"]);
        v["personalizations"] = json!((0..500).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}], "cc": [{"email": format!("c{i}@client.example")}], "bcc": [{"email": format!("b{i}@client.example")}]})).collect::<Vec<_>>());
        assert_eq!(fields(v), ["personalizations"]);
    }

    #[test]
    fn send_at_may_be_at_most_72_hours_ahead() {
        let mut v = plain();
        v["send_at"] = json!(NOW + MAX_SCHEDULE_AHEAD_SECS);
        assert_eq!(
            request(v.clone()).check(NOW).unwrap().personalizations[0].send_at,
            Some(NOW + MAX_SCHEDULE_AHEAD_SECS)
        );
        v["send_at"] = json!(NOW + MAX_SCHEDULE_AHEAD_SECS + 1);
        assert_eq!(fields(v), ["send_at"]);
    }

    #[test]
    fn attachments_are_decoded_and_their_names_kept_to_the_last_segment() {
        let mut v = plain();
        v["attachments"] = json!([
            {"content": encode_base64(b"%PDF-1.7"), "filename": "C:\\tmp\\statement.pdf", "type": "application/pdf"},
            {"content": "***", "filename": "x.bin"},
            {"content": encode_base64(b"png"), "filename": "logo.png", "disposition": "inline"}
        ]);
        assert_eq!(fields(v.clone()), ["attachments[1].content", "attachments[2].content_id"]);
        v["attachments"].as_array_mut().unwrap().truncate(1);
        let plan = request(v).check(NOW).unwrap();
        assert_eq!(plan.attachments[0].filename, "statement.pdf");
        assert_eq!(plan.attachments[0].bytes, b"%PDF-1.7");
    }

    #[test]
    fn more_than_30_mib_in_all_is_refused() {
        let mut v = plain();
        v["attachments"] = json!([{"content": encode_base64(&vec![0u8; MAX_TOTAL_BYTES]), "filename": "big.bin"}]);
        assert_eq!(fields(v), ["attachments"]);
    }

    #[test]
    fn a_template_replaces_content_and_template_data_needs_a_template() {
        let mut v = plain();
        v["template_id"] = json!("tmpl_statement");
        assert_eq!(fields(v.clone()), ["content"]);
        v.as_object_mut().unwrap().remove("content");
        v.as_object_mut().unwrap().remove("subject");
        v["personalizations"][0]["dynamic_template_data"] = json!({"first_name": "Ada"});
        let plan = request(v.clone()).check(NOW).unwrap();
        assert_eq!(plan.personalizations[0].subject, None);
        assert_eq!(plan.personalizations[0].data["first_name"], "Ada");
        v.as_object_mut().unwrap().remove("template_id");
        v["content"] = json!([{"type": "text/plain", "value": "x"}]);
        assert_eq!(fields(v), ["personalizations[0].subject", "personalizations[0].dynamic_template_data"]);
    }
}
