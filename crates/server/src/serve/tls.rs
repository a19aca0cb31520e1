//! TLS terminated by the server itself (rustls, with the ring provider the rest of the server
//! already links): the certificate chain and key read once at start, ALPN offering `h2` (when
//! HTTP/2 is on) and `http/1.1`.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

use crate::config::transport::TlsFiles;

/// The acceptor for `files`; every error names the file and the variable it came from.
pub fn acceptor(files: &TlsFiles, http2: bool) -> anyhow::Result<TlsAcceptor> {
    let chain = certificates(&files.cert)
        .with_context(|| format!("MONEYDESK_TLS_CERT {}: reading the certificate chain", files.cert.display()))?;
    let key = PrivateKeyDer::from_pem_file(&files.key).map_err(|e| {
        anyhow::anyhow!(
            "MONEYDESK_TLS_KEY {}: no private key read ({e}); expected a PEM file with a PKCS#8, PKCS#1 or SEC1 key",
            files.key.display()
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS protocol versions")?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .with_context(|| {
            format!(
                "MONEYDESK_TLS_CERT {} and MONEYDESK_TLS_KEY {}: the key does not fit the certificate, or is of a kind rustls does not sign with",
                files.cert.display(),
                files.key.display()
            )
        })?;
    config.alpn_protocols = if http2 { vec![b"h2".to_vec(), b"http/1.1".to_vec()] } else { vec![b"http/1.1".to_vec()] };
    Ok(TlsAcceptor::from(Arc::new(config)))
}

fn certificates(path: &Path) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let chain = CertificateDer::pem_file_iter(path)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    anyhow::ensure!(!chain.is_empty(), "no certificate in it (expected PEM: -----BEGIN CERTIFICATE-----)");
    Ok(chain)
}
