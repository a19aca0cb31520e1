//! Reading a report: a delivery status notification (RFC 3464: `multipart/report;
//! report-type=delivery-status`, a `message/delivery-status` part with one field group per
//! recipient) or a feedback report (RFC 5965: `report-type=feedback-report`, a
//! `message/feedback-report` part), and the returned message or its headers
//! (`message/rfc822`, `text/rfc822-headers`) for its Message-ID. mail-parser splits the MIME
//! and undoes transfer encodings; the report's own fields (RFC 822-style groups) are read here.

use mail_parser::{MessageParser, MimeHeaders};
use moneydesk_model::email::bounces::BounceKind;

/// What a report says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    DeliveryStatus { recipients: Vec<RecipientStatus>, returned: Returned },
    Feedback { feedback_type: String, original_rcpt_to: Vec<String>, returned: Returned },
}

/// One recipient group of a delivery status notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipientStatus {
    /// `Original-Recipient` (else `Final-Recipient`), lowercase, without its address type.
    pub address: String,
    /// `failed`, `delayed`, `delivered`, `relayed`, `expanded` (lowercase).
    pub action: String,
    /// The enhanced status code (`5.1.1`).
    pub status: Option<String>,
    /// `Diagnostic-Code` without its type (`smtp;`), unfolded.
    pub diagnostic: Option<String>,
}

/// The returned message (or its headers): what names the original.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Returned {
    /// Without angle brackets.
    pub message_id: Option<String>,
    /// Its `To` addresses, lowercase.
    pub to: Vec<String>,
}

impl Report {
    pub fn returned(&self) -> &Returned {
        match self {
            Report::DeliveryStatus { returned, .. } | Report::Feedback { returned, .. } => returned,
        }
    }

    /// `delivery-status` or `feedback-report`.
    pub fn report_type(&self) -> &'static str {
        match self {
            Report::DeliveryStatus { .. } => "delivery-status",
            Report::Feedback { .. } => "feedback-report",
        }
    }
}

impl RecipientStatus {
    /// A hard bounce (`failed` with a 5.x.x status, or no status), a soft one (`delayed`, or a
    /// 4.x.x status), or nothing (`delivered`, `relayed`, `expanded`: the mail went on).
    pub fn kind(&self) -> Option<BounceKind> {
        let class = self.status.as_deref().and_then(|s| s.chars().next());
        match (self.action.as_str(), class) {
            (_, Some('4')) | ("delayed", _) => Some(BounceKind::Soft),
            ("failed", _) => Some(BounceKind::Hard),
            ("", Some('5')) => Some(BounceKind::Hard),
            _ => None,
        }
    }
}

/// Diagnostics are kept to this many characters (a remote server's text can run long).
const MAX_DIAGNOSTIC: usize = 1000;

/// Reads a report; `Err` says why it is not one (it is then kept as unparseable).
pub fn read(raw: &[u8]) -> Result<Report, String> {
    let message = MessageParser::default().parse(raw).ok_or("the message is empty")?;
    let root_type = message.content_type();
    let is_report = root_type.is_some_and(|c| {
        c.ctype().eq_ignore_ascii_case("multipart") && c.subtype().is_some_and(|s| s.eq_ignore_ascii_case("report"))
    });
    let declared = root_type.and_then(|c| c.attribute("report-type")).map(str::to_ascii_lowercase);
    let mut status_part = None;
    let mut feedback_part = None;
    let mut returned = Returned::default();
    for part in message.parts.iter().skip(1) {
        let Some(ct) = part.content_type() else { continue };
        let kind = format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or("")).to_ascii_lowercase();
        match kind.as_str() {
            "message/delivery-status" | "message/global-delivery-status" if status_part.is_none() => {
                status_part = Some(part.contents())
            }
            "message/feedback-report" if feedback_part.is_none() => feedback_part = Some(part.contents()),
            "message/rfc822"
            | "message/global"
            | "text/rfc822-headers"
            | "message/rfc822-headers"
            | "message/global-headers"
                if returned.message_id.is_none() =>
            {
                returned = read_returned(part.contents())
            }
            _ => {}
        }
    }
    if !is_report {
        return Err(format!(
            "not a report: the message is {}, not multipart/report (RFC 3464, RFC 5965)",
            root_type
                .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
                .unwrap_or_else(|| "text/plain".into())
        ));
    }
    match (declared.as_deref(), status_part, feedback_part) {
        (Some("feedback-report"), _, Some(fields)) | (None, None, Some(fields)) => {
            let groups = groups(fields);
            let all: Vec<&(String, String)> = groups.iter().flatten().collect();
            let get = |name: &str| -> Vec<String> {
                all.iter().filter(|(n, _)| n == name).map(|(_, v)| v.trim().to_string()).collect()
            };
            let feedback_type = get("feedback-type")
                .first()
                .map(|v| v.split_whitespace().next().unwrap_or("").to_ascii_lowercase())
                .filter(|v| !v.is_empty())
                .ok_or("the feedback report has no Feedback-Type")?;
            let original_rcpt_to = get("original-rcpt-to").iter().filter_map(|a| bare_address(a)).collect();
            Ok(Report::Feedback { feedback_type, original_rcpt_to, returned })
        }
        (Some("feedback-report"), _, None) => Err("a feedback report without its message/feedback-report part".into()),
        (_, Some(fields), _) => {
            let recipients: Vec<RecipientStatus> = groups(fields).iter().filter_map(|g| recipient(g)).collect();
            if recipients.is_empty() {
                return Err("the delivery status names no recipient (no Final-Recipient)".into());
            }
            Ok(Report::DeliveryStatus { recipients, returned })
        }
        (t, None, _) => Err(format!(
            "a report of type {} without a message/delivery-status or message/feedback-report part",
            t.unwrap_or("(none)")
        )),
    }
}

