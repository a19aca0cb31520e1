//! The email group's settings (environment variables; see the crate's README):
//!
//! - `MONEYDESK_SMTP_URL`: the relay, in lettre's URL form: `smtp://host:25` (plain),
//!   `smtp://user:pass@host:587?tls=required` (STARTTLS), `smtps://user:pass@host:465`
//!   (implicit TLS). Unset: messages go to the development mailbox in the database.
//! - `MONEYDESK_EMAIL_SENDERS`: who may be sent as, comma separated: addresses
//!   (`ops@bank.example`, `Operations <ops@bank.example>`) or whole domains (`@bank.example`).
//!   Default `@moneydesk.test` (the development mailbox's demo domain).
//! - `MONEYDESK_EMAIL_CONNECTIONS` (default 4): SMTP connections the worker keeps busy.
//! - `MONEYDESK_EMAIL_RETRY_BASE` (default `30s`): the first deferral; each next one doubles,
//!   up to `MONEYDESK_EMAIL_RETRY_MAX` (default `1h`).
//! - `MONEYDESK_EMAIL_MAX_ATTEMPTS` (default 8): after that many temporary failures, `failed`.
//! - `MONEYDESK_EMAIL_CLAIM` (default `5m`): how long a worker's claim on a message holds; a
//!   message still `sending` after it belonged to a process that died and is taken over.
//! - `MONEYDESK_EMAIL_LIST_UNSUBSCRIBE`: the `List-Unsubscribe` header's value
//!   (`<mailto:unsubscribe@bank.example>`), added to every message when set.
//! - Address verification's `MONEYDESK_DNS_SERVER`, `MONEYDESK_DNS_TIMEOUT`,
//!   `MONEYDESK_EMAIL_DOMAIN_CACHE`, `MONEYDESK_EMAIL_DISPOSABLE_DOMAINS` and
//!   `MONEYDESK_EMAIL_ROLE_ADDRESSES`: see `validation::VerifyConfig`.
//! - `MONEYDESK_EMAIL_SERVICE_DOMAIN` (default `moneydesk.test`): the service's own mail domain,
//!   which sending domains' CNAMEs point into.
//! - `MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE` (default off): activate a sending domain as soon as
//!   it verifies.
//! - Inbound mail's `MONEYDESK_INBOUND_*`: see `inbound::InboundConfig`.

use std::time::Duration;

use anyhow::{bail, Context};
use moneydesk_model::email::{EmailAddress, SenderIdentity};

#[derive(Debug, Clone)]
pub struct EmailConfig {
    pub smtp_url: Option<String>,
    pub senders: Vec<SenderIdentity>,
    pub connections: usize,
    pub retry_base: Duration,
    pub retry_max: Duration,
    pub max_attempts: u32,
    pub claim: Duration,
    pub list_unsubscribe: Option<String>,
    /// Whether this process runs the delivery worker (tests that look at queued messages
    /// turn it off; `MONEYDESK_EMAIL_WORKER=off`).
    pub worker: bool,
    /// Address verification: the resolver, its timeout, the domain cache and the lists
    /// (`MONEYDESK_DNS_*`, `MONEYDESK_EMAIL_DOMAIN_CACHE`, …; see `validation::VerifyConfig`).
    pub verify: super::validation::VerifyConfig,
    /// The service's own mail domain, which sending domains' records point into
    /// (`MONEYDESK_EMAIL_SERVICE_DOMAIN`, default `moneydesk.test`).
    pub service_domain: String,
    /// Whether a sending domain is activated as soon as it verifies
    /// (`MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE=on`); otherwise an administrator activates it.
    pub auto_activate_domains: bool,
    /// Inbound mail: the SMTP listener, the size limit, the webhook's retries
    /// (`MONEYDESK_INBOUND_*`; see `inbound::InboundConfig`).
    pub inbound: super::inbound::InboundConfig,
}

impl Default for EmailConfig {
    fn default() -> Self {
        EmailConfig {
            smtp_url: None,
            senders: vec![SenderIdentity { address: "@moneydesk.test".into(), name: None }],
            connections: 4,
            retry_base: Duration::from_secs(30),
            retry_max: Duration::from_secs(3600),
            max_attempts: 8,
            claim: Duration::from_secs(300),
            list_unsubscribe: None,
            worker: true,
            verify: Default::default(),
            service_domain: "moneydesk.test".into(),
            auto_activate_domains: false,
            inbound: Default::default(),
        }
    }
}

