//! The HTTP plumbing around the groups: unknown paths, methods, body limit, JSON rejections,
//! request ids, CORS, graceful stop.

use crate::common;

use axum::routing::post;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use moneydesk_server::http::{extract, finish};
use reqwest::{Method, StatusCode};

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_the_envelope() {
    let s = Server::start().await;
    for path in ["/api", "/api/", "/api/v1/nothing", "/api/v2/services/money-movements/deposits/extra/deep"] {
        let resp = s.get(path).await;
        assert_eq!(resp.status(), StatusCode::NOT_FOUND, "{path}");
        let body = json(resp).await;
        assert_eq!((body["code"].as_u64(), body["reason"].as_str()), (Some(404), Some("not_found")), "{path}: {body}");
    }
    let resp = s.client.delete(s.url(paths::AUTH_ME)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(resp.headers()["allow"], "GET, HEAD");
    let body = json(resp).await;
    assert_eq!((body["code"].as_u64(), body["reason"].as_str()), (Some(405), Some("method_not_allowed")), "{body}");
    // On the fee paths the fee body, even for a 405.
    let resp = s.client.post(s.url(paths::FEES_ACH)).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(json(resp).await["error_code"], "405");
    s.running.stop().await;
}

#[tokio::test]
async fn body_limit_answers_413_with_the_envelope() {
    let s = Server::start_with(|c| c.body_limit = 1024).await;
    let token = s.token(&[Scope::Admin]).await;
    let big = format!("{{\"pad\":\"{}\"}}", "x".repeat(4096));
    let resp = s
        .client
        .post(s.url(paths::EMAIL_VALIDATION))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body = json(resp).await;
    assert_eq!((body["code"].as_u64(), body["reason"].as_str()), (Some(413), Some("payload_too_large")), "{body}");
    // Under the limit the request reaches the group, which names what the body lacks.
    let resp = s
        .client
        .post(s.url(paths::EMAIL_VALIDATION))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let body = json(resp).await;
    assert_eq!((body["code"].as_u64(), body["reason"].as_str()), (Some(400), Some("validation")), "{body}");
    assert!(body["errorMessage"].as_str().unwrap().contains("email"), "{body}");
    s.running.stop().await;
}

#[tokio::test]
async fn request_ids_are_set_propagated_and_in_error_bodies() {
    let s = Server::start().await;
    let resp = s.get(paths::AUTH_ME).await;
    let id = resp.headers()["x-request-id"].to_str().unwrap().to_string();
    assert!(!id.is_empty());
    assert_eq!(json(resp).await["requestId"], id);
    let resp = s.client.get(s.url(paths::AUTH_ME)).header("x-request-id", "client-chosen-42").send().await.unwrap();
    assert_eq!(resp.headers()["x-request-id"], "client-chosen-42");
    assert_eq!(json(resp).await["requestId"], "client-chosen-42");
    s.running.stop().await;
}

#[derive(serde::Deserialize)]
#[allow(dead_code)]
struct Body {
    amount: String,
    count: u32,
}

/// The extractors group handlers use answer 400 envelopes naming the problem, never plain text.
#[tokio::test]
async fn json_rejections_are_envelope_errors_naming_the_problem() {
    async fn handler(extract::Json(_b): extract::Json<Body>) -> &'static str {
        "ok"
    }
    let app = axum::Router::new().route("/api/x", post(handler)).layer(finish::FrameLayer);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let client = reqwest::Client::new();
    let url = format!("http://{addr}/api/x");
    for (ctype, body, needle) in [
        ("application/json", r#"{"amount":"1.00"}"#, "count"),
        ("application/json", r#"{"amount":"1.00","count":"three"}"#, "count"),
        ("application/json", r#"{"amount": "#, "EOF"),
        ("text/plain", r#"{}"#, "Content-Type: application/json"),
    ] {
        let resp = client.post(&url).header("content-type", ctype).body(body).send().await.unwrap();
        let status = resp.status();
        let b = json(resp).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(b["code"], status.as_u16());
        assert_eq!(b["reason"], "validation");
        assert!(b["errorMessage"].as_str().unwrap().contains(needle), "{body}: {b}");
    }
}

#[tokio::test]
async fn cors_only_for_configured_origins_without_credentials() {
    let s = Server::start_with(|c| c.cors_origins = vec!["http://host.test:9000".into()]).await;
    let preflight = |origin: &'static str| {
        s.client
            .request(Method::OPTIONS, s.url(paths::AUTH_ME))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "authorization")
            .send()
    };
    let ok = preflight("http://host.test:9000").await.unwrap();
    assert!(ok.status().is_success(), "{}", ok.status());
    assert_eq!(ok.headers()["access-control-allow-origin"], "http://host.test:9000");
    let allowed_headers = ok.headers()["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(allowed_headers.contains("authorization"), "{allowed_headers}");
    assert!(ok.headers()["access-control-allow-methods"].to_str().unwrap().contains("GET"));
    assert!(ok.headers().get("access-control-allow-credentials").is_none());

    let other = preflight("http://evil.test").await.unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());

    // Actual requests (API errors included) carry the header for the allowed origin only.
    let resp = s.client.get(s.url(paths::AUTH_ME)).header("Origin", "http://host.test:9000").send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(resp.headers()["access-control-allow-origin"], "http://host.test:9000");
    let resp = s.client.get(s.url(paths::AUTH_ME)).header("Origin", "http://evil.test").send().await.unwrap();
    assert!(resp.headers().get("access-control-allow-origin").is_none());
    s.running.stop().await;

    // None configured: no origin is allowed.
    let s = Server::start().await;
    let resp = s.client.get(s.url(paths::AUTH_ME)).header("Origin", "http://host.test:9000").send().await.unwrap();
    assert!(resp.headers().get("access-control-allow-origin").is_none());
    s.running.stop().await;
}

#[tokio::test]
async fn security_headers_on_every_answer_and_graceful_stop() {
    let s = Server::start().await;
    for path in [paths::AUTH_ME, paths::OPENAPI, "/", "/some/deep/link"] {
        let resp = s.get(path).await;
        assert_eq!(resp.headers()["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(resp.headers()["referrer-policy"], "no-referrer", "{path}");
    }
    let addr = s.running.addr;
    s.running.stop().await;
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "still listening after stop");
}

/// A stop closes keep-alive connections that sit idle (it would wait for them forever
/// otherwise) once their answer is out, and returns.
#[tokio::test]
async fn stop_closes_idle_keep_alive_connections() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = Server::start().await;
    let mut conn = tokio::net::TcpStream::connect(s.running.addr).await.unwrap();
    conn.write_all(b"GET /api/v1/cores/auth/me HTTP/1.1\r\nHost: test\r\n\r\n").await.unwrap();
    let mut head = vec![0u8; 4096];
    let n = conn.read(&mut head).await.unwrap();
    let head = String::from_utf8_lossy(&head[..n]).to_string();
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    assert!(!head.to_ascii_lowercase().contains("connection: close"), "kept alive: {head}");
    // The connection is idle now; the stop must not wait for the client to hang up.
    tokio::time::timeout(std::time::Duration::from_secs(10), s.running.stop()).await.expect("stop returns");
    let mut rest = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(5), conn.read_to_end(&mut rest)).await;
    assert!(matches!(read, Ok(Ok(_))), "the server closed the connection: {read:?}");
}

#[tokio::test]
async fn restart_keeps_tokens_and_migrations_are_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let first = moneydesk_server::start(moneydesk_server::Config::for_tests(dir.path())).await.unwrap();
    let token = first.create_token("kept", &[Scope::FeesRead]).await.unwrap();
    first.stop().await;
    let second = moneydesk_server::start(moneydesk_server::Config::for_tests(dir.path())).await.unwrap();
    let resp = reqwest::Client::new()
        .get(format!("{}{}", second.base_url(), paths::AUTH_ME))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    // Only the hash is in the database file.
    let raw = std::fs::read(dir.path().join("moneydesk.db")).unwrap();
    let wal = std::fs::read(dir.path().join("moneydesk.db-wal")).unwrap_or_default();
    let needle = token.as_bytes();
    assert!(!raw.windows(needle.len()).any(|w| w == needle) && !wal.windows(needle.len()).any(|w| w == needle));
    second.stop().await;
}

