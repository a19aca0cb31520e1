//! Custom sending domains (description 4.3 "Custom branding", made self-service; extensions,
//! `x-extension`): register a domain → the records to install (the model's `records_for`:
//! a return-path CNAME, two DKIM CNAMEs, SPF guidance), verify → each record looked up over DNS
//! and reported found / missing / wrong (with what was found) / unknown, activate (`admin`, or
//! at once after a passing verification with `MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE=on`), list,
//! delete (`admin`). Each domain gets its own DKIM keys (`dkim`); messages from an active
//! domain are signed with both, and a send's `from` may use any address of an active domain
//! (`Domains::signers_for`, read by `send.rs` and delivery).
//!
//! - `store.rs`: the table, both backends; `dkim.rs`: keys and signatures.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use moneydesk_model::email::domains::{
    records_for, DnsRecord, DomainState, NewSendingDomain, RecordCheck, RecordKind, RecordPurpose, RecordStatus,
    SendingDomain,
};
use moneydesk_model::email::EmailAddress;
use moneydesk_model::{paths, Envelope, Scope};
use std::sync::Arc;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::dns::{Dns, ValueKind};
use crate::auth::Caller;
use crate::email::EmailState;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::{Json, Path};
use crate::AppState;

pub mod dkim;
pub mod store;

use dkim::{DomainKeys, Signers};
use store::{DomainStore, StoredDomain};

/// How long an active domain's signers are reused before the table is read again (another
/// instance may have activated or deleted it).
const SIGNERS_FOR: Duration = Duration::from_secs(30);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, register))
        .routes(routes!(detail, delete))
        .routes(routes!(verify))
        .routes(routes!(activate))
}

/// The sending domains' state: the store, the resolver the checks ask, and the signers of
/// active domains (cached).
#[derive(Debug)]
pub struct Domains {
    pub store: DomainStore,
    dns: Dns,
    /// The service's own mail domain, which the records point into
    /// (`MONEYDESK_EMAIL_SERVICE_DOMAIN`, default `moneydesk.test`).
    pub service: String,
    pub auto_activate: bool,
    signers: Mutex<HashMap<String, CachedSigners>>,
}

/// A domain's signing keys as last read, and when (none: the domain signs nothing).
type CachedSigners = (Instant, Option<Arc<Signers>>);

impl Domains {
    pub fn new(store: DomainStore, config: &crate::config::email::EmailConfig) -> Domains {
        Domains {
            store,
            dns: Dns::new(config.verify.dns_server, config.verify.dns_timeout),
            service: config.service_domain.clone(),
            auto_activate: config.auto_activate_domains,
            signers: Mutex::new(HashMap::new()),
        }
    }

    /// The signers of `domain` when it is active (cached for 30 s); `None` otherwise.
    pub async fn signers_for(&self, domain: &str) -> Result<Option<Arc<Signers>>, Error> {
        if let Some((at, s)) = self.signers.lock().unwrap().get(domain) {
            if at.elapsed() < SIGNERS_FOR {
                return Ok(s.clone());
            }
        }
        let found = match self.store.get(domain).await? {
            Some(d) if d.state == DomainState::Active => {
                Some(Arc::new(Signers::new(&d.domain, &d.keys).map_err(Error::internal)?))
            }
            _ => None,
        };
        self.signers.lock().unwrap().insert(domain.to_string(), (Instant::now(), found.clone()));
        Ok(found)
    }

    fn forget(&self, domain: &str) {
        self.signers.lock().unwrap().remove(domain);
    }

    fn answer(&self, d: StoredDomain) -> SendingDomain {
        let records = records_for(&d.domain, &self.service);
        // Where each DKIM CNAME points, the service publishes that selector's key.
        let service_records = records
            .iter()
            .filter(|r| matches!(r.purpose, RecordPurpose::Dkim1 | RecordPurpose::Dkim2))
            .zip(d.keys.txt_records())
            .map(|(r, txt)| DnsRecord {
                purpose: r.purpose,
                kind: RecordKind::Txt,
                host: r.value.clone(),
                value: txt,
                required: true,
            })
            .collect();
        SendingDomain {
            records,
            service_records,
            domain: d.domain,
            state: d.state,
            created_at: d.created_at,
            verified_at: d.verified_at,
            activated_at: d.activated_at,
            checked_at: d.checked_at,
            last_check: d.last_check,
        }
    }

