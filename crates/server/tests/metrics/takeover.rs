//! `moneydesk_claims_taken_over_total{kind}` at the metrics address: claims left by a holder
//! that died (a claim row whose lease has run out, as a `kill -9` leaves it; see
//! `email_crash.rs`) are taken over by the running workers, and each is counted under its kind.
//! Each count is what this test's own work added (see `main.rs`).

use crate::common;

use std::time::{Duration, Instant};

use chrono::Utc;
use common::{json, Server};
use moneydesk_model::{paths, Scope};
use serde_json::{json, Value};

async fn post(s: &Server, token: &str, path: &str, body: &Value) -> Value {
    let r = s.client.post(s.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    let status = r.status().as_u16();
    let body = json(r).await;
    assert!((200..300).contains(&status), "{path}: {status} {body}");
    body
}

/// Polls `path` until `done` holds of its `data` (at most 20 s).
async fn wait(s: &Server, token: &str, path: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let d = json(s.get_auth(path, token).await).await["data"].clone();
        if done(&d) || Instant::now() > deadline {
            assert!(done(&d), "{path}: {d}");
            return d;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn claims_left_by_a_dead_holder_are_taken_over_and_counted_by_kind() {
    let _alone = crate::alone().await;
    let s = Server::start_with(|c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.email.worker = true;
        // The inbound webhook's first failure is not retried during the test by itself.
        c.email.inbound.retry_base = Duration::from_secs(3600);
    })
    .await;
    let metrics = s.running.metrics_addr().expect("metrics are served");
    let before = crate::scrape(metrics).await;
    let t = s.token(&[Scope::EmailSend]).await;
    let state = &s.running.state;
    let gone = || Utc::now() - chrono::Duration::seconds(1);
    let later = Utc::now() + chrono::Duration::days(2);

    // Outbox: a message scheduled an hour ahead (the worker leaves it), claimed by a "dead"
    // worker whose lease has already run out: the running worker takes it over and sends it.
    let mut body = json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Hi", "content": [{"type": "text/plain", "value": "x"}],
        "personalizations": [{"to": [{"email": "a@client.example"}]}]});
    body["send_at"] = json!(Utc::now().timestamp() + 3600);
    let id = post(&s, &t, paths::EMAIL_SEND, &body).await["data"][0].as_str().unwrap().to_string();
    assert_eq!(state.stores.email.claim("dead-worker", later, gone(), 10).await.unwrap().len(), 1);
    let message = paths::EMAIL_MESSAGE.replace("{messageId}", &id);
    let sent = wait(&s, &t, &message, |d| d["state"] == "sent").await;
    assert_eq!(sent["attemptLog"][0]["outcome"], "sending", "{sent}");
    assert_eq!(sent["attemptLog"][0]["reply"], moneydesk_server::email::outbox::store::delivery::TAKEN_OVER, "{sent}");
    assert_eq!(sent["attemptLog"][1]["outcome"], "sent", "{sent}");

    // Inbound: a message whose receiver is down (attempt 1 fails, retried in an hour), then
    // claimed by a dead worker: taken over at once (attempt 3).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    post(
        &s,
        &t,
        paths::EMAIL_INBOUND_ROUTES,
        &json!({"domain": "in.bank.example", "url": format!("http://{closed}/inbound")}),
    )
    .await;
    let r = s
        .client
        .post(s.url(paths::EMAIL_INBOUND_MESSAGES))
        .bearer_auth(&t)
        .header("content-type", "message/rfc822")
        .body("From: a@corp.example\r\nTo: ops@in.bank.example\r\nSubject: x\r\n\r\nhello\r\n")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let inbound = json(r).await["data"]["ids"][0].as_str().unwrap().to_string();
    let inbound_path = paths::EMAIL_INBOUND_MESSAGE.replace("{messageId}", &inbound);
    wait(&s, &t, &inbound_path, |d| {
        d["attemptsMade"].as_array().is_some_and(|a| a.len() == 1 && a[0]["result"] != "delivering")
    })
    .await;
    assert_eq!(state.inbound.store.claim("dead-worker", later, gone(), 10).await.unwrap().len(), 1);
    let d = wait(&s, &t, &inbound_path, |d| d["attemptsMade"].as_array().is_some_and(|a| a.len() == 3)).await;
    assert_eq!(d["attemptsMade"][1]["result"], moneydesk_server::email::outbox::store::delivery::TAKEN_OVER, "{d}");

    // A scheduled job whose last run started and never ended, due again: the run that claims
    // it takes it over, and its runner counts that; the run after it, ended, is no take-over.
    use moneydesk_server::storage::queue::schedule::{self, Claim, Every};
    let db = &state.stores.database;
    let hour = Duration::from_secs(3600);
    let two_hours_ago = Utc::now() - chrono::Duration::hours(2);
    assert_eq!(schedule::claim(db, "test-job", "dead", two_hours_ago, hour).await.unwrap(), Claim::Due);
    let (ran, mut runs) = tokio::sync::mpsc::unbounded_channel();
    let when = Every { every: hour, ask: Duration::from_millis(50) };
    schedule::spawn(
        db.clone(),
        "test-job",
        when,
        |_| moneydesk_server::metrics::taken_over("job", 1),
        move || {
            let ran = ran.clone();
            async move {
                let _ = ran.send(());
            }
        },
    );
    tokio::time::timeout(Duration::from_secs(20), runs.recv()).await.expect("the job ran");
    let ended = db.sql("SELECT COUNT(*) FROM job_runs WHERE name = 'test-job' AND finished_at >= started_at");
    let deadline = Instant::now() + Duration::from_secs(20);
    while db.acquire().await.unwrap().exec().int(&ended).await.unwrap() == 0 {
        assert!(Instant::now() < deadline, "the run's end was not recorded");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let later = Utc::now() + chrono::Duration::hours(2);
    assert_eq!(schedule::claim(db, "test-job", "alive", later, hour).await.unwrap(), Claim::Due);

    let after = crate::scrape(metrics).await;
    for kind in ["outbox", "inbound", "job"] {
        let series = format!("moneydesk_claims_taken_over_total{{kind=\"{kind}\"}}");
        assert_eq!(crate::moved(&before, &after, &series), 1.0, "{kind}:\n{after}");
    }
}
