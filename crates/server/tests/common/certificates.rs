//! Certificates for TLS tests, made with openssl: a CA and a certificate for 127.0.0.1 it
//! issued (a client trusts the CA; the server presents the certificate).

use std::path::Path;
use std::process::Command;

use moneydesk_server::config::transport::TlsFiles;

/// A CA (`ca.pem`) and a server certificate for 127.0.0.1 it issued (`server.pem`, `server.key`).
pub fn certificates(dir: &Path) {
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl").args(args).current_dir(dir).output().expect("openssl runs");
        assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Moneydesk test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "server.ext",
    ]);
}

/// The server's side of what [`certificates`] made in `dir`, as the server is given it.
pub fn tls_files(dir: &Path) -> TlsFiles {
    TlsFiles { cert: dir.join("server.pem"), key: dir.join("server.key") }
}
