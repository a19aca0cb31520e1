//! Posting throughput: the same stream of postings through four paths, each for the same time
//! with the same clients on the same database, then the invariants.
//!   http          the adjustments endpoint of the instances (clients take turns over them)
//!   ledger        `LedgerStore::post_at` in this process (the books' cost without HTTP)
//!   serializable  the same statements at SERIALIZABLE, retried on a serialization failure
//!   baseline      the same rows without balance upkeep (`baseline.rs`)
//! In-process paths use as many connections as the instances have together (16 each on
//! PostgreSQL, 8 on SQLite), so no path gets more of the database than another.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use moneydesk_model::ledger::{money_of_units, LedgerAccountKind, PostingKind};
use moneydesk_model::paths;
use moneydesk_server::ledger::chart::Code;
use moneydesk_server::ledger::store::{post, LedgerStore, Leg, PostError, Posting};
use moneydesk_server::storage::{Database, Tx};

use crate::{baseline, env_num, quantile_ms, Instance, Rng};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Path {
    Http,
    Ledger,
    Serializable,
    Baseline,
}

/// What the clients share.
struct Ctx {
    db: Database,
    store: LedgerStore,
    http: reqwest::Client,
    bases: Vec<String>,
    token: String,
    hot: String,
    others: Vec<String>,
    debit_sleeve: bool,
    /// Percent of the postings whose credit is the hot account.
    hot_percent: u64,
    /// Ledger account ids by code (the baseline names accounts by id).
    ids: HashMap<String, i64>,
}

/// What one path did.
#[derive(Default)]
struct Outcome {
    accepted: u64,
    refused: u64,
    errors: u64,
    retries: u64,
    hot_units: i64,
    micros: Vec<u32>,
    first_error: Option<String>,
}

impl Outcome {
    fn merge(&mut self, o: Outcome) {
        self.accepted += o.accepted;
        self.refused += o.refused;
        self.errors += o.errors;
        self.retries += o.retries;
        self.hot_units += o.hot_units;
        self.micros.extend(o.micros);
        self.first_error = self.first_error.take().or(o.first_error);
    }
}

enum Done {
    Accepted,
    Refused,
    Failed(String),
}

/// One posting's accounts and amount: the credit `hot_percent` % of the time the hot account.
fn draw(ctx: &Ctx, rng: &mut Rng) -> (String, String, i64) {
    let n = ctx.others.len() as u64;
    let credit = if rng.below(100) < ctx.hot_percent { &ctx.hot } else { &ctx.others[rng.below(n) as usize] };
    let debit = if ctx.debit_sleeve {
        Code::sleeve(&ctx.others[rng.below(n) as usize], LedgerAccountKind::Posted).to_string()
    } else {
        "bank:cash_vault".to_string()
    };
    let credit = Code::sleeve(credit, LedgerAccountKind::Posted).to_string();
    let debit = if debit == credit { "bank:cash_vault".to_string() } else { debit };
    (debit, credit, 1 + rng.below(10_000) as i64)
}

