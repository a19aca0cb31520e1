//! Where a domain's mail goes, asked of a real resolver (hickory): the system's
//! (`/etc/resolv.conf`) or `MONEYDESK_DNS_SERVER`, each query with `MONEYDESK_DNS_TIMEOUT`.
//! Address verification reads it (and the sending domains' record checks will).
//!
//! An answer is one of [`MailHosts`]: what RFC 5321 §5.1 makes of the MX and address records
//! (an MX; else an A/AAAA as the implicit MX; a single MX of `.` is RFC 7505's null MX: no
//! mail), a domain that does not exist, or DNS that could not be asked. Only the last is
//! "don't know": a timeout is never read as "no such domain".

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::lookup::Lookup;
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::NetError;
use hickory_resolver::proto::rr::{RData, RecordType};
use hickory_resolver::TokioResolver;

/// What DNS says about a domain's mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailHosts {
    /// MX records, by preference (lowest first): `(preference, host)`.
    Exchangers(Vec<(u16, String)>),
    /// No MX, but address records: the domain itself takes mail (RFC 5321 §5.1).
    Address(Vec<IpAddr>),
    /// A null MX (RFC 7505): the domain says it takes no mail.
    NullMx,
    /// The domain exists, with neither MX nor address records.
    NoMailHost,
    /// NXDOMAIN.
    NoSuchDomain,
    /// DNS could not be asked or did not answer; the reason.
    Unreachable(String),
}

impl MailHosts {
    /// An answer worth keeping (a failure to ask is not one).
    pub fn is_definite(&self) -> bool {
        !matches!(self, MailHosts::Unreachable(_))
    }
}

/// A resolver, or why there is none (no usable system configuration).
#[derive(Clone)]
pub struct Dns {
    resolver: Result<TokioResolver, String>,
    timeout: Duration,
}

impl std::fmt::Debug for Dns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dns").field("ready", &self.resolver.is_ok()).field("timeout", &self.timeout).finish()
    }
}

impl Dns {
    /// A resolver asking `server` (UDP, TCP when truncated), or the system's resolvers.
    pub fn new(server: Option<SocketAddr>, timeout: Duration) -> Dns {
        let builder = match server {
            Some(addr) => {
                let mut ns = NameServerConfig::udp_and_tcp(addr.ip());
                for c in &mut ns.connections {
                    c.port = addr.port();
                }
                Ok(TokioResolver::builder_with_config(
                    ResolverConfig::from_name_servers(vec![ns]),
                    TokioRuntimeProvider::default(),
                ))
            }
            None => TokioResolver::builder_tokio()
                .map_err(|e| format!("no DNS resolver configured ({e}); set MONEYDESK_DNS_SERVER")),
        };
        let resolver = builder.and_then(|mut b| {
            let o = b.options_mut();
            o.timeout = timeout;
            // One try per server: the caller's timeout is what an operator waits at most.
            o.attempts = 1;
            b.build().map_err(|e| format!("DNS resolver: {e}"))
        });
        if let Err(e) = &resolver {
            tracing::warn!("{e}: every DNS check will answer unknown");
        }
        Dns { resolver, timeout }
    }

    /// The resolver, or why there is none.
    fn resolver(&self) -> Result<&TokioResolver, String> {
        self.resolver.as_ref().map_err(Clone::clone)
    }

    /// The resolver's own timeout, and a guard above it (UDP and TCP each get one).
    fn guard(&self) -> Duration {
        self.timeout * 3
    }

    /// `host`'s records of `rtype`, asked fully qualified (no search domains appended). The
    /// outer `Err` says why DNS could not be asked at all (no resolver, the guard ran out).
    async fn ask(&self, host: &str, rtype: RecordType) -> Result<Result<Lookup, NetError>, String> {
        let resolver = self.resolver()?;
        let fqdn = format!("{}.", host.trim_end_matches('.'));
        tokio::time::timeout(self.guard(), resolver.lookup(fqdn.as_str(), rtype))
            .await
            .map_err(|_| did_not_answer_within(self.guard()))
    }

