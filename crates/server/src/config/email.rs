//! The email group's settings (environment variables; see the crate's README):
//!
//! - `MONEYDESK_SMTP_URL`: the relay, in lettre's URL form: `smtp://host:25` (plain),
//!   `smtp://user:pass@host:587?tls=required` (STARTTLS), `smtps://user:pass@host:465`
//!   (implicit TLS). Unset: messages go to the development mailbox in the database.
//! - `MONEYDESK_SMTP_CA_FILE`: PEM certificates the relay's may also chain to (an internal CA),
//!   besides the public roots.
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
//! - `MONEYDESK_EMAIL_UNSUBSCRIBE_URL` (an `https://` origin, the server as recipients reach
//!   it) and `MONEYDESK_EMAIL_UNSUBSCRIBE_SECRET` (at least 32 characters; the HMAC key of the
//!   links): both set, bulk sends (with a category) carry one-click unsubscribe links (RFC 8058).
//! - Address verification's `MONEYDESK_DNS_SERVER`, `MONEYDESK_DNS_TIMEOUT`,
//!   `MONEYDESK_EMAIL_DOMAIN_CACHE`, `MONEYDESK_EMAIL_DISPOSABLE_DOMAINS` and
//!   `MONEYDESK_EMAIL_ROLE_ADDRESSES`: see `verify::VerifyConfig`.
//! - `MONEYDESK_EMAIL_SERVICE_DOMAIN` (default `moneydesk.test`): the service's own mail domain,
//!   which sending domains' CNAMEs point into.
//! - `MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE` (default off): activate a sending domain as soon as
//!   it verifies.
//! - Inbound mail's `MONEYDESK_INBOUND_*`: see `inbound::InboundConfig` here.
//!
//! Each may also be written in the `MONEYDESK_CONFIG` file, as every setting can: the
//! variable's name without `MONEYDESK_`, in lower case (`smtp_url`, `email_senders`,
//! `inbound_smtp`, …); the variable wins. See [`FileKeys`].

use std::time::Duration;

use anyhow::{bail, Context};
use moneydesk_model::email::{EmailAddress, SenderIdentity};

#[derive(Debug, Clone)]
pub struct EmailConfig {
    pub smtp_url: Option<String>,
    pub smtp_ca_file: Option<std::path::PathBuf>,
    pub senders: Vec<SenderIdentity>,
    pub connections: usize,
    pub retry_base: Duration,
    pub retry_max: Duration,
    pub max_attempts: u32,
    pub claim: Duration,
    pub list_unsubscribe: Option<String>,
    /// The unsubscribe links' origin and HMAC key (`email::suppressions::unsubscribe`).
    pub unsubscribe_url: Option<String>,
    pub unsubscribe_secret: Option<String>,
    /// Whether this process runs the delivery worker (tests that look at queued messages
    /// turn it off; `MONEYDESK_EMAIL_WORKER=off`).
    pub worker: bool,
    /// Address verification: the resolver, its timeout, the domain cache and the lists
    /// (`MONEYDESK_DNS_*`, `MONEYDESK_EMAIL_DOMAIN_CACHE`, …; see `verify::VerifyConfig`).
    pub verify: super::verify::VerifyConfig,
    /// The service's own mail domain, which sending domains' records point into
    /// (`MONEYDESK_EMAIL_SERVICE_DOMAIN`, default `moneydesk.test`).
    pub service_domain: String,
    /// Whether a sending domain is activated as soon as it verifies
    /// (`MONEYDESK_EMAIL_DOMAINS_AUTO_ACTIVATE=on`); otherwise an administrator activates it.
    pub auto_activate_domains: bool,
    /// Inbound mail: the SMTP listener, the size limit, the webhook's retries
    /// (`MONEYDESK_INBOUND_*`; see `inbound::InboundConfig` here).
    pub inbound: super::inbound::InboundConfig,
}

