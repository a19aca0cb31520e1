//! Address verification (description 4.3, "Verify an email address"; the answer is not shown
//! there, so it is ours and documented in the OpenAPI document): a verdict, a score, the
//! address's parts, a typo suggestion and every check that led to them.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// At most this many addresses in one bulk verification.
pub const MAX_BULK_ADDRESSES: usize = 1000;

/// POST `…/email/validation`: `{"email": "…"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ValidationRequest {
    pub email: String,
}

/// POST `…/email/validation/bulk` (extension): `{"emails": ["…", …]}`, 1 to 1000.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct BulkValidationRequest {
    #[cfg_attr(feature = "openapi", schema(min_items = 1, max_items = 1000))]
    pub emails: Vec<String>,
}

vocabulary!(
    /// What the verification concludes.
    ///
    /// - `valid`: well formed, the domain takes mail (an MX, or an address record with no MX),
    ///   and nothing makes it doubtful.
    /// - `risky`: it would be delivered, but the domain is a disposable-mail service, the local
    ///   part is a role (`info@`, `support@`), or the domain looks like a typo of a common one.
    /// - `invalid`: not an address by RFC 5321/5322, or its domain does not exist, has neither
    ///   MX nor address records, or publishes a null MX (RFC 7505: it takes no mail).
    /// - `unknown`: well formed, but DNS could not be asked (timeout, resolver unreachable); the
    ///   address is not called invalid for that.
    ///
    /// ```
    /// use moneydesk_model::email::validation::Verdict;
    /// assert_eq!(Verdict::Risky.as_str(), "risky");
    /// assert_eq!(serde_json::to_string(&Verdict::Unknown).unwrap(), "\"unknown\"");
    /// ```
    pub enum Verdict {
        Valid = "valid" / "Valid",
        Risky = "risky" / "Risky",
        Invalid = "invalid" / "Invalid",
        Unknown = "unknown" / "Unknown",
    }
);

vocabulary!(
    /// The checks, in the order they run; each appears once in every answer.
    ///
    /// ```
    /// use moneydesk_model::email::validation::CheckName;
    /// assert_eq!(CheckName::ALL.len(), 5);
    /// assert_eq!(serde_json::to_string(&CheckName::MailServer).unwrap(), "\"mail_server\"");
    /// ```
    pub enum CheckName {
        /// RFC 5321/5322 syntax, the domain by UTS 46 (IDNA).
        Syntax = "syntax" / "Syntax",
        /// DNS: an MX, or an A/AAAA with no MX (RFC 5321 §5.1); a null MX (RFC 7505) fails it.
        MailServer = "mail_server" / "Mail server",
        /// The domain is a disposable-mail service (the server's maintained list).
        Disposable = "disposable" / "Disposable domain",
        /// The local part names a role, not a person (`admin`, `info`, `support`, …).
        Role = "role" / "Role address",
        /// The domain is one edit from a common mail domain (`gmial.com` → `gmail.com`).
        Typo = "typo" / "Domain typo",
    }
);

vocabulary!(
    /// One check's outcome: `pass`, `warn` (makes the address risky), `fail` (makes it invalid),
    /// `unknown` (could not be decided: DNS unreachable) or `skipped` (an earlier check failed).
    pub enum CheckOutcome {
        Pass = "pass",
        Warn = "warn",
        Fail = "fail",
        Unknown = "unknown",
        Skipped = "skipped",
    }
);

/// A check and what it found, in words (`"MX: mx1.bank.example (10), mx2.bank.example (20)"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Check {
    pub name: CheckName,
    pub result: CheckOutcome,
    pub detail: String,
}

/// The verification of one address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidationResult {
    /// The address as given.
    pub email: String,
    pub verdict: Verdict,
    /// 0 (certainly undeliverable) to 100 (as good as DNS can tell): 100 with an MX, 90 with
    /// only address records; a disposable domain takes 50 off, a typo 40, a role 20 (not below
    /// 10 while it takes mail); 50 (less those) when DNS could not be asked; 0 when invalid.
    pub score: u8,
    /// The part before the last `@` (`null` when there is no `@`).
    pub local: Option<String>,
    /// The domain in its ASCII form (`xn--bcher-kva.example`), when it is a domain name.
    pub host: Option<String>,
    /// The address with the domain the typo check suggests (`jane@gmail.com`).
    pub suggestion: Option<String>,
    /// Every check of [`CheckName::ALL`], in that order.
    pub checks: Vec<Check>,
}

impl ValidationResult {
    pub fn check(&self, name: CheckName) -> Option<&Check> {
        self.checks.iter().find(|c| c.name == name)
    }
}

/// The bulk verification's answer: one result per address given, in the same order, and how
/// many of each verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BulkValidationResult {
    pub results: Vec<ValidationResult>,
    pub valid: usize,
    pub risky: usize,
    pub invalid: usize,
    pub unknown: usize,
    /// Distinct domains looked up (each once).
    pub domains: usize,
}

impl BulkValidationResult {
    /// Counts the verdicts of `results`.
    ///
    /// ```
    /// use moneydesk_model::email::validation::{BulkValidationResult, ValidationResult, Verdict};
    /// let r = |v| ValidationResult { email: "a@b.example".into(), verdict: v, score: 0, local: None, host: None, suggestion: None, checks: vec![] };
    /// let bulk = BulkValidationResult::new(vec![r(Verdict::Valid), r(Verdict::Invalid), r(Verdict::Valid)], 1);
    /// assert_eq!((bulk.valid, bulk.invalid, bulk.risky, bulk.unknown), (2, 1, 0, 0));
    /// ```
    pub fn new(results: Vec<ValidationResult>, domains: usize) -> Self {
        let count = |v: Verdict| results.iter().filter(|r| r.verdict == v).count();
        BulkValidationResult {
            valid: count(Verdict::Valid),
            risky: count(Verdict::Risky),
            invalid: count(Verdict::Invalid),
            unknown: count(Verdict::Unknown),
            domains,
            results,
        }
    }
}