    /// Looks each record up: CNAMEs by their target (case and a trailing dot aside), the SPF
    /// record as any TXT at the domain that is SPF and includes the service's.
    async fn check(&self, domain: &str) -> Vec<RecordCheck> {
        let records = records_for(domain, &self.service);
        let lookups = records.iter().map(|r| async move {
            let kind = match r.kind {
                RecordKind::Cname => ValueKind::Cname,
                RecordKind::Txt => ValueKind::Txt,
            };
            let status_of = |found: &[String]| -> RecordStatus {
                match r.purpose {
                    RecordPurpose::Spf => {
                        let spf: Vec<&String> =
                            found.iter().filter(|t| t.to_ascii_lowercase().starts_with("v=spf1")).collect();
                        let include = format!("include:spf.{}", self.service);
                        if spf.is_empty() {
                            RecordStatus::Missing
                        } else if spf.len() > 1 {
                            // RFC 7208 §4.5: two SPF records are a permanent error.
                            RecordStatus::Wrong
                        } else if spf.iter().any(|t| t.to_ascii_lowercase().split_whitespace().any(|w| w == include)) {
                            RecordStatus::Found
                        } else {
                            RecordStatus::Wrong
                        }
                    }
                    _ if found.is_empty() => RecordStatus::Missing,
                    _ if found.iter().any(|v| v.eq_ignore_ascii_case(&r.value)) => RecordStatus::Found,
                    _ => RecordStatus::Wrong,
                }
            };
            match self.dns.values(&r.host, kind).await {
                Ok(found) => RecordCheck { purpose: r.purpose, status: status_of(&found), found },
                Err(why) => RecordCheck { purpose: r.purpose, status: RecordStatus::Unknown, found: vec![why] },
            }
        });
        futures_util::future::join_all(lookups).await
    }
}

/// The domain named in the path (or a body), as stored: ASCII, lowercase.
pub(crate) fn domain_name(field: &str, given: &str) -> Result<String, Error> {
    EmailAddress::domain_name(given)
        .ok_or_else(|| Error::field(field, format!("{given:?} is not a domain name (like notices.bank.example)")))
}

async fn found(state: &EmailState, domain: &str) -> Result<StoredDomain, Error> {
    state.domains().store.get(domain).await?.ok_or_else(|| Error::not_found(format!("No sending domain {domain}")))
}

#[utoipa::path(operation_id = "list_domains", get, path = paths::EMAIL_DOMAINS, tag = "email",
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "The registered sending domains, by name, each with its state, the records to install and its last verification.",
    responses((status = 200, description = "The domains", body = Envelope<Vec<SendingDomain>>)))]
async fn list(State(state): State<EmailState>, _caller: Caller) -> Result<Json<Envelope<Vec<SendingDomain>>>, Error> {
    let all = state.domains().store.list().await?;
    Ok(Json(Envelope::ok(all.into_iter().map(|d| state.domains().answer(d)).collect())))
}

#[utoipa::path(post, path = paths::EMAIL_DOMAINS, tag = "email",
    request_body = NewSendingDomain,
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Registers a domain to send from (Unicode domains are kept as A-labels). The answer lists the records to install, the same for every registration of the domain: `mdbounce.<domain>` CNAME `bounces.<service>`; `md1._domainkey.<domain>` and `md2._domainkey.<domain>` CNAME `md1`/`md2.d<FNV-1a of the domain>.dkim.<service>` (where the service publishes the domain's RSA and Ed25519 DKIM keys, `serviceRecords`); and, as advice, the domain's SPF `v=spf1 include:spf.<service> ~all`. The server generates the domain's DKIM keys now.",
    responses((status = 201, description = "Registered, pending", body = Envelope<SendingDomain>),
        (status = 400, description = "Not a domain name (`domain`)", body = ErrorEnvelopeDoc),
        (status = 409, description = "Already registered", body = ErrorEnvelopeDoc)))]
async fn register(
    State(state): State<EmailState>,
    caller: Caller,
    Json(new): Json<NewSendingDomain>,
) -> Result<(StatusCode, Json<Envelope<SendingDomain>>), Error> {
    let domain = domain_name("domain", &new.domain)?;
    if state.domains().store.get(&domain).await?.is_some() {
        return Err(Error::conflict(format!("{domain} is registered already")));
    }
    let keys =
        tokio::task::spawn_blocking(DomainKeys::generate).await.map_err(Error::internal)?.map_err(Error::internal)?;
    let stored = state.domains().store.insert(&domain, &keys, caller.user_id()).await?;
    Ok((StatusCode::CREATED, Json(Envelope::with_code(201, state.domains().answer(stored)))))
}

