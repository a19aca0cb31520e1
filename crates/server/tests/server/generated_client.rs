//! A client generated from the served OpenAPI document works (issue 44, point 10): a real
//! server on a temporary SQLite database with the demo data; its document, fetched over HTTP,
//! is turned into a Python client by openapi-python-client, and one read of every group (every
//! tag of the document) goes through that client (`tests/server/generated_client/read_every_group.py`).
//! What the client read must equal what the server answers to the same requests, field by
//! field, error envelopes included; the generator may pass over only the bodies it has no
//! support for (binary content types), never a schema.
//!
//! `scripts/setup` installs openapi-python-client into `$MONEYDESK_CACHE/openapi-python-client`
//! (the generated client runs on that venv's python: httpx, attrs and python-dateutil come with
//! the generator); without it the test is skipped with a note, except in CI (`CI` set), where
//! it fails.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{json, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Map, Value};

/// A routing number of the demo FedACH directory, and its institution.
const ROUTING_NUMBER: &str = "011290074";
const ROUTING_NAME: &str = "LIGHTHOUSE COAST BANK";
/// A saved view the test makes: its table, name and query.
const VIEW: (&str, &str, &str) = ("accounts", "Active", "accountStatus=Active&sort=accountName,asc");

fn venv() -> PathBuf {
    let cache = std::env::var_os("MONEYDESK_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/moneydesk"));
    cache.join("openapi-python-client")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_generated_from_the_document_reads_every_group() {
    let venv = venv();
    let generator = venv.join("bin/openapi-python-client");
    if !generator.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "openapi-python-client is not installed at {} (run scripts/setup); CI must run this test",
            generator.display()
        );
        eprintln!("SKIPPED: openapi-python-client is not installed at {} (run scripts/setup)", generator.display());
        return;
    }
    let s = Server::start_with(|c| {
        c.seed_demo = true;
        c.routing_refresh = None;
        c.email.worker = true; // delivers to the development mailbox
                               // The endpoint the test makes points at a closed loopback port.
        c.webhooks.allow = vec![moneydesk_server::config::webhooks::Allowed::Host("127.0.0.1".into())];
    })
    .await;
    let token = s.token(&[Scope::Admin]).await;

    let doc = json(s.get(paths::OPENAPI).await).await;
    let mut odd = Vec::new();
    tuples_and_odd_nulls(&doc, "#", &mut odd);
    assert!(odd.is_empty(), "schemas client generators cannot read:\n{}", odd.join("\n"));
    let package = generate(&generator, s.dir.path(), &doc).await;
    let ids = make_one_of_each(&s, &token).await;
    let expected = expected(&s, &token, &ids).await;

    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/server/generated_client/read_every_group.py");
    let python = venv.join("bin/python");
    let (base, ids_text) = (s.running.base_url().to_string(), ids.to_string());
    let (package_dir, token_arg) = (package.clone(), token.clone());
    let out = blocking(move || {
        Command::new(python).arg(script).arg(package_dir).args([&base, &token_arg, &ids_text]).output()
    })
    .await;
    assert!(out.status.success(), "the generated client failed:\n{}", report(&out));
    let read: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}:\n{}", report(&out)));

    let groups: BTreeSet<&str> = doc["paths"]
        .as_object()
        .expect("paths")
        .values()
        .flat_map(|item| item.as_object().expect("path item").values())
        .filter_map(|op| op["tags"][0].as_str())
        .collect();
    let covered: BTreeSet<&str> = read.as_object().expect("an object").keys().map(String::as_str).collect();
    assert_eq!(covered, groups, "one read of every group of the document, no other");
    for group in groups {
        assert_eq!(
            read[group], expected[group],
            "{group}: the generated client read otherwise than the server answered"
        );
    }
    // A few values known without asking the server: the generated models carried real data.
    assert_eq!(read["routing"]["customerName"], ROUTING_NAME);
    assert_eq!(read["routing"]["refused"]["errors"][0]["field"], "routingNumber");
    assert_eq!(read["cash-letters"]["missing"]["code"], 404);
    assert_eq!(read["deposits"]["amount"], 125.5);
    assert!(read["email"]["headers"]
        .as_array()
        .unwrap()
        .contains(&json!({"name": "Subject", "value": "Your statement"})));
    assert_eq!(read["vault"], json!([{"name": "Statements", "kind": "folder"}]));
    assert_eq!(read["webhooks"][0]["url"], "http://127.0.0.1:9/moneydesk");
    // The demo's admin token, then the test's own.
    let names: Vec<&Value> = read["tokens"].as_array().unwrap().iter().map(|t| &t["name"]).collect();
    assert_eq!(names, ["demo-admin", "test"]);
    assert_eq!(read["views"][0]["query"], VIEW.2);
    assert!(
        read["search"]["groups"].as_array().unwrap().iter().any(|g| g["group"] == "routing"
            && g["hits"][0]["id"] == ROUTING_NUMBER
            && g["hits"][0]["match"] == "exact"),
        "{read}"
    );
    assert!(read["overview"]["toConfirm"].as_u64().is_some_and(|n| n >= 1), "{read}");
    assert!(read["accounts"]["accountName"].as_str().is_some_and(|n| !n.is_empty()), "{read}");
    s.running.stop().await;
}

