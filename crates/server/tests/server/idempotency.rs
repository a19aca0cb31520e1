//! `Idempotency-Key` on every POST and DELETE (issue 43, `http::idempotency`), over real HTTP on
//! both backends: the document lists the key on every such operation (walked, like the auth
//! matrix: no list of endpoints here), and a retry of any of them never runs it twice; with real
//! bodies (email send, vault folder and upload, cash letter, template, ledger adjustment) the
//! same key and request answer the first answer again (`Idempotent-Replayed: true`) with one
//! change made, another request with the key is a 409 naming it; a key whose request is running
//! or never finished is a 409 (never a second run); two instances on one PostgreSQL database
//! share the keys.

use crate::common;

use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::storage::time::millis;
use reqwest::Method;
use serde_json::{json, Value};

on_both_backends!(
    every_post_and_delete_documents_the_key_and_a_retry_never_runs_twice,
    a_retry_answers_the_first_answer_and_makes_one_change,
    a_key_whose_request_runs_or_never_finished_is_never_run_again,
);

/// What a request carries.
enum Sent {
    Nothing,
    Json(Value),
    /// A vault upload: a new multipart form (a new boundary) each time.
    File(&'static str, Vec<u8>),
}

/// An answer: status, `Idempotent-Replayed`, body.
#[derive(Debug)]
struct Answer {
    status: u16,
    replayed: bool,
    body: Value,
}

async fn send(s: &Server, method: Method, path: &str, token: &str, key: Option<&str>, sent: &Sent) -> Answer {
    let mut r = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(key) = key {
        r = r.header("Idempotency-Key", key);
    }
    r = match sent {
        Sent::Nothing => r,
        Sent::Json(v) => r.json(v),
        Sent::File(name, bytes) => r.multipart(
            reqwest::multipart::Form::new()
                .part("file", reqwest::multipart::Part::bytes(bytes.clone()).file_name(name.to_string())),
        ),
    };
    let r = r.send().await.unwrap();
    let replayed = r.headers().get("idempotent-replayed").is_some_and(|v| v == "true");
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    Answer { status, replayed, body: serde_json::from_str(&text).unwrap_or(Value::String(text)) }
}

/// Sends twice with `key`: the first answer, then the retry's, which must be the first again.
async fn twice(s: &Server, method: Method, path: &str, token: &str, key: &str, sent: &Sent) -> Answer {
    let first = send(s, method.clone(), path, token, Some(key), sent).await;
    let again = send(s, method, path, token, Some(key), sent).await;
    assert!(!first.replayed, "{path}: {first:?}");
    assert_eq!((again.status, again.replayed, &again.body), (first.status, true, &first.body), "{path}: a retry");
    first
}

fn reason(a: &Answer) -> &str {
    a.body["reason"].as_str().unwrap_or_default()
}

/// A 409 for a key used with another request, naming the key.
fn assert_reused(a: &Answer, key: &str) {
    assert_eq!((a.status, reason(a)), (409, "idempotency_key_reused"), "{a:?}");
    assert!(a.body["errorMessage"].as_str().unwrap().contains(key), "names the key: {a:?}");
}

fn plausible(param: &Value) -> String {
    if param["name"] == "userId" {
        return "ops".into();
    }
    match param["schema"]["type"].as_str() {
        Some("integer") | Some("number") => "1".into(),
        _ => "a".into(),
    }
}

async fn every_post_and_delete_documents_the_key_and_a_retry_never_runs_twice(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.running.create_token_for("ops", "ops", &[Scope::Admin]).await.unwrap();
    // The token a revoke probes (id 2): not the admin's own (id 1), which would end the run.
    s.running.create_token_for("spare", "ops", &[Scope::DepositsRead]).await.unwrap();
    let doc = json(s.get(paths::OPENAPI).await).await;
    let mut covered = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let method: Method = method.to_ascii_uppercase().parse().unwrap();
            if method != Method::POST && method != Method::DELETE {
                continue;
            }
            let what = format!("{method} {path}");
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            let key = params.iter().find(|p| p["in"] == "header" && p["name"] == "Idempotency-Key");
            assert!(key.is_some(), "{what} documents Idempotency-Key");
            // The operations that keep their key in their own transaction answer 200 for a retry
            // (and a reused key is theirs to answer: the deposits' 422).
            let own = !key.unwrap()["description"].as_str().unwrap().contains("Idempotent-Replayed");
            assert!(own || op["responses"]["409"].is_object(), "{what} documents the 409");
            let mut url = path.clone();
            let mut query = Vec::new();
            for p in &params {
                let name = p["name"].as_str().unwrap();
                match p["in"].as_str() {
                    Some("path") if path == paths::TOKEN => url = url.replace("{id}", "2"),
                    Some("path") => url = url.replace(&format!("{{{name}}}"), &plausible(p)),
                    Some("query") if p["required"] == true => query.push(format!("{name}={}", plausible(p))),
                    _ => {}
                }
            }
            if !query.is_empty() {
                url = format!("{url}?{}", query.join("&"));
            }
            let sent = if method == Method::POST { Sent::Json(json!({})) } else { Sent::Nothing };
            let key = format!("probe-{covered}");
            let first = send(&s, method.clone(), &url, &admin, Some(&key), &sent).await;
            let again = send(&s, method.clone(), &url, &admin, Some(&key), &sent).await;
            covered += 1;
            if own {
                assert!(!again.replayed && again.status != 500, "{what}: {again:?}");
            } else if (200..300).contains(&first.status) && first.body.is_string() {
                // A download (a zip of folders) is not kept: the retry makes it again.
                assert_eq!((again.status, again.replayed), (first.status, false), "{what}");
            } else if (200..300).contains(&first.status) {
                assert_eq!((again.status, again.replayed, &again.body), (first.status, true, &first.body), "{what}");
            } else if first.status >= 500 && first.status != 501 {
                assert_eq!((again.status, reason(&again)), (409, "idempotency_key_outcome_unknown"), "{what}");
            } else {
                // A refusal changed nothing and freed the key: the retry is refused the same way.
                assert_eq!((again.status, again.replayed), (first.status, false), "{what}: {first:?} {again:?}");
            }
        }
    }
    assert!(covered >= 20, "the document's writes: {covered}");
    s.running.stop().await;
}

