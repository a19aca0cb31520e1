//! Bounces, complaints and deliverability (issue 46; extensions). A delivery status
//! notification (RFC 3464) or a complaint (an ARF report, RFC 5965) comes back to the message's
//! VERP return path `bounces+<message id>@mdbounce.<domain>` (or is posted to the API); each
//! recipient it names becomes a [`Bounce`] on the message it answers. A hard bounce and a
//! complaint put the address on the sender domain's suppression list; soft bounces do after
//! [`SOFT_BOUNCE_LIMIT`] within [`SOFT_BOUNCE_WINDOW_DAYS`].

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::domains::RETURN_PATH_LABEL;
use crate::vocabulary::vocabulary;

/// Soft bounces of one address, within [`SOFT_BOUNCE_WINDOW_DAYS`], that suppress it: a mailbox
/// full or a greylisting server three times in a week is a mailbox mail no longer reaches, and
/// each further send costs the domain's reputation as a hard bounce does.
pub const SOFT_BOUNCE_LIMIT: u32 = 3;
/// The window (days) [`SOFT_BOUNCE_LIMIT`] counts in.
pub const SOFT_BOUNCE_WINDOW_DAYS: i64 = 7;

vocabulary!(
    /// What a report says of one recipient: a `hard` bounce (`Action: failed`, status 5.x.x), a
    /// `soft` one (`Action: delayed`, or status 4.x.x), or a `complaint` (an ARF `abuse` report).
    pub enum BounceKind {
        Hard = "hard" / "Hard bounce",
        Soft = "soft" / "Soft bounce",
        Complaint = "complaint" / "Complaint",
    }
    from_str: UnknownBounceKind = |s: &str| UnknownBounceKind(s.to_string());
);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bounce kind {0:?}; the kinds are hard, soft and complaint")]
pub struct UnknownBounceKind(pub String);

vocabulary!(
    /// What came of a report: `processed` (its bounces or complaint recorded), `unmatched` (read,
    /// but neither the VERP address nor the returned Message-ID names a message, and no sending
    /// domain is known: nothing suppressed), `unparseable` (not a delivery status notification
    /// nor a feedback report: kept as received for a person to read).
    pub enum BounceReportState {
        Processed = "processed" / "Processed",
        Unmatched = "unmatched" / "Unmatched",
        Unparseable = "unparseable" / "Unparseable",
    }
);

/// One recipient's bounce or complaint, as a message records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Bounce {
    /// `bnc_…`.
    pub id: String,
    /// The report it came in (`bnr_…`).
    pub report_id: String,
    /// The outbox message it answers (`msg_…`), when matched.
    pub message_id: Option<String>,
    /// The sender domain (whose suppression list it acts on), when known.
    pub domain: Option<String>,
    /// The recipient (lowercase).
    pub email: String,
    pub kind: BounceKind,
    /// The report's `Action` (`failed`, `delayed`), or the ARF `Feedback-Type` (`abuse`).
    pub action: String,
    /// The enhanced status code (`5.1.1`), when the report gives one.
    pub status: Option<String>,
    /// The remote server's words (`Diagnostic-Code`), when given.
    pub diagnostic: Option<String>,
    /// Whether it put the address on the domain's suppression list.
    pub suppressed: bool,
    /// ISO 8601 UTC.
    pub received_at: String,
}

/// A report as received: what came of it, and the bounces it recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BounceReport {
    /// `bnr_…`.
    pub id: String,
    pub state: BounceReportState,
    /// `delivery-status`, `feedback-report`, or none (unparseable).
    pub report_type: Option<String>,
    /// Why it could not be read (`unparseable`) or matched (`unmatched`).
    pub problem: Option<String>,
    /// `smtp` or `api`.
    pub received_by: String,
    /// The envelope recipient (the VERP address), when known.
    pub rcpt_to: Option<String>,
    pub size: u64,
    /// ISO 8601 UTC.
    pub received_at: String,
    pub bounces: Vec<Bounce>,
}

/// A sender domain's figures over a window. Rates are decimal strings (`"0.0213"` is 2.13 %),
/// of the messages delivered: a bounce or complaint answers a delivered message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DomainDeliverability {
    pub domain: String,
    /// Messages accepted for sending from the domain in the window.
    pub sent: u64,
    /// Of those, delivered to the relay (`sent`).
    pub delivered: u64,
    pub hard_bounces: u64,
    pub soft_bounces: u64,
    pub complaints: u64,
    /// Hard bounces / delivered, 4 decimals; `"0.0000"` when nothing was delivered.
    #[serde(with = "rust_decimal::serde::str")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "0.0213"))]
    pub bounce_rate: Decimal,
    /// Complaints / delivered, 4 decimals.
    #[serde(with = "rust_decimal::serde::str")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "0.0008"))]
    pub complaint_rate: Decimal,
    /// The thresholds crossed ([`DeliverabilityFlag`]), worst first.
    pub flags: Vec<DeliverabilityFlag>,
}

vocabulary!(
    /// A threshold the field holds senders to: `bounce_rate_high` (over 2 %: the mark most
    /// providers and the ESPs suspend at), `complaint_rate_warning` (over 0.1 %: Google's and
    /// Yahoo's bulk-sender rules' aim) and `complaint_rate_high` (over 0.3 %: never to be
    /// reached under those rules).
    pub enum DeliverabilityFlag {
        ComplaintRateHigh = "complaint_rate_high" / "Complaint rate over 0.3 %",
        BounceRateHigh = "bounce_rate_high" / "Bounce rate over 2 %",
        ComplaintRateWarning = "complaint_rate_warning" / "Complaint rate over 0.1 %",
    }
);

