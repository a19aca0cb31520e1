//! Address verification (description 4.3 "Verify an email address"; scope `email:verify`):
//! POST `…/email/validation` for one address and the bulk extension for up to 1000. The
//! answer is documented in the OpenAPI document (`ValidationResult`): each check of
//! `CheckName::ALL` with its outcome and what it found, a verdict and a score.
//!
//! - Syntax: the model's `EmailAddress` (RFC 5321/5322, domains by UTS 46). A malformed
//!   address is an answer (`invalid`), not a 400: it is what the caller asked about.
//! - Mail server: `dns::Dns` (a real resolver with a timeout). DNS that cannot be asked makes
//!   the check `unknown` and the verdict `unknown`, never `invalid`.
//! - Disposable domain, role address: `lists` (built in, updatable from a file).
//! - Typo: `typo`.
//!
//! Definite DNS answers are cached per domain for `MONEYDESK_EMAIL_DOMAIN_CACHE` (default
//! 1 h; `0` turns the cache off); a failure to ask is not cached.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::State;
use futures_util::StreamExt;
use moneydesk_model::email::validation::{
    BulkValidationRequest, BulkValidationResult, Check, CheckName, CheckOutcome, ValidationRequest, ValidationResult,
    Verdict, MAX_BULK_ADDRESSES,
};
use moneydesk_model::email::{EmailAddress, EmailAddressError};
use moneydesk_model::{paths, Envelope};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::dns::{Dns, MailHosts};
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::AppState;

use crate::config::verify::VerifyConfig;

pub mod lists;
pub mod typo;

/// How many domains a bulk verification looks up at once.
const LOOKUPS_AT_ONCE: usize = 32;
/// The domain cache stops growing here (expired entries go first, then all).
const CACHE_ENTRIES: usize = 50_000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(validate_email)).routes(routes!(validate_emails))
}

/// The verifier: the resolver, the domain cache and the lists (one per server).
#[derive(Debug)]
pub struct Verifier {
    dns: Dns,
    cache_for: Duration,
    cache: Mutex<HashMap<String, (Instant, MailHosts)>>,
    disposable: lists::List,
    roles: lists::List,
}

impl Verifier {
    pub fn new(config: &VerifyConfig) -> Verifier {
        Verifier {
            dns: Dns::new(config.dns_server, config.dns_timeout),
            cache_for: config.domain_cache,
            cache: Mutex::new(HashMap::new()),
            disposable: lists::List::disposable_domains(config.disposable_file.clone()),
            roles: lists::List::role_addresses(config.role_file.clone()),
        }
    }

    /// The domain's mail hosts, from the cache when a definite answer is fresh there.
    pub async fn mail_hosts(&self, domain: &str) -> MailHosts {
        if !self.cache_for.is_zero() {
            if let Some((at, hosts)) = self.cache.lock().unwrap().get(domain) {
                if at.elapsed() < self.cache_for {
                    return hosts.clone();
                }
            }
        }
        let hosts = self.dns.mail_hosts(domain).await;
        if !self.cache_for.is_zero() && hosts.is_definite() {
            let mut cache = self.cache.lock().unwrap();
            if cache.len() >= CACHE_ENTRIES {
                let keep = self.cache_for;
                cache.retain(|_, (at, _)| at.elapsed() < keep);
                if cache.len() >= CACHE_ENTRIES {
                    cache.clear();
                }
            }
            cache.insert(domain.to_string(), (Instant::now(), hosts.clone()));
        }
        hosts
    }

    /// Verifies one address.
    pub async fn verify(&self, email: &str) -> ValidationResult {
        let parsed = EmailAddress::parse(email);
        let hosts = match &parsed {
            Ok(a) => Some(self.mail_hosts(a.domain()).await),
            Err(_) => None,
        };
        self.judge(email, parsed, hosts)
    }