async fn a_retry_answers_the_first_answer_and_makes_one_change(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.running.create_token_for("ops", "ops", &[Scope::Admin]).await.unwrap();
    let get = |path: String| {
        let (s, admin) = (&s, &admin);
        async move { json(s.get_auth(&path, admin).await).await }
    };

    // A template: 201 again, one template; another body with the key is a 409 naming it.
    let template = Sent::Json(json!({"name": "Statement", "subject": "Statement", "text": "Dear {{first_name}}"}));
    let made = twice(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, "tpl-1", &template).await;
    assert_eq!(made.status, 201, "{made:?}");
    assert_eq!(get(paths::EMAIL_TEMPLATES.into()).await["data"].as_array().unwrap().len(), 1);
    let other = Sent::Json(json!({"name": "Other", "subject": "x", "text": "y"}));
    assert_reused(&send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-1"), &other).await, "tpl-1");
    // A refused request frees its key; another user's key of the same name is theirs.
    let refused = send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-2"), &Sent::Json(json!({}))).await;
    assert_eq!(refused.status, 400, "{refused:?}");
    assert_eq!(send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-2"), &other).await.status, 201);
    let bob = s.running.create_token_for("bob", "bob", &[Scope::Admin]).await.unwrap();
    let third = Sent::Json(json!({"name": "Third", "subject": "x", "text": "y"}));
    assert_eq!(send(&s, Method::POST, paths::EMAIL_TEMPLATES, &bob, Some("tpl-1"), &third).await.status, 201);

    // An email send: the same message ids, one message.
    let message = Sent::Json(json!({
        "from": {"email": "ops@moneydesk.test"}, "subject": "Your statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ada@client.example"}]}]
    }));
    let sent = twice(&s, Method::POST, paths::EMAIL_SEND, &admin, "send-1", &message).await;
    assert_eq!(sent.status, 202, "{sent:?}");
    assert_eq!(get(paths::EMAIL_MESSAGES.into()).await["data"]["totalElements"], 1);

    // A vault folder (made twice, the second would be a 409) and an upload (a second would be
    // version 2), each form with its own boundary.
    let folder = format!("{}?path=&name=Clients", paths::VAULT_FOLDER.replace("{userId}", "ops"));
    assert_eq!(twice(&s, Method::POST, &folder, &admin, "dir-1", &Sent::Nothing).await.status, 200);
    let file = format!("{}?path=Clients", paths::VAULT_FILE.replace("{userId}", "ops"));
    let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    let upload = twice(&s, Method::POST, &file, &admin, "up-1", &Sent::File("plan.bin", bytes.clone())).await;
    assert_eq!((upload.status, &upload.body["data"]["versions"]), (200, &json!(1)), "{upload:?}");
    let mut changed = bytes;
    changed[100_000] ^= 1;
    assert_reused(&send(&s, Method::POST, &file, &admin, Some("up-1"), &Sent::File("plan.bin", changed)).await, "up-1");
    let versions = format!("{}?path=Clients/plan.bin", paths::VAULT_FILE_VERSIONS.replace("{userId}", "ops"));
    assert_eq!(get(versions).await["data"]["versions"].as_array().unwrap().len(), 1);

    // A cash letter of one confirmed check (a second run would find nothing to send).
    let accounts: Vec<Account> = Accounts::new(1, 5).collect();
    let mut w = s.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let check = Sent::Json(json!({
        "amount": "12.34", "bankRoutingNumber": "021090028", "bankAccountNumber": "48200001", "checkNumber": "1001",
        "payeeAccountId": accounts[0].id, "payeeUserId": "usr-1",
        "checkFrontImage": check_png(1), "checkBackImage": check_png(101),
    }));
    let deposit = send(&s, Method::POST, paths::DEPOSITS_CHECK, &admin, None, &check).await;
    assert_eq!(deposit.status, 201, "{deposit:?}");
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &deposit.body["id"].to_string());
    let confirm = Sent::Json(json!({"action": "confirm"}));
    assert_eq!(send(&s, Method::POST, &actions, &admin, None, &confirm).await.status, 200);
    let today = chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive().to_string();
    let letter = Sent::Json(json!({"businessDate": today}));
    assert_eq!(twice(&s, Method::POST, paths::CASH_LETTERS, &admin, "letter-1", &letter).await.status, 201);
    assert_eq!(get(paths::CASH_LETTERS.into()).await["data"]["totalElements"], 1);

    // A ledger adjustment keeps its key in its own transaction (200 for a retry), untouched.
    let adjustment = Sent::Json(
        json!({"debit": "bank:fee_income", "credit": "bank:adjustments", "amount": "1.00", "reason": "refund"}),
    );
    let first = send(&s, Method::POST, paths::LEDGER_ADJUSTMENTS, &admin, Some("adj-1"), &adjustment).await;
    let again = send(&s, Method::POST, paths::LEDGER_ADJUSTMENTS, &admin, Some("adj-1"), &adjustment).await;
    assert_eq!((first.status, again.status, again.replayed), (201, 200, false), "{first:?} {again:?}");
    assert_eq!(again.body["data"]["id"], first.body["data"]["id"]);
    s.running.stop().await;
}

