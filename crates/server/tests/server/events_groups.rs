//! The audit trail and the events of the groups that move no money (issue 43): every write of
//! the vault, email (send, resend, templates, sending domains, inbound routes and mail), fee
//! schedules and tokens leaves one audit record naming its target, and the events it tells of
//! carry the object as the API answers it; a refused write (4xx) leaves neither. Read straight
//! from the tables (`audit_records`, `events`).

use crate::common;
#[allow(dead_code)] // the vault tests' whole client; these tests use part of it
use crate::vault_support;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::{call, json, Backend, Server};
use moneydesk_model::{paths, Scope};
use moneydesk_server::storage::Database;
use serde_json::{json, Value};
use vault_support::{at, q, vault};

/// What was written after a [`mark`]: the audit records and the events.
#[derive(Debug)]
struct Written {
    /// `(operation, target type, target id, changes)`.
    records: Vec<(String, Option<String>, Option<String>, Value)>,
    /// `(type, object type, object id, data)`.
    events: Vec<(String, String, String, Value)>,
}

impl Written {
    /// The one record, checked to be of `operation` (when given) on `target`.
    fn one_record(&self, operation: Option<&str>, target: (&str, &str)) -> &Value {
        assert_eq!(self.records.len(), 1, "exactly one audit record: {self:#?}");
        let (op, kind, id, changes) = &self.records[0];
        if let Some(operation) = operation {
            assert_eq!(op, operation, "{self:#?}");
        }
        assert_eq!((kind.as_deref(), id.as_deref()), (Some(target.0), Some(target.1)), "{self:#?}");
        changes
    }

    fn events_of(&self, kind: &str) -> Vec<&(String, String, String, Value)> {
        self.events.iter().filter(|e| e.0 == kind).collect()
    }

    fn nothing(&self) {
        assert!(self.records.is_empty() && self.events.is_empty(), "a refused write leaves nothing: {self:#?}");
    }
}

fn db(s: &Server) -> &Database {
    &s.running.state.stores.database
}

/// The last audit record's id and the last event's seq.
async fn mark(db: &Database) -> (i64, i64) {
    let mut c = db.acquire().await.unwrap();
    let a = c.exec().int(&db.sql("SELECT COALESCE(MAX(id), 0) FROM audit_records")).await.unwrap();
    let e = c.exec().int(&db.sql("SELECT COALESCE(MAX(seq), 0) FROM events")).await.unwrap();
    (a, e)
}

async fn since(db: &Database, (a, e): (i64, i64)) -> Written {
    let mut c = db.acquire().await.unwrap();
    let q = db
        .sql("SELECT operation, target_type, target_id, changes FROM audit_records WHERE id > ? AND outcome = 'succeeded' ORDER BY id")
        .arg(a);
    let rows: Vec<(String, Option<String>, Option<String>, String)> = c.exec().rows(&q).await.unwrap();
    let records = rows.into_iter().map(|(o, t, i, ch)| (o, t, i, serde_json::from_str(&ch).unwrap())).collect();
    let q = db.sql("SELECT seq, type, object_type, object_id, data FROM events WHERE seq > ? ORDER BY seq").arg(e);
    let rows: Vec<(i64, String, String, String, String)> = c.exec().rows(&q).await.unwrap();
    // The outbox rows of the events read, not of any the delivery worker writes meanwhile.
    let last = rows.last().map_or(e, |r| r.0);
    let events = rows.into_iter().map(|(_, t, o, i, d)| (t, o, i, serde_json::from_str(&d).unwrap())).collect();
    let q = db
        .sql("SELECT COUNT(*) FROM event_outbox o JOIN events e ON e.seq = o.event_seq WHERE e.seq > ? AND e.seq <= ?")
        .arg(e)
        .arg(last);
    let outboxed = c.exec().int(&q).await.unwrap();
    let w = Written { records, events };
    assert_eq!(outboxed as usize, w.events.len(), "every event waits in event_outbox: {w:#?}");
    w
}

/// Every field of `data` is as `answer` shows it (a detail answer holds more).
fn answered_as(data: &Value, answer: &Value) {
    for (k, v) in data.as_object().expect("an object") {
        assert_eq!(v, &answer[k], "{k}: event {data} / answer {answer}");
    }
}