/// Generates the client package `moneydesk_client` under `dir` from `doc`; its directory.
async fn generate(generator: &Path, dir: &Path, doc: &Value) -> PathBuf {
    let doc_file = dir.join("openapi.json");
    std::fs::write(&doc_file, serde_json::to_vec(doc).unwrap()).unwrap();
    // No post hooks: formatting the generated code (ruff) is not what is tested.
    let config = dir.join("openapi-python-client.yaml");
    std::fs::write(&config, "post_hooks: []\n").unwrap();
    let package = dir.join("generated");
    let output = package.join("moneydesk_client");
    let (generator, to) = (generator.to_path_buf(), output.clone());
    let out = blocking(move || {
        Command::new(generator)
            .args(["generate", "--meta", "none", "--path"])
            .arg(&doc_file)
            .arg("--config")
            .arg(&config)
            .arg("--output-path")
            .arg(&to)
            .output()
    })
    .await;
    let text = report(&out);
    assert!(out.status.success() && output.join("client.py").exists(), "openapi-python-client failed:\n{text}");
    // Each warning names an operation; only a body type the generator has no support for may
    // be passed over (a schema it cannot read is a failure).
    for warning in text.split("WARNING ").skip(1) {
        assert!(
            warning.contains("Unsupported content type") || warning.contains("Unsupported content_type"),
            "openapi-python-client could not read part of the document:\n{warning}"
        );
        eprintln!("openapi-python-client passed over: {}", warning.lines().next().unwrap_or_default());
    }
    package
}

/// Where `v` has what openapi-python-client (and several other generators) reject or misread:
/// tuple schemas (`prefixItems`, `items: false`, an array of `items`) and OpenAPI 3.0's
/// `nullable` in this 3.1 document.
fn tuples_and_odd_nulls(v: &Value, at: &str, found: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            let tuple =
                o.contains_key("prefixItems") || matches!(o.get("items"), Some(Value::Bool(_) | Value::Array(_)));
            // `nullable` is also a field name (a property called so): only a keyword beside `type`.
            if tuple || (o.contains_key("nullable") && o.contains_key("type")) {
                found.push(at.to_string());
            }
            o.iter().for_each(|(k, v)| tuples_and_odd_nulls(v, &format!("{at}/{k}"), found));
        }
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| tuples_and_odd_nulls(v, &format!("{at}/{i}"), found)),
        _ => {}
    }
}