/// Large answers are gzipped for clients that accept it; small ones are not (below 1 KiB gzip
/// costs more than the bytes it saves).
#[tokio::test]
async fn large_answers_are_compressed_small_ones_are_not() {
    let s = Server::start().await;
    let token = s.token(&[Scope::RoutingRead]).await;
    let gzip = |path: &str| s.client.get(s.url(path)).header("accept-encoding", "gzip");
    // The OpenAPI document: tens of kilobytes.
    let resp = gzip(paths::OPENAPI).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-encoding"], "gzip");
    assert_eq!(resp.headers()["x-content-type-options"], "nosniff");
    let zipped = resp.bytes().await.unwrap();
    assert_eq!(&zipped[..2], &[0x1f, 0x8b], "a gzip stream");
    let plain = s.get(paths::OPENAPI).await;
    assert!(plain.headers().get("content-encoding").is_none(), "not asked for, not compressed");
    assert_eq!(plain.headers()["vary"], "accept-encoding", "a cache keeps the variants apart");
    assert!(zipped.len() * 3 < plain.bytes().await.unwrap().len());
    // A routing record: a few hundred bytes.
    let path = format!("{}?routingNumber=021090028", paths::ROUTING_ACH_VALIDATE);
    let resp = gzip(&path).bearer_auth(&token).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers().get("content-encoding").is_none());
    assert_eq!(json(resp).await["routingNumber"], "021090028");
    // A small error answer.
    let resp = gzip(paths::ROUTING_ACH_VALIDATE).bearer_auth(&token).send().await.unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    assert!(resp.headers().get("content-encoding").is_none());
    assert_eq!(json(resp).await["errors"][0]["field"], "routingNumber");
    s.running.stop().await;
}

/// The accounts' vocabularies are documented as the JSON carries them (the description's
/// spelling, `API_Customer`), not as Rust names them.
#[tokio::test]
async fn the_document_spells_account_types_as_the_answers_do() {
    let s = Server::start().await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    let types: Vec<String> = moneydesk_model::accounts::AccountType::ALL.iter().map(|t| t.to_string()).collect();
    assert_eq!(doc["components"]["schemas"]["AccountType"]["enum"], serde_json::json!(types));
    assert_eq!(doc["components"]["schemas"]["AccountType"]["enum"][0], "API_Customer");
    s.running.stop().await;
}
