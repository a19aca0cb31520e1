//! Deny by default, proven for every operation of the served OpenAPI document (issue 20):
//! no list of endpoints is kept here, so every group that lands is covered as it lands. For
//! each operation: no token → 401 in the operation's error body (the fee body on the fee
//! paths), a malformed, expired or revoked token → 401 with code 600, a valid token without
//! the operation's scope → 403, its scope → neither 401 nor 403. An operation without a
//! bearer requirement fails unless it is on the short public list below.

use crate::common;

use chrono::Duration;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// Operations anyone may call (the document itself is served outside it).
/// The unsubscribe link carries its own credential (an HMAC token), as a sign-in link does.
const PUBLIC: &[&str] = &[paths::OPENAPI, "/api/health", paths::SIGN_IN_LINK_EXCHANGE, paths::EMAIL_UNSUBSCRIBE];

struct Operation {
    method: Method,
    path: String,
    /// The path to call: path parameters and required query parameters filled in.
    url: String,
    scopes: Vec<Scope>,
    fee_body: bool,
}

/// A plausible value for a parameter: its example, else one that fits its schema.
fn plausible(param: &Value) -> String {
    if param["name"] == "userId" {
        // The tests' tokens are named "test", so their user (whose vault they reach) is "test".
        return "test".into();
    }
    let example = param.get("example").or_else(|| param["schema"].get("examples").and_then(|e| e.get(0)));
    match example {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => match param["schema"]["type"].as_str() {
            Some("integer") | Some("number") => "1".into(),
            _ => "a".into(),
        },
    }
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let method: Method = method.to_ascii_uppercase().parse().expect("an HTTP method");
            let what = format!("{method} {path}");
            let security = op["security"].as_array();
            if PUBLIC.contains(&path.as_str()) {
                continue;
            }
            let bearer = security
                .and_then(|s| s.iter().find_map(|r| r.get("bearer")))
                .unwrap_or_else(|| panic!("{what} has no bearer security requirement and is not on the public list"));
            let scopes = bearer
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().parse::<Scope>().unwrap_or_else(|e| panic!("{what}: {e}")))
                .collect();
            let mut url = path.clone();
            let mut query = Vec::new();
            for param in op["parameters"].as_array().into_iter().flatten() {
                let name = param["name"].as_str().unwrap();
                match param["in"].as_str() {
                    Some("path") => url = url.replace(&format!("{{{name}}}"), &plausible(param)),
                    Some("query") if param["required"] == true => query.push(format!("{name}={}", plausible(param))),
                    _ => {}
                }
            }
            if !query.is_empty() {
                url = format!("{url}?{}", query.join("&"));
            }
            let body_ref = op["responses"]["401"]["content"]["application/json"]["schema"]["$ref"].as_str();
            let fee_body = body_ref.is_some_and(|r| r.ends_with("/FeeErrorBody"));
            assert_eq!(
                fee_body,
                path.contains("/fee-schedules/"),
                "{what}: the fee schedules, and only they, answer errors in the fee body"
            );
            ops.push(Operation { method, path: path.clone(), url, scopes, fee_body });
        }
    }
    ops
}

async fn call(s: &Server, op: &Operation, authorization: Option<&str>) -> reqwest::Response {
    let mut req = s.client.request(op.method.clone(), s.url(&op.url));
    if let Some(a) = authorization {
        req = req.header("Authorization", a);
    }
    if matches!(op.method, Method::POST | Method::PUT | Method::PATCH) {
        req = req.header("Content-Type", "application/json").body("{}");
    }
    req.send().await.expect("request")
}

/// A 401 whose body is the operation's error body with `code`.
async fn assert_401(op: &Operation, resp: reqwest::Response, code: u16, what: &str) {
    let what = format!("{} {} {what}", op.method, op.path);
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{what}");
    let body = json(resp).await;
    if op.fee_body {
        assert_eq!(
            (&body["status"], &body["error_code"]),
            (&"error".into(), &code.to_string().into()),
            "{what}: {body}"
        );
    } else {
        assert_eq!((body["code"].as_u64(), body["data"].is_null()), (Some(code as u64), true), "{what}: {body}");
        assert!(body["requestId"].is_string(), "{what}: {body}");
    }
    if code == 600 {
        let message = if op.fee_body { &body["message"] } else { &body["errorMessage"] };
        assert_eq!(message, "Invalid token", "{what}: {body}");
    }
}

#[tokio::test]
async fn every_documented_operation_denies_by_default() {
    let s = Server::start().await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    let ops = operations(&doc);
    assert!(ops.len() >= 19, "the document lists every operation: {}", ops.len());

    let expired =
        s.running.state.stores.tokens.create("expired", &[Scope::Admin], Some(Duration::days(-1))).await.unwrap().token;
    let revoked = s.running.create_token("revoked", &[Scope::Admin]).await.unwrap();
    s.running.state.stores.tokens.revoke("revoked").await.unwrap();
    let invalid = [
        ("malformed", "Bearer abc".to_string()),
        ("malformed (no scheme)", "mdk_only_the_token_without_a_scheme_aaaaaaaa".to_string()),
        ("expired", format!("Bearer {expired}")),
        ("revoked", format!("Bearer {revoked}")),
    ];

    for op in &ops {
        assert_401(op, call(&s, op, None).await, 401, "without a token").await;
        for (what, header) in &invalid {
            assert_401(op, call(&s, op, Some(header)).await, 600, what).await;
        }
        if !op.scopes.is_empty() {
            let others: Vec<Scope> =
                Scope::ALL.into_iter().filter(|x| !op.scopes.contains(x) && *x != Scope::Admin).collect();
            let without = s.token(&others).await;
            let resp = call(&s, op, Some(&format!("Bearer {without}"))).await;
            assert_eq!(resp.status(), StatusCode::FORBIDDEN, "{} {} without {:?}", op.method, op.path, op.scopes);
        }
        let held = if op.scopes.is_empty() { vec![Scope::FeesRead] } else { op.scopes.clone() };
        let with = s.token(&held).await;
        let status = call(&s, op, Some(&format!("Bearer {with}"))).await.status();
        assert!(
            status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN,
            "{} {} with {held:?}: {status}",
            op.method,
            op.path
        );
    }
    s.running.stop().await;
}

#[tokio::test]
async fn the_public_list_is_short_and_the_document_itself_is_public() {
    let s = Server::start().await;
    assert_eq!(s.get(paths::OPENAPI).await.status(), StatusCode::OK);
    let doc = json(s.get(paths::OPENAPI).await).await;
    let public: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| item.as_object().unwrap().iter().map(move |(m, op)| (path, m, op)))
        .filter(|(_, _, op)| op["security"].as_array().is_none_or(|s| s.is_empty()))
        .map(|(path, m, _)| format!("{m} {path}"))
        .collect();
    assert!(public.iter().all(|p| PUBLIC.iter().any(|allowed| p.ends_with(allowed))), "public operations: {public:?}");
    s.running.stop().await;
}
