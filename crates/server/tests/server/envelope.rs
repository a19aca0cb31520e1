//! The error envelope as the description's section 2.9 and section 7 write it, read as JSON
//! (never through our model types): `code` a number, `errorMessage` a string, `error` a string
//! naming the problem ("string or null, error detail"), `data` null; plus the added members
//! CONTRACT.md point 8 allows (`errors: [{field, problem}]`, `reason`, `requestId`), which a
//! client written from the description ignores. On both backends.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

on_both_backends!(
    a_validation_error_names_each_field_in_error_and_in_errors,
    a_404_401_and_600_carry_error_as_a_string_naming_the_problem,
);

/// What every error body holds, in the description's words; answers `errors` as
/// `(field, problem)` pairs.
fn described(status: u16, code: u64, body: &Value) -> Vec<(String, String)> {
    assert_eq!(body["code"], json!(code), "{status}: {body}");
    assert!(body["errorMessage"].as_str().is_some_and(|m| !m.trim().is_empty()), "errorMessage: {body}");
    assert!(body["error"].as_str().is_some_and(|m| !m.trim().is_empty()), "error is a string: {body}");
    assert!(body.get("data").is_some_and(Value::is_null), "data: null: {body}");
    assert!(body["requestId"].as_str().is_some_and(|id| !id.is_empty()), "requestId: {body}");
    assert!(body["reason"].is_string(), "reason: {body}");
    let Some(errors) = body.get("errors") else { return Vec::new() };
    let errors = errors.as_array().unwrap_or_else(|| panic!("errors is an array: {body}"));
    assert!(!errors.is_empty(), "errors is omitted when empty: {body}");
    errors
        .iter()
        .map(|e| {
            let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["field", "problem"], "{body}");
            (e["field"].as_str().unwrap().to_string(), e["problem"].as_str().unwrap().to_string())
        })
        .collect()
}

async fn a_validation_error_names_each_field_in_error_and_in_errors(backend: Backend) {
    let s = Server::start_on(backend).await;
    let payee: Vec<Account> = Accounts::new(1, 7).collect();
    let mut w = s.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&payee).await.unwrap();
    w.commit().await.unwrap();
    let token = s.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let body = json!({
        "amount": "-5",
        "bankRoutingNumber": "12",
        "bankAccountNumber": "000123456789",
        "checkNumber": "1001",
        "payeeAccountId": payee[0].id,
        "payeeUserId": "usr-1",
    });
    let r = s.client.post(s.url(paths::DEPOSITS_CHECK)).bearer_auth(&token).json(&body).send().await.unwrap();
    let status = r.status().as_u16();
    let b = json(r).await;
    assert_eq!(status, 400, "{b}");
    let errors = described(status, 400, &b);
    let fields: Vec<&str> = errors.iter().map(|(f, _)| f.as_str()).collect();
    assert!(fields.contains(&"amount") && fields.contains(&"bankRoutingNumber"), "{b}");
    // `error` in words: each field's problem, as `field: problem` joined by "; ".
    let words: Vec<String> = errors.iter().map(|(f, p)| format!("{f}: {p}")).collect();
    assert_eq!(b["error"], words.join("; "), "{b}");
    assert_eq!(b["reason"], "validation");
    s.running.stop().await;
}

async fn a_404_401_and_600_carry_error_as_a_string_naming_the_problem(backend: Backend) {
    let s = Server::start_on(backend).await;
    let token = s.token(&[Scope::DepositsRead]).await;

    let r = s.get_auth(&paths::DEPOSIT.replace("{id}", "987654"), &token).await;
    let (status, b) = (r.status().as_u16(), json(r).await);
    assert_eq!(status, 404, "{b}");
    assert!(described(status, 404, &b).is_empty(), "no field is to blame: {b}");
    assert!(b["error"].as_str().unwrap().contains("987654"), "names what is missing: {b}");
    assert_eq!((b["error"].clone(), b["reason"].clone()), (b["errorMessage"].clone(), json!("not_found")));

    let r = s.get(paths::DEPOSITS).await;
    let (status, b) = (r.status().as_u16(), json(r).await);
    assert_eq!(status, 401, "{b}");
    assert!(described(status, 401, &b).is_empty(), "{b}");
    assert!(b["error"].as_str().unwrap().contains("Authorization"), "says what to send: {b}");
    assert_eq!(b["reason"], "unauthorized");

    // Section 7, rule 1: an invalid token answers code 600 and errorMessage says so.
    let r = s.client.get(s.url(paths::DEPOSITS)).header("authorization", "Bearer not-a-token").send().await.unwrap();
    let (status, b) = (r.status().as_u16(), json(r).await);
    assert_eq!(status, 401, "{b}");
    let errors = described(status, 600, &b);
    assert_eq!(b["errorMessage"], "Invalid token");
    assert_eq!(errors.len(), 1, "{b}");
    assert_eq!(errors[0].0, "Authorization");
    assert!(errors[0].1.starts_with("malformed"), "says why: {b}");
    assert_eq!(b["error"], format!("Authorization: {}", errors[0].1));
    assert_eq!(b["reason"], "invalid_token");
    s.running.stop().await;
}
