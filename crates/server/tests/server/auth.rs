//! CONTRACT.md point 7 for every endpoint of CONTRACT.md, over real HTTP: no token → 401,
//! unknown → 401, malformed / expired / revoked → 401 with code 600, no scope → 403, scope →
//! neither 401 nor 403. Fee endpoints answer in the fee body shape.

use crate::common;

use chrono::Duration;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use reqwest::{Method, StatusCode};

/// (method, path as routed, path to call, scope needed; None = any valid token).
fn endpoints() -> Vec<(Method, &'static str, String, Option<Scope>)> {
    // The tests' tokens are named "test": their user (whose vault they reach) is "test".
    let user = |p: &str| paths::fill(p, "userId", "test");
    vec![
        (Method::GET, paths::FEES_ACH, paths::FEES_ACH.into(), Some(Scope::FeesRead)),
        (Method::GET, paths::FEES_WIRE, paths::FEES_WIRE.into(), Some(Scope::FeesRead)),
        (Method::POST, paths::VAULT_FOLDER, user(paths::VAULT_FOLDER) + "?path=%2F&name=docs", Some(Scope::VaultWrite)),
        (
            Method::POST,
            paths::VAULT_FOLDER_MOVE,
            user(paths::VAULT_FOLDER_MOVE) + "?path=a&newPath=b",
            Some(Scope::VaultWrite),
        ),
        (
            Method::POST,
            paths::VAULT_FOLDER_DOWNLOAD,
            user(paths::VAULT_FOLDER_DOWNLOAD) + "?paths=a&paths=b&name=x",
            Some(Scope::VaultRead),
        ),
        (
            Method::DELETE,
            paths::VAULT_FOLDERS_DELETE,
            format!("{}?paths=a&userId=test", paths::VAULT_FOLDERS_DELETE),
            Some(Scope::VaultWrite),
        ),
        (Method::GET, paths::VAULT_FOLDER, user(paths::VAULT_FOLDER) + "?path=a", Some(Scope::VaultRead)),
        (
            Method::GET,
            paths::VAULT_FOLDER_CONTENTS,
            user(paths::VAULT_FOLDER_CONTENTS) + "?path=",
            Some(Scope::VaultRead),
        ),
        (Method::POST, paths::VAULT_FILE, user(paths::VAULT_FILE) + "?path=", Some(Scope::VaultWrite)),
        (Method::GET, paths::VAULT_FILE, user(paths::VAULT_FILE) + "?path=a.txt", Some(Scope::VaultRead)),
        (Method::DELETE, paths::VAULT_FILE, user(paths::VAULT_FILE) + "?path=a.txt", Some(Scope::VaultWrite)),
        (
            Method::POST,
            paths::VAULT_FILE_MOVE,
            user(paths::VAULT_FILE_MOVE) + "?path=a.txt&newPath=b.txt",
            Some(Scope::VaultWrite),
        ),
        (
            Method::GET,
            paths::VAULT_FILE_VERSIONS,
            user(paths::VAULT_FILE_VERSIONS) + "?path=a.txt",
            Some(Scope::VaultRead),
        ),
        (Method::GET, paths::VAULT_USAGE, user(paths::VAULT_USAGE), Some(Scope::VaultRead)),
        (Method::POST, paths::EMAIL_SEND, paths::EMAIL_SEND.into(), Some(Scope::EmailSend)),
        (Method::POST, paths::EMAIL_VALIDATION, paths::EMAIL_VALIDATION.into(), Some(Scope::EmailVerify)),
        (Method::POST, paths::EMAIL_VALIDATION_BULK, paths::EMAIL_VALIDATION_BULK.into(), Some(Scope::EmailVerify)),
        (
            Method::GET,
            paths::ROUTING_WIRE_VALIDATE,
            format!("{}?routingNumber=011000015", paths::ROUTING_WIRE_VALIDATE),
            Some(Scope::RoutingRead),
        ),
        (
            Method::GET,
            paths::ROUTING_ACH_VALIDATE,
            format!("{}?routingNumber=011000015", paths::ROUTING_ACH_VALIDATE),
            Some(Scope::RoutingRead),
        ),
        (Method::GET, paths::DEPOSITS, paths::DEPOSITS.into(), Some(Scope::DepositsRead)),
        (Method::POST, paths::DEPOSITS_CHECK, paths::DEPOSITS_CHECK.into(), Some(Scope::DepositsWrite)),
        (
            Method::POST,
            paths::DEPOSITS_CHECK_SCAN,
            paths::fill(paths::DEPOSITS_CHECK_SCAN, "smaSfid", "sma-1"),
            Some(Scope::DepositsWrite),
        ),
        (Method::GET, paths::ACCOUNTS, paths::ACCOUNTS.into(), Some(Scope::AccountsRead)),
        (Method::GET, paths::PERMISSIONS, paths::PERMISSIONS.into(), Some(Scope::PermissionsRead)),
        (Method::GET, paths::AUTH_ME, paths::AUTH_ME.into(), None),
    ]
}

