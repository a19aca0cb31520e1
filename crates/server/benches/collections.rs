//! Accounts paging with 1,000,000 accounts: p50/p95/max server time for the first page,
//! page 50,000 and the last page (and a few sorted/filtered deep pages), through the storage
//! function and over HTTP on loopback. Not part of `cargo test`. Run:
//!
//!   cargo bench -p moneydesk-server --bench collections --profile server
//!
//! The database is built once (a few minutes) and cached under the target dir
//! (`$CARGO_TARGET_TMPDIR/collections-bench/`); delete that folder to rebuild it. With
//! `MONEYDESK_DATABASE_URL=postgres://...` the same cases run on that PostgreSQL database
//! (built once there too; drop its tables to rebuild).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use moneydesk_model::accounts::AccountQuery;
use moneydesk_model::Scope;
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::accounts::store::AccountSelection;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;
use moneydesk_server::Config;

const ROWS: usize = 1_000_000;
const WARMUP: usize = 20;
const RUNS: usize = 200;

const CASES: &[(&str, &str)] = &[
    ("page 1, size 10", "page=1&size=10"),
    ("page 50,000, size 10", "page=50000&size=10"),
    ("last page (2,000), size 500", "page=2000&size=500"),
    ("page 1, size 500", "page=1&size=500"),
    ("page 1, size 100", "page=1&size=100"),
    ("page 9,000, size 100", "page=9000&size=100"),
    ("sort=accountName,desc page 50,000", "sort=accountName,desc&page=50000&size=10"),
    ("sort=marketValue page 77,777", "sort=marketValue&page=77777&size=10"),
    ("sort=id,desc page 99,999", "sort=id,desc&page=99999&size=10"),
    ("status=Active sort=createTime,desc page 30,000", "accountStatus=Active&sort=createTime,desc&page=30000&size=10"),
    ("status+type page 5,000", "accountStatus=Active&accountType=Household&page=5000&size=10"),
    (
        "createTime 2023 sort=createTime page 20,000",
        "createTimeFrom=2023-01-01&createTimeTo=2023-12-31&sort=createTime&page=20000&size=10",
    ),
    ("name contains (trigram index) page 1", "name=harbor&page=1&size=10"),
    ("name contains sort=accountName,desc page 20", "name=harbor&sort=accountName,desc&page=20&size=10"),
    ("name contains + status page 1, size 500", "name=north&accountStatus=Active&page=1&size=500"),
    ("name contains 2 letters (full scan) page 1", "name=ha&page=1&size=10"),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("collections-bench")
}

fn stats(mut times: Vec<Duration>) -> (f64, f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p = |q: f64| ms(times[((times.len() as f64 * q).ceil() as usize).saturating_sub(1)]);
    (p(0.50), p(0.95), ms(*times.last().unwrap()))
}

async fn build(config: &Config) -> anyhow::Result<()> {
    let stores = Stores::open(&config.database_url).await?;
    let db = &stores.accounts;
    if db.total().await? as usize == ROWS {
        return Ok(());
    }
    anyhow::ensure!(db.total().await? == 0, "{} holds a partial build; delete it", config.database_url);
    eprintln!("building {ROWS} accounts in {} (once) ...", config.database_url);
    let started = Instant::now();
    let mut writer = db.writer().await?;
    let mut gen = Accounts::new(ROWS, 0x0062_656e_6368);
    loop {
        let chunk: Vec<_> = gen.by_ref().take(10_000).collect();
        if chunk.is_empty() {
            break;
        }
        writer.insert(&chunk).await?;
    }
    let inserted = started.elapsed();
    writer.commit().await?;
    eprintln!(
        "built in {:.1} s (insert {:.1} s, marks {:.1} s)",
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
    // `cargo bench` passes `--bench`; nothing to parse.
    std::fs::create_dir_all(dir())?;
    let mut config = Config::for_tests(&dir());
    if let Ok(url) = std::env::var("MONEYDESK_DATABASE_URL") {
        config.database_url = url;
    }
    build(&config).await?;
    let running = moneydesk_server::start(config).await?;
    let db = running.state.stores.accounts.clone();
    let token = running.create_token("bench", &[Scope::AccountsRead]).await?;
    let client = reqwest::Client::new();
    let url = format!("{}{}", running.base_url(), moneydesk_model::paths::ACCOUNTS);

    println!("{ROWS} accounts; {RUNS} runs after {WARMUP} warm-up; milliseconds p50 / p95 / max");
    println!("{:<48} {:>24} {:>24}", "case", "storage fn", "HTTP loopback");
    for (label, query) in CASES {
        let parsed = AccountQuery::from_query(url::form_urlencoded::parse(query.as_bytes()))?;
        let sel = AccountSelection::new(&parsed)?;
        let mut store = Vec::new();
        let mut http = Vec::new();
        for i in 0..WARMUP + RUNS {
            let t = Instant::now();
            let page = db.list(&sel).await?;
            let d = t.elapsed();
            assert!(!page.content.is_empty(), "{label}: empty page");
            let t = Instant::now();
            let resp = client.get(format!("{url}?{query}")).bearer_auth(&token).send().await?;
            assert!(resp.status().is_success(), "{label}: {}", resp.status());
            let _ = resp.bytes().await?;
            let h = t.elapsed();
            if i >= WARMUP {
                store.push(d);
                http.push(h);
            }
        }
        let (a, b, c) = stats(store);
        let (x, y, z) = stats(http);
        println!("{label:<48} {a:>7.2} / {b:>6.2} / {c:>6.2} {x:>7.2} / {y:>6.2} / {z:>6.2}");
    }
    running.stop().await;
    Ok(())
}
