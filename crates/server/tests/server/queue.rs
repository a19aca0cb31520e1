//! The lease-based queue (`storage::queue`) on a table of its own, as the next queue will use
//! it: two instances claiming from one PostgreSQL queue at once never get one row twice; a
//! lease run out is taken over (the dead holder's attempt marked, its late outcome refused); a
//! give-back is due again at once. And the whole server: a process killed with `kill -9` in
//! the middle of an inbound webhook POST has the delivery taken over by the next instance once
//! its lease runs out, posted again under the same `Moneydesk-Delivery`. The exact backoff and
//! give-up schedule is unit-tested beside it (`storage/queue/retry.rs`).

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::{HeaderMap, StatusCode};
use chrono::Utc;
use common::Backend;
use moneydesk_model::paths;
use moneydesk_server::storage::queue::{AttemptTable, Claimable, QueueTable};
use moneydesk_server::storage::time::millis;
use moneydesk_server::storage::Database;
use serde_json::{json, Value};

const JOBS: QueueTable = QueueTable {
    table: "test_jobs",
    id: "id",
    state: "state",
    due: &["queued", "retry"],
    in_flight: "running",
    released: "CASE WHEN attempts > 1 THEN 'retry' ELSE 'queued' END",
    returning: "id, attempts",
    attempts: AttemptTable {
        table: "test_attempts",
        key: "job_id",
        outcome: "outcome",
        in_flight: "running",
        note: "note",
        taken_over: "taken over",
        extra: &[],
    },
};

#[derive(Debug, sqlx::FromRow)]
struct Job {
    id: String,
    attempts: i64,
}

impl Claimable for Job {
    fn id(&self) -> &str {
        &self.id
    }

    fn attempt(&self) -> i64 {
        self.attempts
    }
}

async fn open(backend: Backend, dir: &std::path::Path) -> (Database, String) {
    let url = backend.database_url(dir).await;
    let db = Database::open(&url).await.unwrap();
    for statement in [
        "CREATE TABLE test_jobs (id TEXT PRIMARY KEY, state TEXT NOT NULL, next_attempt_at TEXT NOT NULL, \
         attempts BIGINT NOT NULL DEFAULT 0, claimed_by TEXT, claim_until TEXT, done_by TEXT)",
        "CREATE INDEX test_jobs_due ON test_jobs (state, next_attempt_at)",
        "CREATE TABLE test_attempts (job_id TEXT NOT NULL, number BIGINT NOT NULL, started_at TEXT NOT NULL, \
         outcome TEXT NOT NULL, note TEXT, PRIMARY KEY (job_id, number))",
    ] {
        db.execute(statement).await.unwrap();
    }
    (db, url)
}

/// Records `worker`'s outcome of job `id` if its claim holds: whether it did.
async fn finish(db: &Database, worker: &str, id: &str, attempt: i64) -> bool {
    let mut tx = db.begin().await.unwrap();
    let mut q = db.sql("UPDATE test_jobs AS m SET state = 'done', done_by = ?, claimed_by = NULL, claim_until = NULL WHERE m.id = ?").arg(worker).arg(id);
    JOBS.still_mine(&mut q, "m", worker);
    if tx.exec().execute(&q).await.unwrap() == 0 {
        return false;
    }
    let q = db.sql("UPDATE test_attempts SET outcome = 'done' WHERE job_id = ? AND number = ?").arg(id).arg(attempt);
    assert_eq!(tx.exec().execute(&q).await.unwrap(), 1);
    tx.commit().await.unwrap();
    true
}

async fn int(db: &Database, text: &str) -> i64 {
    db.acquire().await.unwrap().exec().int(&db.sql(text)).await.unwrap()
}

async fn text(db: &Database, text: &str) -> Option<String> {
    db.acquire().await.unwrap().exec().texts(&db.sql(text)).await.unwrap().pop()
}