impl EmailConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<EmailConfig> {
        let mut c = EmailConfig::default();
        if let Some(url) = var("MONEYDESK_SMTP_URL").filter(|s| !s.trim().is_empty()) {
            if !(url.starts_with("smtp://") || url.starts_with("smtps://")) {
                bail!("MONEYDESK_SMTP_URL must start with smtp:// or smtps:// (like smtp://user:pass@mail.example:587?tls=required); got {:?}", url.split('@').next_back().unwrap_or(""));
            }
            c.smtp_url = Some(url);
        }
        if let Some(list) = var("MONEYDESK_EMAIL_SENDERS") {
            c.senders = parse_senders(&list).context("MONEYDESK_EMAIL_SENDERS")?;
        }
        if let Some(n) = var("MONEYDESK_EMAIL_CONNECTIONS") {
            c.connections = n.trim().parse().ok().filter(|n| (1..=64).contains(n)).with_context(|| format!("MONEYDESK_EMAIL_CONNECTIONS must be 1 to 64; got {n:?}"))?;
        }
        if let Some(n) = var("MONEYDESK_EMAIL_MAX_ATTEMPTS") {
            c.max_attempts = n.trim().parse().ok().filter(|n| *n >= 1).with_context(|| format!("MONEYDESK_EMAIL_MAX_ATTEMPTS must be a whole number from 1; got {n:?}"))?;
        }
        for (name, slot) in [
            ("MONEYDESK_EMAIL_RETRY_BASE", &mut c.retry_base),
            ("MONEYDESK_EMAIL_RETRY_MAX", &mut c.retry_max),
            ("MONEYDESK_EMAIL_CLAIM", &mut c.claim),
        ] {
            if let Some(v) = var(name) {
                *slot = crate::config::parse_duration(&v).context(name)?;
            }
        }
        c.list_unsubscribe = var("MONEYDESK_EMAIL_LIST_UNSUBSCRIBE").filter(|s| !s.trim().is_empty());
        if let Some(v) = &c.list_unsubscribe {
            if v.contains(['\r', '\n']) {
                bail!("MONEYDESK_EMAIL_LIST_UNSUBSCRIBE must be one line");
            }
        }
        if let Some(v) = var("MONEYDESK_EMAIL_WORKER") {
            c.worker = !matches!(v.trim(), "off" | "0" | "false" | "no");
        }
        c.verify = super::validation::VerifyConfig::from_env(var)?;
        if let Some(d) = var("MONEYDESK_EMAIL_SERVICE_DOMAIN").filter(|s| !s.trim().is_empty()) {
            c.service_domain = EmailAddress::domain_name(&d).with_context(|| format!("MONEYDESK_EMAIL_SERVICE_DOMAIN must be a domain name; got {d:?}"))?;
        }
        if let Some(v) = var("MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE") {
            c.auto_activate_domains = matches!(v.trim(), "on" | "1" | "true" | "yes");
        }
        c.inbound = super::inbound::InboundConfig::from_env(var)?;
        Ok(c)
    }

    /// The identity `address` may be sent under, if any.
    pub fn sender_for(&self, address: &EmailAddress) -> Option<&SenderIdentity> {
        self.senders.iter().find(|s| s.allows(address))
    }
}

/// `ops@bank.example, Operations <ops@bank.example>, @bank.example`.
///
/// ```
/// let s = moneydesk_server::email::config::parse_senders("Ops <ops@bank.example>, @bank.example").unwrap();
/// assert_eq!(s[0].address, "ops@bank.example");
/// assert_eq!(s[0].name.as_deref(), Some("Ops"));
/// assert_eq!(s[1].address, "@bank.example");
/// assert!(moneydesk_server::email::config::parse_senders("not an address").is_err());
/// ```
pub fn parse_senders(list: &str) -> anyhow::Result<Vec<SenderIdentity>> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, address) = match item.rsplit_once('<') {
            Some((name, rest)) => {
                let addr = rest.strip_suffix('>').with_context(|| format!("{item:?}: a name with an address is written Name <addr@domain>"))?;
                (Some(name.trim().trim_matches('"').to_string()).filter(|n| !n.is_empty()), addr.trim())
            }
            None => (None, item),
        };
        let address = match address.strip_prefix('@') {
            Some(domain) => {
                EmailAddress::parse(&format!("x@{domain}")).with_context(|| format!("{item:?} is not a domain like @bank.example"))?;
                format!("@{}", domain.to_ascii_lowercase())
            }
            None => EmailAddress::parse(address).with_context(|| format!("{item:?} is not an address"))?.to_string(),
        };
        out.push(SenderIdentity { address, name });
    }
    if out.is_empty() {
        bail!("no sender given; write addresses or @domains, comma separated");
    }
    Ok(out)
}
