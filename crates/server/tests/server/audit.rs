//! The audit trail over real HTTP, on both backends: a write leaves one record with who, from
//! where, what and the request id, in the change's own transaction; a refused write is on
//! record as denied; a write that failed leaves none; the chains verify, and a record edited
//! in the database is named; others' records stay others'; a day exports signed.

use crate::common;

use common::{json, Backend, Server};
use hmac::{Hmac, Mac};
use moneydesk_model::{paths, Scope};
use serde_json::Value;
use sha2::Sha256;

fn folder(user: &str, name: &str) -> String {
    format!("{}?path=&name={name}", paths::VAULT_FOLDER.replace("{userId}", user))
}

async fn post(s: &Server, path: &str, token: &str, request_id: &str) -> u16 {
    let resp = s
        .client
        .post(s.url(path))
        .bearer_auth(token)
        .header("x-request-id", request_id)
        .header("user-agent", "audit-test/1")
        .send()
        .await
        .unwrap();
    resp.status().as_u16()
}

/// The records the API answers for `query` (with `token`).
async fn records(s: &Server, token: &str, query: &str) -> (u16, Value) {
    let resp = s.get_auth(&format!("{}?{query}", paths::AUDIT_RECORDS), token).await;
    let status = resp.status().as_u16();
    (status, json(resp).await)
}

async fn verify(s: &Server, token: &str) -> Value {
    let resp = s.get_auth(paths::AUDIT_VERIFY, token).await;
    assert_eq!(resp.status(), 200);
    json(resp).await["data"].clone()
}

async fn a_write_is_on_record_once_with_who_where_and_what(backend: Backend) {
    let s = Server::start_on(backend).await;
    let writer = s.token(&[Scope::VaultWrite]).await;
    let admin = s.token(&[Scope::Admin]).await;

    assert_eq!(post(&s, &folder("test", "Statements"), &writer, "req-audit-1").await, 200);
    let (status, page) = records(&s, &admin, "operation=create_folder").await;
    assert_eq!(status, 200, "{page}");
    let items = page["data"]["content"].as_array().unwrap();
    assert_eq!(items.len(), 1, "one record for one write: {page}");
    let r = &items[0];
    assert_eq!(r["outcome"], "succeeded");
    assert_eq!(r["actor"]["userId"], "test");
    assert_eq!(r["actor"]["tokenName"], "test");
    assert!(r["actor"]["tokenId"].as_i64().is_some());
    assert_eq!(r["clientAddress"], "127.0.0.1");
    assert_eq!(r["userAgent"], "audit-test/1");
    assert_eq!(r["requestId"], "req-audit-1");
    assert_eq!(r["method"], "POST");
    assert_eq!(r["path"], paths::VAULT_FOLDER);
    assert!(!r.to_string().contains("mdk_"), "never the token itself: {r}");

    // The same folder again is a client error: nothing changed, nothing recorded.
    assert_ne!(post(&s, &folder("test", "Statements"), &writer, "req-audit-2").await, 200);
    let (_, page) = records(&s, &admin, "operation=create_folder").await;
    assert_eq!(page["data"]["totalElements"], 1, "a failed write leaves no record: {page}");

    // A write refused for want of a scope is on record as denied, with no change.
    let reader = s.token(&[Scope::VaultRead]).await;
    assert_eq!(post(&s, &folder("test", "Nope"), &reader, "req-audit-3").await, 403);
    let mut denied = Value::Null;
    for _ in 0..50 {
        let (_, page) = records(&s, &admin, "outcome=denied").await;
        if page["data"]["totalElements"] == 1 {
            denied = page["data"]["content"][0].clone();
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(denied["operation"], "create_folder", "{denied}");
    assert_eq!(denied["requestId"], "req-audit-3");
    assert_eq!(denied["changes"], serde_json::json!([]));

    let v = verify(&s, &admin).await;
    assert_eq!(v["ok"], true, "{v}");
    assert!(v["records"].as_i64().unwrap() >= 2, "{v}");
    assert_eq!(v["unsealed"], 0, "verification chains what is not chained yet: {v}");
    let one = json(s.get_auth(&paths::AUDIT_RECORD.replace("{id}", &r["id"].to_string()), &admin).await).await;
    assert!(one["data"]["hash"].as_str().is_some_and(|h| h.len() == 64), "{one}");
}

async fn a_record_edited_in_the_database_is_named(backend: Backend) {
    let s = Server::start_on(backend).await;
    let writer = s.token(&[Scope::VaultWrite]).await;
    let admin = s.token(&[Scope::Admin]).await;
    for n in 0..3 {
        assert_eq!(post(&s, &folder("test", &format!("F{n}")), &writer, &format!("req-{n}")).await, 200);
    }
    assert_eq!(verify(&s, &admin).await["ok"], true);
    let (_, page) = records(&s, &admin, "operation=create_folder").await;
    let middle = page["data"]["content"][1]["id"].as_i64().unwrap();

    // The triggers refuse the edit; one who drops them still cannot hide it.
    let db = &s.running.state.stores.database;
    let edit = format!("UPDATE audit_records SET user_id = 'someone-else' WHERE id = {middle}");
    assert!(db.execute(&edit).await.is_err(), "a chained record is never changed");
    match backend {
        Backend::Sqlite => db.execute("DROP TRIGGER audit_records_sealed").await.unwrap(),
        Backend::Postgres => {
            db.execute("ALTER TABLE audit_records DISABLE TRIGGER audit_records_sealed").await.unwrap()
        }
    };
    db.execute(&edit).await.unwrap();
    let v = verify(&s, &admin).await;
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["broken"]["recordId"], middle, "{v}");
    assert!(v["broken"]["reason"].as_str().unwrap().contains("changed"), "{v}");

    let out = s.cli(&["audit", "verify"]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("at record {middle}")), "the CLI names the broken link: {stderr}");
}