    /// Verifies many addresses, each distinct domain looked up once, several at a time.
    pub async fn verify_all(&self, emails: &[String]) -> BulkValidationResult {
        let parsed: Vec<_> = emails.iter().map(|e| EmailAddress::parse(e)).collect();
        let mut domains: Vec<String> =
            parsed.iter().filter_map(|p| p.as_ref().ok().map(|a| a.domain().to_string())).collect();
        domains.sort_unstable();
        domains.dedup();
        let found: HashMap<String, MailHosts> = futures_util::stream::iter(domains.clone())
            .map(move |d| async move {
                let hosts = self.mail_hosts(&d).await;
                (d, hosts)
            })
            .buffer_unordered(LOOKUPS_AT_ONCE)
            .collect()
            .await;
        let results = emails
            .iter()
            .zip(parsed)
            .map(|(email, p)| {
                let hosts = p.as_ref().ok().and_then(|a| found.get(a.domain()).cloned());
                self.judge(email, p, hosts)
            })
            .collect();
        BulkValidationResult::new(results, domains.len())
    }

    fn judge(
        &self,
        email: &str,
        parsed: Result<EmailAddress, EmailAddressError>,
        hosts: Option<MailHosts>,
    ) -> ValidationResult {
        let check = |name, result, detail: String| Check { name, result, detail };
        let (local_given, host_given) = match email.trim().rsplit_once('@') {
            Some((l, h)) => (Some(l.to_string()), Some(h.to_string())),
            None => (None, None),
        };
        let address = match parsed {
            Err(e) => {
                let skipped =
                    |name| check(name, CheckOutcome::Skipped, "not checked: the address is not well formed".into());
                let host = host_given.and_then(|h| idna::domain_to_ascii(&h).ok()).filter(|h| !h.is_empty());
                let suggestion = match (&local_given, host.as_deref().and_then(typo::suggest)) {
                    (Some(l), Some(d)) => Some(format!("{l}@{d}")),
                    _ => None,
                };
                return ValidationResult {
                    email: email.to_string(),
                    verdict: Verdict::Invalid,
                    score: 0,
                    local: local_given,
                    host,
                    suggestion,
                    checks: vec![
                        check(CheckName::Syntax, CheckOutcome::Fail, e.to_string()),
                        skipped(CheckName::MailServer),
                        skipped(CheckName::Disposable),
                        skipped(CheckName::Role),
                        skipped(CheckName::Typo),
                    ],
                };
            }
            Ok(a) => a,
        };
        let (local, domain) =
            address.as_str().rsplit_once('@').map(|(l, d)| (l.to_string(), d.to_string())).unwrap_or_default();
        let mut checks =
            vec![check(CheckName::Syntax, CheckOutcome::Pass, format!("{} is well formed", address.display()))];

        let hosts = hosts.unwrap_or_else(|| MailHosts::Unreachable("not looked up".into()));
        let (mail, mail_detail, mut score): (CheckOutcome, String, i32) = match &hosts {
            MailHosts::Exchangers(mx) => {
                let list: Vec<String> = mx.iter().take(5).map(|(p, h)| format!("{h} ({p})")).collect();
                (CheckOutcome::Pass, format!("MX: {}{}", list.join(", "), if mx.len() > 5 { ", …" } else { "" }), 100)
            }
            MailHosts::Address(ips) => {
                let list: Vec<String> = ips.iter().take(3).map(|ip| ip.to_string()).collect();
                (
                    CheckOutcome::Pass,
                    format!("no MX; the domain's own address takes mail (RFC 5321 §5.1): {}", list.join(", ")),
                    90,
                )
            }
            MailHosts::NullMx => {
                (CheckOutcome::Fail, format!("{domain} publishes a null MX (RFC 7505): it takes no mail"), 0)
            }
            MailHosts::NoMailHost => (CheckOutcome::Fail, format!("{domain} has neither MX nor address records"), 0),
            MailHosts::NoSuchDomain => (CheckOutcome::Fail, format!("{domain} does not exist (NXDOMAIN)"), 0),
            MailHosts::Unreachable(why) => (CheckOutcome::Unknown, format!("could not be checked: {why}"), 50),
        };
        checks.push(check(CheckName::MailServer, mail, mail_detail));

        let mut risks = 0;
        let mut flag = |name, found: Option<String>, penalty: i32, yes: String, no: String, score: &mut i32| {
            if found.is_some() {
                risks += 1;
                *score -= penalty;
                checks.push(check(name, CheckOutcome::Warn, yes));
            } else {
                checks.push(check(name, CheckOutcome::Pass, no));
            }
        };
        let disposable = self.disposable.has_domain(&domain);
        let yes = format!("{} is a disposable-mail service", disposable.as_deref().unwrap_or(""));
        flag(CheckName::Disposable, disposable, 50, yes, "not a known disposable-mail domain".into(), &mut score);
        let role = self.roles.has_local(&local);
        let yes = format!("{}@ names a role, not a person", role.as_deref().unwrap_or(""));
        flag(CheckName::Role, role, 20, yes, "not a role address".into(), &mut score);
        let suggested = typo::suggest(&domain);
        let yes = format!("did you mean {}?", suggested.unwrap_or(""));
        flag(
            CheckName::Typo,
            suggested.map(str::to_string),
            40,
            yes,
            "not a likely slip of a common domain".into(),
            &mut score,
        );

        let verdict = match mail {
            CheckOutcome::Fail => Verdict::Invalid,
            CheckOutcome::Unknown => Verdict::Unknown,
            _ if risks > 0 => Verdict::Risky,
            _ => Verdict::Valid,
        };
        let score = match verdict {
            Verdict::Invalid => 0,
            Verdict::Unknown => score.clamp(0, 50),
            Verdict::Risky => score.clamp(10, 100),
            Verdict::Valid => score,
        };
        ValidationResult {
            email: email.to_string(),
            verdict,
            score: score as u8,
            local: Some(local.clone()),
            host: Some(domain),
            suggestion: suggested.map(|d| format!("{local}@{d}")),
            checks,
        }
    }
}

