//! Custom sending domains (description 4.3, "Custom branding", made self-service; extension):
//! the customer registers a domain, installs the records the answer lists, asks for a
//! verification (each record looked up over DNS) and the domain is activated — by an
//! administrator, or at once after verification when the server is so configured. Messages
//! from an active domain are DKIM-signed with the domain's own keys.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// The DKIM selectors, one key each: `md1` RSA-2048 (rsa-sha256, what every receiver checks)
/// and `md2` Ed25519 (ed25519-sha256, RFC 8463). Messages carry both signatures.
pub const DKIM_SELECTORS: [&str; 2] = ["md1", "md2"];

/// The label of the return-path (bounce) host under the customer's domain.
pub const RETURN_PATH_LABEL: &str = "mdbounce";

/// POST `…/email/domains`: `{"domain": "notices.bank.example"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewSendingDomain {
    pub domain: String,
}

vocabulary!(
    /// Where a domain stands: `pending` (registered, records not all found yet) → `verified` (every
    /// required record found) → `active` (messages may be sent from it, DKIM-signed). A
    /// verification that later finds a record gone takes a verified domain back to `pending`; an
    /// active one stays active (an administrator decides) and the check shows what is wrong.
    ///
    /// ```
    /// use moneydesk_model::email::domains::DomainState;
    /// assert_eq!(DomainState::Active.as_str(), "active");
    /// assert_eq!(serde_json::to_string(&DomainState::Pending).unwrap(), "\"pending\"");
    /// assert_eq!("verified".parse::<DomainState>(), Ok(DomainState::Verified));
    /// ```
    pub enum DomainState {
        Pending = "pending" / "Pending",
        Verified = "verified" / "Verified",
        Active = "active" / "Active",
    }
    from_str: String = |s: &str| format!("no domain state {s:?}");
);

vocabulary!(
    /// What a record is for.
    pub enum RecordPurpose {
        /// `mdbounce.<domain>` → the service's bounce host: the envelope sender's domain.
        ReturnPath = "return_path" / "Return path",
        /// `md1._domainkey.<domain>` → the service's copy of the domain's RSA key.
        Dkim1 = "dkim1" / "DKIM (RSA)",
        /// `md2._domainkey.<domain>` → the service's copy of the domain's Ed25519 key.
        Dkim2 = "dkim2" / "DKIM (Ed25519)",
        /// The domain's SPF record including the service's (guidance: not required).
        Spf = "spf" / "SPF",
    }
);

vocabulary!(
    /// A DNS record type the records use.
    pub enum RecordKind {
        Cname = "CNAME",
        Txt = "TXT",
    }
);

/// A record to install: at `host`, of `type`, holding `value`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DnsRecord {
    pub purpose: RecordPurpose,
    #[serde(rename = "type")]
    pub kind: RecordKind,
    pub host: String,
    pub value: String,
    /// Whether verification needs it (the SPF record is advice: the domain may have its own).
    pub required: bool,
}

/// The records a domain's owner installs, the same for every registration of that domain
/// (the service's names carry a hash of the domain, 64-bit FNV-1a in hex, so they stay short
/// for any domain). `service` is the server's own mail domain.
///
/// ```
/// use moneydesk_model::email::domains::{records_for, RecordPurpose};
/// let r = records_for("notices.bank.example", "moneydesk.test");
/// assert_eq!(r.len(), 4);
/// assert_eq!(r[0].purpose, RecordPurpose::ReturnPath);
/// assert_eq!(r[0].host, "mdbounce.notices.bank.example");
/// assert_eq!(r[0].value, "bounces.moneydesk.test");
/// assert_eq!(r[1].host, "md1._domainkey.notices.bank.example");
/// assert!(r[1].value.starts_with("md1.d") && r[1].value.ends_with(".dkim.moneydesk.test"));
/// assert_eq!(r[3].value, "v=spf1 include:spf.moneydesk.test ~all");
/// assert!(!r[3].required);
/// assert_eq!(records_for("notices.bank.example", "moneydesk.test"), r, "deterministic");
/// ```
pub fn records_for(domain: &str, service: &str) -> Vec<DnsRecord> {
    let key_host = |selector: &str| format!("{selector}.{}.dkim.{service}", domain_label(domain));
    vec![
        DnsRecord {
            purpose: RecordPurpose::ReturnPath,
            kind: RecordKind::Cname,
            host: format!("{RETURN_PATH_LABEL}.{domain}"),
            value: format!("bounces.{service}"),
            required: true,
        },
        DnsRecord {
            purpose: RecordPurpose::Dkim1,
            kind: RecordKind::Cname,
            host: format!("{}._domainkey.{domain}", DKIM_SELECTORS[0]),
            value: key_host(DKIM_SELECTORS[0]),
            required: true,
        },
        DnsRecord {
            purpose: RecordPurpose::Dkim2,
            kind: RecordKind::Cname,
            host: format!("{}._domainkey.{domain}", DKIM_SELECTORS[1]),
            value: key_host(DKIM_SELECTORS[1]),
            required: true,
        },
        DnsRecord {
            purpose: RecordPurpose::Spf,
            kind: RecordKind::Txt,
            host: domain.to_string(),
            value: format!("v=spf1 include:spf.{service} ~all"),
            required: false,
        },
    ]
}

/// `d` and the domain's 64-bit FNV-1a hash in hex: a DNS label for any domain.
fn domain_label(domain: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in domain.to_ascii_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("d{h:016x}")
}

vocabulary!(
    /// What a verification found for one record.
    pub enum RecordStatus {
        /// The record is there with the value asked for.
        Found = "found" / "Found",
        /// No such record at the host.
        Missing = "missing" / "Missing",
        /// A record of that type is there with another value (`found` says which).
        Wrong = "wrong" / "Wrong value",
        /// DNS could not be asked; nothing is concluded.
        Unknown = "unknown" / "Unknown",
    }
);

/// One record's check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RecordCheck {
    pub purpose: RecordPurpose,
    pub status: RecordStatus,
    /// What DNS holds at the host for that type (empty when missing).
    pub found: Vec<String>,
}

/// A registered domain: its state, the records to install, the last verification.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SendingDomain {
    /// ASCII (A-labels), lowercase.
    pub domain: String,
    pub state: DomainState,
    pub records: Vec<DnsRecord>,
    /// What the service's own zone publishes for this domain (the DKIM public keys the CNAMEs
    /// point at): for the server's operator, not the customer.
    pub service_records: Vec<DnsRecord>,
    pub created_at: String,
    pub verified_at: Option<String>,
    pub activated_at: Option<String>,
    pub checked_at: Option<String>,
    /// The last verification, record by record (in the order of `records`).
    pub last_check: Option<Vec<RecordCheck>>,
}
