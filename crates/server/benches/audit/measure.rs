//! The rounds on one backend: `without` and `with` in ABBA order, the sealer running during
//! each `with` round, then the report and the counts.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use moneydesk_server::audit::seal;
use moneydesk_server::ledger::chart::Code;
use moneydesk_server::ledger::store::{Leg, Posting};
use moneydesk_server::ledger::Books;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;

use crate::writes::{self, Ctx, Write};
use crate::{env_num, quantile_ms, Rng};

/// What one variant did, over its rounds.
#[derive(Default)]
struct Outcome {
    done: u64,
    errors: u64,
    secs: f64,
    micros: Vec<u32>,
    first_error: Option<String>,
}

impl Outcome {
    fn merge(&mut self, o: Outcome) {
        self.done += o.done;
        self.errors += o.errors;
        self.secs += o.secs;
        self.micros.extend(o.micros);
        self.first_error = self.first_error.take().or(o.first_error);
    }
    fn rate(&self) -> f64 {
        self.done as f64 / self.secs
    }
}

/// What the sealer did during the `with` rounds.
#[derive(Default)]
struct Sealing {
    passes: u64,
    sealed: u64,
    busy: Duration,
    longest: Duration,
}

async fn client(ctx: Arc<Ctx>, write: Write, recorded: bool, until: Instant, seed: u64, n: Arc<AtomicU64>) -> Outcome {
    let mut rng = Rng::new(seed);
    let mut out = Outcome::default();
    while Instant::now() < until {
        let started = Instant::now();
        let request = n.fetch_add(1, Ordering::Relaxed);
        match writes::once(&ctx, write, recorded, &mut rng, request).await {
            Ok(()) => out.done += 1,
            Err(e) => {
                out.errors += 1;
                out.first_error.get_or_insert(e);
            }
        }
        out.micros.push(started.elapsed().as_micros().min(u32::MAX as u128) as u32);
    }
    out
}

/// The sealer as the server runs it (`seal::spawn`): a pass a second, until `stop`.
fn sealer(db: Database, stop: Arc<AtomicBool>) -> tokio::task::JoinHandle<Sealing> {
    // The sealer's passes and the pause between them (defaults: the server's).
    let knobs = (
        std::env::var("AUDIT_BENCH_BATCH").ok().and_then(|v| v.parse().ok()).unwrap_or(seal::BATCH),
        std::env::var("AUDIT_BENCH_PAUSE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map_or(seal::PAUSE, Duration::from_millis),
    );
    tokio::spawn(async move {
        let mut s = Sealing::default();
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !stop.load(Ordering::Relaxed) {
            tick.tick().await;
            let started = Instant::now();
            match seal::seal_with(&db, knobs.0, knobs.1).await {
                Ok(n) => s.sealed += n,
                Err(e) => eprintln!("  sealing failed: {e}"),
            }
            s.passes += 1;
            s.busy += started.elapsed();
            s.longest = s.longest.max(started.elapsed());
        }
        s
    })
}

async fn round(
    ctx: &Arc<Ctx>,
    write: Write,
    recorded: bool,
    clients: usize,
    secs: u64,
    seed: u64,
) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let until = started + Duration::from_secs(secs);
    let n = Arc::new(AtomicU64::new(seed << 32));
    let tasks: Vec<_> = (0..clients)
        .map(|i| tokio::spawn(client(ctx.clone(), write, recorded, until, seed * 1_000 + i as u64, n.clone())))
        .collect();
    let mut all = Outcome::default();
    for t in tasks {
        all.merge(t.await?);
    }
    // Until the last write answered: a write begun just before `until` counts whole.
    all.secs = started.elapsed().as_secs_f64();
    Ok(all)
}