impl Default for EmailConfig {
    fn default() -> Self {
        EmailConfig {
            smtp_url: None,
            smtp_ca_file: None,
            senders: vec![SenderIdentity { address: "@moneydesk.test".into(), name: None }],
            connections: 4,
            retry_base: Duration::from_secs(30),
            retry_max: Duration::from_secs(3600),
            max_attempts: 8,
            claim: Duration::from_secs(300),
            list_unsubscribe: None,
            unsubscribe_url: None,
            unsubscribe_secret: None,
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
        c.smtp_ca_file = var("MONEYDESK_SMTP_CA_FILE").filter(|s| !s.trim().is_empty()).map(std::path::PathBuf::from);
        if let Some(list) = var("MONEYDESK_EMAIL_SENDERS") {
            c.senders = parse_senders(&list).context("MONEYDESK_EMAIL_SENDERS")?;
        }
        if let Some(n) = var("MONEYDESK_EMAIL_CONNECTIONS") {
            c.connections = n
                .trim()
                .parse()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .with_context(|| format!("MONEYDESK_EMAIL_CONNECTIONS must be 1 to 64; got {n:?}"))?;
        }
        if let Some(n) = var("MONEYDESK_EMAIL_MAX_ATTEMPTS") {
            c.max_attempts =
                n.trim().parse().ok().filter(|n| *n >= 1).with_context(|| {
                    format!("MONEYDESK_EMAIL_MAX_ATTEMPTS must be a whole number from 1; got {n:?}")
                })?;
        }
        for (name, slot) in [
            ("MONEYDESK_EMAIL_RETRY_BASE", &mut c.retry_base),
            ("MONEYDESK_EMAIL_RETRY_MAX", &mut c.retry_max),
            ("MONEYDESK_EMAIL_CLAIM", &mut c.claim),
        ] {
            if let Some(v) = var(name) {
                *slot = crate::config::values::parse_duration(&v).context(name)?;
            }
        }
        c.list_unsubscribe = var("MONEYDESK_EMAIL_LIST_UNSUBSCRIBE").filter(|s| !s.trim().is_empty());
        if let Some(v) = &c.list_unsubscribe {
            if v.contains(['\r', '\n']) {
                bail!("MONEYDESK_EMAIL_LIST_UNSUBSCRIBE must be one line");
            }
        }
        c.unsubscribe_url = var("MONEYDESK_EMAIL_UNSUBSCRIBE_URL").map(|u| u.trim().trim_end_matches('/').to_string());
        c.unsubscribe_secret = var("MONEYDESK_EMAIL_UNSUBSCRIBE_SECRET");
        match (&c.unsubscribe_url, &c.unsubscribe_secret) {
            (Some(u), _) if !u.starts_with("https://") || u.contains(['\r', '\n', '>', ',', ' ']) => {
                bail!("MONEYDESK_EMAIL_UNSUBSCRIBE_URL must be an https:// origin (like https://mail.bank.example)")
            }
            (Some(_), None) => bail!("MONEYDESK_EMAIL_UNSUBSCRIBE_URL needs MONEYDESK_EMAIL_UNSUBSCRIBE_SECRET"),
            (_, Some(s)) if s.trim().len() < 32 => {
                bail!("MONEYDESK_EMAIL_UNSUBSCRIBE_SECRET must be at least 32 characters")
            }
            _ => {}
        }
        if let Some(v) = var("MONEYDESK_EMAIL_WORKER") {
            c.worker = !matches!(v.trim(), "off" | "0" | "false" | "no");
        }
        c.verify = super::verify::VerifyConfig::from_env(var)?;
        if let Some(d) = var("MONEYDESK_EMAIL_SERVICE_DOMAIN").filter(|s| !s.trim().is_empty()) {
            c.service_domain = EmailAddress::domain_name(&d)
                .with_context(|| format!("MONEYDESK_EMAIL_SERVICE_DOMAIN must be a domain name; got {d:?}"))?;
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

/// The email settings written in the `MONEYDESK_CONFIG` file: its keys named like the
/// variables `EmailConfig::from_env` reads (`MONEYDESK_SMTP_URL` → `smtp_url`), taken out of
/// the file's table so the rest is checked as before (an unknown key is still an error).
/// Strings are read as the variable's text, numbers and booleans as written, and an array of
/// strings (`email_senders = ["Ops <ops@bank.example>", "@bank.example"]`) as the comma-separated
/// list the variable holds.
#[derive(Debug, Default)]
pub struct FileKeys(toml::Table);

impl FileKeys {
    /// Takes the email keys out of `table`.
    pub fn take(table: &mut toml::Table) -> FileKeys {
        // Every variable `from_env` reads, found by asking it with none set (each is read
        // whether or not the others are), so a new setting is a file key as soon as it exists.
        let asked = std::cell::RefCell::new(Vec::new());
        let _ = EmailConfig::from_env(&|name: &str| {
            asked.borrow_mut().push(file_key(name));
            None
        });
        FileKeys(asked.into_inner().into_iter().filter_map(|k| table.remove(&k).map(|v| (k, v))).collect())
    }

    /// `name`'s value in the file, as the variable would hold it.
    pub fn get(&self, name: &str) -> Option<String> {
        match self.0.get(&file_key(name))? {
            toml::Value::String(s) => Some(s.clone()),
            toml::Value::Array(items) => Some(
                items
                    .iter()
                    .map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            other => Some(other.to_string()),
        }
    }

    /// The keys the file set (for an error's context).
    pub fn keys(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }
}

/// `MONEYDESK_SMTP_URL` → `smtp_url`.
fn file_key(name: &str) -> String {
    name.trim_start_matches("MONEYDESK_").to_ascii_lowercase()
}

/// `ops@bank.example, Operations <ops@bank.example>, @bank.example`.
///
/// ```
/// let s = moneydesk_server::config::email::parse_senders("Ops <ops@bank.example>, @bank.example").unwrap();
/// assert_eq!(s[0].address, "ops@bank.example");
/// assert_eq!(s[0].name.as_deref(), Some("Ops"));
/// assert_eq!(s[1].address, "@bank.example");
/// assert!(moneydesk_server::config::email::parse_senders("not an address").is_err());
/// ```
pub fn parse_senders(list: &str) -> anyhow::Result<Vec<SenderIdentity>> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, address) = match item.rsplit_once('<') {
            Some((name, rest)) => {
                let addr = rest
                    .strip_suffix('>')
                    .with_context(|| format!("{item:?}: a name with an address is written Name <addr@domain>"))?;
                (Some(name.trim().trim_matches('"').to_string()).filter(|n| !n.is_empty()), addr.trim())
            }
            None => (None, item),
        };
        let address = match address.strip_prefix('@') {
            Some(domain) => {
                EmailAddress::parse(&format!("x@{domain}"))
                    .with_context(|| format!("{item:?} is not a domain like @bank.example"))?;
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

#[cfg(test)]
mod tests {
    use crate::config::Config;

    fn with_file(text: &str, vars: &[(&str, &str)]) -> anyhow::Result<Config> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.toml");
        std::fs::write(&file, text).unwrap();
        let path = file.to_str().unwrap().to_string();
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| {
            if k == "MONEYDESK_CONFIG" {
                Some(path.clone())
            } else {
                vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
            }
        })
    }

    #[test]
    fn email_settings_are_read_from_the_file_and_variables_win() {
        let c = with_file(
            "smtp_url = \"smtps://relay.bank.example:465\"\nemail_senders = [\"Ops <ops@bank.example>\", \"@bank.example\"]\nemail_max_attempts = 3\nemail_claim = \"2m\"\nemail_worker = false\ninbound_max_size = \"1MiB\"\nemail_service_domain = \"mail.bank.example\"\n",
            &[("MONEYDESK_EMAIL_MAX_ATTEMPTS", "5")],
        )
        .unwrap();
        let e = c.email;
        assert_eq!(e.smtp_url.as_deref(), Some("smtps://relay.bank.example:465"));
        assert_eq!(
            e.senders.iter().map(|s| s.address.as_str()).collect::<Vec<_>>(),
            ["ops@bank.example", "@bank.example"]
        );
        assert_eq!(e.max_attempts, 5, "the variable wins");
        assert_eq!(e.claim, std::time::Duration::from_secs(120));
        assert!(!e.worker);
        assert_eq!(e.inbound.max_size, 1024 * 1024);
        assert_eq!(e.service_domain, "mail.bank.example");
    }

    #[test]
    fn a_bad_or_unknown_email_key_in_the_file_is_named() {
        let err = format!("{:#}", with_file("email_connections = 0\n", &[]).unwrap_err());
        assert!(err.contains("email_connections in MONEYDESK_CONFIG") && err.contains("1 to 64"), "{err}");
        let err = format!("{:#}", with_file("email_sendrs = \"@bank.example\"\n", &[]).unwrap_err());
        assert!(err.contains("email_sendrs"), "{err}");
    }
}