/// What the demo data lacks, made over plain HTTP: a deposit, a sent message, a vault folder,
/// a webhook endpoint and a saved view. Their ids, and what the client is to read.
async fn make_one_of_each(s: &Server, token: &str) -> Value {
    let me = json(s.get_auth(paths::AUTH_ME, token).await).await;
    let user = me["data"]["userId"].as_str().expect("the token's user").to_string();
    let accounts = json(s.get_auth(&format!("{}?size=1", paths::ACCOUNTS), token).await).await;
    let account = accounts["data"]["content"][0]["id"].as_str().expect("a demo account").to_string();

    let cash = json!({"amount": "125.50", "payeeAccountId": account, "payeeUserId": user, "memo": "Till, Friday"});
    let deposit = post(s, token, paths::DEPOSITS_CASH, &cash).await;
    let send = json!({
        "from": {"email": "ops@moneydesk.test", "name": "Operations"},
        "subject": "Your statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ada@client.example", "name": "Ada"}]}]
    });
    let message = post(s, token, paths::EMAIL_SEND, &send).await["data"][0].as_str().expect("a message id").to_string();
    // Sent (to the development mailbox) before anything is read: its state no longer changes.
    common::wait_message_state(s, token, &message, "sent").await;
    let folder = format!("{}?path=/&name=Statements", paths::VAULT_FOLDER.replace("{userId}", &user));
    post(s, token, &folder, &Value::Null).await;
    let endpoint = json!({"url": "http://127.0.0.1:9/moneydesk", "eventTypes": ["deposit.created"], "description": "generated client"});
    post(s, token, paths::WEBHOOK_ENDPOINTS, &endpoint).await;
    let view = paths::SAVED_VIEW.replace("{table}", VIEW.0).replace("{name}", VIEW.1);
    let r =
        s.client.put(s.url(&view)).bearer_auth(token).json(&json!({"query": VIEW.2})).send().await.expect("request");
    assert_eq!(r.status().as_u16(), 201, "PUT {view}");
    json!({"user": user, "account": account, "deposit": deposit["id"], "message": message, "routingNumber": ROUTING_NUMBER,
        "view": {"table": VIEW.0, "name": VIEW.1}})
}

/// The server's own answers to the reads the script makes, in the script's shape.
async fn expected(s: &Server, token: &str, ids: &Value) -> Value {
    let get = |path: String| async move { json(s.get_auth(&path, token).await).await };
    let refusal = |path: String| async move {
        let r = s.get_auth(&path, token).await;
        let status = r.status().as_u16();
        let body = json(r).await;
        let mut shape = pick(&body, &["code", "errorMessage", "error", "reason", "data"]);
        shape["status"] = status.into();
        shape["errors"] = body.get("errors").cloned().unwrap_or(json!([]));
        shape
    };
    let text = |key: &str| ids[key].as_str().unwrap().to_string();
    let first = |page: &Value| page["data"]["content"][0].clone();
    let with_total = |page: &Value, keys: &[&str]| {
        let mut v = pick(&first(page), keys);
        v["totalElements"] = page["data"]["totalElements"].clone();
        v
    };

    let me = get(paths::AUTH_ME.into()).await;
    let accounts = get(format!("{}?size=1", paths::ACCOUNTS)).await;
    let permissions = get(format!("{}?size=1", paths::PERMISSIONS)).await;
    let ach = get(format!("{}?routingNumber={ROUTING_NUMBER}", paths::ROUTING_ACH_VALIDATE)).await;
    let mut routing =
        pick(&ach, &["routingNumber", "customerName", "customerCity", "customerState", "servicingFRBNumber"]);
    routing["refused"] = refusal(format!("{}?routingNumber=12", paths::ROUTING_ACH_VALIDATE)).await;
    let fees = get(format!("{}?transferType=EFT&amount=500.00", paths::FEES_ACH)).await;
    let deposit = get(paths::DEPOSIT.replace("{id}", &ids["deposit"].to_string())).await;
    let mut deposits = pick(&deposit["data"]["record"], &["id", "amount", "memo", "status", "sleeveAccountId"]);
    deposits["serviceType"] = deposit["data"]["serviceType"].clone();
    let balances = get(paths::LEDGER_BALANCES.replace("{accountId}", &text("account"))).await;
    let letters = get(paths::CASH_LETTERS.into()).await;
    let message = get(paths::EMAIL_MESSAGE.replace("{messageId}", &text("message"))).await;
    let contents = get(format!("{}?path=/", paths::VAULT_FOLDER_CONTENTS.replace("{userId}", &text("user")))).await;
    let events = get(format!("{}?size=1", paths::EVENTS)).await;
    let audit = get(format!("{}?size=1", paths::AUDIT_RECORDS)).await;
    let endpoints = get(paths::WEBHOOK_ENDPOINTS.into()).await;
    let tokens = get(paths::TOKENS.into()).await;
    let views = get(format!("{}?table={}", paths::SAVED_VIEWS, VIEW.0)).await;
    let found = get(format!("{}?q={ROUTING_NUMBER}&limit=3", paths::SEARCH)).await;
    let overview = get(paths::OVERVIEW.into()).await;
    let each =
        |list: &Value, keys: &[&str]| Value::Array(list.as_array().unwrap().iter().map(|v| pick(v, keys)).collect());
    let fee_entries = each(&fees["data"], &["fee_type", "fee_amount"]);
    let mut audit_first = pick(&first(&audit), &["operation", "targetId", "outcome"]);
    audit_first["userId"] = first(&audit)["actor"]["userId"].clone();
    json!({
        "auth": pick(&me["data"], &["name", "scopes", "userId"]),
        "accounts": with_total(&accounts, &["id", "accountName", "accountType", "accountStatus"]),
        "permissions": with_total(&permissions, &["userId", "companyName", "scope"]),
        "routing": routing,
        "fees": {"status": fees["status"], "data": fee_entries},
        "deposits": deposits,
        "ledger": pick(&balances["data"], &["accountId", "posted", "pending", "held"]),
        "cash-letters": {
            "totalElements": letters["data"]["totalElements"],
            "missing": refusal(paths::CASH_LETTER.replace("{id}", "999999")).await,
        },
        "email": pick(&message["data"], &["id", "subject", "state", "headers"]),
        "vault": each(&contents["data"]["content"], &["name", "kind"]),
        "events": pick(&first(&events), &["type", "objectType", "objectId"]),
        "audit": audit_first,
        "webhooks": each(&endpoints["data"], &["url", "eventTypes", "enabled"]),
        "tokens": each(&tokens["data"], &["id", "name", "userId", "scopes", "expiresAt"]),
        "views": each(&views["data"], &["id", "table", "name", "query", "createdAt", "updatedAt"]),
        "search": search_read(&found["data"]),
        "overview": overview_read(&overview["data"]),
    })
}