on_both_backends!(
    vault_writes_and_archive_downloads_are_on_record_with_their_events,
    email_writes_are_on_record_and_accepted_and_inbound_mail_told,
    delivery_outcomes_are_told_in_the_transaction_that_records_them,
    a_fee_schedule_load_is_on_record,
);

async fn vault_writes_and_archive_downloads_are_on_record_with_their_events(backend: Backend) {
    let v = vault(backend).await;
    let (s, db) = (&v.server, db(&v.server));

    let m = mark(db).await;
    assert_eq!(v.mkdir("alice", "Docs", "2026", &v.alice).await.0, 200);
    let w = since(db, m).await;
    w.one_record(Some("create_folder"), ("vault_folder", "alice/Docs/2026"));
    assert!(w.events.is_empty(), "no event for a folder made: {w:#?}");

    let m = mark(db).await;
    let (status, up) = v.upload("alice", "Docs/2026", "a.txt", b"hello".to_vec(), &v.alice).await;
    assert_eq!(status, 200, "{up}");
    let w = since(db, m).await;
    let changes = w.one_record(None, ("vault_file", "alice/Docs/2026/a.txt"));
    assert_eq!(changes[0], json!({"field": "version", "before": null, "after": "1"}), "{changes}");
    let uploaded = w.events_of("vault.file.uploaded");
    assert_eq!((uploaded.len(), w.events.len()), (1, 1), "{w:#?}");
    assert_eq!((uploaded[0].1.as_str(), uploaded[0].2.as_str()), ("vault_file", "alice/Docs/2026/a.txt"));
    assert_eq!(uploaded[0].3, up["data"]);

    let m = mark(db).await;
    assert_eq!(v.mkdir("alice", "Docs", "2026", &v.alice).await.0, 409);
    assert_eq!(v.mv("alice", "Nowhere", "Elsewhere", &v.alice).await.0, 404);
    let download = |p: &str| format!("{}?paths={p}&name=x", at(paths::VAULT_FOLDER_DOWNLOAD, "alice"));
    assert_eq!(call(s, reqwest::Method::POST, &download("Nowhere"), &v.alice, None).await.0, 404);
    since(db, m).await.nothing();

    let m = mark(db).await;
    let (status, moved) = v.mv("alice", "Docs", "Archive", &v.alice).await;
    assert_eq!(status, 200, "{moved}");
    let w = since(db, m).await;
    let changes = w.one_record(Some("move_folder"), ("vault_folder", "alice/Docs"));
    assert_eq!(changes[0], json!({"field": "path", "before": "Docs", "after": "Archive"}));
    let told = w.events_of("vault.folder.moved");
    assert_eq!((told.len(), told[0].2.as_str()), (1, "alice/Archive"));
    assert_eq!(told[0].3, moved["data"]);

    // A download of an archive is a read, and on record all the same.
    let m = mark(db).await;
    let r = s.client.post(s.url(&download("Archive"))).bearer_auth(&v.alice).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(!r.bytes().await.unwrap().is_empty());
    let w = since(db, m).await;
    let changes = w.one_record(Some("download_folders"), ("vault_folder", "alice/Archive"));
    assert_eq!(changes[0]["after"], "/Archive");
    assert!(w.events.is_empty());

    let m = mark(db).await;
    let file = format!("{}?path={}", at(paths::VAULT_FILE, "alice"), q("Archive/2026/a.txt"));
    let (status, deleted) = call(s, reqwest::Method::DELETE, &file, &v.alice, None).await;
    assert_eq!(status, 200, "{deleted}");
    let w = since(db, m).await;
    w.one_record(None, ("vault_file", "alice/Archive/2026/a.txt"));
    let told = w.events_of("vault.file.deleted");
    assert_eq!((told.len(), &told[0].3), (1, &deleted["data"]));
    let m = mark(db).await;
    assert_eq!(call(s, reqwest::Method::DELETE, &file, &v.alice, None).await.0, 404);
    since(db, m).await.nothing();

    let m = mark(db).await;
    let del = format!("{}?userId=alice&paths=Archive", paths::VAULT_FOLDERS_DELETE);
    let (status, gone) = call(s, reqwest::Method::DELETE, &del, &v.alice, None).await;
    assert_eq!(status, 200, "{gone}");
    let w = since(db, m).await;
    w.one_record(Some("delete_folders"), ("vault_folder", "alice/Archive"));
    let told = w.events_of("vault.folder.deleted");
    assert_eq!((told.len(), &told[0].3), (1, &gone["data"][0]));
}

