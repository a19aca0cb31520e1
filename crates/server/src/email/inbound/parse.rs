//! An inbound message parsed (mail-parser: headers, encoded words, charsets, transfer
//! encodings, nested multiparts) and written as the webhook's multipart/form-data body.
//!
//! Every text part of the form is UTF-8: the parser converts each charset, and `charsets`
//! says which one each field was written in. The body is encoded here rather than by an HTTP
//! client's form builder because the signature covers its exact bytes.

use std::collections::BTreeMap;

use mail_parser::{Address, MessageParser, MimeHeaders};
use moneydesk_model::email::inbound::InboundAttachment;
use serde_json::json;

/// What the form is made of.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The header section as received (unfolded lines kept as they were).
    pub headers: String,
    pub text: Option<String>,
    pub html: Option<String>,
    /// Decoded, `Name <address>` joined with `, `.
    pub from: String,
    pub to: String,
    pub cc: String,
    pub subject: String,
    /// The charset each field was written in.
    pub charsets: BTreeMap<&'static str, String>,
    /// `X-Spam-Score` when a filter before the server set one.
    pub spam_score: Option<String>,
    pub attachments: Vec<(InboundAttachment, Vec<u8>)>,
    /// The bare addresses of `To` and `Cc`, and of `From`'s first: the envelope of a message
    /// posted to the API without one.
    pub recipient_addresses: Vec<String>,
    pub sender_address: Option<String>,
}

/// The envelope of an SMTP transaction (or of a raw message posted to the API).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    pub from: String,
    pub to: Vec<String>,
}

/// Parses a raw message. A message without a header section is refused (RFC 5322 §2.1
/// requires one); anything else the parser can read is taken, damaged MIME included (a part
/// without its closing boundary ends where the message does).
///
/// ```
/// use moneydesk_server::email::inbound::parse::parse;
/// let p = parse(b"From: =?ISO-8859-1?Q?Ren=E9?= <rene@bank.example>\r\nSubject: Hi\r\n\r\nBody\r\n").unwrap();
/// assert_eq!(p.from, "Ren\u{e9} <rene@bank.example>");
/// assert_eq!(p.charsets["from"], "iso-8859-1");
/// assert_eq!(p.text.as_deref(), Some("Body\r\n"));
/// assert!(parse(b"").is_err());
/// assert!(parse(b"just some words, no header at all").is_err());
/// ```
pub fn parse(raw: &[u8]) -> Result<Parsed, String> {
    let message = MessageParser::default().parse(raw).ok_or("the message is empty")?;
    if message.headers().is_empty()
        || message.headers().iter().all(|h| matches!(h.value(), mail_parser::HeaderValue::Empty))
    {
        return Err(
            "the message has no header section (RFC 5322 §2.1: header fields, a blank line, then the body)".into()
        );
    }
    let body_at = (message.root_part().raw_body_offset() as usize).min(raw.len());
    let headers = String::from_utf8_lossy(&raw[..body_at]).trim_end_matches(['\r', '\n']).to_string();
    let text_part = message.text_part(0).filter(|p| p.is_text() && !p.is_text_html());
    let html_part = message.html_part(0).filter(|p| p.is_text_html());
    let mut charsets = BTreeMap::new();
    for (field, header) in [("from", "From"), ("to", "To"), ("cc", "Cc"), ("subject", "Subject")] {
        charsets.insert(field, header_charset(message.header_raw(header)));
    }
    for (field, part) in [("text", text_part), ("html", html_part)] {
        if let Some(p) = part {
            let declared = p.content_type().and_then(|c| c.attribute("charset")).map(str::to_ascii_lowercase);
            charsets.insert(field, declared.unwrap_or_else(|| "us-ascii".into()));
        }
    }
    let spam_score =
        message.header_raw("X-Spam-Score").map(str::trim).filter(|s| s.parse::<f64>().is_ok()).map(str::to_string);
    let attachments = message
        .attachments()
        .enumerate()
        .map(|(i, a)| {
            let content_type = a
                .content_type()
                .map(|c| match c.subtype() {
                    Some(sub) => format!("{}/{}", c.ctype(), sub),
                    None => c.ctype().to_string(),
                })
                .filter(|t| is_token_type(t))
                .unwrap_or_else(|| "application/octet-stream".into())
                .to_ascii_lowercase();
            let bytes = a.contents().to_vec();
            let info = InboundAttachment {
                filename: a.attachment_name().map(str::to_string).unwrap_or_else(|| format!("attachment{}", i + 1)),
                content_type,
                size: bytes.len() as u64,
                content_id: a.content_id().map(|c| c.trim_matches(['<', '>']).to_string()),
            };
            (info, bytes)
        })
        .collect();
    let bare = |a: Option<&Address>| {
        a.map(|a| a.iter().filter_map(|x| x.address().map(str::to_string)).collect::<Vec<_>>()).unwrap_or_default()
    };
    let mut recipient_addresses = bare(message.to());
    recipient_addresses.extend(bare(message.cc()));
    Ok(Parsed {
        recipient_addresses,
        sender_address: bare(message.from()).into_iter().next(),
        headers,
        text: text_part.and_then(|p| p.text_contents()).map(str::to_string),
        html: html_part.and_then(|p| p.text_contents()).map(str::to_string),
        from: addresses(message.from()),
        to: addresses(message.to()),
        cc: addresses(message.cc()),
        subject: message.subject().unwrap_or("").to_string(),
        charsets,
        spam_score,
        attachments,
    })
}

