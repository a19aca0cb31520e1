//! Every write operation of the served OpenAPI document leaves exactly one audit record
//! (issue 43), proven by walking the document like the auth matrix: each POST, PUT, PATCH
//! and DELETE has a recipe here (what to set up, then the one request), is made once and
//! succeeds, and the request's id names exactly one record, `succeeded`, of that operation,
//! method and route, with its target. A write operation without a recipe fails the test (a
//! new write cannot land unrecorded), and so does a recipe whose operation is gone. The few
//! reads asked with a POST are listed with why, and must leave no record. A write that fails
//! (4xx) leaves none, and neither does one the ledger refuses after it began to move money.

use crate::audit_matrix_support;
use crate::common;

use std::time::Duration;

use audit_matrix_support::{bulk_email_vault, desk, money, others, tokens, views, Answer, Body, Desk, Recipe};
use common::Backend;
use moneydesk_model::paths;
use reqwest::Method;
use serde_json::{json, Value};

/// `(method, route, operation id)` of every write the document lists.
fn writes(doc: &Value) -> Vec<(Method, String, String)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            let method: Method = method.to_ascii_uppercase().parse().expect("an HTTP method");
            if matches!(method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE) {
                let id = op["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path}: no operationId"));
                ops.push((method, path.clone(), id.to_string()));
            }
        }
    }
    ops
}

