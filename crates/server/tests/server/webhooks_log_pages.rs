//! The webhook delivery log in counted ranges (migration 0034) on both backends: every page of
//! every endpoint's log agrees with a plain count and OFFSET over the same attempts — across
//! several ranges of 1024 attempts, interleaved between endpoints, after claims given back
//! (attempts deleted alone), before and after the counts are folded — and an endpoint deleted
//! takes its counts with it, leaving the others' exact.

use crate::common;

use moneydesk_server::storage::{counted, Database};
use moneydesk_server::webhooks::store::WebhookStore;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(every_log_page_agrees_with_a_scan);

const ENDPOINTS: [&str; 3] = ["we_busy", "we_quiet", "we_gone"];

async fn endpoints_and_an_event(db: &Database) {
    let mut tx = db.begin().await.unwrap();
    for id in ENDPOINTS {
        let q = db
            .sql(
                "INSERT INTO webhook_endpoints (id, url, event_types, secret, secret_rotated_at, created_by, created_at, \
                 updated_at) VALUES (?, 'https://example.com/hook', '[]', 'whsec_x', '2026-11-30T10:00:00.000Z', 'ops', \
                 '2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z')",
            )
            .arg(id);
        tx.exec().execute(&q).await.unwrap();
    }
    let q = db.sql(
        "INSERT INTO events (id, type, created, api_version, object_type, object_id, data) \
         VALUES ('evt_1', 'deposit.created', '2026-11-30T10:00:00Z', '2026-11-01', 'deposit', '1', '{}')",
    );
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

/// `n` deliveries in one transaction, each to an endpoint picked at random (the busy one
/// mostly) with one to four attempts, as the worker opens them.
async fn deliveries(db: &Database, rng: &mut StdRng, first: usize, n: usize) {
    let mut tx = db.begin().await.unwrap();
    for d in first..first + n {
        let endpoint = ENDPOINTS[[0, 0, 0, 1, 2][rng.gen_range(0..5)]];
        let id = format!("wd_{d:06}");
        let q = db
            .sql(
                "INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_id, event_type, object_type, object_id, \
                 state, attempts, retry_until, created_at) VALUES (?, ?, (SELECT seq FROM events WHERE id = 'evt_1'), \
                 'evt_1', 'deposit.created', 'deposit', '1', 'delivered', 1, '2026-12-03T10:00:00.000Z', \
                 '2026-11-30T10:00:00.000Z')",
            )
            .arg(id.as_str())
            .arg(endpoint);
        tx.exec().execute(&q).await.unwrap();
        for number in 1..=rng.gen_range(1..5i64) {
            // Every attempt of the test in the same millisecond: the log's order is seq's, not
            // the clock's.
            let q = db
                .sql(
                    "INSERT INTO webhook_attempts (delivery_id, number, endpoint_id, url, started_at, outcome) \
                     VALUES (?, ?, ?, 'https://example.com/hook', '2026-11-30T10:00:00.000Z', 'delivered')",
                )
                .arg(id.as_str())
                .arg(number)
                .arg(endpoint);
            tx.exec().execute(&q).await.unwrap();
        }
    }
    tx.commit_unrecorded().await.unwrap();
}

async fn compare(webhooks: &WebhookStore, rng: &mut StdRng, endpoints: &[&str], when: &str) -> i64 {
    let mut all = 0;
    for endpoint in endpoints {
        let (total, _) = webhooks.attempts_by_scanning(endpoint, 0, 1).await.unwrap();
        all += total;
        for offset in crate::list_counts::offsets(rng, total) {
            let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
            let got = webhooks.attempts(endpoint, offset, limit).await.unwrap();
            let want = webhooks.attempts_by_scanning(endpoint, offset, limit).await.unwrap();
            let keys = |p: &(i64, Vec<moneydesk_server::webhooks::store::AttemptRow>)| {
                (p.0, p.1.iter().map(|a| (a.delivery_id.clone(), a.number)).collect::<Vec<_>>())
            };
            assert_eq!(keys(&got), keys(&want), "{when}: log of {endpoint}, offset {offset}, limit {limit}");
        }
    }
    all
}

async fn counts_of(db: &Database, endpoint: &str) -> i64 {
    let q = db.sql("SELECT COUNT(*) FROM list_counts WHERE list = 'webhook_attempts' AND part = ?").arg(endpoint);
    db.acquire().await.unwrap().exec().int(&q).await.unwrap()
}

/// About 3,000 attempts over three endpoints: pages agree with a scan while the counts are one
/// row an attempt, once folded, after claims are given back, and after an endpoint is deleted.
async fn every_log_page_agrees_with_a_scan(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, webhooks) = (stores.database.clone(), stores.webhooks.clone());
    let mut rng = StdRng::seed_from_u64(34);
    endpoints_and_an_event(&db).await;
    for round in 0..6 {
        deliveries(&db, &mut rng, round * 200, 200).await;
    }
    let attempts = compare(&webhooks, &mut rng, &ENDPOINTS, "unfolded").await;
    assert!(attempts > 2 * counted::WIDTH, "the log spans several ranges: {attempts} attempts");
    // Attempts were opened in delivery order, each delivery's in number order: the log reads
    // them backwards, though every one started in the same millisecond.
    let newest = webhooks.attempts(ENDPOINTS[0], 0, 20).await.unwrap().1;
    let newest: Vec<_> = newest.iter().map(|a| (a.delivery_id.clone(), a.number)).collect();
    assert!(newest.windows(2).all(|w| w[0] > w[1]), "newest attempt first: {newest:?}");
    assert!(newest[0].0.starts_with("wd_0011"), "the last deliveries made lead the log: {newest:?}");

    counted::compact_by(&db, 0, 500).await.unwrap();
    compare(&webhooks, &mut rng, &ENDPOINTS, "folded").await;

    // Claims given back before they started: their attempts deleted alone, each uncounted.
    let mut tx = db.begin().await.unwrap();
    for _ in 0..150 {
        let q = db
            .sql("DELETE FROM webhook_attempts WHERE delivery_id = ? AND number = 1")
            .arg(format!("wd_{:06}", rng.gen_range(0..1200)));
        tx.exec().execute(&q).await.unwrap();
    }
    tx.commit_unrecorded().await.unwrap();
    deliveries(&db, &mut rng, 1200, 150).await;
    let before = compare(&webhooks, &mut rng, &ENDPOINTS, "given back and written after folding").await;

    let gone = ENDPOINTS[2];
    let (of_gone, _) = webhooks.attempts(gone, 0, 1).await.unwrap();
    assert!(of_gone > 0 && counts_of(&db, gone).await > 0);
    assert!(webhooks.delete(gone).await.unwrap(), "the endpoint is deleted");
    assert_eq!(counts_of(&db, gone).await, 0, "its counts went with it");
    assert_eq!(webhooks.attempts(gone, 0, 20).await.unwrap(), (0, Vec::new()));
    let after = compare(&webhooks, &mut rng, &ENDPOINTS[..2], "one endpoint deleted").await;
    assert_eq!(after, before - of_gone, "the other endpoints' attempts are all still counted");
    counted::compact(&db, 0).await.unwrap();
    compare(&webhooks, &mut rng, &ENDPOINTS[..2], "folded again").await;
}
