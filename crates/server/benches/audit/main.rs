//! The audit trail's cost on writes (scripts/bench-audit): the same writes with and without
//! their audit record and event in the transaction, side by side in one run, on SQLite and on
//! PostgreSQL, in this process through the server's stores (no HTTP).
//!
//! Two writes (`writes.rs`), each measured as rounds of `without`, `with`, then `with`,
//! `without`… (ABBA, so the noise of a busy machine and the tables' growth fall on both alike):
//! - **adjustment** — a manual ledger adjustment, Dr one sleeve account, Cr another. Without:
//!   `LedgerStore::post_at` and the read of the transaction the endpoint answers (what the
//!   adjustments handler did before the trail). With: `LedgerStore::post_adjustment` — the
//!   same posting, the answer read in its transaction, its `ledger.transaction.posted` event
//!   and its audit record (a `Recording` open, as the auth guard opens one per write request)
//!   in that one transaction: what the handler does now. The write is the target's measure.
//! - **deposit** — a check deposit created, then confirmed (two requests, two transactions)
//!   through `DepositStore`. The store writes its `deposit.created`/`deposit.confirmed` events
//!   itself, so they are in both variants: with/without here is the audit record alone.
//!
//! During each `with` round the sealer chains the records once a second, as the server's does
//! (`audit::seal`); what it left is chained after the round, off the clock. At the end the
//! counts are checked (one record per recorded write, one event per write) and the chain is
//! verified. Figures are printed, never judged. Environment (the script sets the first two):
//!   MONEYDESK_BENCH_POSTGRES   postgres://… of a cluster whose database `audit_bench` exists
//!                              and is empty
//!   AUDIT_BENCH_DIR            a scratch directory (the SQLite file)
//!   AUDIT_BENCH_SECONDS (15) per round, AUDIT_BENCH_ROUNDS (2, each without + with),
//!   AUDIT_BENCH_WARMUP (3 s of each variant first, unmeasured), AUDIT_BENCH_CLIENTS (32),
//!   AUDIT_BENCH_ACCOUNTS (1000),
//!   AUDIT_BENCH_PARTS (`sqlite,pg`), AUDIT_BENCH_WRITES (`adjustment,deposit`),
//!   AUDIT_BENCH_SEALER (`on`; `off`: the records chained after each round, off the clock),
//!   AUDIT_BENCH_BATCH and AUDIT_BENCH_PAUSE_MS (the sealer's records a pass and, on SQLite, its
//!   pause between passes; defaults: the server's `seal::BATCH` and `seal::PAUSE`).

use std::path::PathBuf;

use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::storage::Database;
use rust_decimal::Decimal;

mod measure;
mod writes;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.replace(['_', ','], "").parse().ok()).unwrap_or(default)
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/bench-audit"))
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

/// Seeds `n` sleeve accounts through the accounts' own writer (each opens its posted ledger
/// account at its market value), each worth $1,000,000.00 so that no adjustment is refused
/// for want of an available balance. Answers their ids.
pub async fn seed_accounts(db: &Database, n: usize) -> anyhow::Result<Vec<String>> {
    let stores = moneydesk_server::state::Stores::on(db.clone());
    let mut accounts: Vec<_> = Accounts::new(n, 0x6175_6469_74).collect();
    for a in &mut accounts {
        a.market_value = Some(Decimal::new(100_000_000, 2));
    }
    let mut writer = stores.accounts.writer().await?;
    writer.insert(&accounts).await?;
    writer.commit().await?;
    Ok(accounts.into_iter().map(|a| a.id).collect())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let parts = std::env::var("AUDIT_BENCH_PARTS").unwrap_or_else(|_| "sqlite,pg".into());
    let dir = PathBuf::from(env("AUDIT_BENCH_DIR"));
    if parts.contains("sqlite") {
        let url = format!("sqlite://{}", dir.join("audit.db").display());
        measure::run("SQLite", &url, &dir).await?;
    }
    if parts.contains("pg") {
        let url = format!("{}/audit_bench", env("MONEYDESK_BENCH_POSTGRES"));
        measure::run("PostgreSQL", &url, &dir).await?;
    }
    Ok(())
}
