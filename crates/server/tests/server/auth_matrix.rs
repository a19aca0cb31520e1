//! Deny by default, proven for every operation (issue 20), against the scopes written by hand
//! in [`scopes`](crate::scopes) (issue 48): the served document must state exactly that table's
//! operations with exactly its scopes (an operation missing from either side fails, named), and
//! the guard must enforce the table's scope, not only the document's. For each operation: no
//! token → 401 in the operation's error body (the fee body on the fee paths), a malformed,
//! expired or revoked token → 401 with code 600, a valid token without the operation's scope →
//! 403, its scope → neither 401, 403 nor a 5xx.

use crate::common;
use crate::scopes::{self, Access};

use chrono::Duration;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use reqwest::{Method, StatusCode};
use serde_json::Value;

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

/// What the document states an operation requires: public when no requirement names the
/// bearer scheme, else the bearer's scopes (none: any token).
fn documented(op: &Value) -> Result<Access, String> {
    let bearer = op["security"].as_array().and_then(|s| s.iter().find_map(|r| r.get("bearer")));
    let Some(bearer) = bearer else { return Ok(Access::Public) };
    let mut scopes = Vec::new();
    for s in bearer.as_array().ok_or("the bearer requirement is not a list")? {
        scopes.push(s.as_str().unwrap_or_default().parse::<Scope>().map_err(|e| e.to_string())?);
    }
    scopes.sort();
    Ok(if scopes.is_empty() { Access::AnyToken } else { Access::Scopes(Vec::leak(scopes)) })
}

fn sorted(access: Access) -> Access {
    match access {
        Access::Scopes(s) => {
            let mut s = s.to_vec();
            s.sort();
            Access::Scopes(Vec::leak(s))
        }
        other => other,
    }
}

/// Every disagreement between the served document and the table, one line each: an
/// operation the table lacks, one the document lacks, one whose access differs.
fn disagreements(doc: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut seen = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let method = method.to_ascii_uppercase();
            let stated = documented(op).map(sorted);
            match scopes::access(&method, path) {
                None => found.push(format!(
                    "{method} {path}: served, but has no row in the scopes table (it states {stated:?})"
                )),
                Some(row) if Ok(sorted(row)) != stated => {
                    found.push(format!("{method} {path}: the table says {row:?}, the document states {stated:?}"))
                }
                Some(_) => {}
            }
            seen.push((method, path.clone()));
        }
    }
    for (method, path, row) in scopes::OPERATIONS {
        if !seen.iter().any(|(m, p)| m == method && p == path) {
            found.push(format!("{method} {path}: in the scopes table ({row:?}), not in the served document"));
        }
    }
    found
}

/// The guarded operations of the document, each with the scopes the table gives it.
fn operations(doc: &Value) -> Vec<Operation> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let what = format!("{} {path}", method.to_ascii_uppercase());
            let scopes =
                match scopes::access(method, path).unwrap_or_else(|| panic!("{what} has no row in the scopes table")) {
                    Access::Public => continue,
                    Access::AnyToken => Vec::new(),
                    Access::Scopes(s) => s.to_vec(),
                };
            let method: Method = method.to_ascii_uppercase().parse().expect("an HTTP method");
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
async fn the_document_states_every_operation_as_the_scopes_table_does() {
    let s = Server::start().await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    let found = disagreements(&doc);
    assert!(found.is_empty(), "the served document and tests/server/scopes.rs disagree:\n{}", found.join("\n"));
    s.running.stop().await;
}

#[tokio::test]
async fn every_documented_operation_denies_by_default() {
    let s = Server::start().await;
    let doc = json(s.get(paths::OPENAPI).await).await;
    let found = disagreements(&doc);
    assert!(found.is_empty(), "the served document and tests/server/scopes.rs disagree:\n{}", found.join("\n"));
    let ops = operations(&doc);
    let guarded = scopes::OPERATIONS.iter().filter(|(_, _, a)| *a != Access::Public).count();
    assert_eq!(ops.len(), guarded, "every guarded operation of the table is called");

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
        let resp = call(&s, op, Some(&format!("Bearer {with}"))).await;
        let status = resp.status();
        assert!(
            status != StatusCode::UNAUTHORIZED && status != StatusCode::FORBIDDEN && !status.is_server_error(),
            "{} {} with {held:?}: {status} {}",
            op.method,
            op.path,
            resp.text().await.unwrap_or_default()
        );
    }
    s.running.stop().await;
}

/// The public operations answer without a token, and are exactly the table's public rows.
#[tokio::test]
async fn the_public_list_is_short_and_the_document_itself_is_public() {
    let s = Server::start().await;
    assert_eq!(s.get(paths::OPENAPI).await.status(), StatusCode::OK);
    let doc = json(s.get(paths::OPENAPI).await).await;
    let mut public: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| item.as_object().unwrap().iter().map(move |(m, op)| (path, m, op)))
        .filter(|(_, _, op)| documented(op) == Ok(Access::Public))
        .map(|(path, m, _)| format!("{} {path}", m.to_ascii_uppercase()))
        .collect();
    public.sort();
    let mut table: Vec<String> = scopes::OPERATIONS
        .iter()
        .filter(|(_, _, a)| *a == Access::Public)
        .map(|(m, p, _)| format!("{m} {p}"))
        .collect();
    table.sort();
    assert_eq!(public, table, "public operations");
    assert!(table.len() <= 3, "the public list stays short: {table:?}");
    s.running.stop().await;
}
