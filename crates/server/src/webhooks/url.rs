//! The URL rule, against server-side request forgery: an endpoint's URL is chosen by an API
//! caller, and this server would POST to it from inside its own network — to a database's
//! admin port, a cloud metadata service (169.254.169.254), a router. So: https only, and every
//! address the host resolves to must be public (not loopback, private, link-local,
//! unique-local, unspecified, multicast, shared). Checked at creation and again at every
//! delivery: a name that resolved to a public address then may resolve to a private one now
//! (DNS rebinding), so the delivering client resolves through [`Resolver`], which applies the
//! same rule to the addresses it connects to. The configuration's allow-list
//! (`MONEYDESK_WEBHOOK_ALLOW`) lifts the rule for named hosts and networks (development, tests).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use crate::config::webhooks::Allowed;

/// Why an address is refused, in words; `None`: public.
///
/// ```
/// use moneydesk_server::webhooks::url::refused_address;
/// assert!(refused_address("127.0.0.1".parse().unwrap()).unwrap().contains("loopback"));
/// assert!(refused_address("10.1.2.3".parse().unwrap()).unwrap().contains("private"));
/// assert!(refused_address("169.254.169.254".parse().unwrap()).unwrap().contains("link-local"));
/// assert!(refused_address("fd00::1".parse().unwrap()).unwrap().contains("unique-local"));
/// assert!(refused_address("::ffff:192.168.1.1".parse().unwrap()).unwrap().contains("private"));
/// assert!(refused_address("0.0.0.0".parse().unwrap()).unwrap().contains("unspecified"));
/// assert_eq!(refused_address("93.184.216.34".parse().unwrap()), None);
/// ```
pub fn refused_address(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => refused_v4(v4),
            None => refused_v6(v6),
        },
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    Some(match () {
        _ if ip.is_loopback() => "a loopback address",
        _ if ip.is_unspecified() || o[0] == 0 => "an unspecified address",
        _ if ip.is_private() => "a private address",
        _ if ip.is_link_local() => "a link-local address",
        _ if o[0] == 100 && (o[1] & 0xc0) == 64 => "a shared (carrier-grade NAT) address",
        _ if ip.is_broadcast() || ip.is_multicast() || o[0] >= 240 => "a broadcast, multicast or reserved address",
        _ => return None,
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    Some(match () {
        _ if ip.is_loopback() => "a loopback address",
        _ if ip.is_unspecified() => "an unspecified address",
        _ if (s[0] & 0xfe00) == 0xfc00 => "a unique-local address",
        _ if (s[0] & 0xffc0) == 0xfe80 => "a link-local address",
        _ if ip.is_multicast() => "a multicast address",
        _ => return None,
    })
}

fn in_network(ip: IpAddr, net: IpAddr, bits: u8) -> bool {
    match (ip, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let mask = if bits == 0 { 0 } else { u32::MAX << (32 - u32::from(bits)) };
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let mask = if bits == 0 { 0 } else { u128::MAX << (128 - u32::from(bits)) };
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

/// The allow-list, as the rule reads it.
#[derive(Debug, Clone, Default)]
pub struct Allow(pub Arc<Vec<Allowed>>);

impl Allow {
    /// Whether `host` (lowercase, no brackets) on `port` is named by the list.
    pub fn host(&self, host: &str, port: u16) -> bool {
        self.0.iter().any(|a| match a {
            Allowed::Host(h) => h == host,
            Allowed::HostPort(h, p) => h == host && *p == port,
            Allowed::Network(..) => false,
        })
    }

    /// Whether a host named by the list (on any port: the resolver does not see the port).
    fn host_any_port(&self, host: &str) -> bool {
        self.0.iter().any(|a| matches!(a, Allowed::Host(h) | Allowed::HostPort(h, _) if h == host))
    }

    pub fn address(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|a| matches!(a, Allowed::Network(n, bits) if in_network(ip, *n, *bits)))
    }
}

/// A URL parsed and checked without resolving it: `(url, host, port)`.
pub fn parse(given: &str, allow: &Allow) -> Result<(url::Url, String, u16), String> {
    let given = given.trim();
    if given.len() > 2000 {
        return Err("the URL is longer than 2000 characters".into());
    }
    let url = url::Url::parse(given).map_err(|e| format!("{given:?} is not a URL ({e})"))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err("the URL must not carry a user name or password: the signature authenticates the server".into());
    }
    let host = url.host_str().ok_or_else(|| format!("{given:?} has no host"))?;
    let host = host.trim_matches(['[', ']']).to_ascii_lowercase();
    let port = url.port_or_known_default().unwrap_or(443);
    let named = allow.host(&host, port);
    let literal: Option<IpAddr> = host.parse().ok();
    let allowed_literal = literal.is_some_and(|ip| allow.address(ip));
    match url.scheme() {
        "https" => {}
        "http" if named || allowed_literal => {}
        "http" => {
            return Err(format!(
                "the URL must be https: {host} is not in the server's allow-list (MONEYDESK_WEBHOOK_ALLOW) for http"
            ))
        }
        other => return Err(format!("the URL must be https, not {other}")),
    }
    if let Some(ip) = literal {
        if !named && !allowed_literal {
            if let Some(why) = refused_address(ip) {
                return Err(refusal(&host, ip, why));
            }
        }
    }
    Ok((url, host, port))
}

fn refusal(host: &str, ip: IpAddr, why: &str) -> String {
    format!(
        "{host} is {why} ({ip}): webhooks are not sent into the server's own network (server-side request \
         forgery) unless the server's MONEYDESK_WEBHOOK_ALLOW names it"
    )
}

/// [`parse`], then every address the host resolves to checked: the creation's and the
/// change's check (a 400 naming why).
pub async fn check(given: &str, allow: &Allow) -> Result<String, String> {
    let (url, host, port) = parse(given, allow)?;
    if allow.host(&host, port) || host.parse::<IpAddr>().is_ok() {
        return Ok(url.to_string());
    }
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
        .await
        .map_err(|e| format!("{host} does not resolve ({e})"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!("{host} does not resolve"));
    }
    for a in &addrs {
        if let Some(why) = refused_address(a.ip()).filter(|_| !allow.address(a.ip())) {
            return Err(refusal(&host, a.ip(), why));
        }
    }
    Ok(url.to_string())
}

/// The delivering client's resolver: the system's, keeping only addresses the rule allows, so
/// the address connected to is the one checked.
#[derive(Debug, Clone)]
pub struct Resolver(pub Allow);

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow = self.0.clone();
        Box::pin(async move {
            let host = name.as_str().to_ascii_lowercase();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let named = allow.host_any_port(&host);
            let kept: Vec<SocketAddr> = (found.iter().copied())
                .filter(|a| named || allow.address(a.ip()) || refused_address(a.ip()).is_none())
                .collect();
            if kept.is_empty() {
                let why = found.first().map_or("no address".to_string(), |a| {
                    refusal(&host, a.ip(), refused_address(a.ip()).unwrap_or("refused"))
                });
                return Err(why.into());
            }
            let addrs: reqwest::dns::Addrs = Box::new(kept.into_iter());
            Ok(addrs)
        })
    }
}
