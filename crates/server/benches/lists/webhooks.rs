//! The webhook delivery log (`LISTS_BENCH_ONLY=webhooks`): `n` attempts, one a delivery, nine
//! in ten to a busy endpoint and the rest to a quiet one; page 1, page 10,000 and the last page
//! of each endpoint's log through the counted ranges (migration 0034) and, alternating with it,
//! by count(*) and OFFSET as the log was read before.

use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;
use moneydesk_server::webhooks::store::AttemptRow;

use super::{pages, SIZE};

const ENDPOINTS: [&str; 2] = ["we_busy", "we_quiet"];

/// The endpoints, one event, and a delivery and its attempt for each `i` of `numbers` (the
/// row generator's `WITH` clause).
pub async fn build(db: &Database, numbers: &str) -> anyhow::Result<()> {
    for id in ENDPOINTS {
        db.execute(&format!(
            "INSERT INTO webhook_endpoints (id, url, event_types, secret, secret_rotated_at, created_by, created_at, \
             updated_at) VALUES ('{id}', 'https://example.com/hook', '[]', 'whsec_x', '2026-11-30T10:00:00.000Z', \
             'bench', '2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z')"
        ))
        .await?;
    }
    db.execute(
        "INSERT INTO events (id, type, created, api_version, object_type, object_id, data) \
         VALUES ('evt_bench_hook', 'deposit.created', '2026-11-30T10:00:00Z', '2026-11-01', 'deposit', '1', '{}')",
    )
    .await?;
    let endpoint = "CASE WHEN i % 10 = 0 THEN 'we_quiet' ELSE 'we_busy' END";
    db.execute(&format!(
        "{numbers} INSERT INTO webhook_deliveries (id, endpoint_id, event_seq, event_id, event_type, object_type, \
         object_id, state, attempts, retry_until, created_at) SELECT 'wd_' || i, {endpoint}, \
         (SELECT seq FROM events WHERE id = 'evt_bench_hook'), 'evt_bench_hook', 'deposit.created', 'deposit', '1', \
         'delivered', 1, '2026-12-03T10:00:00.000Z', '2026-11-30T10:00:00.000Z' FROM n"
    ))
    .await?;
    db.execute(&format!(
        "{numbers} INSERT INTO webhook_attempts (delivery_id, number, endpoint_id, url, started_at, outcome, status, \
         duration_ms, response) SELECT 'wd_' || i, 1, {endpoint}, 'https://example.com/hook', \
         '2026-11-30T10:00:00.000Z', 'delivered', 200, 40, 'ok' FROM n ORDER BY i"
    ))
    .await?;
    Ok(())
}

pub async fn run(stores: &Stores, runs: usize) -> anyhow::Result<()> {
    let webhooks = &stores.webhooks;
    for endpoint in ENDPOINTS {
        let total = webhooks.attempts(endpoint, 0, 1).await?.0;
        let key: fn(&AttemptRow) -> (String, i64) = |a| (a.delivery_id.clone(), a.number);
        pages(
            &format!("webhook log, {}", if endpoint == "we_busy" { "busy endpoint" } else { "quiet endpoint" }),
            total,
            runs,
            key,
            |o| webhooks.attempts(endpoint, o, SIZE),
            |o| webhooks.attempts_by_scanning(endpoint, o, SIZE),
        )
        .await?;
    }
    Ok(())
}