fn posting(debit: &str, credit: &str, cents: i64) -> Posting {
    let mut p = Posting::new(PostingKind::Adjustment, "bench");
    p.memo = Some("bench posting".into());
    let units = cents * 100;
    p.legs = vec![
        Leg::debit(Code::parse(debit).expect("a code"), units),
        Leg::credit(Code::parse(credit).expect("a code"), units),
    ];
    p.guard_available = true;
    p
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

async fn once(ctx: &Ctx, path: Path, client: usize, debit: &str, credit: &str, cents: i64) -> (Done, u64) {
    match path {
        Path::Http => {
            let body = serde_json::json!({"debit": debit, "credit": credit,
                "amount": format!("{}.{:02}", cents / 100, cents % 100), "reason": "bench posting"});
            let url = format!("{}{}", ctx.bases[client % ctx.bases.len()], paths::LEDGER_ADJUSTMENTS);
            match ctx.http.post(url).bearer_auth(&ctx.token).json(&body).send().await {
                Ok(r) if r.status().as_u16() == 201 => (Done::Accepted, 0),
                Ok(r) if r.status().as_u16() == 409 => (Done::Refused, 0),
                Ok(r) => (Done::Failed(format!("{}: {}", r.status(), r.text().await.unwrap_or_default())), 0),
                Err(e) => (Done::Failed(e.to_string()), 0),
            }
        }
        Path::Ledger => match ctx.store.post_at(&posting(debit, credit, cents), now_ms()).await {
            Ok(_) => (Done::Accepted, 0),
            Err(PostError::Insufficient { .. }) => (Done::Refused, 0),
            Err(e) => (Done::Failed(e.to_string()), 0),
        },
        Path::Serializable => serializable(ctx, &posting(debit, credit, cents)).await,
        Path::Baseline => {
            let legs = [(ctx.ids[debit], -cents * 100), (ctx.ids[credit], cents * 100)];
            match baseline::insert(&ctx.db, legs, now_ms()).await {
                Ok(()) => (Done::Accepted, 0),
                Err(e) => (Done::Failed(e.to_string()), 0),
            }
        }
    }
}

/// `post` in a SERIALIZABLE transaction, tried again while PostgreSQL answers a serialization
/// failure or a deadlock; answers the outcome and how many retries it took.
async fn serializable(ctx: &Ctx, p: &Posting) -> (Done, u64) {
    let Database::Postgres(pool) = &ctx.db else { unreachable!("PostgreSQL only") };
    let mut retries = 0;
    loop {
        let attempt = async {
            let mut tx = Tx::Postgres(pool.begin_with("BEGIN ISOLATION LEVEL SERIALIZABLE").await?);
            post::post(&mut tx, p, now_ms()).await?;
            tx.commit().await.map_err(PostError::from)
        };
        match attempt.await {
            Ok(()) => return (Done::Accepted, retries),
            Err(PostError::Insufficient { .. }) => return (Done::Refused, retries),
            Err(PostError::Db(sqlx::Error::Database(d))) if matches!(d.code().as_deref(), Some("40001" | "40P01")) => {
                retries += 1
            }
            Err(e) => return (Done::Failed(e.to_string()), retries),
        }
    }
}

async fn client(ctx: Arc<Ctx>, path: Path, i: usize, until: Instant, seed: u64) -> Outcome {
    let mut rng = Rng::new(seed);
    let mut out = Outcome::default();
    let hot = Code::sleeve(&ctx.hot, LedgerAccountKind::Posted).to_string();
    while Instant::now() < until {
        let (debit, credit, cents) = draw(&ctx, &mut rng);
        let started = Instant::now();
        let (done, retries) = once(&ctx, path, i, &debit, &credit, cents).await;
        out.micros.push(started.elapsed().as_micros().min(u32::MAX as u128) as u32);
        out.retries += retries;
        match done {
            Done::Accepted => {
                out.accepted += 1;
                if credit == hot && path != Path::Baseline {
                    out.hot_units += cents * 100;
                }
            }
            Done::Refused => out.refused += 1,
            Done::Failed(e) => {
                out.errors += 1;
                out.first_error.get_or_insert(e);
            }
        }
    }
    out
}

async fn measure(ctx: &Arc<Ctx>, path: Path, clients: usize, secs: u64, round: u64) -> anyhow::Result<Outcome> {
    let until = Instant::now() + Duration::from_secs(secs);
    let tasks: Vec<_> = (0..clients)
        .map(|i| tokio::spawn(client(ctx.clone(), path, i, until, round * 1_000 + i as u64 + path as u64 * 97)))
        .collect();
    let mut all = Outcome::default();
    for t in tasks {
        all.merge(t.await?);
    }
    Ok(all)
}

/// Part 1 or 2: seeds the accounts, starts `instances` servers on `url`, measures each path,
/// checks the invariants.
pub async fn run(backend: &str, url: &str, instances: usize) -> anyhow::Result<()> {
    let secs = env_num("LEDGER_BENCH_SECONDS", 20);
    let clients = env_num("LEDGER_BENCH_CLIENTS", 64) as usize;
    let rounds = env_num("LEDGER_BENCH_ROUNDS", 1);
    let n = env_num("LEDGER_BENCH_ACCOUNTS", 1_000) as usize;
    let debit_sleeve = std::env::var("LEDGER_BENCH_DEBIT").is_ok_and(|v| v == "sleeve");
    let hot_percent = env_num("LEDGER_BENCH_HOT", 10).min(100);
    let served = Database::open(url).await?;
    let accounts = crate::seed_accounts(&served, n).await?;
    baseline::create(&served).await?;
    let db = match &served {
        Database::Postgres(_) => Database::Postgres(
            sqlx::postgres::PgPoolOptions::new().max_connections(16 * instances as u32).connect(url).await?,
        ),
        Database::Sqlite(_) => served.clone(),
    };
    let token = crate::admin_token(url)?;
    let mut ctx = Ctx {
        store: LedgerStore::new(db.clone()),
        db,
        http: reqwest::Client::new(),
        bases: Vec::new(),
        token,
        hot: accounts[0].clone(),
        others: accounts[1..].to_vec(),
        debit_sleeve,
        hot_percent,
        ids: HashMap::new(),
    };
    let opening = ctx.store.sleeve(&ctx.hot, None).await?.posted();
    // One posting to each account first: its pending and held ledger accounts (the guard's)
    // and the bank's exist before the clock starts, as in a ledger that has been running.
    let mut warm = 0i64;
    for a in &accounts {
        let credit = Code::sleeve(a, LedgerAccountKind::Posted).to_string();
        ctx.store.post_at(&posting("bank:cash_vault", &credit, 1), now_ms()).await?;
        warm += if a == &ctx.hot { 100 } else { 0 };
    }
    let q = ctx.db.sql("SELECT code, id FROM ledger_accounts");
    ctx.ids = ctx.db.acquire().await?.exec().rows::<(String, i64)>(&q).await?.into_iter().collect();
    let mut servers = Vec::new();
    for i in 0..instances {
        servers.push(Instance::start(&format!("{}-{i}", backend.to_lowercase()), url).await?);
    }
    ctx.bases = servers.iter().map(|s| s.base.clone()).collect();
    let ctx = Arc::new(ctx);
    let mut paths = vec![Path::Baseline, Path::Http, Path::Ledger];
    if matches!(ctx.db, Database::Postgres(_)) {
        paths.push(Path::Serializable);
    }
    let mut results: Vec<(Path, Outcome)> = paths.iter().map(|p| (*p, Outcome::default())).collect();
    let mut hot_units = warm;
    for round in 0..rounds {
        for (path, total) in &mut results {
            eprintln!("{backend}: round {}: {path:?} for {secs} s ...", round + 1);
            let o = measure(&ctx, *path, clients, secs, round).await?;
            hot_units += o.hot_units;
            total.merge(o);
            total.micros.sort_unstable();
        }
    }
    drop(servers);
    report(backend, instances, clients, secs * rounds, (debit_sleeve, hot_percent), &results);
    invariants(&ctx, &served, opening, hot_units).await
}

fn report(
    backend: &str,
    instances: usize,
    clients: usize,
    secs: u64,
    (sleeve, hot): (bool, u64),
    results: &[(Path, Outcome)],
) {
    let debit = if sleeve { "another sleeve account's posted" } else { "bank:cash_vault" };
    println!("\n{backend}, {instances} instance(s), {clients} clients, {secs} s per path; Dr {debit}, Cr sma:*:posted ({hot} % one hot account)");
    println!(
        "{:<14} {:>9} {:>12} {:>8} {:>8} {:>8} {:>7} {:>8}",
        "path", "tx/s", "vs baseline", "p50 ms", "p99 ms", "refused", "errors", "retries"
    );
    let base = results.iter().find(|(p, _)| *p == Path::Baseline).map_or(f64::NAN, |(_, o)| o.accepted as f64);
    for (path, o) in results {
        println!(
            "{:<14} {:>9.0} {:>11.1}% {:>8.2} {:>8.2} {:>8} {:>7} {:>8}",
            format!("{path:?}").to_lowercase(),
            o.accepted as f64 / secs as f64,
            100.0 * o.accepted as f64 / base,
            quantile_ms(&o.micros, 0.5),
            quantile_ms(&o.micros, 0.99),
            o.refused,
            o.errors,
            o.retries
        );
        if let Some(e) = &o.first_error {
            println!("  first error: {e}");
        }
    }
}

/// Every transaction sums to zero; every balance row is the sum of its entries and its last
/// running balance; the hot account holds its opening plus every accepted credit; its
/// `marketValue` is its posted balance; the baseline's transactions balance too.
async fn invariants(ctx: &Ctx, served: &Database, opening: i64, hot_units: i64) -> anyhow::Result<()> {
    let (mismatches, unbalanced) = LedgerStore::new(served.clone()).verify().await?;
    let posted = ctx.store.sleeve(&ctx.hot, None).await?.posted();
    let stores = moneydesk_server::state::Stores::on(served.clone());
    let market = stores.accounts.get(&ctx.hot).await?.and_then(|a| a.market_value);
    let base_unbalanced = baseline::unbalanced(&ctx.db).await?;
    let q = ctx.db.sql("SELECT COUNT(*) FROM ledger_transactions");
    let txs = ctx.db.acquire().await?.exec().int(&q).await?;
    println!(
        "invariants over {txs} ledger transactions: unbalanced {} (baseline {base_unbalanced}), balance rows off {}, \
         hot account {} posted {} = opening {} + accepted {} ({}), marketValue {}",
        unbalanced.len(),
        mismatches.len(),
        ctx.hot,
        money_of_units(posted),
        money_of_units(opening),
        money_of_units(hot_units),
        if posted == opening + hot_units { "no lost update" } else { "LOST UPDATE" },
        market.map_or("none".into(), |m| m.to_string()),
    );
    anyhow::ensure!(unbalanced.is_empty() && mismatches.is_empty(), "the books do not verify: {mismatches:?}");
    anyhow::ensure!(posted == opening + hot_units, "lost update on the hot account");
    anyhow::ensure!(market == Some(money_of_units(posted).decimal()), "marketValue is not the posted balance");
    Ok(())
}
