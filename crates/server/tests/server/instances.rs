//! Two server instances on one PostgreSQL database and one S3 bucket (the scale-out
//! arrangement), requests alternating between them: what one writes the other reads (vault
//! files through the shared bucket, deposits and their moves, the outbox and its
//! attachments); a token revoked through one is refused by both within the token cache's
//! time; one idempotency key sent to both at once makes one deposit; inbound mail posted to
//! one is delivered exactly once by the two workers.

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{json, s3, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::storage::blobs::BlobConfig;
use serde_json::{json, Value};

const TOKEN_TTL: Duration = Duration::from_millis(300);

/// Two instances on one fresh database and one fresh bucket.
async fn pair(worker: bool) -> (Server, Server) {
    let url = common::postgres::fresh_database().await;
    let bucket = s3::fresh_bucket();
    let start = |url: String, bucket| async move {
        Server::start_with(move |c| {
            c.database_url = url;
            c.blobs = BlobConfig::S3(bucket);
            c.token_cache_ttl = TOKEN_TTL;
            c.email.worker = worker;
            c.email.inbound.retry_base = Duration::from_millis(200);
        })
        .await
    };
    (start(url.clone(), bucket.clone()).await, start(url, bucket).await)
}

async fn call(s: &Server, method: reqwest::Method, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
    let mut r = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(b) = body {
        r = r.json(b);
    }
    let r = r.send().await.unwrap();
    (r.status().as_u16(), json(r).await)
}

fn deposit(payee: &Account, check: &str) -> Value {
    use base64::Engine;
    let img = image::GrayImage::from_fn(600, 250, |x, y| image::Luma([((x + y) as u8) | 0x80]));
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
    let png = base64::engine::general_purpose::STANDARD.encode(png);
    let today = chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive();
    json!({
        "amount": "125.50", "bankAccountNumber": "000123456789", "bankRoutingNumber": "021090028",
        "checkFrontImage": png, "checkBackImage": png, "checkNumber": check,
        "payeeAccountId": payee.id, "payeeUserId": "usr-1", "checkDate": (today - chrono::Duration::days(3)).to_string(),
    })
}

#[tokio::test]
async fn requests_alternating_between_two_instances_see_one_state() {
    let (a, b) = pair(false).await;
    let accounts: Vec<Account> = Accounts::new(3, 11).collect();
    let mut w = a.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let rw = [Scope::VaultRead, Scope::VaultWrite];
    let alice = a.running.create_token_for("alice", "alice", &rw).await.unwrap();
    let ops = a.token(&[Scope::Admin]).await;

    // Vault: a file uploaded through A is downloaded through B (the bytes are in the bucket).
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i * 7 % 251) as u8).collect();
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(bytes.clone()).file_name("ledger.bin"));
    let r = a
        .client
        .post(a.url(&format!("{}?path=%2F", paths::VAULT_FILE.replace("{userId}", "alice"))))
        .bearer_auth(&alice)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200, "{}", r.text().await.unwrap());
    let r = b
        .client
        .get(b.url(&format!("{}?path=ledger.bin", paths::VAULT_FILE.replace("{userId}", "alice"))))
        .bearer_auth(&alice)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.bytes().await.unwrap().to_vec(), bytes);

    // Deposits: created through A, read and confirmed through B, its history read through A.
    let (status, created) =
        call(&a, reqwest::Method::POST, paths::DEPOSITS_CHECK, &ops, Some(&deposit(&accounts[0], "4001"))).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().unwrap();
    let (status, list) = call(&b, reqwest::Method::GET, paths::DEPOSITS, &ops, None).await;
    assert_eq!((status, list["data"]["totalElements"].as_i64()), (200, Some(1)), "{list}");
    let actions = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
    // Both serve the same routing directory, and say so.
    let (_, da) = call(&a, reqwest::Method::GET, paths::ROUTING_DIRECTORY, &ops, None).await;
    let (_, db) = call(&b, reqwest::Method::GET, paths::ROUTING_DIRECTORY, &ops, None).await;
    assert!(da["data"]["ach"]["sha256"].is_string(), "{da}");
    assert_eq!(da["data"]["ach"]["sha256"], db["data"]["ach"]["sha256"]);
    let (status, moved) = call(&b, reqwest::Method::POST, &actions, &ops, Some(&json!({"action": "confirm"}))).await;
    assert_eq!(status, 200, "{moved}");
    let (_, detail) =
        call(&a, reqwest::Method::GET, &paths::DEPOSIT.replace("{id}", &id.to_string()), &ops, None).await;
    assert!(detail.to_string().contains("confirm"), "{detail}");

    // Email: sent through A with an attachment, listed and its attachment read through B.
    let send = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Shared", "content": [{"type": "text/plain", "value": "x"}],
        "attachments": [{"content": encode_base64(b"shared bytes"), "filename": "s.txt", "type": "text/plain"}],
        "personalizations": [{"to": [{"email": "zoe@client.example"}]}]});
    let (status, sent) = call(&a, reqwest::Method::POST, paths::EMAIL_SEND, &ops, Some(&send)).await;
    assert_eq!(status, 202, "{sent}");
    let msg = sent["data"][0].as_str().unwrap();
    let (_, outbox) = call(&b, reqwest::Method::GET, paths::EMAIL_MESSAGES, &ops, None).await;
    assert_eq!(outbox["data"]["content"][0]["id"], msg, "{outbox}");
    let attachment = paths::EMAIL_MESSAGE_ATTACHMENT.replace("{messageId}", msg).replace("{index}", "0");
    let r = b.client.get(b.url(&attachment)).bearer_auth(&ops).send().await.unwrap();
    assert_eq!(r.bytes().await.unwrap().as_ref(), b"shared bytes");
}