/// Each round: 120 jobs queued, 60 to retry, 20 left running by a holder whose lease ran out;
/// four claimers (two on each instance's pool) claim a few at a time until nothing is left.
#[tokio::test]
async fn two_instances_claiming_one_postgresql_queue_never_get_one_job_twice() {
    let dir = tempfile::tempdir().unwrap();
    let (a, url) = open(Backend::Postgres, dir.path()).await;
    let b = Database::open(&url).await.unwrap();
    for round in 0..8 {
        let past = millis(Utc::now() - chrono::Duration::seconds(5));
        let mut values = Vec::new();
        for i in 0..200 {
            let (state, attempts, holder, lease) = match i % 10 {
                0..=5 => ("queued", 0, "NULL".to_string(), "NULL".to_string()),
                6..=8 => ("retry", 1, "NULL".to_string(), "NULL".to_string()),
                _ => ("running", 1, "'dead'".to_string(), format!("'{past}'")),
            };
            values.push(format!("('r{round}-{i:03}', '{state}', '{past}', {attempts}, {holder}, {lease})"));
        }
        a.execute(&format!(
            "INSERT INTO test_jobs (id, state, next_attempt_at, attempts, claimed_by, claim_until) VALUES {}",
            values.join(", ")
        ))
        .await
        .unwrap();
        a.execute(&format!(
            "INSERT INTO test_attempts (job_id, number, started_at, outcome) SELECT id, 1, '{past}', 'running' FROM test_jobs WHERE id LIKE 'r{round}-%' AND state = 'running'"
        ))
        .await
        .unwrap();
        let claimers = [(&a, "a1"), (&a, "a2"), (&b, "b1"), (&b, "b2")].map(|(db, worker)| async move {
            let (mut claimed, mut taken_over) = (Vec::new(), 0);
            loop {
                let now = Utc::now();
                let until = now + chrono::Duration::minutes(5);
                let got = JOBS.claim::<Job>(db, worker, now, until, 7).await.unwrap();
                if got.rows.is_empty() {
                    return (claimed, taken_over);
                }
                taken_over += got.taken_over;
                for job in got.rows {
                    assert!(finish(db, worker, &job.id, job.attempts).await, "{worker} holds {}", job.id);
                    claimed.push(job.id);
                }
            }
        });
        let results = futures_util::future::join_all(claimers).await;
        let mut seen: HashMap<String, usize> = HashMap::new();
        for id in results.iter().flat_map(|(ids, _)| ids) {
            *seen.entry(id.clone()).or_default() += 1;
        }
        assert_eq!(seen.len(), 200, "round {round}: every job claimed");
        assert!(seen.values().all(|n| *n == 1), "round {round}: no job twice");
        assert!(
            results.iter().filter(|(ids, _)| !ids.is_empty()).count() >= 2,
            "round {round}: the claims interleaved"
        );
        assert_eq!(
            results.iter().map(|(_, n)| n).sum::<u64>(),
            20,
            "round {round}: each dead holder's job taken over once"
        );
        let like = format!("LIKE 'r{round}-%'");
        assert_eq!(int(&a, &format!("SELECT COUNT(*) FROM test_jobs WHERE id {like} AND state = 'done'")).await, 200);
        let attempts = |done: &str| format!("SELECT COUNT(*) FROM test_attempts WHERE job_id {like} AND {done}");
        assert_eq!(int(&a, &attempts("outcome = 'done'")).await, 200);
        assert_eq!(int(&a, &attempts("note = 'taken over'")).await, 20);
    }
}

async fn a_lease_run_out_is_taken_over_and_a_give_back_is_due_at_once(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let (db, _) = open(backend, dir.path()).await;
    let now = Utc::now();
    let (soon, later) = (now + chrono::Duration::seconds(1), now + chrono::Duration::minutes(5));
    let ago = |ms| millis(now - chrono::Duration::milliseconds(ms));
    db.execute(&format!(
        "INSERT INTO test_jobs (id, state, next_attempt_at) VALUES ('j1', 'queued', '{}'), ('j2', 'queued', '{}'), ('j3', 'queued', '{}')",
        ago(2),
        ago(1),
        millis(later)
    ))
    .await
    .unwrap();

    // A holder whose lease runs out in a second; j3 is not due yet.
    let got = JOBS.claim::<Job>(&db, "dead", now, soon, 10).await.unwrap();
    assert_eq!(got.rows.iter().map(|j| (j.id.as_str(), j.attempts)).collect::<Vec<_>>(), [("j1", 1), ("j2", 1)]);
    assert_eq!(got.taken_over, 0);
    assert!(JOBS.claim::<Job>(&db, "alive", now, later, 10).await.unwrap().rows.is_empty(), "held");

    // After the lease: taken over, the dead holder's attempt marked, its outcome refused.
    let after = soon + chrono::Duration::milliseconds(1);
    let got = JOBS.claim::<Job>(&db, "alive", after, later, 1).await.unwrap();
    assert_eq!(got.rows.iter().map(|j| (j.id.as_str(), j.attempts)).collect::<Vec<_>>(), [("j1", 2)]);
    assert_eq!(got.taken_over, 1);
    assert_eq!(
        text(&db, "SELECT note FROM test_attempts WHERE job_id = 'j1' AND number = 1").await.as_deref(),
        Some("taken over")
    );
    assert!(!finish(&db, "dead", "j1", 1).await, "the dead holder's late outcome is refused");
    assert!(finish(&db, "alive", "j1", 2).await);

    // Given back: due again at once, the attempt as if never opened.
    let got = JOBS.claim::<Job>(&db, "alive", after, later, 1).await.unwrap();
    assert_eq!((got.rows[0].id.as_str(), got.rows[0].attempts, got.taken_over), ("j2", 2, 1));
    assert_eq!(JOBS.release(&db, "someone else", &["j2".into()]).await.unwrap(), 0, "only the holder gives back");
    assert_eq!(JOBS.release(&db, "alive", &["j2".into()]).await.unwrap(), 1);
    assert_eq!(text(&db, "SELECT state FROM test_jobs WHERE id = 'j2'").await.as_deref(), Some("retry"));
    assert_eq!(int(&db, "SELECT COUNT(*) FROM test_attempts WHERE job_id = 'j2'").await, 1, "attempt 2 undone");
    let got = JOBS.claim::<Job>(&db, "other", after, later, 10).await.unwrap();
    assert_eq!((got.rows.len(), got.rows[0].id.as_str(), got.rows[0].attempts), (1, "j2", 2));
    assert_eq!(got.taken_over, 0, "a give-back is no take-over");
}