async fn the_cli_walks_an_intact_trail(backend: Backend) {
    let s = Server::start_on(backend).await;
    let writer = s.token(&[Scope::VaultWrite]).await;
    assert_eq!(post(&s, &folder("test", "Kept"), &writer, "req-cli").await, 200);
    let out = s.cli(&["audit", "verify"]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with("audit trail intact: "), "{stdout}");
}

async fn retention_removes_whole_days_and_keeps_their_last_hash(backend: Backend) {
    let s = Server::start_on(backend).await;
    let writer = s.token(&[Scope::VaultWrite]).await;
    let admin = s.token(&[Scope::Admin]).await;
    assert_eq!(post(&s, &folder("test", "Old"), &writer, "req-old").await, 200);
    let db = &s.running.state.stores.database;
    assert!(db.execute("DELETE FROM audit_records").await.is_err(), "no record goes but with its whole day");
    let before = verify(&s, &admin).await;
    let today = chrono::Utc::now().date_naive();
    let purged = moneydesk_server::audit::store::purge(db, today.succ_opt().unwrap()).await.unwrap();
    assert_eq!(purged, 1, "today, as if past the retention");
    let after = verify(&s, &admin).await;
    assert_eq!(
        (after["ok"].as_bool(), after["records"].as_i64(), after["purgedDays"].as_i64()),
        (Some(true), Some(0), Some(1))
    );
    let q = db.sql("SELECT records FROM audit_purges WHERE day = ?").arg(today.to_string());
    let kept = db.acquire().await.unwrap().exec().int(&q).await.unwrap();
    assert_eq!(kept, before["records"].as_i64().unwrap(), "the purged day's count stays on record");
}

