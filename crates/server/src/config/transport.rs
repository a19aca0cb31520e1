//! How connections are served (environment only): TLS terminated by the server itself, and
//! HTTP/2 beside HTTP/1.1.

use std::path::PathBuf;

use super::values::parse_bool;

/// `MONEYDESK_TLS_CERT` and `MONEYDESK_TLS_KEY` (both or neither), `MONEYDESK_HTTP2`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportConfig {
    /// The certificate chain (PEM, the server's certificate first) and its private key (PEM:
    /// PKCS#8, PKCS#1 or SEC1). Set, every connection is TLS, offering `h2` and `http/1.1` by
    /// ALPN; unset, connections are plain (a proxy in front terminates TLS).
    pub tls: Option<TlsFiles>,
    /// HTTP/2 as well as HTTP/1.1 (default on): on TLS by ALPN, on plain connections when the
    /// client opens with HTTP/2's preface (h2c with prior knowledge, as proxies such as Envoy
    /// or nginx's `grpc_pass` speak it). Off: HTTP/1.1 only, and TLS offers only `http/1.1`.
    pub http2: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig { tls: None, http2: true }
    }
}

impl TransportConfig {
    /// The URL scheme clients reach the server by: `https` with TLS, else `http`.
    pub fn scheme(&self) -> &'static str {
        if self.tls.is_some() {
            "https"
        } else {
            "http"
        }
    }

    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<TransportConfig> {
        let file = |name: &str| var(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        let tls = match (file("MONEYDESK_TLS_CERT"), file("MONEYDESK_TLS_KEY")) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert: cert.into(), key: key.into() }),
            (None, None) => None,
            (Some(_), None) => anyhow::bail!(
                "MONEYDESK_TLS_CERT is set but MONEYDESK_TLS_KEY is not: set both (PEM files: the certificate chain and its private key) or neither"
            ),
            (None, Some(_)) => anyhow::bail!(
                "MONEYDESK_TLS_KEY is set but MONEYDESK_TLS_CERT is not: set both (PEM files: the certificate chain and its private key) or neither"
            ),
        };
        let http2 = match var("MONEYDESK_HTTP2") {
            Some(v) => parse_bool("MONEYDESK_HTTP2", &v)?,
            None => true,
        };
        Ok(TransportConfig { tls, http2 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> anyhow::Result<TransportConfig> {
        let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        TransportConfig::from_env(&|k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()))
    }

    #[test]
    fn plain_with_http2_unless_told_otherwise() {
        assert_eq!(from(&[]).unwrap(), TransportConfig { tls: None, http2: true });
        assert!(!from(&[("MONEYDESK_HTTP2", "false")]).unwrap().http2);
        let both = from(&[("MONEYDESK_TLS_CERT", "/etc/md/cert.pem"), ("MONEYDESK_TLS_KEY", " /etc/md/key.pem ")]);
        assert_eq!(
            both.unwrap().tls,
            Some(TlsFiles { cert: "/etc/md/cert.pem".into(), key: "/etc/md/key.pem".into() })
        );
    }

    #[test]
    fn a_certificate_without_its_key_names_what_is_missing() {
        let e = format!("{:#}", from(&[("MONEYDESK_TLS_CERT", "/etc/md/cert.pem")]).unwrap_err());
        assert!(e.contains("MONEYDESK_TLS_KEY is not"), "{e}");
        let e = format!("{:#}", from(&[("MONEYDESK_TLS_KEY", "/etc/md/key.pem")]).unwrap_err());
        assert!(e.contains("MONEYDESK_TLS_CERT is not"), "{e}");
        assert!(format!("{:#}", from(&[("MONEYDESK_HTTP2", "maybe")]).unwrap_err()).contains("MONEYDESK_HTTP2"));
    }
}