/// Bounce rate over this (a fraction) is flagged.
pub const BOUNCE_RATE_HIGH: Decimal = Decimal::from_parts(2, 0, 0, false, 2);
/// Complaint rate over this is a warning; over [`COMPLAINT_RATE_HIGH`], high.
pub const COMPLAINT_RATE_WARNING: Decimal = Decimal::from_parts(1, 0, 0, false, 3);
pub const COMPLAINT_RATE_HIGH: Decimal = Decimal::from_parts(3, 0, 0, false, 3);

impl DomainDeliverability {
    /// The figures with their rates and flags worked out from the counts.
    ///
    /// ```
    /// use moneydesk_model::email::bounces::{DeliverabilityFlag, DomainDeliverability};
    /// let d = DomainDeliverability::from_counts("bank.example".into(), 1000, 1000, 25, 4, 2);
    /// assert_eq!(d.bounce_rate.to_string(), "0.0250");
    /// assert_eq!(d.complaint_rate.to_string(), "0.0020");
    /// assert_eq!(d.flags, [DeliverabilityFlag::BounceRateHigh, DeliverabilityFlag::ComplaintRateWarning]);
    /// let quiet = DomainDeliverability::from_counts("bank.example".into(), 3, 0, 0, 0, 0);
    /// assert_eq!(quiet.bounce_rate.to_string(), "0.0000");
    /// assert!(quiet.flags.is_empty());
    /// ```
    pub fn from_counts(domain: String, sent: u64, delivered: u64, hard: u64, soft: u64, complaints: u64) -> Self {
        let rate = |n: u64| {
            let mut r = match delivered {
                0 => Decimal::ZERO,
                d => (Decimal::from(n) / Decimal::from(d)).round_dp(4),
            };
            r.rescale(4);
            r
        };
        let (bounce_rate, complaint_rate) = (rate(hard), rate(complaints));
        let mut flags = Vec::new();
        if complaint_rate > COMPLAINT_RATE_HIGH {
            flags.push(DeliverabilityFlag::ComplaintRateHigh);
        }
        if bounce_rate > BOUNCE_RATE_HIGH {
            flags.push(DeliverabilityFlag::BounceRateHigh);
        }
        if complaint_rate > COMPLAINT_RATE_WARNING && complaint_rate <= COMPLAINT_RATE_HIGH {
            flags.push(DeliverabilityFlag::ComplaintRateWarning);
        }
        DomainDeliverability {
            domain,
            sent,
            delivered,
            hard_bounces: hard,
            soft_bounces: soft,
            complaints,
            bounce_rate,
            complaint_rate,
            flags,
        }
    }
}

/// The deliverability figures: each sender domain's over the window, and the latest bounces
/// and complaints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Deliverability {
    /// The window's first and last day (`YYYY-MM-DD`, UTC, both included).
    pub from: String,
    pub to: String,
    pub domains: Vec<DomainDeliverability>,
    /// The latest bounces and complaints (at most 50), newest first.
    pub latest: Vec<Bounce>,
    /// Reports that could not be read in the window: kept, for a person to look at.
    pub unparseable_reports: u64,
}

/// A VERP return path: `bounces+<message id>@mdbounce.<domain>`, what the delivery worker
/// sends a sending domain's mail with, so a bounce names the message it answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnPath {
    /// The message id (`msg_…`), when the local part carries one.
    pub message_id: Option<String>,
    /// The sending domain (without the `mdbounce.` label).
    pub domain: String,
}

impl ReturnPath {
    /// Reads an address at a return-path host; `None` when it is not at one.
    ///
    /// ```
    /// use moneydesk_model::email::bounces::ReturnPath;
    /// let r = ReturnPath::parse("bounces+msg_0a1b@MDBounce.Bank.example").unwrap();
    /// assert_eq!(r.message_id.as_deref(), Some("msg_0a1b"));
    /// assert_eq!(r.domain, "bank.example");
    /// assert_eq!(ReturnPath::parse("abuse@mdbounce.bank.example").unwrap().message_id, None);
    /// assert!(ReturnPath::parse("bounces+msg_1@bank.example").is_none());
    /// assert!(ReturnPath::parse("bounces+msg_1@mdbounce.").is_none());
    /// ```
    pub fn parse(address: &str) -> Option<ReturnPath> {
        let (local, host) = address.trim().trim_matches(['<', '>']).rsplit_once('@')?;
        let host = host.to_ascii_lowercase();
        let domain = host.strip_prefix(RETURN_PATH_LABEL)?.strip_prefix('.')?;
        if domain.is_empty() || !domain.contains('.') {
            return None;
        }
        let message_id = local
            .to_ascii_lowercase()
            .strip_prefix("bounces+")
            .filter(|id| {
                id.starts_with("msg_")
                    && id.len() <= 64
                    && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            })
            .map(str::to_string);
        Some(ReturnPath { message_id, domain: domain.to_string() })
    }

    /// The address for `message_id` from `domain`.
    ///
    /// ```
    /// use moneydesk_model::email::bounces::ReturnPath;
    /// assert_eq!(ReturnPath::address("msg_0a", "bank.example"), "bounces+msg_0a@mdbounce.bank.example");
    /// ```
    pub fn address(message_id: &str, domain: &str) -> String {
        format!("bounces+{message_id}@{RETURN_PATH_LABEL}.{domain}")
    }
}