fn is_fee(path: &str) -> bool {
    path.starts_with("/api/v1/cores/money-movements/fee-schedules/")
}

async fn call(s: &Server, method: &Method, path: &str, auth: Option<&str>) -> reqwest::Response {
    let mut req = s.client.request(method.clone(), s.url(path));
    if let Some(a) = auth {
        req = req.header("Authorization", a);
    }
    if *method == Method::POST {
        req = req.header("Content-Type", "application/json").body("{}");
    }
    req.send().await.expect("request")
}

/// Asserts a 401 whose body has `code` (envelope) or `error_code` (fee body).
async fn assert_401(resp: reqwest::Response, code: u16, what: &str) {
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{what}");
    let www = resp.headers().get("www-authenticate").map(|v| v.to_str().unwrap().to_string());
    assert!(www.as_deref().is_some_and(|w| w.starts_with("Bearer")), "{what}: WWW-Authenticate {www:?}");
    let fee = is_fee(resp.url().path());
    let body = json(resp).await;
    if fee {
        assert_eq!(body["status"], "error", "{what}: {body}");
        assert_eq!(body["error_code"], code.to_string(), "{what}: {body}");
    } else {
        assert_eq!(body["code"], code, "{what}: {body}");
        assert!(body["data"].is_null(), "{what}: {body}");
        assert_eq!(body["reason"], if code == 600 { "invalid_token" } else { "unauthorized" }, "{what}: {body}");
        assert!(body["requestId"].is_string(), "{what}: {body}");
    }
    if code == 600 {
        let msg = if fee { &body["message"] } else { &body["errorMessage"] };
        assert_eq!(msg, "Invalid token", "{what}: {body}");
    }
}

#[tokio::test]
async fn every_endpoint_denies_by_default() {
    let s = Server::start().await;
    let unknown = format!("Bearer {}", moneydesk_server::tokens::generate());
    let expired =
        s.running.state.stores.tokens.create("expired", &[Scope::Admin], Some(Duration::days(-1))).await.unwrap().token;
    let revoked = s.running.create_token("revoked", &[Scope::Admin]).await.unwrap();
    assert_eq!(s.running.state.stores.tokens.revoke("revoked").await.unwrap().len(), 1);
    let malformed = [
        "Bearer abc",
        "Bearer mdk_short",
        "Basic dXNlcjpwYXNz",
        "Bearer",
        "mdk_only_the_token_without_scheme_aaaaaaaaaaa",
    ];

    for (method, _, path, scope) in endpoints() {
        let what = format!("{method} {path}");
        assert_401(call(&s, &method, &path, None).await, 401, &format!("{what} without token")).await;
        assert_401(call(&s, &method, &path, Some(&unknown)).await, 401, &format!("{what} unknown token")).await;
        for m in malformed {
            assert_401(call(&s, &method, &path, Some(m)).await, 600, &format!("{what} malformed {m:?}")).await;
        }
        assert_401(call(&s, &method, &path, Some(&format!("Bearer {expired}"))).await, 600, &format!("{what} expired"))
            .await;
        assert_401(call(&s, &method, &path, Some(&format!("Bearer {revoked}"))).await, 600, &format!("{what} revoked"))
            .await;

        if let Some(scope) = scope {
            let other: Vec<Scope> = Scope::ALL.into_iter().filter(|x| *x != scope && *x != Scope::Admin).collect();
            let without = s.token(&other).await;
            let resp = call(&s, &method, &path, Some(&format!("Bearer {without}"))).await;
            assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{what} without {scope}");
            let body = json(resp).await;
            if is_fee(&path) {
                assert_eq!(body["error_code"], "403", "{what}: {body}");
            } else {
                assert_eq!(
                    (body["code"].as_u64(), body["reason"].as_str()),
                    (Some(403), Some("forbidden")),
                    "{what}: {body}"
                );
            }
        }
        let granted: Vec<Scope> = scope.into_iter().collect();
        for held in [granted.clone(), vec![Scope::Admin]] {
            let held = if held.is_empty() { vec![Scope::FeesRead] } else { held };
            let token = s.token(&held).await;
            let resp = call(&s, &method, &path, Some(&format!("Bearer {token}"))).await;
            let status = resp.status();
            assert!(
                status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
                "{what} with {held:?}: {status}"
            );
            // Whatever the group answers (501 while it has not landed), it is JSON.
            json(resp).await;
        }
    }
    s.running.stop().await;
}