async fn email_writes_are_on_record_and_accepted_and_inbound_mail_told(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let s = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = false;
    })
    .await;
    let (t, admin, db) = (s.token(&[Scope::EmailSend]).await, s.token(&[Scope::Admin]).await, db(&s));
    let post = reqwest::Method::POST;

    let send = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Statement",
        "content": [{"type": "text/plain", "value": "Hello"}], "personalizations": [{"to": [{"email": "a@client.example"}]}]});
    let m = mark(db).await;
    let (status, body) = call(&s, post.clone(), paths::EMAIL_SEND, &t, Some(send.clone())).await;
    assert_eq!(status, 202, "{body}");
    let id = body["data"][0].as_str().unwrap();
    let w = since(db, m).await;
    w.one_record(Some("send_email"), ("email_message", id));
    let accepted = w.events_of("email.accepted");
    assert_eq!((accepted.len(), accepted[0].2.as_str()), (1, id), "{w:#?}");
    let (_, detail) = call(&s, reqwest::Method::GET, &paths::EMAIL_MESSAGE.replace("{messageId}", id), &t, None).await;
    answered_as(&accepted[0].3, &detail["data"]);
    assert!(accepted[0].3.get("text").is_none(), "no body in the event's message");

    // Two personalizations: one record (their batch), an event each.
    let mut two = send.clone();
    two["personalizations"] = json!([{"to": [{"email": "a@client.example"}]}, {"to": [{"email": "b@client.example"}]}]);
    let m = mark(db).await;
    assert_eq!(call(&s, post.clone(), paths::EMAIL_SEND, &t, Some(two)).await.0, 202);
    let w = since(db, m).await;
    assert_eq!((w.records.len(), w.records[0].1.as_deref()), (1, Some("email_batch")), "{w:#?}");
    assert_eq!(w.events_of("email.accepted").len(), 2);

    let m = mark(db).await;
    let mut stranger = send.clone();
    stranger["from"]["email"] = json!("someone@elsewhere.example");
    assert_eq!(call(&s, post.clone(), paths::EMAIL_SEND, &t, Some(stranger)).await.0, 400);
    let template = json!({"name": "Notice", "subject": "Hi {{name}}", "text": "Hello {{name}}"});
    let (status, created) = call(&s, post.clone(), paths::EMAIL_TEMPLATES, &admin, Some(template.clone())).await;
    assert_eq!(status, 201, "{created}");
    let tid = created["data"]["id"].as_str().unwrap().to_string();
    let w = since(db, m).await;
    w.one_record(Some("create_template"), ("email_template", &tid));
    let m = mark(db).await;
    assert_eq!(call(&s, post.clone(), paths::EMAIL_TEMPLATES, &admin, Some(template)).await.0, 409);
    since(db, m).await.nothing();
    let versions = paths::EMAIL_TEMPLATE_VERSIONS.replace("{templateId}", &tid);
    let m = mark(db).await;
    let version = json!({"subject": "Hello {{name}}", "text": "Hi"});
    assert_eq!(call(&s, post.clone(), &versions, &admin, Some(version)).await.0, 201);
    let changes = since(db, m).await.one_record(Some("add_version"), ("email_template", &tid)).clone();
    assert_eq!(changes[0], json!({"field": "version", "before": "1", "after": "2"}));

    // Sending domains: registered, not activated while pending (409: nothing), removed.
    let domain = paths::EMAIL_DOMAIN.replace("{domain}", "notices.bank.example");
    let m = mark(db).await;
    let (status, b) =
        call(&s, post.clone(), paths::EMAIL_DOMAINS, &t, Some(json!({"domain": "notices.bank.example"}))).await;
    assert_eq!(status, 201, "{b}");
    since(db, m).await.one_record(Some("register"), ("email_domain", "notices.bank.example"));
    let m = mark(db).await;
    assert_eq!(call(&s, post.clone(), &format!("{domain}/activate"), &admin, None).await.0, 409);
    since(db, m).await.nothing();
    let m = mark(db).await;
    assert_eq!(call(&s, reqwest::Method::DELETE, &domain, &admin, None).await.0, 204);
    let changes = since(db, m).await.one_record(None, ("email_domain", "notices.bank.example")).clone();
    assert_eq!(changes[0], json!({"field": "state", "before": "pending", "after": null}));

    // Inbound: the route's writes (its secret never on record) and mail received.
    let route = paths::EMAIL_INBOUND_ROUTE.replace("{domain}", "in.bank.example");
    let new_route = json!({"domain": "in.bank.example", "url": "http://127.0.0.1:9/hook"});
    let m = mark(db).await;
    assert_eq!(call(&s, post.clone(), paths::EMAIL_INBOUND_ROUTES, &t, Some(new_route)).await.0, 201);
    since(db, m).await.one_record(None, ("inbound_route", "in.bank.example"));
    let m = mark(db).await;
    let (status, secret) = call(&s, post.clone(), &format!("{route}/secret"), &t, None).await;
    assert_eq!(status, 200, "{secret}");
    let w = since(db, m).await;
    let changes = w.one_record(Some("rotate_inbound_route_secret"), ("inbound_route", "in.bank.example"));
    assert!(!changes.to_string().contains(secret["data"]["secret"].as_str().unwrap()), "{changes}");
    let m = mark(db).await;
    let moved = json!({"url": "http://127.0.0.1:9/other"});
    assert_eq!(call(&s, reqwest::Method::PUT, &route, &t, Some(moved)).await.0, 200);
    since(db, m).await.one_record(Some("update_inbound_route"), ("inbound_route", "in.bank.example"));

    let raw = "From: Ada <ada@corp.example>\r\nTo: ops@in.bank.example\r\nSubject: Notice\r\n\r\nHello\r\n";
    let m = mark(db).await;
    let r = s.client.post(s.url(paths::EMAIL_INBOUND_MESSAGES)).bearer_auth(&t);
    let r = r.header("content-type", "message/rfc822").body(raw).send().await.unwrap();
    assert_eq!(r.status(), 202);
    let ids = json(r).await["data"]["ids"].clone();
    let inbound_id = ids[0].as_str().unwrap();
    let w = since(db, m).await;
    w.one_record(Some("post_raw"), ("inbound_message", inbound_id));
    let told = w.events_of("email.inbound.received");
    assert_eq!((told.len(), told[0].1.as_str()), (1, "inbound_message"));
    let message = paths::EMAIL_INBOUND_MESSAGE.replace("{messageId}", inbound_id);
    answered_as(&told[0].3, &call(&s, reqwest::Method::GET, &message, &t, None).await.1["data"]);
    let m = mark(db).await;
    assert_eq!(call(&s, post, &format!("{message}/redeliver"), &t, None).await.0, 409, "still pending");
    assert_eq!(call(&s, reqwest::Method::DELETE, &route.replace("in.bank", "none.bank"), &admin, None).await.0, 404);
    since(db, m).await.nothing();
    let m = mark(db).await;
    assert_eq!(call(&s, reqwest::Method::DELETE, &route, &admin, None).await.0, 204);
    since(db, m).await.one_record(Some("delete_inbound_route"), ("inbound_route", "in.bank.example"));
}

