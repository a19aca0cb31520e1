//! Deposits paging with 1,000,000 deposits (issue #16: deep pages as fast as page 1):
//! p50/p95/max time of the first page, a middle page and the last page, filtered and sorted,
//! through the store's list (counted buckets) and — alternating with it, in the same run — the
//! same page by count(*) and OFFSET (what the list did before the buckets), plus the list over
//! HTTP on loopback. Not part of `cargo test`. Run: `scripts/bench-deposits` (or
//! `cargo bench -p moneydesk-server --bench deposits --profile server`).
//!
//! The database is built once (about a minute) and cached under the target dir
//! (`$CARGO_TARGET_TMPDIR/deposits-bench/`); delete that folder to rebuild it. With
//! `MONEYDESK_DATABASE_URL=postgres://...` the same cases run on that PostgreSQL database.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use moneydesk_model::Scope;
use moneydesk_server::deposits::store::ListFilter;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;
use moneydesk_server::Config;

const ROWS: i64 = 1_000_000;
const WARMUP: usize = 5;
const RUNS: usize = 40;
const SIZE: i64 = 25;

struct Case {
    label: &'static str,
    query: &'static str,
    filter: fn() -> ListFilter,
    offset: i64,
}

fn newest() -> ListFilter {
    ListFilter { desc: true, ..Default::default() }
}
fn settled() -> ListFilter {
    ListFilter { status: Some("Settled_4".into()), desc: true, ..Default::default() }
}
fn by_amount() -> ListFilter {
    ListFilter { sort_amount: true, ..Default::default() }
}
fn check_scans_in_june() -> ListFilter {
    ListFilter {
        service_type: Some("Check_Scan".into()),
        created_from: Some("2025-06-01T00:00:00Z".into()),
        created_to: Some("2025-07-01T00:00:00Z".into()),
        desc: true,
        ..Default::default()
    }
}

const CASES: &[Case] = &[
    Case { label: "newest first, page 1", query: "page=1&size=25", filter: newest, offset: 0 },
    Case { label: "newest first, page 20,000", query: "page=20000&size=25", filter: newest, offset: 19_999 * SIZE },
    Case {
        label: "newest first, last page (40,000)",
        query: "page=40000&size=25",
        filter: newest,
        offset: 39_999 * SIZE,
    },
    Case { label: "status=Settled, page 1", query: "status=Settled_4&page=1&size=25", filter: settled, offset: 0 },
    Case {
        label: "status=Settled, page 3,000",
        query: "status=Settled_4&page=3000&size=25",
        filter: settled,
        offset: 2_999 * SIZE,
    },
    Case { label: "sort=amount,asc, page 1", query: "sort=amount,asc&page=1&size=25", filter: by_amount, offset: 0 },
    Case {
        label: "sort=amount,asc, page 30,000",
        query: "sort=amount,asc&page=30000&size=25",
        filter: by_amount,
        offset: 29_999 * SIZE,
    },
    Case {
        label: "Check_Scan created in June, page 600",
        query: "serviceType=Check_Scan&createdFrom=2025-06-01&createdTo=2025-06-30&page=600&size=25",
        filter: check_scans_in_june,
        offset: 599 * SIZE,
    },
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deposits-bench")
}

fn stats(mut times: Vec<Duration>) -> (f64, f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p = |q: f64| ms(times[((times.len() as f64 * q).ceil() as usize).saturating_sub(1)]);
    (p(0.50), p(0.95), ms(*times.last().unwrap()))
}

