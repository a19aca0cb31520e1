//! Inbound mail's settings, read with the rest of the email configuration (`config::email`,
//! which names this file directly: the settings sit below the group's handlers, not beside them).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use moneydesk_model::email::EmailAddress;

/// Inbound mail's settings (environment variables):
///
/// - `MONEYDESK_INBOUND_SMTP`: where the SMTP listener listens (`0.0.0.0:25`,
///   `127.0.0.1:2525`); unset or `off`: no listener (mail then arrives only through the API).
/// - `MONEYDESK_INBOUND_HOSTNAME` (default `mx.<service domain>`): the name the listener
///   greets with, and the MX host routes are told to publish.
/// - `MONEYDESK_INBOUND_MAX_SIZE` (default `30MiB`): the largest message taken; larger is a
///   552 at SMTP time (announced in EHLO's `SIZE`) and a 413 from the API.
/// - `MONEYDESK_INBOUND_RETRY_BASE` (default `1m`), `MONEYDESK_INBOUND_RETRY_MAX` (default
///   `2h`), `MONEYDESK_INBOUND_RETRY_FOR` (default `72h`): the webhook's backoff (see `webhook`).
/// - `MONEYDESK_INBOUND_TIMEOUT` (default `30s`): how long a receiver has to answer a POST.
#[derive(Debug, Clone)]
pub struct InboundConfig {
    pub smtp: Option<SocketAddr>,
    /// `None`: `mx.<service domain>`.
    pub hostname: Option<String>,
    pub max_size: usize,
    pub retry_base: Duration,
    pub retry_max: Duration,
    pub retry_for: Duration,
    pub timeout: Duration,
}

impl Default for InboundConfig {
    fn default() -> Self {
        InboundConfig {
            smtp: None,
            hostname: None,
            max_size: 30 * 1024 * 1024,
            retry_base: Duration::from_secs(60),
            retry_max: Duration::from_secs(2 * 3600),
            retry_for: Duration::from_secs(72 * 3600),
            timeout: Duration::from_secs(30),
        }
    }
}

impl InboundConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<InboundConfig> {
        let mut c = InboundConfig::default();
        if let Some(v) =
            var("MONEYDESK_INBOUND_SMTP").map(|v| v.trim().to_string()).filter(|v| !v.is_empty() && v != "off")
        {
            c.smtp = Some(v.parse().with_context(|| {
                format!("MONEYDESK_INBOUND_SMTP must be an address and port like 0.0.0.0:25 or off; got {v:?}")
            })?);
        }
        if let Some(h) = var("MONEYDESK_INBOUND_HOSTNAME").filter(|s| !s.trim().is_empty()) {
            c.hostname = Some(
                EmailAddress::domain_name(&h)
                    .with_context(|| format!("MONEYDESK_INBOUND_HOSTNAME must be a host name; got {h:?}"))?,
            );
        }
        if let Some(v) = var("MONEYDESK_INBOUND_MAX_SIZE") {
            c.max_size = crate::config::values::parse_size(&v).context("MONEYDESK_INBOUND_MAX_SIZE")?;
        }
        for (name, slot) in [
            ("MONEYDESK_INBOUND_RETRY_BASE", &mut c.retry_base),
            ("MONEYDESK_INBOUND_RETRY_MAX", &mut c.retry_max),
            ("MONEYDESK_INBOUND_RETRY_FOR", &mut c.retry_for),
            ("MONEYDESK_INBOUND_TIMEOUT", &mut c.timeout),
        ] {
            if let Some(v) = var(name) {
                *slot = crate::config::values::parse_duration(&v).context(name)?;
            }
        }
        Ok(c)
    }

    /// How long a worker's claim on a message holds: twice the POST timeout plus 30 s.
    pub fn claim(&self) -> Duration {
        self.timeout * 2 + Duration::from_secs(30)
    }
}
