//! `moneydesk-server token create|list|revoke` against a temporary database, checked against a
//! server running on the same database.

use crate::common;

use std::process::Command;

use common::cli;
use moneydesk_model::paths;
use moneydesk_server::{start, Config};
use reqwest::StatusCode;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test]
async fn create_list_revoke() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli(
        dir.path(),
        &[
            "token",
            "create",
            "--name",
            "ci-reader",
            "--scope",
            "fees:read",
            "--scope",
            "routing:read",
            "--expires-in-days",
            "5",
        ],
    )
    .await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    let token = text(&out.stdout).trim().to_string();
    assert!(moneydesk_server::tokens::well_formed(&token), "stdout is the token alone: {token:?}");
    assert!(text(&out.stderr).contains("shown once"));

    // A short token cache TTL, so the revoke below is seen after milliseconds.
    let ttl = std::time::Duration::from_millis(50);
    let server = start(Config { token_cache_ttl: ttl, ..Config::for_tests(dir.path()) }).await.unwrap();
    let me = |t: String| {
        let url = format!("{}{}", server.base_url(), paths::AUTH_ME);
        async move { reqwest::Client::new().get(url).bearer_auth(t).send().await.unwrap() }
    };
    let resp = me(token.clone()).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body["data"]["scopes"], serde_json::json!(["fees:read", "routing:read"]));
    assert!(body["data"]["expiresAt"].is_string());

    let out = cli(dir.path(), &["token", "list"]).await;
    assert!(out.status.success());
    let list = text(&out.stdout);
    assert!(list.contains("ci-reader") && list.contains("active") && list.contains("fees:read,routing:read"), "{list}");
    assert!(!list.contains(&token) && !list.contains(&token[4..20]), "list must never show token text");

    let out = cli(dir.path(), &["token", "revoke", "ci-reader"]).await;
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Revoked token 1 (ci-reader)"));
    assert!(text(&out.stderr).contains("within 2 s"), "{}", text(&out.stderr));
    // The running server trusted the token it had just checked for up to its TTL; once that
    // has passed, the next check reads the table.
    tokio::time::sleep(ttl).await;
    let resp = me(token.clone()).await;
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(resp.json::<serde_json::Value>().await.unwrap()["code"], 600);
    assert!(text(&cli(dir.path(), &["token", "list"]).await.stdout).contains("revoked"));

    // Revoking again, or something unknown, fails clearly.
    let out = cli(dir.path(), &["token", "revoke", "1"]).await;
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no active token"), "{}", text(&out.stderr));
    server.stop().await;
}

#[tokio::test]
async fn unknown_scope_lists_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let out = cli(dir.path(), &["token", "create", "--name", "x", "--scope", "fees:write"]).await;
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("fees:write")
            && err.contains("known scopes")
            && err.contains("deposits:write")
            && err.contains("admin"),
        "{err}"
    );
    let out = cli(dir.path(), &["token", "create", "--name", "x"]).await;
    assert!(!out.status.success(), "a scope is required");
}

#[test]
fn bad_configuration_is_reported_not_panicked() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_moneydesk-server"))
        .args(["token", "list"])
        .env_clear()
        .env("MONEYDESK_DATA_DIR", dir.path())
        .env("MONEYDESK_ADDR", "not-an-address")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("MONEYDESK_ADDR"));
}