/// The search's answer as the script reads it: each group's hits (which record, how matched).
fn search_read(data: &Value) -> Value {
    let groups = data["groups"].as_array().expect("groups").iter().map(|g| {
        let hits: Vec<Value> =
            g["hits"].as_array().unwrap().iter().map(|h| pick(h, &["id", "match", "field", "open"])).collect();
        json!({"group": g["group"], "more": g["more"], "hits": hits})
    });
    json!({"q": data["q"], "shape": data["shape"], "groups": groups.collect::<Vec<_>>()})
}

/// The overview's figures that stay the same while the test runs (not `generatedAt`).
fn overview_read(data: &Value) -> Value {
    json!({
        "day": data["day"],
        "depositsToday": data["depositsToday"]["total"]["count"],
        "toConfirm": data["waiting"]["toConfirm"]["count"],
        "routingStale": data["routingDirectory"]["stale"],
        "vaultFiles": data["vault"]["files"],
    })
}

/// `keys` of `v` (null when absent).
fn pick(v: &Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter().map(|k| (k.to_string(), v.get(*k).cloned().unwrap_or(Value::Null))).collect::<Map<_, _>>(),
    )
}

/// A write the test needs made; its answer, which must be a 2xx.
async fn post(s: &Server, token: &str, path: &str, body: &Value) -> Value {
    let mut req = s.client.post(s.url(path)).bearer_auth(token);
    if !body.is_null() {
        req = req.json(body);
    }
    let r = req.send().await.expect("request");
    let status = r.status();
    let answer = json(r).await;
    assert!(status.is_success(), "POST {path}: {status} {answer}");
    answer
}

async fn blocking(run: impl FnOnce() -> std::io::Result<Output> + Send + 'static) -> Output {
    tokio::task::spawn_blocking(run).await.unwrap().expect("the tool runs")
}

fn report(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}