    /// Where mail for `domain` (ASCII, A-labels) goes.
    pub async fn mail_hosts(&self, domain: &str) -> MailHosts {
        let mx = match self.ask(domain, RecordType::MX).await {
            Err(why) => return MailHosts::Unreachable(why),
            Ok(r) => r,
        };
        match mx {
            Ok(lookup) => {
                let mut mx: Vec<(u16, String)> = lookup
                    .answers()
                    .iter()
                    .filter_map(|r| match &r.data {
                        RData::MX(mx) => Some((mx.preference, mx.exchange.to_ascii())),
                        _ => None,
                    })
                    .collect();
                // RFC 7505: a null MX is the only MX, with the root as its exchange.
                if mx.len() == 1 && (mx[0].1 == "." || mx[0].1.is_empty()) {
                    return MailHosts::NullMx;
                }
                mx.retain(|(_, host)| host != "." && !host.is_empty());
                if !mx.is_empty() {
                    mx.sort();
                    for (_, host) in &mut mx {
                        *host = host.trim_end_matches('.').to_string();
                    }
                    return MailHosts::Exchangers(mx);
                }
            }
            Err(e) if e.is_nx_domain() => return MailHosts::NoSuchDomain,
            Err(e) if e.is_no_records_found() => {}
            Err(e) => return MailHosts::Unreachable(did_not_answer(&e)),
        }
        let resolver = match self.resolver() {
            Ok(r) => r,
            Err(why) => return MailHosts::Unreachable(why),
        };
        let fqdn = format!("{}.", domain.trim_end_matches('.'));
        match tokio::time::timeout(self.guard(), resolver.lookup_ip(fqdn.as_str())).await {
            Err(_) => MailHosts::Unreachable(did_not_answer_within(self.guard())),
            Ok(Ok(ips)) => {
                let ips: Vec<IpAddr> = ips.iter().collect();
                if ips.is_empty() {
                    MailHosts::NoMailHost
                } else {
                    MailHosts::Address(ips)
                }
            }
            Ok(Err(e)) if e.is_nx_domain() => MailHosts::NoSuchDomain,
            Ok(Err(e)) if e.is_no_records_found() => MailHosts::NoMailHost,
            Ok(Err(e)) => MailHosts::Unreachable(did_not_answer(&e)),
        }
    }

    /// The values at `host` of `kind`: a CNAME's target (no trailing dot, lowercase), or each TXT
    /// record's strings joined; empty when there is none (NXDOMAIN or NODATA). `Err` when DNS
    /// could not be asked.
    pub async fn values(&self, host: &str, kind: ValueKind) -> Result<Vec<String>, String> {
        let rtype = match kind {
            ValueKind::Cname => RecordType::CNAME,
            ValueKind::Txt => RecordType::TXT,
        };
        match self.ask(host, rtype).await? {
            Ok(lookup) => Ok(lookup
                .answers()
                .iter()
                // Only the asked name's records: a TXT query through a CNAME also lists the alias.
                .filter(|r| {
                    r.name.to_ascii().trim_end_matches('.').eq_ignore_ascii_case(host.trim_end_matches('.'))
                        || kind == ValueKind::Txt
                })
                .filter_map(|r| match (&r.data, kind) {
                    (RData::CNAME(c), ValueKind::Cname) => {
                        Some(c.0.to_ascii().trim_end_matches('.').to_ascii_lowercase())
                    }
                    (RData::TXT(t), ValueKind::Txt) => {
                        Some(t.txt_data.iter().map(|p| String::from_utf8_lossy(p).into_owned()).collect())
                    }
                    _ => None,
                })
                .collect()),
            Err(e) if e.is_no_records_found() => Ok(Vec::new()),
            Err(e) => Err(did_not_answer(&e)),
        }
    }
}

/// A record type [`Dns::values`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Cname,
    Txt,
}

fn did_not_answer(e: &NetError) -> String {
    format!("DNS did not answer: {e}")
}

fn did_not_answer_within(t: Duration) -> String {
    format!("DNS did not answer within {} ms", t.as_millis())
}