/// The field groups of a report part: unfolded `(lowercase name, value)` lines, groups split
/// at blank lines (RFC 3464 §2.1: the per-message group, then one per recipient).
fn groups(body: &[u8]) -> Vec<Vec<(String, String)>> {
    let text = String::from_utf8_lossy(body);
    let mut groups = vec![Vec::new()];
    for line in text.split('\n').map(|l| l.trim_end_matches('\r')) {
        let current: &mut Vec<(String, String)> = groups.last_mut().expect("one group at least");
        if line.trim().is_empty() {
            if !current.is_empty() {
                groups.push(Vec::new());
            }
        } else if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = current.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            current.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

fn recipient(group: &[(String, String)]) -> Option<RecipientStatus> {
    let get = |name: &str| group.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    // The address as it was sent to (`Original-Recipient`, the RCPT TO) is what a suppression
    // list holds; `Final-Recipient` may be an alias's target.
    let address =
        get("original-recipient").and_then(typed_address).or_else(|| get("final-recipient").and_then(typed_address))?;
    let action = get("action").and_then(|a| a.split_whitespace().next()).unwrap_or("").to_ascii_lowercase();
    let status = get("status").and_then(|s| s.split_whitespace().next()).filter(|s| status_code(s)).map(str::to_string);
    let diagnostic = get("diagnostic-code")
        .map(|d| d.split_once(';').map(|(_, t)| t).unwrap_or(d))
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty())
        .map(|d| d.chars().take(MAX_DIAGNOSTIC).collect());
    Some(RecipientStatus { address, action, status, diagnostic })
}

/// `rfc822; user@host` (or a bare address) → `user@host`, lowercase.
fn typed_address(value: &str) -> Option<String> {
    bare_address(value.split_once(';').map(|(_, a)| a).unwrap_or(value))
}

fn bare_address(value: &str) -> Option<String> {
    let a = value.trim().trim_matches(['<', '>']).trim().to_ascii_lowercase();
    (a.contains('@') && !a.contains([' ', '\r', '\n', '<', '>']) && a.len() <= 320).then_some(a)
}

/// `class.subject.detail` (RFC 3463): 2, 4 or 5, then one to three digits twice.
fn status_code(s: &str) -> bool {
    let mut p = s.split('.');
    let ok = |x: Option<&str>| x.is_some_and(|x| (1..=3).contains(&x.len()) && x.bytes().all(|b| b.is_ascii_digit()));
    matches!(p.next(), Some("2" | "4" | "5")) && ok(p.next()) && ok(p.next()) && p.next().is_none()
}

fn read_returned(contents: &[u8]) -> Returned {
    let Some(m) = MessageParser::default().parse_headers(contents) else { return Returned::default() };
    let to =
        m.to().map(|a| a.iter().filter_map(|x| x.address()).filter_map(bare_address).collect()).unwrap_or_default();
    Returned { message_id: m.message_id().map(|id| id.trim_matches(['<', '>']).to_string()), to }
}

#[cfg(test)]
#[path = "dsn_tests.rs"]
mod tests;