async fn delivery_outcomes_are_told_in_the_transaction_that_records_them(backend: Backend) {
    let sink = SmtpSink::start();
    sink.control(json!({"reject": {"gone@client.example": 550}, "defer": {"busy@client.example": 451}}));
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let relay = sink.url();
    let s = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = true;
        c.email.smtp_url = Some(relay);
        c.email.retry_base = Duration::from_millis(100);
        c.email.retry_max = Duration::from_millis(200);
        c.email.max_attempts = 2;
    })
    .await;
    let (t, db) = (s.token(&[Scope::EmailSend]).await, db(&s));
    let m = mark(db).await;
    let mut ids = Vec::new();
    for to in ["ok@client.example", "gone@client.example", "busy@client.example"] {
        let send = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Hi",
            "content": [{"type": "text/plain", "value": "Hi"}], "personalizations": [{"to": [{"email": to}]}]});
        let (status, body) = call(&s, reqwest::Method::POST, paths::EMAIL_SEND, &t, Some(send)).await;
        assert_eq!(status, 202, "{body}");
        ids.push(body["data"][0].as_str().unwrap().to_string());
    }
    let sent = common::wait_message_state(&s, &t, &ids[0], "sent").await;
    let gone = common::wait_message_state(&s, &t, &ids[1], "failed").await;
    let busy = common::wait_message_state(&s, &t, &ids[2], "failed").await;
    let w = since(db, m).await;
    let of =
        |kind: &str, id: &str| w.events.iter().filter(|e| e.0 == kind && e.2 == id).map(|e| &e.3).collect::<Vec<_>>();
    assert_eq!(w.records.len(), 3, "the sends only: the worker's outcomes are not requests: {w:#?}");
    answered_as(of("email.delivered", &ids[0])[0], &sent);
    answered_as(of("email.failed", &ids[1])[0], &gone);
    assert_eq!(of("email.deferred", &ids[2]).len(), 1, "{w:#?}");
    assert_eq!(of("email.deferred", &ids[2])[0]["state"], "deferred");
    answered_as(of("email.failed", &ids[2])[0], &busy);
    assert_eq!(w.events.len(), 3 + 4, "accepted three times, then one outcome an attempt: {w:#?}");

    // A resend is a write: on record, the state it moved.
    let m = mark(db).await;
    let resend = paths::EMAIL_MESSAGE_RESEND.replace("{messageId}", &ids[1]);
    assert_eq!(call(&s, reqwest::Method::POST, &resend, &t, None).await.0, 202);
    let w = since(db, m).await;
    let changes = w.records.first().map(|r| r.3.clone()).unwrap_or_default();
    assert_eq!(changes[0], json!({"field": "state", "before": "failed", "after": "queued"}), "{w:#?}");
    let resend_sent = paths::EMAIL_MESSAGE_RESEND.replace("{messageId}", &ids[0]);
    let m = mark(db).await;
    assert_eq!(call(&s, reqwest::Method::POST, &resend_sent, &t, None).await.0, 409);
    assert!(since(db, m).await.records.is_empty());
}

