//! Address verification's settings (`MONEYDESK_DNS_*`, `MONEYDESK_EMAIL_DOMAIN_CACHE`, the
//! list files), read with the rest of the configuration; the verifier is `email::validation`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

/// The verification's settings (environment; see the crate's README).
#[derive(Debug, Clone)]
pub struct VerifyConfig {
    /// `MONEYDESK_DNS_SERVER` (`ip` or `ip:port`); the system's resolvers when unset.
    pub dns_server: Option<SocketAddr>,
    /// `MONEYDESK_DNS_TIMEOUT` (default `3s`): each DNS query's.
    pub dns_timeout: Duration,
    /// `MONEYDESK_EMAIL_DOMAIN_CACHE` (default `1h`).
    pub domain_cache: Duration,
    /// `MONEYDESK_EMAIL_DISPOSABLE_DOMAINS`, `MONEYDESK_EMAIL_ROLE_ADDRESSES`: list files.
    pub disposable_file: Option<PathBuf>,
    pub role_file: Option<PathBuf>,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            dns_server: None,
            dns_timeout: Duration::from_secs(3),
            domain_cache: Duration::from_secs(3600),
            disposable_file: None,
            role_file: None,
        }
    }
}

impl VerifyConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<VerifyConfig> {
        let mut c = VerifyConfig::default();
        if let Some(s) = var("MONEYDESK_DNS_SERVER").filter(|s| !s.trim().is_empty()) {
            c.dns_server = Some(parse_dns_server(&s)?);
        }
        if let Some(v) = var("MONEYDESK_DNS_TIMEOUT") {
            c.dns_timeout = crate::config::values::parse_duration(&v).context("MONEYDESK_DNS_TIMEOUT")?;
            anyhow::ensure!(!c.dns_timeout.is_zero(), "MONEYDESK_DNS_TIMEOUT must be more than 0");
        }
        if let Some(v) = var("MONEYDESK_EMAIL_DOMAIN_CACHE") {
            c.domain_cache = if v.trim() == "0" {
                Duration::ZERO
            } else {
                crate::config::values::parse_duration(&v).context("MONEYDESK_EMAIL_DOMAIN_CACHE")?
            };
        }
        c.disposable_file =
            var("MONEYDESK_EMAIL_DISPOSABLE_DOMAINS").filter(|s| !s.trim().is_empty()).map(PathBuf::from);
        c.role_file = var("MONEYDESK_EMAIL_ROLE_ADDRESSES").filter(|s| !s.trim().is_empty()).map(PathBuf::from);
        Ok(c)
    }
}

/// `192.0.2.53`, `192.0.2.53:5353`, `[2001:db8::53]:53`, `2001:db8::53`.
///
/// ```
/// use moneydesk_server::config::verify::parse_dns_server;
/// assert_eq!(parse_dns_server("127.0.0.1:5353").unwrap().port(), 5353);
/// assert_eq!(parse_dns_server("192.0.2.53").unwrap().port(), 53);
/// assert_eq!(parse_dns_server("2001:db8::53").unwrap().port(), 53);
/// assert!(parse_dns_server("dns.example").is_err());
/// ```
pub fn parse_dns_server(s: &str) -> anyhow::Result<SocketAddr> {
    let s = s.trim();
    s.parse::<SocketAddr>().or_else(|_| s.parse::<std::net::IpAddr>().map(|ip| SocketAddr::new(ip, 53))).map_err(|_| {
        anyhow::anyhow!("MONEYDESK_DNS_SERVER must be an IP address with an optional port (127.0.0.1:5353); got {s:?}")
    })
}