/// One write's rounds; prints its lines.
async fn measure(ctx: &Arc<Ctx>, backend: &str, write: Write) -> anyhow::Result<()> {
    let secs = env_num("AUDIT_BENCH_SECONDS", 15);
    let clients = env_num("AUDIT_BENCH_CLIENTS", 32) as usize;
    let rounds = env_num("AUDIT_BENCH_ROUNDS", 2);
    let db = ctx.stores.database.clone();
    // `off` leaves the records unchained until after each round: the sealer's share of the cost.
    let sealing_on = std::env::var("AUDIT_BENCH_SEALER").map_or(true, |v| v != "off");
    let (mut without, mut with, mut sealing, mut drained) =
        (Outcome::default(), Outcome::default(), Sealing::default(), 0);
    let mut lines = Vec::new();
    // Unmeasured, each variant once: caches, the pools' connections, the tables' first pages.
    let warm = env_num("AUDIT_BENCH_WARMUP", 3);
    let (mut expected, mut events) = (0, 0);
    for recorded in [false, true] {
        eprintln!("{backend}: {}: warming up ({recorded}) for {warm} s ...", write.name());
        let o = round(ctx, write, recorded, clients, warm, 99).await?;
        expected += if recorded { o.done * write.transactions() } else { 0 };
        events += o.done * write.events(recorded);
    }
    drained += seal::seal(&db).await?;
    // Rounds go without-with, then with-without (ABBA): the tables grow through the run and
    // writes slow with them (SQLite deposits, `without`: 354 writes/s in round 1, 302 in round
    // 4; 267 and 144 before migration 0039; 2026-12-01), so a fixed order would charge that
    // drift to `with`.
    let mut other = f64::NAN;
    for r in 0..rounds {
        let order = if r % 2 == 0 { [false, true] } else { [true, false] };
        for (i, recorded) in order.into_iter().enumerate() {
            let name = if recorded { "with" } else { "without" };
            eprintln!("{backend}: {}: round {}: {name} for {secs} s ...", write.name(), r + 1);
            let stop = Arc::new(AtomicBool::new(false));
            let seals = (recorded && sealing_on).then(|| sealer(db.clone(), stop.clone()));
            let seed = r * 2 + u64::from(recorded) + 1;
            let o = round(ctx, write, recorded, clients, secs, seed).await?;
            if let Some(seals) = seals {
                stop.store(true, Ordering::Relaxed);
                let s = seals.await?;
                sealing.passes += s.passes;
                sealing.sealed += s.sealed;
                sealing.busy += s.busy;
                sealing.longest = sealing.longest.max(s.longest);
            }
            // What the last second left, chained off the clock (the next round starts even).
            drained += seal::seal(&db).await?;
            // The round's ratio once both halves ran.
            let ratio = match (i, recorded) {
                (0, _) => String::new(),
                (_, true) => format!(" ({:.1} % of the round's without)", 100.0 * o.rate() / other),
                (_, false) => format!(" (with: {:.1} % of this)", 100.0 * other / o.rate()),
            };
            other = o.rate();
            lines.push(format!("  round {} {name:<8} {:>8.1} writes/s{ratio}", r + 1, o.rate()));
            if recorded {
                with.merge(o)
            } else {
                without.merge(o)
            }
        }
    }
    without.micros.sort_unstable();
    with.micros.sort_unstable();
    println!("\n{backend}, {}: {clients} clients, {rounds} × ({secs} s without + {secs} s with, ABBA)", write.name());
    println!("{:<10} {:>10} {:>8} {:>8} {:>8} {:>7}", "variant", "writes/s", "ratio", "p50 ms", "p99 ms", "errors");
    for (name, o) in [("without", &without), ("with", &with)] {
        println!(
            "{name:<10} {:>10.1} {:>7.1}% {:>8.2} {:>8.2} {:>7}",
            o.rate(),
            100.0 * o.rate() / without.rate(),
            quantile_ms(&o.micros, 0.5),
            quantile_ms(&o.micros, 0.99),
            o.errors
        );
        if let Some(e) = &o.first_error {
            println!("  first error: {e}");
        }
    }
    for l in lines {
        println!("{l}");
    }
    println!(
        "  sealer: {} passes, {} records chained ({} more after the rounds), busy {:.2} s in all, longest pass {:.0} ms",
        sealing.passes,
        sealing.sealed,
        drained,
        sealing.busy.as_secs_f64(),
        sealing.longest.as_secs_f64() * 1000.0
    );
    expected += with.done * write.transactions();
    events += without.done * write.events(false) + with.done * write.events(true);
    println!("  expected: {expected} audit records, {events} events from these writes (with the warm-up's)");
    Ok(())
}

/// The counts and the chain after every write on a backend.
async fn check(db: &Database) -> anyhow::Result<()> {
    let count = |text: &'static str| async move {
        let q = db.sql(text);
        db.acquire().await?.exec().int(&q).await
    };
    let records = count("SELECT COUNT(*) FROM audit_records").await?;
    let events = count("SELECT COUNT(*) FROM events").await?;
    let outbox = count("SELECT COUNT(*) FROM event_outbox").await?;
    let started = Instant::now();
    let v = moneydesk_server::audit::store::verify(db, None, None).await?;
    println!(
        "  in the database: {records} audit records, {events} events, {outbox} outbox rows; \
         verify: ok {}, {} records checked, {} unsealed, {:.1} s",
        v.ok,
        v.records,
        v.unsealed,
        started.elapsed().as_secs_f64()
    );
    anyhow::ensure!(v.ok, "the audit chain does not verify: {v:?}");
    Ok(())
}

/// Seeds the accounts, opens every ledger account a write touches with one posting each (a
/// ledger that has been running), measures each write, checks the counts and the chain.
pub async fn run(backend: &str, url: &str, dir: &Path) -> anyhow::Result<()> {
    let n = env_num("AUDIT_BENCH_ACCOUNTS", 1_000) as usize;
    let parts = std::env::var("AUDIT_BENCH_WRITES").unwrap_or_else(|_| "adjustment,deposit".into());
    let db = Database::open(url).await?;
    let accounts = crate::seed_accounts(&db, n).await?;
    let config = moneydesk_server::Config::for_tests(dir);
    let ctx = Arc::new(Ctx { stores: Stores::on(db.clone()), books: Books::new(&config), accounts });
    for a in &ctx.accounts {
        let mut p = Posting::new(moneydesk_model::ledger::PostingKind::Adjustment, "bench");
        let posted = Code::sleeve(a, moneydesk_model::ledger::LedgerAccountKind::Posted);
        p.legs = vec![Leg::debit(Code::parse("bank:adjustments").expect("code"), 1), Leg::credit(posted, 1)];
        p.guard_available = true;
        ctx.stores.ledger.post_at(&p, ctx.books.now_ms()).await?;
    }
    for write in [Write::Adjustment, Write::Deposit] {
        if parts.contains(write.name()) {
            measure(&ctx, backend, write).await?;
        }
    }
    check(&db).await
}