/// The request's records, once the write's transaction is visible (it is before the answer;
/// a short wait tells a late record, written after the answer, from none).
async fn records_of(d: &Desk, request_id: &str) -> Vec<audit_matrix_support::Record> {
    for _ in 0..20 {
        let found = d.records(request_id).await;
        if !found.is_empty() {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    d.records(request_id).await
}

/// The write's one record's target, or what is wrong with its records.
async fn check_write(d: &Desk, method: &Method, path: &str, operation: &str, a: &Answer) -> Result<String, String> {
    let what = format!("{method} {path} ({operation})");
    if !(200..300).contains(&a.status) {
        return Err(format!("{what}: the recipe's request answered {}: {}", a.status, a.body));
    }
    let found = records_of(d, &a.request_id).await;
    let [r] = found.as_slice() else {
        return Err(format!(
            "{what}: {} audit records for one write (request {}): {found:?}",
            found.len(),
            a.request_id
        ));
    };
    let wrong = r.outcome != "succeeded"
        || r.operation != operation
        || r.method.as_deref() != Some(method.as_str())
        || r.path.as_deref() != Some(path)
        || r.target_type.as_deref().is_none_or(str::is_empty)
        || r.target_id.as_deref().is_none_or(str::is_empty);
    if wrong {
        return Err(format!("{what}: the record is not this write's succeeded one with its target: {r:?}"));
    }
    Ok(format!("{what} → {} {}", r.target_type.as_deref().unwrap_or(""), r.target_id.as_deref().unwrap_or("")))
}

async fn every_write_operation_appends_exactly_one_record(backend: Backend) {
    let d = desk(backend).await;
    let doc = common::json(d.server.get(paths::OPENAPI).await).await;
    let documented = writes(&doc);
    assert!(!documented.is_empty(), "the document lists its writes");
    let recipes: Vec<(Method, &str, Recipe)> = money::recipes()
        .into_iter()
        .chain(others::recipes())
        .chain(tokens::recipes())
        .chain(views::recipes())
        .chain(bulk_email_vault::recipes())
        .chain(audit_matrix_support::vault_trash::recipes())
        .collect();
    let reads = others::reads();
    let mut failures = Vec::new();
    let mut passed = Vec::new();

    for (method, path, operation) in &documented {
        let what = format!("{method} {path} ({operation})");
        if let Some((_, _, reason, recipe)) = reads.iter().find(|(m, p, _, _)| m == method && p == path) {
            let a = recipe(&d).await;
            let found = records_of(&d, &a.request_id).await;
            if !(200..300).contains(&a.status) {
                failures.push(format!("{what}: the read's request answered {}: {}", a.status, a.body));
            } else if !found.is_empty() {
                failures.push(format!("{what} is a read ({reason}) yet left records: {found:?}"));
            } else {
                passed.push(format!("{what}: a read, no record"));
            }
            continue;
        }
        let Some((_, _, recipe)) = recipes.iter().find(|(m, p, _)| m == method && p == path) else {
            failures.push(format!("{what}: a write with no recipe here: add one (or list it as a read, with why)"));
            continue;
        };
        let a = recipe(&d).await;
        match check_write(&d, method, path, operation, &a).await {
            Ok(target) => passed.push(target),
            Err(f) => failures.push(f),
        }
    }
    let known = |m: &Method, p: &str| documented.iter().any(|(dm, dp, _)| dm == m && dp == p);
    for (m, p) in recipes.iter().map(|(m, p, _)| (m, *p)).chain(reads.iter().map(|(m, p, _, _)| (m, *p))) {
        if !known(m, p) {
            failures.push(format!("{m} {p}: a recipe for an operation the document no longer has"));
        }
    }
    println!("{} operations on record as they should be:\n  {}", passed.len(), passed.join("\n  "));
    assert!(
        failures.is_empty(),
        "{} of {} write operations fail:\n  {}",
        failures.len(),
        documented.len(),
        failures.join("\n  ")
    );
    d.server.running.stop().await;
}

/// Writes that fail leave no record: a client error before anything changed, a conflict
/// found by a store, a refusal of the webhook URL rule.
async fn a_failed_write_leaves_no_record(backend: Backend) {
    let d = desk(backend).await;
    let folder = format!("{}?path=&name=Twice", paths::VAULT_FOLDER.replace("{userId}", "test"));
    d.setup(Method::POST, &folder, Body::None, 200).await;
    let deposit = d.setup(Method::POST, paths::DEPOSITS_CHECK, Body::Json(money::check_body(&d)), 201).await;
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &deposit["id"].to_string());
    let failing: Vec<(Method, String, Body)> = vec![
        (Method::POST, folder, Body::None),
        (Method::POST, actions.clone(), Body::Json(json!({"action": "settle"}))),
        (Method::POST, actions, Body::Json(json!({"action": "reject"}))),
        (Method::POST, paths::EMAIL_TEMPLATES.into(), Body::Json(json!({"subject": "no name"}))),
        (Method::POST, paths::WEBHOOK_ENDPOINTS.into(), Body::Json(json!({"url": "https://10.0.0.1/hook"}))),
        (Method::DELETE, paths::EMAIL_INBOUND_ROUTE.replace("{domain}", "none.bank.example"), Body::None),
        (Method::POST, paths::EMAIL_DOMAINS.into(), Body::Json(json!({"domain": "not a domain"}))),
    ];
    let before = d.count().await;
    for (method, path, body) in failing {
        let what = format!("{method} {path}");
        let a = d.write(method, &path, body).await;
        assert!((400..500).contains(&a.status), "{what} fails: {} {}", a.status, a.body);
        assert_eq!(records_of(&d, &a.request_id).await.len(), 0, "{what} answered {}: no record", a.status);
    }
    assert_eq!(d.count().await, before, "no record at all");
    d.server.running.stop().await;
}

/// An adjustment the ledger refuses after it moved the balance rows (the sleeve's available
/// balance would go below zero): the transaction rolls back whole, its record with it.
async fn a_write_rolled_back_midway_leaves_no_record(backend: Backend) {
    let d = desk(backend).await;
    let sleeve = &d.accounts[0].id;
    let balances = paths::LEDGER_BALANCES.replace("{accountId}", sleeve);
    // The balances and the number of records (the balances' `asOf` is the time asked).
    let state = || async {
        let mut b = d.get(&balances).await["data"].clone();
        b.as_object_mut().unwrap().remove("asOf");
        (b, d.count().await)
    };
    let before = state().await;
    let overdraw = json!({"debit": format!("sma:{sleeve}:posted"), "credit": "bank:adjustments",
        "amount": "999999999.00", "reason": "too much"});
    let a = d.write(Method::POST, paths::LEDGER_ADJUSTMENTS, Body::Json(overdraw)).await;
    assert_eq!(a.status, 409, "{}", a.body);
    assert!(a.body.to_string().contains("insufficient_available"), "refused by the ledger: {}", a.body);
    assert_eq!(records_of(&d, &a.request_id).await.len(), 0, "no record for a rolled back write");
    assert_eq!(state().await, before, "nothing changed, nothing recorded");
    d.server.running.stop().await;
}

on_both_backends!(
    every_write_operation_appends_exactly_one_record,
    a_failed_write_leaves_no_record,
    a_write_rolled_back_midway_leaves_no_record,
);
