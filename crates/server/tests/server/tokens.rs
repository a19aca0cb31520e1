//! Tokens and sign-in links over HTTP (extensions), on SQLite and PostgreSQL: an admin
//! creates, lists and revokes tokens; another token sees and revokes only its own user's; a
//! revoked token is refused at once with the 600 body; a sign-in link is one use, lasts 15
//! minutes and gives exactly its scopes; every write is on the audit trail.

use crate::common;

use chrono::{Duration, Utc};
use common::{json, Backend, Server};
use moneydesk_model::{paths, Scope};
use reqwest::Method;
use serde_json::{json, Value};

async fn call(s: &Server, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
    let mut req = s.client.request(method, s.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    (status, json(resp).await)
}

fn token_path(id: i64) -> String {
    paths::fill(paths::TOKEN, "id", &id.to_string())
}

async fn audit(s: &Server, admin: &str, operation: &str) -> Vec<Value> {
    let (status, page) =
        call(s, Method::GET, &format!("{}?operation={operation}", paths::AUDIT_RECORDS), Some(admin), None).await;
    assert_eq!(status, 200, "{page}");
    page["data"]["content"].as_array().cloned().unwrap_or_default()
}

async fn admin_creates_lists_and_revokes(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.token(&[Scope::Admin]).await;
    let body =
        json!({"name": "ci reader", "userId": "alice", "scopes": ["fees:read", "routing:read"], "expiresInDays": 30});
    let (status, made) = call(&s, Method::POST, paths::TOKENS, Some(&admin), Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let text = made["data"]["token"].as_str().unwrap().to_string();
    assert!(text.starts_with("mdk_"), "{made}");
    let id = made["data"]["record"]["id"].as_i64().unwrap();
    assert_eq!(made["data"]["record"]["userId"], "alice");
    assert_eq!(made["data"]["record"]["scopes"], json!(["fees:read", "routing:read"]));
    assert!(made["data"]["record"]["expiresAt"].is_string());
    assert!(made["data"]["record"]["lastUsedAt"].is_null());

    // It works, and its use shows in the list (never its text).
    let (status, me) = call(&s, Method::GET, paths::AUTH_ME, Some(&text), None).await;
    assert_eq!((status, me["data"]["userId"].clone()), (200, json!("alice")));
    let (status, list) = call(&s, Method::GET, paths::TOKENS, Some(&admin), None).await;
    assert_eq!(status, 200);
    assert!(!list.to_string().contains(&text), "the text is answered once only");
    let row = list["data"].as_array().unwrap().iter().find(|t| t["id"] == id).cloned().unwrap();
    assert!(row["lastUsedAt"].is_string(), "{row}");
    assert!(row["expiresAt"].is_string(), "{row}");
    assert_eq!(list["data"].as_array().unwrap().len(), 2, "the admin sees every token: {list}");

    // Revoked: the next request with it is refused with the 600 body.
    let (status, revoked) = call(&s, Method::DELETE, &token_path(id), Some(&admin), None).await;
    assert_eq!(status, 200, "{revoked}");
    assert!(revoked["data"]["revokedAt"].is_string());
    let (status, refused) = call(&s, Method::GET, paths::AUTH_ME, Some(&text), None).await;
    assert_eq!(status, 401);
    assert_eq!(refused["code"], 600, "{refused}");
    assert_eq!(refused["errorMessage"], "Invalid token");

    // Field problems name the field; a non-admin may not create.
    for (body, field) in [
        (json!({"name": "", "scopes": ["fees:read"]}), "name"),
        (json!({"name": "x", "scopes": []}), "scopes"),
        (json!({"name": "x", "scopes": ["fees:write"]}), "scopes"),
        (json!({"name": "x", "scopes": ["fees:read"], "expiresInDays": 0}), "expiresInDays"),
        (json!({"name": "x", "userId": "a/b", "scopes": ["fees:read"]}), "userId"),
    ] {
        let (status, e) = call(&s, Method::POST, paths::TOKENS, Some(&admin), Some(body)).await;
        assert_eq!(status, 400, "{e}");
        assert_eq!(e["errors"][0]["field"], field, "{e}");
    }
    let reader = s.token(&[Scope::FeesRead]).await;
    let (status, _) =
        call(&s, Method::POST, paths::TOKENS, Some(&reader), Some(json!({"name": "x", "scopes": ["admin"]}))).await;
    assert_eq!(status, 403, "only an admin makes tokens");

    // On the audit trail, without the token's text.
    let created = audit(&s, &admin, "create_token").await;
    assert!(created.iter().any(|r| r["targetType"] == "token" && r["targetId"] == id.to_string()), "{created:?}");
    assert!(!format!("{created:?}").contains(&text));
    let revokes = audit(&s, &admin, "revoke_token").await;
    assert!(revokes.iter().any(|r| r["targetId"] == id.to_string() && r["outcome"] == "succeeded"), "{revokes:?}");
    s.running.stop().await;
}

async fn a_user_sees_and_revokes_only_its_own(backend: Backend) {
    let s = Server::start_on(backend).await;
    let alice = s.running.create_token_for("alice laptop", "alice", &[Scope::FeesRead]).await.unwrap();
    let alice2 = s.running.create_token_for("alice phone", "alice", &[Scope::VaultRead]).await.unwrap();
    let bob = s.running.create_token_for("bob", "bob", &[Scope::FeesRead]).await.unwrap();
    let (status, list) = call(&s, Method::GET, paths::TOKENS, Some(&alice), None).await;
    assert_eq!(status, 200, "{list}");
    let users: Vec<&str> = list["data"].as_array().unwrap().iter().map(|t| t["userId"].as_str().unwrap()).collect();
    assert_eq!(users, ["alice", "alice"], "{list}");
    let bob_id = s.running.state.stores.tokens.list().await.unwrap().iter().find(|t| t.user_id == "bob").unwrap().id;
    let phone_id = list["data"][1]["id"].as_i64().unwrap();

    // Another user's token is as unknown as a missing one.
    let (status, e) = call(&s, Method::DELETE, &token_path(bob_id), Some(&alice), None).await;
    assert_eq!(status, 404, "{e}");
    let (status, e) = call(&s, Method::DELETE, &token_path(9999), Some(&alice), None).await;
    assert_eq!(status, 404, "{e}");
    assert_eq!(call(&s, Method::GET, paths::AUTH_ME, Some(&bob), None).await.0, 200, "bob's token still works");

    let (status, _) = call(&s, Method::DELETE, &token_path(phone_id), Some(&alice), None).await;
    assert_eq!(status, 200);
    let (status, refused) = call(&s, Method::GET, paths::AUTH_ME, Some(&alice2), None).await;
    assert_eq!((status, refused["code"].clone()), (401, json!(600)), "{refused}");
    s.running.stop().await;
}

async fn link(s: &Server, admin: &str, user: &str, scopes: Value) -> (i64, String, String) {
    let body = json!({"userId": user, "scopes": scopes});
    let (status, made) = call(s, Method::POST, paths::SIGN_IN_LINKS, Some(admin), Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let d = &made["data"];
    (d["link"]["id"].as_i64().unwrap(), d["secret"].as_str().unwrap().into(), d["url"].as_str().unwrap().into())
}

async fn exchange(s: &Server, secret: &str) -> (u16, Value) {
    call(s, Method::POST, paths::SIGN_IN_LINK_EXCHANGE, None, Some(json!({"secret": secret}))).await
}

async fn a_sign_in_link_is_one_use_for_15_minutes_with_its_scopes(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.token(&[Scope::Admin]).await;
    let (id, secret, url) = link(&s, &admin, "carol", json!(["deposits:read", "fees:read"])).await;
    assert!(url.ends_with(&format!("/signin?link={secret}")), "{url}");
    let (_, list) = call(&s, Method::GET, paths::SIGN_IN_LINKS, Some(&admin), None).await;
    assert!(!list.to_string().contains(&secret), "the secret is answered once only: {list}");
    let expires = chrono::DateTime::parse_from_rfc3339(list["data"][0]["expiresAt"].as_str().unwrap()).unwrap();
    let made = chrono::DateTime::parse_from_rfc3339(list["data"][0]["createdAt"].as_str().unwrap()).unwrap();
    assert_eq!(expires - made, Duration::minutes(15));

    // Exchanged without a token: a session of the user with exactly the link's scopes.
    let (status, session) = exchange(&s, &secret).await;
    assert_eq!(status, 200, "{session}");
    let token = session["data"]["token"].as_str().unwrap().to_string();
    assert_eq!(session["data"]["session"]["userId"], "carol");
    assert_eq!(session["data"]["session"]["scopes"], json!(["fees:read", "deposits:read"]));
    let expiry =
        chrono::DateTime::parse_from_rfc3339(session["data"]["session"]["expiresAt"].as_str().unwrap()).unwrap();
    let hours = (expiry.with_timezone(&Utc) - Utc::now()).num_minutes();
    assert!((11 * 60..=12 * 60).contains(&hours), "12 hours: {hours} minutes");
    let (status, me) = call(&s, Method::GET, paths::AUTH_ME, Some(&token), None).await;
    assert_eq!((status, me["data"]["scopes"].clone()), (200, json!(["fees:read", "deposits:read"])));
    assert_eq!(call(&s, Method::GET, paths::ACCOUNTS, Some(&token), None).await.0, 403, "nothing more");

    // Once only.
    let (status, e) = exchange(&s, &secret).await;
    assert_eq!((status, e["reason"].clone()), (410, json!("link_used")), "{e}");
    // Unknown secrets are 404 (no oracle: the 410s are told only to the secret's holder).
    let (status, e) = exchange(&s, "mdl_nope").await;
    assert_eq!((status, e["code"].clone()), (404, json!(404)), "{e}");

    // 15 minutes: the store's clock is the caller's, so the test moves it instead of sleeping.
    let links = &s.running.state.stores.sign_in_links;
    let (_, late, _) = link(&s, &admin, "dave", json!(["fees:read"])).await;
    let at = Utc::now() + Duration::minutes(15) + Duration::seconds(1);
    assert!(links.exchange(&late, at).await.unwrap().is_err(), "past 15 minutes it is refused");
    let (_, in_time, _) = link(&s, &admin, "dave", json!(["fees:read"])).await;
    let at = Utc::now() + Duration::minutes(14) + Duration::seconds(50);
    assert!(links.exchange(&in_time, at).await.unwrap().is_ok(), "within 15 minutes it is taken");
    // Expired over HTTP: 410 with its reason.
    let (expired_id, expired, _) = link(&s, &admin, "erin", json!(["fees:read"])).await;
    links.set_expiry(expired_id, &(Utc::now() - Duration::seconds(1)).to_rfc3339()).await.unwrap();
    let (status, e) = exchange(&s, &expired).await;
    assert_eq!((status, e["reason"].clone()), (410, json!("link_expired")), "{e}");
    assert!(e["errorMessage"].as_str().unwrap().contains("expired"), "{e}");

    // Revoked: 410 link_revoked.
    let (revoked_id, revoked, _) = link(&s, &admin, "erin", json!(["fees:read"])).await;
    let (status, r) =
        call(&s, Method::DELETE, &paths::fill(paths::SIGN_IN_LINK, "id", &revoked_id.to_string()), Some(&admin), None)
            .await;
    assert_eq!(status, 200, "{r}");
    let (status, e) = exchange(&s, &revoked).await;
    assert_eq!((status, e["reason"].clone()), (410, json!("link_revoked")), "{e}");

    // Only an admin makes links.
    let reader = s.token(&[Scope::FeesRead]).await;
    let (status, _) =
        call(&s, Method::POST, paths::SIGN_IN_LINKS, Some(&reader), Some(json!({"userId": "x", "scopes": ["admin"]})))
            .await;
    assert_eq!(status, 403);

    // On record: made, revoked and exchanged (the exchange has no token: the link and user say who).
    let made = audit(&s, &admin, "create_sign_in_link").await;
    assert!(made.iter().any(|r| r["targetId"] == id.to_string() && r["targetType"] == "sign_in_link"), "{made:?}");
    assert!(!format!("{made:?}").contains(&secret), "never the secret");
    let used = audit(&s, &admin, "exchange_sign_in_link").await;
    let r = used.iter().find(|r| r["targetId"] == id.to_string()).unwrap_or_else(|| panic!("{used:?}"));
    assert_eq!(r["outcome"], "succeeded");
    assert!(r["changes"].to_string().contains("carol"), "{r}");
    assert!(!r.to_string().contains(&token), "never the session token");
    let revokes = audit(&s, &admin, "revoke_sign_in_link").await;
    assert!(revokes.iter().any(|r| r["targetId"] == revoked_id.to_string()), "{revokes:?}");
    s.running.stop().await;
}

on_both_backends!(
    admin_creates_lists_and_revokes,
    a_user_sees_and_revokes_only_its_own,
    a_sign_in_link_is_one_use_for_15_minutes_with_its_scopes
);
