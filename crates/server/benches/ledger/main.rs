//! The ledger's cost (scripts/bench-ledger), in one run:
//! 1. posting throughput on PostgreSQL with two `moneydesk-server` processes on one database,
//!    64 clients over HTTP posting through the adjustments endpoint (`posting.rs`), beside —
//!    on the same database, with the same 64 clients — the ledger in this process
//!    (`LedgerStore::post_at`, no HTTP), the same statements at SERIALIZABLE with retry, and a
//!    baseline writing the same rows without balance upkeep (`baseline.rs`);
//! 2. the same on SQLite with one instance (no SERIALIZABLE: SQLite's writers take turns);
//! 3. balance reads, now and as of a moment, with 10,000,000 entries in the books (`reads.rs`).
//!
//! Every posting credits a sleeve account's posted ledger account (10 % of them one hot
//! account, the rest spread over 1,000 seeded accounts) and debits `bank:cash_vault`: the
//! first two legs of a cash deposit (`LEDGER_BENCH_DEBIT=sleeve` debits another sleeve
//! account instead). The invariants are checked at the end of each backend's part. Figures are
//! printed, never judged. Environment (the script sets the first three):
//!   MONEYDESK_BENCH_POSTGRES   postgres://… of a cluster whose databases `ledger_post` and
//!                              `ledger_reads` exist and are empty
//!   LEDGER_BENCH_SERVER        the moneydesk-server binary (the same build)
//!   LEDGER_BENCH_DIR           a scratch directory (SQLite files, the instances' data dirs)
//!   LEDGER_BENCH_SECONDS (20) per measurement, LEDGER_BENCH_CLIENTS (64),
//!   LEDGER_BENCH_ACCOUNTS (1000), LEDGER_BENCH_ENTRIES (10,000,000), LEDGER_BENCH_READS (10,000),
//!   LEDGER_BENCH_PARTS (`pg,sqlite,reads`), LEDGER_BENCH_DEBIT (`bank` or `sleeve`),
//!   LEDGER_BENCH_HOT (10: percent of the credits to the hot account).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::storage::Database;
use rust_decimal::Decimal;

mod baseline;
mod posting;
mod reads;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace(['_', ','], "").parse().ok()).unwrap_or(default)
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/bench-ledger"))
}

/// The p-th quantile of microsecond samples, in milliseconds.
pub fn quantile_ms(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    f64::from(sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]) / 1000.0
}

/// A small deterministic generator (splitmix64): each client draws its own accounts and amounts.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// Seeds `n` sleeve accounts through the accounts' own writer (what an import and the demo seed
/// use), so each opens its posted ledger account at its market value; a value-less account
/// gets $10,000.00. Answers their ids, the hot one first.
pub async fn seed_accounts(db: &Database, n: usize) -> anyhow::Result<Vec<String>> {
    let stores = moneydesk_server::state::Stores::on(db.clone());
    let mut accounts: Vec<_> = Accounts::new(n, 0x6c65_6467_6572).collect();
    for a in &mut accounts {
        if a.market_value.is_none_or(|v| v.is_zero()) {
            a.market_value = Some(Decimal::new(1_000_000, 2));
        }
    }
    let mut writer = stores.accounts.writer().await?;
    writer.insert(&accounts).await?;
    writer.commit().await?;
    Ok(accounts.into_iter().map(|a| a.id).collect())
}

/// A `moneydesk-server serve` process, stopped when dropped.
pub struct Instance {
    child: std::process::Child,
    pub base: String,
}

impl Instance {
    pub async fn start(name: &str, url: &str) -> anyhow::Result<Instance> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let dir = PathBuf::from(env("LEDGER_BENCH_DIR")).join(name);
        std::fs::create_dir_all(&dir)?;
        let log = std::fs::File::create(dir.join("server.log"))?;
        let child = server_command(&dir, url)
            .arg("serve")
            .env("MONEYDESK_ADDR", format!("127.0.0.1:{port}"))
            .stderr(log)
            .stdout(std::process::Stdio::null())
            .spawn()?;
        let base = format!("http://127.0.0.1:{port}");
        let me = Instance { child, base };
        let started = Instant::now();
        while reqwest::get(format!("{}/readyz", me.base)).await.map_or(true, |r| !r.status().is_success()) {
            anyhow::ensure!(started.elapsed() < Duration::from_secs(60), "{name} is not ready: see {}", dir.display());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(me)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn server_command(dir: &std::path::Path, url: &str) -> std::process::Command {
    let mut c = std::process::Command::new(env("LEDGER_BENCH_SERVER"));
    c.env("MONEYDESK_DATA_DIR", dir)
        .env("MONEYDESK_DATABASE_URL", url)
        .env("MONEYDESK_SEED_DEMO", "false")
        .env("MONEYDESK_LOG", "warn")
        .env("MONEYDESK_DIST", dir.join("no-dist"))
        .env("MONEYDESK_ROUTING_REFRESH", "off");
    c
}

/// An admin token for `url`'s database, made by the server's own CLI.
pub fn admin_token(url: &str) -> anyhow::Result<String> {
    let dir = PathBuf::from(env("LEDGER_BENCH_DIR")).join("cli");
    std::fs::create_dir_all(&dir)?;
    let out =
        server_command(&dir, url).args(["token", "create", "--name", "bench-admin", "--scope", "admin"]).output()?;
    anyhow::ensure!(out.status.success(), "token create: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout)?;
    Ok(text.lines().last().unwrap_or_default().trim().to_string())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let parts = std::env::var("LEDGER_BENCH_PARTS").unwrap_or_else(|_| "pg,sqlite,reads".into());
    let pg = env("MONEYDESK_BENCH_POSTGRES");
    let dir = PathBuf::from(env("LEDGER_BENCH_DIR"));
    let sqlite = |name: &str| format!("sqlite://{}", dir.join(name).display());
    if parts.contains("pg") {
        posting::run("PostgreSQL", &format!("{pg}/ledger_post"), 2).await?;
    }
    if parts.contains("sqlite") {
        posting::run("SQLite", &sqlite("ledger_post.db"), 1).await?;
    }
    if parts.contains("reads") {
        reads::run("PostgreSQL", &format!("{pg}/ledger_reads")).await?;
        reads::run("SQLite", &sqlite("ledger_reads.db")).await?;
    }
    Ok(())
}