on_both_backends!(a_lease_run_out_is_taken_over_and_a_give_back_is_due_at_once);

/// A webhook receiver that hangs on its first POST (the attempt under way at the kill) and
/// answers the next ones 200; each POST's headers and time.
async fn hanging_receiver() -> (String, Arc<Mutex<Vec<(Instant, HeaderMap)>>>) {
    let hits: Arc<Mutex<Vec<(Instant, HeaderMap)>>> = Arc::default();
    let seen = hits.clone();
    let app = axum::Router::new().route(
        "/inbound",
        axum::routing::post(move |headers: HeaderMap| {
            let hits = seen.clone();
            async move {
                let first = {
                    let mut hits = hits.lock().unwrap();
                    hits.push((Instant::now(), headers));
                    hits.len() == 1
                };
                if first {
                    std::future::pending::<()>().await;
                }
                StatusCode::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/inbound", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, hits)
}

#[tokio::test]
async fn a_server_killed_mid_post_has_the_delivery_taken_over_after_its_lease() {
    let dir = tempfile::tempdir().unwrap();
    let (url, hits) = hanging_receiver().await;
    let out = common::cli(dir.path(), &["token", "create", "--name", "ops", "--scope", "email:send"]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = String::from_utf8(out.stdout).unwrap().trim().to_string();
    // A POST's timeout of 2 s: a lease of 2 × 2 s + 30 s.
    let env = [("MONEYDESK_INBOUND_TIMEOUT", "2s".to_string())];
    let server = common::process::start(dir.path(), &env).await;
    let client = reqwest::Client::new();
    let r = client
        .post(format!("{}{}", server.base, paths::EMAIL_INBOUND_ROUTES))
        .bearer_auth(&token)
        .json(&json!({"domain": "in.bank.example", "url": url}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.text().await.unwrap());
    let r = client
        .post(format!("{}{}", server.base, paths::EMAIL_INBOUND_MESSAGES))
        .bearer_auth(&token)
        .header("content-type", "message/rfc822")
        .body("From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: x\r\n\r\nhello\r\n")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let id = r.json::<Value>().await.unwrap()["data"]["ids"][0].as_str().unwrap().to_string();

    // The POST under way (the receiver holds it): the process dies.
    let deadline = Instant::now() + Duration::from_secs(20);
    while hits.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the first POST did not come");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill_9();

    let server = common::process::start(dir.path(), &env).await;
    let deadline = Instant::now() + Duration::from_secs(90);
    while hits.lock().unwrap().len() < 2 {
        assert!(Instant::now() < deadline, "the delivery was not taken over");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hits = hits.lock().unwrap().clone();
    assert_eq!(hits[1].1["moneydesk-delivery"], id.as_str(), "the same delivery");
    assert_eq!(hits[1].1["moneydesk-attempt"], "2");
    let waited = hits[1].0 - hits[0].0;
    assert!(waited >= Duration::from_secs(30), "taken over only once the lease ran out: {waited:?}");

    let path = paths::EMAIL_INBOUND_MESSAGE.replace("{messageId}", &id);
    let deadline = Instant::now() + Duration::from_secs(20);
    let d = loop {
        let r = client.get(format!("{}{path}", server.base)).bearer_auth(&token).send().await.unwrap();
        let d = r.json::<Value>().await.unwrap()["data"].clone();
        if d["state"] == "delivered" || Instant::now() > deadline {
            break d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(d["state"], "delivered", "{d}");
    assert_eq!(d["attemptsMade"][0]["result"], moneydesk_server::email::outbox::store::delivery::TAKEN_OVER, "{d}");
    assert!(d["attemptsMade"][1]["result"].as_str().unwrap().starts_with("200"), "{d}");
    assert_eq!(hits.len(), 2, "posted twice, no more");
    server.kill_9();
}