fn addresses(a: Option<&Address>) -> String {
    let Some(a) = a else { return String::new() };
    a.iter()
        .map(|x| match (x.name(), x.address()) {
            (Some(n), Some(addr)) => format!("{n} <{addr}>"),
            (None, Some(addr)) => addr.to_string(),
            (Some(n), None) => n.to_string(),
            (None, None) => String::new(),
        })
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The charset of a header's first encoded word (`=?ISO-8859-1?Q?…?=` → `iso-8859-1`), else
/// `utf-8` (what an unencoded header is read as: RFC 6532).
fn header_charset(raw: Option<&str>) -> String {
    raw.and_then(|v| v.split("=?").nth(1))
        .and_then(|w| w.split('?').next())
        // RFC 2231 §5: a language may follow the charset (`UTF-8*en`).
        .map(|c| c.split('*').next().unwrap_or(c).to_ascii_lowercase())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "utf-8".into())
}

fn is_token_type(t: &str) -> bool {
    let mut halves = t.split('/');
    let ok = |s: Option<&str>| {
        s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b)))
    };
    ok(halves.next()) && ok(halves.next()) && halves.next().is_none()
}

/// The form: `(boundary, body)`. Parts in [`FORM_PARTS`]' order (`text`, `html` and
/// `spam_score` only when the message has them), then `attachment1..N` with their file names
/// and types.
///
/// [`FORM_PARTS`]: moneydesk_model::email::inbound::FORM_PARTS
pub fn form(p: &Parsed, envelope: &Envelope) -> (String, Vec<u8>) {
    let boundary = format!("moneydesk-{}", uuid::Uuid::new_v4().simple());
    let mut body = Vec::with_capacity(
        p.headers.len()
            + p.text.as_ref().map_or(0, String::len) * 2
            + p.attachments.iter().map(|(a, _)| a.size as usize + 200).sum::<usize>()
            + 2048,
    );
    let mut field = |name: &str, value: &[u8], json: bool| {
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n").as_bytes(),
        );
        let kind = if json { "application/json" } else { "text/plain; charset=utf-8" };
        body.extend_from_slice(format!("Content-Type: {kind}\r\n\r\n").as_bytes());
        body.extend_from_slice(value);
        body.extend_from_slice(b"\r\n");
    };
    field("headers", p.headers.as_bytes(), false);
    if let Some(t) = &p.text {
        field("text", t.as_bytes(), false);
    }
    if let Some(h) = &p.html {
        field("html", h.as_bytes(), false);
    }
    field("from", p.from.as_bytes(), false);
    field("to", p.to.as_bytes(), false);
    field("cc", p.cc.as_bytes(), false);
    field("subject", p.subject.as_bytes(), false);
    field("envelope", json!({"from": envelope.from, "to": envelope.to}).to_string().as_bytes(), true);
    field("charsets", serde_json::to_string(&p.charsets).expect("strings serialize").as_bytes(), true);
    if let Some(s) = &p.spam_score {
        field("spam_score", s.as_bytes(), false);
    }
    field("attachments", p.attachments.len().to_string().as_bytes(), false);
    let info: serde_json::Map<String, serde_json::Value> = p
        .attachments
        .iter()
        .enumerate()
        .map(|(i, (a, _))| (format!("attachment{}", i + 1), serde_json::to_value(a).expect("serializes")))
        .collect();
    field("attachment-info", serde_json::Value::Object(info).to_string().as_bytes(), true);
    for (i, (a, bytes)) in p.attachments.iter().enumerate() {
        // The HTML form encoding's escapes for a file name in a quoted string.
        let filename = a.filename.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A");
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"attachment{}\"; filename=\"{filename}\"\r\nContent-Type: {}\r\n\r\n", i + 1, a.content_type).as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, body)
}