async fn a_key_whose_request_runs_or_never_finished_is_never_run_again(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.running.create_token_for("ops", "ops", &[Scope::Admin]).await.unwrap();
    let db = &s.running.state.stores.database;
    let now = chrono::Utc::now();
    // What an instance leaves when it stops between reserving the key and keeping the answer.
    let reserve = |key: &str, lease: chrono::Duration, expires: chrono::Duration| {
        format!(
            "INSERT INTO idempotency_keys (user_id, key, operation, request, state, created_at, lease_until, expires_at) \
             VALUES ('ops', '{key}', 'POST {route}', 'POST {route}', 'in_flight', '{at}', '{lease}', '{expires}')",
            route = paths::EMAIL_TEMPLATES,
            at = millis(now),
            lease = millis(now + lease),
            expires = millis(now + expires),
        )
    };
    let day = chrono::Duration::hours(24);
    db.execute(&reserve("running", chrono::Duration::seconds(60), day)).await.unwrap();
    db.execute(&reserve("lost", chrono::Duration::seconds(-1), day)).await.unwrap();
    db.execute(&reserve("old", chrono::Duration::seconds(-1), -chrono::Duration::seconds(1))).await.unwrap();
    let template = Sent::Json(json!({"name": "Statement", "subject": "Statement", "text": "Dear you"}));
    let running = send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("running"), &template).await;
    assert_eq!((running.status, reason(&running)), (409, "idempotency_key_in_flight"), "{running:?}");
    let lost = send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("lost"), &template).await;
    assert_eq!((lost.status, reason(&lost)), (409, "idempotency_key_outcome_unknown"), "{lost:?}");
    assert!(lost.body["errorMessage"].as_str().unwrap().contains("lost"), "names the key: {lost:?}");
    let list = json(s.get_auth(paths::EMAIL_TEMPLATES, &admin).await).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 0, "neither ran: {list}");
    // A key past its time is forgotten: the request runs.
    let old = send(&s, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("old"), &template).await;
    assert_eq!((old.status, old.replayed), (201, false), "{old:?}");

    // The sweep forgets the keys past their time, and only those.
    db.execute(&reserve("swept", chrono::Duration::seconds(-1), -chrono::Duration::seconds(1))).await.unwrap();
    let keys = moneydesk_server::http::idempotency::Keys::new(db.clone(), day);
    assert_eq!(keys.sweep(chrono::Utc::now()).await.unwrap(), 1);
    let mut conn = db.acquire().await.unwrap();
    let left = conn.exec().int(&db.sql("SELECT COUNT(*) FROM idempotency_keys")).await.unwrap();
    assert_eq!(left, 3, "running, lost and old (now done) remain");
    s.running.stop().await;
}

