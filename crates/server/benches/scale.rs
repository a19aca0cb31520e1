//! The scale-out arrangement against the single machine's, side by side in one run (issue
//! #19), over HTTP on loopback to servers in this process:
//! - accounts paging (page 1 and page 50,000, plus a sorted deep page) on PostgreSQL against
//!   SQLite, the same accounts in both (target: PostgreSQL within 2x of SQLite);
//! - the vault's zip download of one folder from an S3 bucket against the local filesystem.
//!
//! Rounds alternate between the two so that both meet the same machine (this one is noisy).
//! Figures are printed, never judged. Run by `scripts/bench-scale`, which starts the
//! PostgreSQL cluster and the S3 server and passes them in:
//!   MONEYDESK_BENCH_POSTGRES        the accounts database (built once, kept by the script)
//!   MONEYDESK_BENCH_POSTGRES_VAULT  an empty database for the vault part
//!   MONEYDESK_BENCH_S3_ENDPOINT, MONEYDESK_BENCH_S3_BUCKET, MONEYDESK_BENCH_S3_KEY, MONEYDESK_BENCH_S3_SECRET
//!   SCALE_BENCH_ACCOUNTS (510,000: page 50,000 of 10 and some beyond), SCALE_BENCH_VAULT_MIB (256)
//!
//! The SQLite accounts database is built once under `$CARGO_TARGET_TMPDIR/scale-bench/`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use moneydesk_model::vault::VaultPath;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::blobs::{BlobConfig, S3Config};
use moneydesk_server::storage::Database;
use moneydesk_server::vault::blobs::content_path;
use moneydesk_server::{start, Config, Running};
use object_store::ObjectStore;
use sha2::{Digest, Sha256};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CASES: &[(&str, &str)] = &[
    ("page 1, size 10", "page=1&size=10"),
    ("page 50,000, size 10", "page=50000&size=10"),
    ("sort=createTime,desc page 50,000", "sort=createTime,desc&page=50000&size=10"),
    ("page 1, size 100", "page=1&size=100"),
];
const ROUNDS: usize = 10;
const PER_ROUND: usize = 30;
const WARMUP: usize = 10;

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/bench-scale"))
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace(['_', ','], "").parse().ok()).unwrap_or(default)
}

fn s3() -> S3Config {
    S3Config {
        bucket: env("MONEYDESK_BENCH_S3_BUCKET"),
        prefix: Some("moneydesk".into()),
        endpoint: Some(env("MONEYDESK_BENCH_S3_ENDPOINT")),
        region: "us-east-1".into(),
        path_style: true,
        access_key: Some((env("MONEYDESK_BENCH_S3_KEY"), env("MONEYDESK_BENCH_S3_SECRET"))),
    }
}