#[utoipa::path(post, path = paths::EMAIL_VALIDATION, tag = "email",
    request_body(content = ValidationRequest, description = "The address to verify"),
    security(("bearer" = ["email:verify"])),
    description = "Verifies an address: its syntax (RFC 5321/5322, internationalised domains by UTS 46), whether its domain takes mail (an MX, or an A/AAAA when there is no MX; a null MX, RFC 7505, means it takes none), whether the domain is a disposable-mail service or the local part a role, and whether the domain is a likely typo of a common one. The verdict: `valid`; `risky` (deliverable but disposable, a role, or a probable typo); `invalid` (malformed, or the domain takes no mail); `unknown` (DNS could not be asked: never called invalid for that). A malformed address is a 200 with verdict `invalid`, not a 400. DNS answers are cached per domain (one hour by default).",
    responses((status = 200, description = "The verification; every check appears once, in the order of `CheckName`", body = Envelope<ValidationResult>),
        (status = 400, description = "No `email` string in the body", body = ErrorEnvelopeDoc)))]
async fn validate_email(
    State(state): State<EmailState>,
    _caller: Caller,
    Json(request): Json<ValidationRequest>,
) -> Result<Json<Envelope<ValidationResult>>, Error> {
    Ok(Json(Envelope::ok(state.verifier().verify(&request.email).await)))
}

#[utoipa::path(post, path = paths::EMAIL_VALIDATION_BULK, tag = "email",
    request_body(content = BulkValidationRequest, description = "1 to 1000 addresses"),
    security(("bearer" = ["email:verify"])),
    extensions(("x-extension" = json!(true))),
    description = "Extension: verifies up to 1000 addresses as the single verification does, each distinct domain looked up once and 32 at a time. The results are in the order given, with the count of each verdict.",
    responses((status = 200, description = "One result per address, in order", body = Envelope<BulkValidationResult>),
        (status = 400, description = "No addresses, or more than 1000 (`emails`)", body = ErrorEnvelopeDoc)))]
async fn validate_emails(
    State(state): State<EmailState>,
    _caller: Caller,
    Json(request): Json<BulkValidationRequest>,
) -> Result<Json<Envelope<BulkValidationResult>>, Error> {
    if request.emails.is_empty() {
        return Err(Error::field("emails", "give at least one address"));
    }
    if request.emails.len() > MAX_BULK_ADDRESSES {
        return Err(Error::field(
            "emails",
            format!("{} addresses given; at most {MAX_BULK_ADDRESSES} in one request", request.emails.len()),
        ));
    }
    Ok(Json(Envelope::ok(state.verifier().verify_all(&request.emails).await)))
}