#[utoipa::path(operation_id = "get_domain", get, path = paths::EMAIL_DOMAIN, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    responses((status = 200, description = "The domain", body = Envelope<SendingDomain>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "Not registered", body = ErrorEnvelopeDoc)))]
async fn detail(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<SendingDomain>>, Error> {
    let domain = domain_name("domain", &domain)?;
    Ok(Json(Envelope::ok(state.domains().answer(found(&state, &domain).await?))))
}

#[utoipa::path(operation_id = "verify_domain", post, path = paths::EMAIL_DOMAIN_VERIFY, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["email:send"])),
    extensions(("x-extension" = json!(true))),
    description = "Looks each record up over DNS and records the result: `found`, `missing`, `wrong` (with the values found) or `unknown` (DNS could not be asked). Every required record found makes a pending domain `verified` (and `active` when the server activates automatically); a required record gone takes a verified one back to `pending`. An active domain stays active (an administrator decides); the check shows what is wrong.",
    responses((status = 200, description = "The domain with this verification in `lastCheck`", body = Envelope<SendingDomain>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "Not registered", body = ErrorEnvelopeDoc)))]
async fn verify(
    State(state): State<EmailState>,
    _caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<SendingDomain>>, Error> {
    let domain = domain_name("domain", &domain)?;
    let stored = found(&state, &domain).await?;
    let checks = state.domains().check(&domain).await;
    let records = records_for(&domain, &state.domains().service);
    let passed = records.iter().zip(&checks).all(|(r, c)| !r.required || c.status == RecordStatus::Found);
    let next = match (stored.state, passed) {
        (DomainState::Active, _) => DomainState::Active,
        (_, true) if state.domains().auto_activate => DomainState::Active,
        (_, true) => DomainState::Verified,
        (_, false) => DomainState::Pending,
    };
    // One change: the check, and the activation it leads to (`record_check`).
    let updated = state
        .domains()
        .store
        .record_check(&domain, &checks, next, passed)
        .await?
        .ok_or_else(|| Error::not_found(format!("No sending domain {domain}")))?;
    if next == DomainState::Active && stored.state != DomainState::Active {
        state.domains().forget(&domain);
    }
    Ok(Json(Envelope::ok(state.domains().answer(updated))))
}

#[utoipa::path(post, path = paths::EMAIL_DOMAIN_ACTIVATE, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "The account manager's approval: makes a verified domain active, so messages may be sent from it, DKIM-signed. A domain whose last verification did not pass is a 409.",
    responses((status = 200, description = "Active", body = Envelope<SendingDomain>),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "Not registered", body = ErrorEnvelopeDoc),
        (status = 409, description = "Not verified", body = ErrorEnvelopeDoc)))]
async fn activate(
    State(state): State<EmailState>,
    caller: Caller,
    Path(domain): Path<String>,
) -> Result<Json<Envelope<SendingDomain>>, Error> {
    caller.require(Scope::Admin)?;
    let domain = domain_name("domain", &domain)?;
    let stored = found(&state, &domain).await?;
    if stored.state == DomainState::Pending {
        return Err(Error::conflict(format!("{domain} is not verified: install its records and verify it first")));
    }
    let updated = state
        .domains()
        .store
        .activate(&domain)
        .await?
        .ok_or_else(|| Error::not_found(format!("No sending domain {domain}")))?;
    state.domains().forget(&domain);
    Ok(Json(Envelope::ok(state.domains().answer(updated))))
}

#[utoipa::path(operation_id = "delete_domain", delete, path = paths::EMAIL_DOMAIN, tag = "email",
    params(("domain" = String, Path, description = "The domain")),
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    description = "Removes the domain and its keys: messages from it are refused from then on (those queued are still sent, unsigned).",
    responses((status = 204, description = "Removed"),
        (status = 400, description = "Not a domain name", body = ErrorEnvelopeDoc),
        (status = 404, description = "Not registered", body = ErrorEnvelopeDoc)))]
async fn delete(
    State(state): State<EmailState>,
    caller: Caller,
    Path(domain): Path<String>,
) -> Result<StatusCode, Error> {
    caller.require(Scope::Admin)?;
    let domain = domain_name("domain", &domain)?;
    if !state.domains().store.delete(&domain).await? {
        return Err(Error::not_found(format!("No sending domain {domain}")));
    }
    state.domains().forget(&domain);
    Ok(StatusCode::NO_CONTENT)
}