/// Two instances on one PostgreSQL database: what one answered, the other answers again; one
/// key sent to both at once runs once.
#[tokio::test]
async fn two_instances_on_postgresql_share_the_keys() {
    let url = common::postgres::fresh_database().await;
    let start = |url: String| Server::start_with(move |c| c.database_url = url);
    let (a, b) = (start(url.clone()).await, start(url).await);
    let admin = a.running.create_token_for("ops", "ops", &[Scope::Admin]).await.unwrap();
    let template = Sent::Json(json!({"name": "Statement", "subject": "Statement", "text": "Dear you"}));
    let first = send(&a, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-1"), &template).await;
    assert_eq!((first.status, first.replayed), (201, false), "{first:?}");
    let again = send(&b, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-1"), &template).await;
    assert_eq!((again.status, again.replayed, &again.body), (201, true, &first.body), "B answers A's answer");
    let other = Sent::Json(json!({"name": "Other", "subject": "x", "text": "y"}));
    assert_reused(&send(&b, Method::POST, paths::EMAIL_TEMPLATES, &admin, Some("tpl-1"), &other).await, "tpl-1");

    for round in 0..5 {
        let key = format!("dir-{round}");
        let folder = format!("{}?path=&name=F{round}", paths::VAULT_FOLDER.replace("{userId}", "ops"));
        let (x, y) = tokio::join!(
            send(&a, Method::POST, &folder, &admin, Some(&key), &Sent::Nothing),
            send(&b, Method::POST, &folder, &admin, Some(&key), &Sent::Nothing)
        );
        let ran: Vec<&Answer> = [&x, &y].into_iter().filter(|r| r.status == 200 && !r.replayed).collect();
        assert_eq!(ran.len(), 1, "one ran: {x:?} {y:?}");
        let other = if std::ptr::eq(ran[0], &x) { &y } else { &x };
        assert!(
            (other.status == 200 && other.replayed)
                || (other.status, reason(other)) == (409, "idempotency_key_in_flight"),
            "the other was answered again or told to wait: {other:?}"
        );
    }
    let contents = format!("{}?path=&size=50", paths::VAULT_FOLDER_CONTENTS.replace("{userId}", "ops"));
    let listed = json(b.get_auth(&contents, &admin).await).await;
    assert_eq!(listed["data"]["totalElements"], 5, "{listed}");
    a.running.stop().await;
    b.running.stop().await;
}