/// One deposit every 30 s from 2025-01-01 (a year of them), statuses, kinds and amounts
/// spread by the row number; inserted in one statement, then the buckets built once.
async fn build(config: &Config) -> anyhow::Result<()> {
    let stores = Stores::open(&config.database_url).await?;
    let (total, _) = stores.deposits.list_by_scanning(&ListFilter::default(), 0, 1).await?;
    if total == ROWS {
        return Ok(());
    }
    anyhow::ensure!(total == 0, "{} holds a partial build; delete it", config.database_url);
    eprintln!("building {ROWS} deposits in {} (once) ...", config.database_url);
    let started = Instant::now();
    let statuses = "CASE i % 10 WHEN 0 THEN 'In_Progress_1' WHEN 1 THEN 'Confirmed_2' WHEN 2 THEN 'Sent_3' \
        WHEN 7 THEN 'Returned_5' WHEN 8 THEN 'Rejected_6' WHEN 9 THEN 'Cancelled_7' ELSE 'Settled_4' END";
    let types = "CASE i % 5 WHEN 0 THEN 'Cash' WHEN 1 THEN 'Check' WHEN 2 THEN 'Check_Scan' \
        WHEN 3 THEN 'Image_Cash_Letter' ELSE 'Electronic_Deposit' END";
    let columns = "INSERT INTO deposits (service_type, status, amount_cents, fee_cents, created_at, schedule_date, \
        payee_account_id, submitter)";
    let sql = match &stores.database {
        Database::Sqlite(_) => format!(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {last}) {columns} \
             SELECT {types}, {statuses}, (i * 7919) % 5000000 + 100, 0, \
             strftime('%Y-%m-%dT%H:%M:%SZ', 1735689600 + i * 30, 'unixepoch'), '2025-01-01', 'bench', 'bench' FROM n",
            last = ROWS - 1
        ),
        Database::Postgres(_) => format!(
            "{columns} SELECT {types}, {statuses}, (i * 7919) % 5000000 + 100, 0, \
             to_char(to_timestamp(1735689600 + i * 30) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), \
             '2025-01-01', 'bench', 'bench' FROM generate_series(0, {last}) AS i",
            last = ROWS - 1
        ),
    };
    stores.database.execute(&sql).await?;
    let inserted = started.elapsed();
    stores.deposits.rebuild_index().await?;
    eprintln!(
        "built in {:.1} s (insert {:.1} s, buckets {:.1} s)",
        started.elapsed().as_secs_f64(),
        inserted.as_secs_f64(),
        (started.elapsed() - inserted).as_secs_f64()
    );
    match &stores.database {
        Database::Sqlite(_) => stores.database.execute("PRAGMA wal_checkpoint(TRUNCATE)").await?,
        Database::Postgres(_) => stores.database.execute("VACUUM ANALYZE").await?,
    };
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    std::fs::create_dir_all(dir())?;
    let mut config = Config::for_tests(&dir());
    if let Ok(url) = std::env::var("MONEYDESK_DATABASE_URL") {
        config.database_url = url;
    }
    build(&config).await?;
    let running = moneydesk_server::start(config).await?;
    let store = running.state.stores.deposits.clone();
    let token = running.create_token("bench", &[Scope::DepositsRead]).await?;
    let client = reqwest::Client::new();
    let url = format!("{}{}", running.base_url(), moneydesk_model::paths::DEPOSITS);

    println!("{ROWS} deposits, pages of {SIZE}; {RUNS} runs after {WARMUP} warm-up; milliseconds p50 / p95 / max");
    println!("{:<40} {:>24} {:>24} {:>24}", "case", "list (buckets)", "count + OFFSET", "HTTP loopback");
    for case in CASES {
        let f = (case.filter)();
        let (mut fast, mut scan, mut http) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..WARMUP + RUNS {
            let t = Instant::now();
            let (total, rows) = store.list(&f, case.offset, SIZE).await?;
            let a = t.elapsed();
            let t = Instant::now();
            let (want_total, want) = store.list_by_scanning(&f, case.offset, SIZE).await?;
            let b = t.elapsed();
            anyhow::ensure!(!rows.is_empty(), "{}: empty page", case.label);
            anyhow::ensure!(total == want_total && rows == want, "{}: the buckets and the scan disagree", case.label);
            let t = Instant::now();
            let resp = client.get(format!("{url}?{}", case.query)).bearer_auth(&token).send().await?;
            anyhow::ensure!(resp.status().is_success(), "{}: {}", case.label, resp.status());
            let _ = resp.bytes().await?;
            let h = t.elapsed();
            if i >= WARMUP {
                fast.push(a);
                scan.push(b);
                http.push(h);
            }
        }
        let (a, b, c) = stats(fast);
        let (d, e, g) = stats(scan);
        let (x, y, z) = stats(http);
        println!(
            "{:<40} {a:>7.2} / {b:>6.2} / {c:>6.2} {d:>7.2} / {e:>6.2} / {g:>6.2} {x:>7.2} / {y:>6.2} / {z:>6.2}",
            case.label
        );
    }
    running.stop().await;
    Ok(())
}
