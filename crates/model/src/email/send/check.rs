//! The rules of a send request (CONTRACT.md point 13), each problem under its field's path.

use std::collections::HashSet;

use super::*;
use crate::FieldError;

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

        if let Some(b) = self.batch_id.as_deref().filter(|b| !crate::email::suppressions::batch_id_ok(b)) {
            p.add("batch_id", format!("{b:?} is not a batch id (`batch_…` from POST …/email/batches)"));
        }
        let batch_id = self.batch_id.clone();
        let bypass_list_management =
            self.mail_settings.as_ref().and_then(|m| m.bypass_list_management.as_ref()).is_some_and(|b| b.enable);
        match (p.0.is_empty(), from) {
            (true, Some(from)) => Ok(SendPlan {
                from,
                reply_to,
                text,
                html,
                template_id,
                attachments,
                categories,
                personalizations,
                batch_id,
                bypass_list_management,
            }),
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