async fn a_fee_schedule_load_is_on_record(backend: Backend) {
    let s = Server::start_on(backend).await;
    let (admin, db) = (s.token(&[Scope::Admin]).await, db(&s));
    let load = |body: String| {
        let r = s.client.post(s.url(paths::FEE_SCHEDULE_VERSIONS)).bearer_auth(&admin);
        r.header("content-type", "application/toml").body(body).send()
    };
    let m = mark(db).await;
    let r = load(common::schedule_toml("2099-01-01T00:00:00Z", "0.25")).await.unwrap();
    assert_eq!(r.status(), 201);
    let id = json(r).await["data"][0]["id"].as_i64().unwrap().to_string();
    let changes = since(db, m).await.one_record(Some("load_version"), ("fee_schedule", &id)).clone();
    assert_eq!(changes[0]["after"], "2099-01-01T00:00:00Z");
    let m = mark(db).await;
    assert_eq!(load(common::schedule_toml("2001-01-01T00:00:00Z", "0.25")).await.unwrap().status(), 400);
    since(db, m).await.nothing();
}

/// Tokens are made and revoked with the CLI: on record as `job:cli:token.create` and
/// `job:cli:token.revoke`, told without their text or hash.
#[tokio::test]
async fn tokens_made_and_revoked_by_the_cli_are_on_record_and_told() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::cli(dir.path(), &["token", "create", "--name", "ci", "--scope", "fees:read"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let out = common::cli(dir.path(), &["token", "revoke", "ci"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!common::cli(dir.path(), &["token", "revoke", "ci"]).await.status.success(), "nothing left to revoke");

    let db = Database::open(&moneydesk_server::Config::for_tests(dir.path()).database_url).await.unwrap();
    let w = since(&db, (0, 0)).await;
    let ops: Vec<(&str, Option<&str>)> = w.records.iter().map(|r| (r.0.as_str(), r.2.as_deref())).collect();
    assert_eq!(ops, [("job:cli:token.create", Some("1")), ("job:cli:token.revoke", Some("1"))], "{w:#?}");
    let kinds: Vec<&str> = w.events.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(kinds, ["token.created", "token.revoked"]);
    let hash = moneydesk_server::tokens::hash(&token);
    for e in &w.events {
        assert_eq!((e.1.as_str(), e.2.as_str(), &e.3["name"], &e.3["id"]), ("token", "1", &json!("ci"), &json!(1)));
        let text = e.3.to_string();
        assert!(!text.contains(&token) && !text.contains(&hash), "{text}");
    }
    assert!(w.events[1].3["revokedAt"].is_string());
}