/// The server binary's CLI on the server's own data dir and database (either backend).
async fn others_records_stay_theirs_and_a_day_exports_signed(backend: Backend) {
    let s = Server::start_on(backend).await;
    let writer = s.token(&[Scope::VaultWrite]).await;
    let admin = s.token(&[Scope::Admin]).await;
    assert_eq!(post(&s, &folder("test", "Mine"), &writer, "req-x").await, 200);
    let auditor = s.running.create_token("auditor", &[Scope::AuditRead]).await.unwrap();
    let (_, page) = records(&s, &auditor, "").await;
    assert_eq!(page["data"]["totalElements"], 0, "another user's records are not this token's: {page}");
    let (status, _) = records(&s, &auditor, "userId=test").await;
    assert_eq!(status, 403);
    let csv = s.get_auth(&format!("{}?userId=test&format=csv", paths::AUDIT_RECORDS), &admin).await;
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let csv = csv.text().await.unwrap();
    assert!(csv.starts_with("id,at,tokenId") && csv.contains("create_folder"), "{csv}");

    let day = chrono::Utc::now().date_naive().to_string();
    let resp = s.get_auth(&paths::AUDIT_EXPORT.replace("{day}", &day), &admin).await;
    assert_eq!(resp.status(), 200);
    let signature = resp.headers()["moneydesk-signature"].to_str().unwrap().to_string();
    let last = resp.headers()["moneydesk-audit-last-hash"].to_str().unwrap().to_string();
    let body = resp.text().await.unwrap();
    let lines: Vec<Value> = body.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!lines.is_empty());
    assert_eq!(lines.last().unwrap()["hash"], last.as_str());
    let key = s.running.state.stores.settings.get("audit.signing_key").await.unwrap().unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    assert_eq!(signature, format!("hmac-sha256={}", hex::encode(mac.finalize().into_bytes())));
}

/// More records than an export reads at a time: the day still comes whole, in chain order, each
/// link continuing across the pages, and the signature (made in a first walk) matches the body
/// streamed in the second.
async fn a_day_larger_than_a_page_exports_whole_and_signed(backend: Backend) {
    let s = Server::start_on(backend).await;
    let admin = s.token(&[Scope::Admin]).await;
    let empty = s.get_auth(&paths::AUDIT_EXPORT.replace("{day}", "2020-02-02"), &admin).await;
    assert_eq!(empty.status(), 200);
    assert_eq!(empty.text().await.unwrap(), "", "a day without records exports empty");
    let db = &s.running.state.stores.database;
    let n = 2 * moneydesk_server::audit::store::EXPORT_PAGE + 345;
    db.execute(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) \
         INSERT INTO audit_records (at, day, user_id, operation, outcome, request_id, changes) \
         SELECT '2026-01-02T10:00:00.000Z', '2026-01-02', 'test', 'create_folder', 'succeeded', 'req-' || i, '[]' FROM n"
    ))
    .await
    .unwrap();
    let resp = s.get_auth(&paths::AUDIT_EXPORT.replace("{day}", "2026-01-02"), &admin).await;
    assert_eq!(resp.status(), 200);
    let signature = resp.headers()["moneydesk-signature"].to_str().unwrap().to_string();
    let last = resp.headers()["moneydesk-audit-last-hash"].to_str().unwrap().to_string();
    let body = resp.text().await.unwrap();
    let lines: Vec<Value> = body.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len() as i64, n, "every record of the day");
    for (i, pair) in lines.windows(2).enumerate() {
        assert_eq!(pair[0]["seq"].as_i64(), Some(i as i64 + 1));
        assert_eq!(pair[1]["prevHash"], pair[0]["hash"], "the chain continues at line {}", i + 2);
    }
    assert_eq!(lines.last().unwrap()["hash"], last.as_str());
    let key = s.running.state.stores.settings.get("audit.signing_key").await.unwrap().unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    assert_eq!(signature, format!("hmac-sha256={}", hex::encode(mac.finalize().into_bytes())));
}

on_both_backends!(
    a_write_is_on_record_once_with_who_where_and_what,
    a_record_edited_in_the_database_is_named,
    others_records_stay_theirs_and_a_day_exports_signed,
    a_day_larger_than_a_page_exports_whole_and_signed,
    the_cli_walks_an_intact_trail,
    retention_removes_whole_days_and_keeps_their_last_hash,
);
