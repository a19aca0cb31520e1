//! How connections are served (issue 50): HTTP/1.1 always, HTTP/2 beside it — h2c with prior
//! knowledge on plain connections, ALPN `h2` when the server terminates TLS with the
//! certificate it is given — over real sockets with reqwest (hyper's client), the certificates
//! made by openssl (`common::certificates`).

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::certificates::{certificates, tls_files};
use common::Server;
use moneydesk_model::{paths, Scope};
use moneydesk_server::config::transport::TlsFiles;
use reqwest::Version;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// A server terminating TLS with a certificate the test CA issued, adjusted by `tweak`; the
/// directory holds the CA (`ca.pem`) for the clients.
async fn over_tls(tweak: impl FnOnce(&mut moneydesk_server::Config)) -> (Server, tempfile::TempDir) {
    let certs = tempfile::tempdir().unwrap();
    certificates(certs.path());
    let s = Server::start_with(|c| {
        c.transport.tls = Some(tls_files(certs.path()));
        tweak(c);
    })
    .await;
    (s, certs)
}

/// A client that trusts the test CA (`ca.pem` in `dir`).
fn trusting(dir: &Path) -> reqwest::ClientBuilder {
    let ca = reqwest::Certificate::from_pem(&std::fs::read(dir.join("ca.pem")).unwrap()).unwrap();
    reqwest::Client::builder().use_rustls_tls().add_root_certificate(ca).tls_built_in_root_certs(false)
}

/// GET auth/me with `client`: the protocol version it was answered in, and the answer checked
/// to be the whole one (status, the frame's headers, the body).
async fn me(s: &Server, client: &reqwest::Client, token: &str) -> Version {
    let r = client.get(s.url(paths::AUTH_ME)).bearer_auth(token).send().await.expect("answered");
    assert_eq!(r.status(), 200);
    assert!(r.headers().contains_key("x-request-id"), "{:?}", r.headers());
    assert_eq!(r.headers()["x-content-type-options"], "nosniff");
    let version = r.version();
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["data"]["name"], "test", "{body}");
    version
}

#[tokio::test]
async fn a_plain_connection_speaks_http1_and_http2_to_a_client_that_opens_with_its_preface() {
    let s = Server::start().await;
    let token = s.token(&[Scope::FeesRead]).await;
    let h1 = reqwest::Client::builder().http1_only().build().unwrap();
    assert_eq!(me(&s, &h1, &token).await, Version::HTTP_11);
    let h2c = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
    assert_eq!(me(&s, &h2c, &token).await, Version::HTTP_2);
    // Twenty at once on one HTTP/2 connection: every one answered, the refusals too.
    let asks = (0..20).map(|i| {
        let (client, url) = (h2c.clone(), s.url(paths::AUTH_ME));
        let token = if i % 2 == 0 { token.clone() } else { "mdk_not_a_token".to_string() };
        async move { client.get(url).bearer_auth(token).send().await.expect("answered").status().as_u16() }
    });
    let statuses = futures_util::future::join_all(asks).await;
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 10, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 10, "{statuses:?}");
}

#[tokio::test]
async fn an_http2_connection_is_kept_for_the_keep_alive_timeout_not_the_header_read_timeout() {
    let s = Server::start_with(|c| {
        c.limits.header_read_timeout = Duration::from_millis(200);
        c.limits.keep_alive_timeout = Duration::from_millis(1500);
    })
    .await;
    let tcp = TcpStream::connect(s.running.addr).await.unwrap();
    // Small flow-control windows: the client acknowledges what it reads (WINDOW_UPDATE frames)
    // while the answer's body arrives, after its handler has returned: bytes from the client
    // between requests, which on HTTP/1.1 would begin the next request's head.
    let (mut send, connection) = hyper::client::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
        .initial_stream_window_size(65_535)
        .initial_connection_window_size(65_535)
        .handshake(hyper_util::rt::TokioIo::new(tcp))
        .await
        .expect("an HTTP/2 handshake");
    let mut closed = tokio::spawn(connection);
    let ask = || {
        let empty = http_body_util::Empty::<bytes::Bytes>::new();
        hyper::Request::get(s.url(paths::OPENAPI)).body(empty).unwrap()
    };
    let answer = send.send_request(ask()).await.expect("answered");
    assert_eq!((answer.status().as_u16(), answer.version()), (200, hyper::Version::HTTP_2));
    let body = http_body_util::BodyExt::collect(answer.into_body()).await.expect("the whole body").to_bytes();
    assert!(body.len() > 256 * 1024, "a body of {} bytes takes few window updates", body.len());
    // Past the header read timeout the connection still serves.
    let still_open = tokio::time::timeout(Duration::from_millis(700), &mut closed).await;
    assert!(still_open.is_err(), "closed within the header read timeout's reach: {still_open:?}");
    let again = send.send_request(ask()).await.expect("answered on the same connection");
    assert_eq!(again.status(), 200);
    http_body_util::BodyExt::collect(again.into_body()).await.expect("the whole body");
    // Then, idle, it is closed after the keep-alive timeout. (The bound only keeps a broken
    // server from hanging the test.)
    let ended = tokio::time::timeout(Duration::from_secs(8), &mut closed).await;
    assert!(ended.is_ok(), "an idle HTTP/2 connection is still open after the keep-alive timeout");
}

