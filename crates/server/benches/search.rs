//! One search across everything (issue 45) on the demo data plus 100,000 deposits, on SQLite
//! and on PostgreSQL (a throwaway cluster, as the tests start one): each kind of text over
//! HTTP on loopback with an admin token (every group asked), measured by criterion, then
//! p50 / p95 / max of 200 requests printed per case. The target is 100 ms p95; nothing here
//! asserts a time. Not part of `cargo test`. Run:
//! `cargo bench -p moneydesk-server --profile server --bench search` (`-- sqlite` or
//! `-- postgres` for one; the server profile: the release profile is tuned for the wasm
//! bundle, fat LTO, and takes far longer to build).

#[path = "../tests/common/postgres.rs"]
#[allow(dead_code)]
mod postgres;

use std::time::{Duration, Instant};

use criterion::Criterion;
use moneydesk_model::Scope;
use moneydesk_server::storage::Database;
use moneydesk_server::{Config, Running};

const DEPOSITS: i64 = 100_000;
const RUNS: usize = 200;

/// (label, q): each kind of text the search recognises, and a text that matches nothing (every
/// stage runs, each contains a scan).
const CASES: &[(&str, &str)] = &[
    ("check number (exact)", "142857"),
    ("number (contains)", "4285"),
    ("deposit id", "73311"),
    ("amount", "$1,234.56"),
    ("routing number", "021090028"),
    ("name (text)", "acme"),
    ("email address", "ana@client.example"),
    ("no match", "zzqxv"),
];

/// Demo data seeded by the server's first start, then the deposits in one statement: check
/// numbers from 100000, amounts spread, a payee name in four, a routing number in seven.
async fn start(backend: &str, dir: &std::path::Path) -> anyhow::Result<Running> {
    let mut config = Config::for_tests(dir);
    config.seed_demo = true;
    if backend == "postgres" {
        config.database_url = postgres::fresh_database().await;
    }
    let running = moneydesk_server::start(config).await?;
    let db = &running.state.stores.database;
    let columns = "INSERT INTO deposits (service_type, status, amount_cents, fee_cents, created_at, schedule_date, \
        payee_account_id, payee_name, check_number, bank_routing_number, submitter)";
    let names = "CASE i % 4 WHEN 0 THEN 'Acme Holdings' WHEN 1 THEN 'Blue Mesa Farms' WHEN 2 THEN 'Harbor Dental' \
        ELSE 'Northstar Supply' END";
    let routing = "CASE WHEN i % 7 = 0 THEN '021090028' END";
    let sql = match db {
        Database::Sqlite(_) => format!(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {last}) {columns} \
             SELECT 'Check', 'Settled_4', (i * 7919) % 5000000 + 100, 0, \
             strftime('%Y-%m-%dT%H:%M:%SZ', 1735689600 + i * 300, 'unixepoch'), '2025-01-01', 'bench', {names}, \
             CAST(100000 + i AS TEXT), {routing}, 'bench' FROM n",
            last = DEPOSITS - 1
        ),
        Database::Postgres(_) => format!(
            "{columns} SELECT 'Check', 'Settled_4', (i * 7919) % 5000000 + 100, 0, \
             to_char(to_timestamp(1735689600 + i * 300) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), \
             '2025-01-01', 'bench', {names}, (100000 + i)::text, {routing}, 'bench' FROM generate_series(0, {last}) AS i",
            last = DEPOSITS - 1
        ),
    };
    db.execute(&sql).await?;
    db.execute("ANALYZE").await?;
    Ok(running)
}

fn stats(mut times: Vec<Duration>) -> (f64, f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p = |q: f64| ms(times[((times.len() as f64 * q).ceil() as usize).saturating_sub(1)]);
    (p(0.50), p(0.95), ms(*times.last().unwrap()))
}

async fn one(client: &reqwest::Client, url: &str, token: &str) -> Duration {
    let t = Instant::now();
    let resp = client.get(url).bearer_auth(token).send().await.expect("request");
    assert!(resp.status().is_success(), "{url}: {}", resp.status());
    let _ = resp.bytes().await.expect("body");
    t.elapsed()
}

fn main() {
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let mut report = Vec::new();
    for backend in ["sqlite", "postgres"] {
        if !only.is_empty() && !only.iter().any(|o| o == backend) {
            continue;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let running = rt.block_on(start(backend, dir.path())).expect("the database is built");
        let token = rt.block_on(running.create_token("bench", &[Scope::Admin])).expect("token");
        let client = reqwest::Client::new();
        let mut group = c.benchmark_group(format!("search/{backend}"));
        for (label, q) in CASES {
            let url = format!(
                "{}{}?q={}",
                running.base_url(),
                moneydesk_model::paths::SEARCH,
                moneydesk_model::search::query_value(q)
            );
            group.bench_function(*label, |b| {
                b.iter_custom(|iters| {
                    rt.block_on(async {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            total += one(&client, &url, &token).await;
                        }
                        total
                    })
                })
            });
            let times = rt.block_on(async {
                let mut times = Vec::with_capacity(RUNS);
                for _ in 0..RUNS {
                    times.push(one(&client, &url, &token).await);
                }
                times
            });
            report.push((backend, *label, stats(times)));
        }
        group.finish();
        rt.block_on(running.stop());
    }
    println!("\ndemo data + {DEPOSITS} deposits; {RUNS} requests per case over HTTP; milliseconds p50 / p95 / max");
    for (backend, label, (p50, p95, max)) in report {
        println!("{backend:<9} {label:<24} {p50:>7.2} / {p95:>7.2} / {max:>7.2}");
    }
}