#[tokio::test]
async fn a_token_revoked_through_one_instance_is_refused_by_both_within_the_cache_time() {
    let (a, b) = pair(false).await;
    let t = a.token(&[Scope::EmailSend]).await;
    let path = paths::EMAIL_SENDERS;
    assert_eq!(call(&a, reqwest::Method::GET, path, &t, None).await.0, 200);
    assert_eq!(call(&b, reqwest::Method::GET, path, &t, None).await.0, 200, "both trust it (and cache it)");
    a.running.state.stores.tokens.revoke("test").await.unwrap();
    tokio::time::sleep(TOKEN_TTL + Duration::from_millis(100)).await;
    assert_eq!(call(&a, reqwest::Method::GET, path, &t, None).await.0, 401);
    assert_eq!(
        call(&b, reqwest::Method::GET, path, &t, None).await.0,
        401,
        "the other instance too, once its cache ran out"
    );
}

#[tokio::test]
async fn one_idempotency_key_sent_to_both_instances_at_once_makes_one_deposit() {
    let (a, b) = pair(false).await;
    let accounts: Vec<Account> = Accounts::new(2, 5).collect();
    let mut w = a.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let t = a.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let body = deposit(&accounts[0], "5001");
    let post = |s: &Server| {
        s.client
            .post(s.url(paths::DEPOSITS_CHECK))
            .bearer_auth(&t)
            .header("Idempotency-Key", "one-click")
            .json(&body)
            .send()
    };
    let tries = (0..6).map(|i| post(if i % 2 == 0 { &a } else { &b }));
    let answers = futures_util::future::join_all(tries).await;
    let mut ids = Vec::new();
    let mut created = 0;
    for r in answers {
        let r = r.unwrap();
        created += usize::from(r.status().as_u16() == 201);
        ids.push(json(r).await["id"].clone());
    }
    assert_eq!(created, 1, "{ids:?}");
    assert!(ids.iter().all(|id| *id == ids[0] && id.is_i64()), "{ids:?}");
    let (_, list) = call(&b, reqwest::Method::GET, paths::DEPOSITS, &t, None).await;
    assert_eq!(list["data"]["totalElements"], 1);
}

#[tokio::test]
async fn inbound_mail_taken_by_one_instance_is_delivered_once_by_the_two_workers() {
    // A receiver counting the POSTs of each delivery.
    let seen: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
    let counted = seen.clone();
    let app = axum::Router::new().route(
        "/inbound",
        axum::routing::post(move |headers: axum::http::HeaderMap| {
            let counted = counted.clone();
            async move {
                let id = headers["moneydesk-delivery"].to_str().unwrap().to_string();
                *counted.lock().unwrap().entry(id).or_default() += 1;
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/inbound", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let (a, b) = pair(true).await;
    let t = a.token(&[Scope::EmailSend]).await;
    let (status, _) = call(
        &a,
        reqwest::Method::POST,
        paths::EMAIL_INBOUND_ROUTES,
        &t,
        Some(&json!({"domain": "in.bank.example", "url": url})),
    )
    .await;
    assert_eq!(status, 201);
    let posts = (0..40).map(|i| {
        let s = if i % 2 == 0 { &a } else { &b };
        let raw = format!("From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: n{i}\r\n\r\nbody {i}\r\n");
        s.client
            .post(s.url(paths::EMAIL_INBOUND_MESSAGES))
            .bearer_auth(&t)
            .header("content-type", "message/rfc822")
            .body(raw)
            .send()
    });
    for r in futures_util::future::join_all(posts).await {
        assert_eq!(r.unwrap().status().as_u16(), 202);
    }
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while seen.lock().unwrap().len() < 40 && std::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 40, "every message delivered");
    assert!(seen.values().all(|n| *n == 1), "none twice: {seen:?}");
}

#[tokio::test]
async fn a_scheduled_job_is_claimed_by_one_instance_per_interval() {
    use moneydesk_server::storage::queue::schedule::claim;
    let (a, b) = pair(false).await;
    let (da, db) = (&a.running.state.stores.database, &b.running.state.stores.database);
    let hour = Duration::from_secs(3600);
    let now = chrono::Utc::now();
    // A job asked for by both at once runs once; an hour later, once again.
    let (x, y) = tokio::join!(claim(da, "report", "a", now, hour), claim(db, "report", "b", now, hour));
    assert_eq!(u8::from(x.unwrap().won()) + u8::from(y.unwrap().won()), 1);
    let later = now + chrono::Duration::minutes(61);
    let (x, y) = tokio::join!(claim(da, "report", "a", later, hour), claim(db, "report", "b", later, hour));
    assert_eq!(u8::from(x.unwrap().won()) + u8::from(y.unwrap().won()), 1);
}
