//! Webhook delivery's settings (environment variables):
//!
//! - `MONEYDESK_WEBHOOK_ALLOW`: a comma list of hosts (`hooks.test`), `host:port`
//!   (`127.0.0.1:9000`) or CIDRs (`10.1.0.0/16`) an endpoint may reach although the URL rule
//!   refuses them (http, loopback, private, link-local addresses): for development and tests.
//!   Empty by default: only https to public addresses (server-side request forgery: a webhook
//!   URL must not make this server call into its own network).
//! - `MONEYDESK_WEBHOOK_RETRY_BASE` (default `1m`), `MONEYDESK_WEBHOOK_RETRY_MAX` (default
//!   `2h`), `MONEYDESK_WEBHOOK_RETRY_FOR` (default `72h`): the backoff, doubling from the base.
//! - `MONEYDESK_WEBHOOK_TIMEOUT` (default `30s`): how long a receiver has to answer.
//! - `MONEYDESK_WEBHOOK_DISABLE_AFTER` (default `3d`): an endpoint whose attempts all failed
//!   for this long is disabled (a duration, or days with `d`).
//! - `MONEYDESK_WEBHOOK_ALERT_TO` (optional): the address told when the server disables an
//!   endpoint whose owner (the creating token's user) is not an email address. Unset: that
//!   alert is only logged.
//! - `MONEYDESK_WEBHOOK_WORKER` (default `true`): whether this process dispatches and delivers.

use std::net::IpAddr;
use std::time::Duration;

use anyhow::Context;

/// One entry of the allow-list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allowed {
    /// A host name or IP literal, on any port (lowercase).
    Host(String),
    /// A host on one port.
    HostPort(String, u16),
    /// Addresses in a network.
    Network(IpAddr, u8),
}

#[derive(Debug, Clone)]
pub struct WebhookConfig {
    pub allow: Vec<Allowed>,
    pub retry_base: Duration,
    pub retry_max: Duration,
    pub retry_for: Duration,
    pub timeout: Duration,
    pub disable_after: Duration,
    /// Who hears of an endpoint disabled by the server when its owner is no email address.
    pub alert_to: Option<String>,
    pub worker: bool,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        WebhookConfig {
            allow: Vec::new(),
            retry_base: Duration::from_secs(60),
            retry_max: Duration::from_secs(2 * 3600),
            retry_for: Duration::from_secs(72 * 3600),
            timeout: Duration::from_secs(30),
            disable_after: Duration::from_secs(3 * 24 * 3600),
            alert_to: None,
            worker: true,
        }
    }
}

/// Parses one allow-list entry.
///
/// ```
/// use moneydesk_server::config::webhooks::{parse_allowed, Allowed};
/// assert_eq!(parse_allowed("127.0.0.1").unwrap(), Allowed::Host("127.0.0.1".into()));
/// assert_eq!(parse_allowed("Hooks.Test:8443").unwrap(), Allowed::HostPort("hooks.test".into(), 8443));
/// assert!(matches!(parse_allowed("10.0.0.0/8").unwrap(), Allowed::Network(_, 8)));
/// assert!(parse_allowed("10.0.0.0/33").is_err());
/// ```
pub fn parse_allowed(entry: &str) -> anyhow::Result<Allowed> {
    let e = entry.trim().to_ascii_lowercase();
    if let Some((ip, bits)) = e.split_once('/') {
        let ip: IpAddr = ip.parse().with_context(|| format!("{entry:?}: not a network like 10.0.0.0/8"))?;
        let max = if ip.is_ipv4() { 32 } else { 128 };
        let bits: u8 = bits.parse().ok().filter(|b| *b <= max).with_context(|| format!("{entry:?}: bad prefix"))?;
        return Ok(Allowed::Network(ip, bits));
    }
    if e.parse::<IpAddr>().is_ok() {
        return Ok(Allowed::Host(e));
    }
    let bracketed = e.starts_with('[');
    match e.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() && (!host.contains(':') || bracketed) => {
            let port: u16 = port.parse().with_context(|| format!("{entry:?}: bad port"))?;
            Ok(Allowed::HostPort(host.trim_matches(['[', ']']).to_string(), port))
        }
        _ if !e.is_empty() && !e.contains(char::is_whitespace) => Ok(Allowed::Host(e)),
        _ => anyhow::bail!("{entry:?} is not a host, host:port or CIDR"),
    }
}

/// A duration, or whole days written `3d`.
fn days_or_duration(v: &str) -> anyhow::Result<Duration> {
    match v.trim().strip_suffix('d') {
        Some(n) => {
            let n: u64 = n.trim().parse().ok().filter(|n| *n > 0).context("days must be a positive number")?;
            Ok(Duration::from_secs(n * 24 * 3600))
        }
        None => crate::config::values::parse_duration(v),
    }
}

impl WebhookConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<WebhookConfig> {
        let mut c = WebhookConfig::default();
        if let Some(list) = var("MONEYDESK_WEBHOOK_ALLOW") {
            c.allow = (list.split(',').filter(|s| !s.trim().is_empty()).map(parse_allowed))
                .collect::<anyhow::Result<_>>()
                .context("MONEYDESK_WEBHOOK_ALLOW")?;
        }
        for (name, slot) in [
            ("MONEYDESK_WEBHOOK_RETRY_BASE", &mut c.retry_base),
            ("MONEYDESK_WEBHOOK_RETRY_MAX", &mut c.retry_max),
            ("MONEYDESK_WEBHOOK_RETRY_FOR", &mut c.retry_for),
            ("MONEYDESK_WEBHOOK_TIMEOUT", &mut c.timeout),
        ] {
            if let Some(v) = var(name) {
                *slot = crate::config::values::parse_duration(&v).context(name)?;
            }
        }
        if let Some(v) = var("MONEYDESK_WEBHOOK_DISABLE_AFTER") {
            c.disable_after = days_or_duration(&v).context("MONEYDESK_WEBHOOK_DISABLE_AFTER")?;
        }
        if let Some(v) = var("MONEYDESK_WEBHOOK_ALERT_TO").filter(|v| !v.trim().is_empty()) {
            let address = moneydesk_model::email::EmailAddress::parse(v.trim())
                .map_err(|e| anyhow::anyhow!("MONEYDESK_WEBHOOK_ALERT_TO must be an email address ({e}); got {v:?}"))?;
            c.alert_to = Some(address.to_string());
        }
        if let Some(v) = var("MONEYDESK_WEBHOOK_WORKER") {
            c.worker = crate::config::values::parse_bool("MONEYDESK_WEBHOOK_WORKER", &v)?;
        }
        Ok(c)
    }

    /// How long a worker's claim on a delivery holds: twice the POST timeout plus 30 s.
    pub fn claim(&self) -> Duration {
        self.timeout * 2 + Duration::from_secs(30)
    }
}