#[tokio::test]
async fn with_http2_off_a_plain_connection_speaks_only_http1() {
    let s = Server::start_with(|c| c.transport.http2 = false).await;
    let token = s.token(&[Scope::FeesRead]).await;
    let h1 = reqwest::Client::builder().http1_only().build().unwrap();
    assert_eq!(me(&s, &h1, &token).await, Version::HTTP_11);
    let h2c = reqwest::Client::builder().http2_prior_knowledge().build().unwrap();
    let refused = h2c.get(s.url(paths::AUTH_ME)).bearer_auth(&token).send().await;
    assert!(refused.is_err(), "HTTP/2 answered although it is off: {refused:?}");
}

#[tokio::test]
async fn over_tls_the_client_is_offered_http2_and_http1_by_alpn() {
    let (s, certs) = over_tls(|_| {}).await;
    assert!(s.url("/").starts_with("https://127.0.0.1:"), "{}", s.url("/"));
    let token = s.token(&[Scope::FeesRead]).await;
    let any = trusting(certs.path()).build().unwrap();
    assert_eq!(me(&s, &any, &token).await, Version::HTTP_2);
    let h1 = trusting(certs.path()).http1_only().build().unwrap();
    assert_eq!(me(&s, &h1, &token).await, Version::HTTP_11);
    // The portal's files too (the fallback route), not only /api.
    let health = any.get(s.url("/healthz")).send().await.unwrap();
    assert_eq!((health.status().as_u16(), health.version()), (200, Version::HTTP_2));
    // A client that does not trust the CA is refused in the handshake: nothing is answered.
    let untrusting = reqwest::Client::builder().use_rustls_tls().build().unwrap();
    let err = untrusting.get(s.url(paths::AUTH_ME)).send().await.unwrap_err();
    assert!(format!("{err:?}").to_lowercase().contains("certificate"), "{err:?}");
}

#[tokio::test]
async fn over_tls_with_http2_off_only_http1_is_offered() {
    let (s, certs) = over_tls(|c| c.transport.http2 = false).await;
    let token = s.token(&[Scope::FeesRead]).await;
    let any = trusting(certs.path()).build().unwrap();
    assert_eq!(me(&s, &any, &token).await, Version::HTTP_11);
}

#[tokio::test]
async fn a_connection_that_never_starts_its_tls_handshake_is_closed_after_the_header_read_timeout() {
    let (s, certs) = over_tls(|c| c.limits.header_read_timeout = Duration::from_millis(200)).await;
    let mut conn = TcpStream::connect(s.running.addr).await.unwrap();
    let mut buf = [0u8; 64];
    // The bound only keeps a broken server from hanging the test.
    let read = tokio::time::timeout(Duration::from_secs(8), conn.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(0)) | Ok(Err(_))), "still open, or answered: {read:?}");
    // The server still serves others.
    let token = s.token(&[Scope::FeesRead]).await;
    assert_eq!(me(&s, &trusting(certs.path()).build().unwrap(), &token).await, Version::HTTP_2);
}

#[tokio::test]
async fn a_certificate_and_key_that_cannot_be_used_stop_the_server_naming_the_file() {
    let certs = tempfile::tempdir().unwrap();
    certificates(certs.path());
    let start = |tls: TlsFiles| async move {
        let dir = tempfile::tempdir().unwrap();
        let mut config = moneydesk_server::Config::for_tests(dir.path());
        config.transport.tls = Some(tls);
        format!("{:#}", moneydesk_server::start(config).await.err().expect("the server refuses to start"))
    };
    // The CA's key is not the certificate's.
    let e = start(TlsFiles { cert: certs.path().join("server.pem"), key: certs.path().join("ca.key") }).await;
    assert!(e.contains("MONEYDESK_TLS_CERT") && e.contains("does not fit"), "{e}");
    // A key where the certificate should be, a certificate where the key should be.
    let e = start(TlsFiles { cert: certs.path().join("server.key"), key: certs.path().join("server.key") }).await;
    assert!(e.contains("MONEYDESK_TLS_CERT") && e.contains("no certificate"), "{e}");
    let e = start(TlsFiles { cert: certs.path().join("server.pem"), key: certs.path().join("server.pem") }).await;
    assert!(e.contains("MONEYDESK_TLS_KEY") && e.contains("no private key"), "{e}");
    let e = start(TlsFiles { cert: certs.path().join("missing.pem"), key: certs.path().join("server.key") }).await;
    assert!(e.contains("MONEYDESK_TLS_CERT") && e.contains("missing.pem"), "{e}");
}