fn percentile(v: &[f64], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// `rows` accounts in `url`'s database, written once (the same generator and seed as
/// benches/collections.rs, so both databases hold the same accounts).
async fn build(url: &str, rows: usize) -> anyhow::Result<()> {
    let stores = Stores::open(url).await?;
    let db = &stores.accounts;
    let have = db.total().await? as usize;
    if have == rows {
        return Ok(());
    }
    anyhow::ensure!(have == 0, "{url} holds {have} accounts, not {rows}: delete it to rebuild");
    eprintln!("building {rows} accounts in {url} (once) ...");
    let started = Instant::now();
    let mut writer = db.writer().await?;
    let mut gen = Accounts::new(rows, 0x0062_656e_6368);
    loop {
        let chunk: Vec<_> = gen.by_ref().take(10_000).collect();
        if chunk.is_empty() {
            break;
        }
        writer.insert(&chunk).await?;
    }
    writer.commit().await?;
    match &stores.database {
        Database::Sqlite(_) => stores.database.execute("PRAGMA wal_checkpoint(TRUNCATE)").await?,
        Database::Postgres(_) => stores.database.execute("VACUUM ANALYZE").await?,
    };
    eprintln!("built in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

async fn server(dir: &std::path::Path, url: String, blobs: BlobConfig) -> Running {
    let mut config = Config::for_tests(dir);
    config.database_url = url;
    config.blobs = blobs;
    config.log = "warn".into();
    config.routing_refresh = None;
    start(config).await.expect("server starts")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let rows = env_num("SCALE_BENCH_ACCOUNTS", 510_000) as usize;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scale-bench").join(format!("sqlite-{rows}"));
    std::fs::create_dir_all(&dir)?;
    let sqlite_url = Config::for_tests(&dir).database_url;
    let pg_url = env("MONEYDESK_BENCH_POSTGRES");
    build(&sqlite_url, rows).await?;
    build(&pg_url, rows).await?;
    paging(&dir, sqlite_url, pg_url, rows).await?;
    vault().await
}

async fn paging(dir: &std::path::Path, sqlite_url: String, pg_url: String, rows: usize) -> anyhow::Result<()> {
    let blobs = tempfile::tempdir()?;
    let sqlite = server(dir, sqlite_url, BlobConfig::Local).await;
    let pg = server(blobs.path(), pg_url, BlobConfig::S3(s3())).await;
    let client = reqwest::Client::new();
    let mut targets = Vec::new();
    for s in [&sqlite, &pg] {
        let token = s.create_token("scale-bench", &[Scope::AccountsRead]).await?;
        targets.push((format!("{}{}", s.base_url(), paths::ACCOUNTS), token));
    }
    // [case][backend] -> milliseconds
    let mut times = vec![[Vec::new(), Vec::new()]; CASES.len()];
    for round in 0..ROUNDS {
        for (c, (_, query)) in CASES.iter().enumerate() {
            // Which backend goes first alternates too.
            for k in [round % 2, 1 - round % 2] {
                let (url, token) = &targets[k];
                let warm = if round == 0 { WARMUP } else { 0 };
                for i in 0..warm + PER_ROUND {
                    let t = Instant::now();
                    let r = client.get(format!("{url}?{query}")).bearer_auth(token).send().await?;
                    anyhow::ensure!(r.status().is_success(), "{query}: {}", r.status());
                    let body = r.bytes().await?;
                    anyhow::ensure!(body.len() > 100, "{query}: an empty page");
                    if i >= warm {
                        times[c][k].push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                }
            }
        }
    }
    println!("\naccounts paging over HTTP, {rows} accounts, {ROUNDS} interleaved rounds of {PER_ROUND} requests; ms");
    println!("{:<36} {:>20} {:>20} {:>16}", "case", "SQLite p50 / p95", "PostgreSQL p50 / p95", "PG/SQLite p50");
    for (c, (label, _)) in CASES.iter().enumerate() {
        let [s, p] = &times[c];
        let (s50, s95, p50, p95) = (percentile(s, 0.5), percentile(s, 0.95), percentile(p, 0.5), percentile(p, 0.95));
        println!("{label:<36} {s50:>9.2} / {s95:>7.2} {p50:>9.2} / {p95:>7.2} {:>15.2}x", p50 / s50);
    }
    sqlite.stop().await;
    pg.stop().await;
    Ok(())
}

/// One folder (half the bytes in 64 KiB files, half in four large ones) in each store, and
/// its zip downloaded from each in alternating rounds.
async fn vault() -> anyhow::Result<()> {
    let mib = env_num("SCALE_BENCH_VAULT_MIB", 256);
    let local_dir = tempfile::tempdir()?;
    let s3_dir = tempfile::tempdir()?;
    let local = server(local_dir.path(), Config::for_tests(local_dir.path()).database_url, BlobConfig::Local).await;
    let remote = server(s3_dir.path(), env("MONEYDESK_BENCH_POSTGRES_VAULT"), BlobConfig::S3(s3())).await;
    let small = 64 * 1024u64;
    let small_count = mib * 1024 * 1024 / 2 / small;
    let large = mib * 1024 * 1024 / 2 / 4;
    let started = Instant::now();
    let mut files = Vec::new();
    for i in 0..small_count + 4 {
        let (size, fill) = if i < small_count { (small, i % 251) } else { (large, i * 37) };
        let mut bytes = vec![fill as u8; size as usize];
        bytes[..8].copy_from_slice(&i.to_le_bytes());
        files.push(bytes);
    }
    let shas: Vec<String> = files.iter().map(|b| hex::encode(Sha256::digest(b))).collect();
    let mut targets = Vec::new();
    for s in [&local, &remote] {
        store_folder(s, &files).await;
        let token = s.create_token_for("bench", "bench", &[Scope::VaultRead]).await?;
        targets.push((
            format!(
                "{}{}?paths=zip&name=bench",
                s.base_url(),
                paths::VAULT_FOLDER_DOWNLOAD.replace("{userId}", "bench")
            ),
            token,
        ));
    }
    drop(files);
    println!(
        "\nvault: {} files, {mib} MiB, stored in both in {:.0} s",
        small_count + 4,
        started.elapsed().as_secs_f64()
    );
    let client = reqwest::Client::new();
    let mut rates = [Vec::new(), Vec::new()];
    let mut raw = [Vec::new(), Vec::new()];
    for round in 0..5 {
        for k in [round % 2, 1 - round % 2] {
            // The store alone: every object read whole through the server's own object store,
            // four at a time as the zip reads ahead (the zip's ceiling on that store).
            let blobs = [&local, &remote][k].state.blobs.clone();
            let t = Instant::now();
            let reads = futures_util::stream::iter(shas.iter().map(|sha| {
                let blobs = blobs.clone();
                async move { blobs.get(&content_path(sha)).await?.bytes().await.map(|b| b.len() as u64) }
            }));
            let mut reads = reads.buffered(4);
            let mut n = 0u64;
            while let Some(len) = reads.next().await {
                n += len?;
            }
            raw[k].push(n as f64 / t.elapsed().as_secs_f64() / 1e6);
            if round == 0 {
                // Per object: a small one's latency tells a store's per-request cost from its bandwidth.
                let t = Instant::now();
                for sha in shas.iter().take(50) {
                    blobs.get(&content_path(sha)).await?.bytes().await?;
                }
                let small_ms = t.elapsed().as_secs_f64() * 1000.0 / 50.0;
                let t = Instant::now();
                let big = blobs.get(&content_path(shas.last().unwrap())).await?.bytes().await?;
                let big_rate = big.len() as f64 / t.elapsed().as_secs_f64() / 1e6;
                println!("  {}: a 64 KiB object read in {small_ms:.2} ms (one at a time); a {} MiB one at {big_rate:.0} MB/s", ["local", "S3"][k], big.len() >> 20);
            }
            let (url, token) = &targets[k];
            let t = Instant::now();
            let r = client.post(url).bearer_auth(token).send().await?;
            anyhow::ensure!(r.status().is_success(), "zip: {}", r.status());
            let mut body = r.bytes_stream();
            let mut n = 0u64;
            while let Some(chunk) = body.next().await {
                n += chunk?.len() as u64;
            }
            anyhow::ensure!(n >= mib * 1024 * 1024, "the archive holds every byte");
            rates[k].push(n as f64 / t.elapsed().as_secs_f64() / 1e6);
        }
    }
    let (l, s) = (percentile(&rates[0], 0.5), percentile(&rates[1], 0.5));
    let (rl, rs) = (percentile(&raw[0], 0.5), percentile(&raw[1], 0.5));
    let round = |v: &[f64]| v.iter().map(|r| r.round()).collect::<Vec<_>>();
    println!("zip download, median of 5 rounds: local filesystem + SQLite {l:.0} MB/s, S3 + PostgreSQL {s:.0} MB/s ({:.0} %)", s / l * 100.0);
    println!("  rounds: local {:?} MB/s, S3 {:?} MB/s", round(&rates[0]), round(&rates[1]));
    println!("the store alone (every object read whole, 4 at a time): local {rl:.0} MB/s, S3 {rs:.0} MB/s; zip / store: local {:.0} %, S3 {:.0} %", l / rl * 100.0, s / rs * 100.0);
    println!("  rounds: local {:?} MB/s, S3 {:?} MB/s", round(&raw[0]), round(&raw[1]));
    local.stop().await;
    remote.stop().await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(())
}

/// The files' contents in the server's blob store and a version of each in folder `zip`
/// (what an upload records; benches/vault.rs does the same).
async fn store_folder(s: &Running, files: &[Vec<u8>]) {
    let state = &s.state;
    state.stores.vault.create_folder("bench", &VaultPath::root(), "zip").await.unwrap();
    let folder = VaultPath::parse("zip").unwrap();
    for (i, bytes) in files.iter().enumerate() {
        let sha = hex::encode(Sha256::digest(bytes));
        state.blobs.put(&content_path(&sha), bytes.clone().into()).await.unwrap();
        let v = moneydesk_server::vault::store::VersionRow {
            version: 0,
            sha256: sha,
            size: bytes.len() as i64,
            content_type: "application/octet-stream".into(),
            created_at: moneydesk_server::storage::time::now_text(),
            uploaded_by: "bench".into(),
        };
        state.stores.vault.add_version("bench", &folder, &format!("file-{i:06}.bin"), &v).await.unwrap();
    }
}