#[tokio::test]
async fn openapi_scopes_match_the_table_and_list_every_endpoint() {
    let s = Server::start().await;
    let resp = s.get(paths::OPENAPI).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let doc = json(resp).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
    for name in ["ErrorEnvelope", "FeeErrorBody"] {
        assert!(doc["components"]["schemas"][name].is_object(), "schema {name}");
    }
    let table = endpoints();
    for (method, routed, _, scope) in &table {
        let op = &doc["paths"][*routed][method.as_str().to_ascii_lowercase()];
        assert!(op.is_object(), "{method} {routed} missing from the OpenAPI document");
        let expected: Vec<String> = scope.iter().map(|s| s.to_string()).collect();
        let declared: Vec<String> = serde_json::from_value(op["security"][0]["bearer"].clone()).unwrap();
        assert_eq!(declared, expected, "{method} {routed} scope");
        for status in ["401", "403"] {
            let schema =
                op["responses"][status]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap_or_default();
            let want = if is_fee(routed) { "FeeErrorBody" } else { "ErrorEnvelope" };
            assert!(schema.ends_with(want), "{method} {routed} {status}: {schema}");
        }
    }
    assert_eq!(doc["paths"][paths::AUTH_ME]["get"]["x-extension"], true);
    // Every documented operation is in the table (so it is covered by the test above), except
    // extensions, which their own groups test.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let listed = table.iter().any(|(m, p, _, _)| p == path && m.as_str().eq_ignore_ascii_case(method));
            assert!(
                listed || op["x-extension"] == true,
                "{method} {path} is neither in CONTRACT.md's table nor marked x-extension"
            );
        }
    }
    s.running.stop().await;
}

#[tokio::test]
async fn me_describes_the_token() {
    let s = Server::start().await;
    let token = s
        .running
        .state
        .stores
        .tokens
        .create("reader", &[Scope::RoutingRead, Scope::FeesRead], Some(Duration::days(2)))
        .await
        .unwrap();
    let resp = s.get_auth(paths::AUTH_ME, &token.token).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let body = json(resp).await;
    assert_eq!(body["code"], 200);
    assert!(body["errorMessage"].is_null() && body["error"].is_null());
    assert_eq!(body["data"]["name"], "reader");
    assert_eq!(body["data"]["scopes"], serde_json::json!(["fees:read", "routing:read"]));
    assert_eq!(body["data"]["expiresAt"], token.record.expires_at.clone().unwrap());
    // Use is recorded; the token itself is not stored.
    let rec =
        s.running.state.stores.tokens.list().await.unwrap().into_iter().find(|t| t.id == token.record.id).unwrap();
    assert!(rec.last_used_at.is_some());
    s.running.stop().await;
}

#[tokio::test]
async fn token_without_scheme_case_sensitivity_and_whitespace() {
    let s = Server::start().await;
    let t = s.token(&[Scope::Admin]).await;
    for header in [format!("bearer {t}"), format!("Bearer  {t} ")] {
        let resp = s.client.get(s.url(paths::AUTH_ME)).header("Authorization", header.clone()).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{header:?}");
    }
    s.running.stop().await;
}

/// Token checks are cached in memory (`TokenCache`): a revoke through the server's own
/// database handle is seen at once, and one by the CLI (another process) within the TTL.
#[tokio::test]
async fn revoking_a_token_in_use_takes_effect() {
    let ttl = std::time::Duration::from_millis(50);
    let s = Server::start_with(|c| c.token_cache_ttl = ttl).await;
    let code = |resp: reqwest::Response| async move { json(resp).await["code"].clone() };

    let in_process = s.running.create_token("in-process", &[Scope::Admin]).await.unwrap();
    assert_eq!(s.get_auth(paths::AUTH_ME, &in_process).await.status(), StatusCode::OK);
    s.running.state.stores.tokens.revoke("in-process").await.unwrap();
    assert_eq!(code(s.get_auth(paths::AUTH_ME, &in_process).await).await, 600, "revoked in process: at once");

    let by_cli = s.running.create_token("by-cli", &[Scope::Admin]).await.unwrap();
    assert_eq!(s.get_auth(paths::AUTH_ME, &by_cli).await.status(), StatusCode::OK);
    let out = common::cli(s.dir.path(), &["token", "revoke", "by-cli"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    tokio::time::sleep(ttl).await;
    assert_eq!(code(s.get_auth(paths::AUTH_ME, &by_cli).await).await, 600, "revoked by the CLI: within the TTL");
}
