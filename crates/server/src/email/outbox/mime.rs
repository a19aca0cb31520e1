//! The MIME of a stored message, built with lettre: one part when there is one, else
//! multipart/alternative for plain + HTML, multipart/related around the HTML and its inline
//! images (`Content-ID`), multipart/mixed with attachments. lettre encodes non-ASCII headers
//! (RFC 2047) and bodies (quoted-printable or base64), so the result is 7-bit text. The
//! Message-ID and Date are the ones stored at acceptance: every attempt sends the same bytes.
//! Bcc recipients are in the envelope only (lettre drops the header when formatting).

use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::Message;

use super::store::{attachment_path, StoredMailbox, StoredMessage};
use crate::error::Error;
use crate::storage::blobs::Blobs;

/// `List-Unsubscribe` (RFC 2369), when configured.
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058), with a one-click link.
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

fn mailbox(m: &StoredMailbox) -> Result<Mailbox, Error> {
    let address = m.email.parse().map_err(|e| Error::internal(format_args!("stored address {:?}: {e}", m.email)))?;
    Ok(Mailbox::new(m.name.clone(), address))
}

/// Builds the message from its stored parts and its attachments' bytes (in the stored order).
pub fn build(m: &StoredMessage, contents: &[Vec<u8>], list_unsubscribe: Option<&str>) -> Result<Message, Error> {
    let mut b = Message::builder()
        .from(mailbox(&m.from)?)
        .subject(m.subject.clone())
        .message_id(Some(format!("<{}>", m.message_id)));
    if let Ok(date) = chrono::DateTime::parse_from_rfc2822(&m.date_header) {
        b = b.date(std::time::SystemTime::from(date));
    }
    for to in &m.recipients.to {
        b = b.to(mailbox(to)?);
    }
    for cc in &m.recipients.cc {
        b = b.cc(mailbox(cc)?);
    }
    for bcc in &m.recipients.bcc {
        b = b.bcc(mailbox(bcc)?);
    }
    if let Some(r) = &m.reply_to {
        b = b.reply_to(mailbox(r)?);
    }
    if let Some(l) = list_unsubscribe {
        b = b.header(ListUnsubscribe(l.to_string()));
        if crate::email::suppressions::unsubscribe::one_click(l) {
            b = b.header(ListUnsubscribePost);
        }
    }

    let content_type = |t: &str| {
        ContentType::parse(t).unwrap_or(ContentType::parse("application/octet-stream").expect("a media type"))
    };
    let (mut inline, mut attached) = (Vec::new(), Vec::new());
    for (a, bytes) in m.attachments.iter().zip(contents) {
        match (&a.content_id, a.disposition.as_str()) {
            (Some(cid), "inline") => {
                inline.push(Attachment::new_inline(cid.clone()).body(bytes.clone(), content_type(&a.content_type)))
            }
            _ => attached.push(Attachment::new(a.filename.clone()).body(bytes.clone(), content_type(&a.content_type))),
        }
    }
    // Inline images belong with the HTML that shows them; with no HTML they are attachments.
    let html = m.html.clone().map(|h| {
        if inline.is_empty() {
            Part::Single(SinglePart::html(h))
        } else {
            let related =
                inline.drain(..).fold(MultiPart::related().singlepart(SinglePart::html(h)), |r, i| r.singlepart(i));
            Part::Multi(related)
        }
    });
    attached.extend(inline);
    let text = m.text.clone().map(SinglePart::plain);
    let body = match (text, html) {
        (Some(t), Some(h)) => Part::Multi(h.into_multi(MultiPart::alternative().singlepart(t))),
        (Some(t), None) => Part::Single(t),
        (None, Some(h)) => h,
        (None, None) => Part::Single(SinglePart::plain(String::new())),
    };
    let body = if attached.is_empty() {
        body
    } else {
        Part::Multi(
            attached.into_iter().fold(body.into_multi(MultiPart::mixed().build()), |mixed, a| mixed.singlepart(a)),
        )
    };
    match body {
        Part::Single(s) => b.singlepart(s),
        Part::Multi(m) => b.multipart(m),
    }
    .map_err(|e| Error::internal(format_args!("building the message: {e}")))
}

enum Part {
    Single(SinglePart),
    Multi(MultiPart),
}

impl Part {
    /// This part added to `parent`.
    fn into_multi(self, parent: MultiPart) -> MultiPart {
        match self {
            Part::Single(s) => parent.singlepart(s),
            Part::Multi(m) => parent.multipart(m),
        }
    }
}

/// The message with its attachments read from the blob store: its formatted bytes and the
/// message (whose envelope names every recipient, Bcc included).
pub async fn build_with_blobs(
    blobs: &Blobs,
    m: &StoredMessage,
    list_unsubscribe: Option<&str>,
) -> Result<(Vec<u8>, Message), Error> {
    let mut contents = Vec::with_capacity(m.attachments.len());
    for a in &m.attachments {
        let bytes = blobs
            .get(&attachment_path(&a.sha256))
            .await
            .map_err(Error::internal)?
            .bytes()
            .await
            .map_err(Error::internal)?;
        contents.push(bytes.to_vec());
    }
    let message = build(m, &contents, list_unsubscribe)?;
    Ok((message.formatted(), message))
}
