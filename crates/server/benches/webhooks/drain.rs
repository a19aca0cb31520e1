//! One backend's drain: the endpoints made through the API (an instance that does not deliver),
//! the events appended through the library as the stores write them, then a delivering
//! instance started, killed with SIGKILL once the fast receiver has `WEBHOOK_BENCH_KILL_AT` %
//! of the events, and a new one started on the same database until every delivery is finished.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use moneydesk_model::events::EventType;
use moneydesk_model::paths;
use moneydesk_server::storage::{events, Database};
use serde_json::json;

use crate::receiver::{Behaviour, Receiver};
use crate::{env_num, token, Instance};

const KINDS: [EventType; 4] =
    [EventType::DepositCreated, EventType::DepositConfirmed, EventType::DepositSent, EventType::DepositSettled];

/// Appends `n` events, `per_object` per deposit in the order a deposit makes them, interleaved
/// over the deposits as they would come; 500 a transaction. Each event id with its deposit and
/// its place in that deposit's order.
async fn append(db: &Database, n: u64, per_object: u64) -> anyhow::Result<HashMap<String, (String, u64)>> {
    let objects = n.div_ceil(per_object);
    let mut made = HashMap::with_capacity(n as usize);
    let mut tx = db.begin().await?;
    for i in 0..n {
        let (object, step) = ((i % objects).to_string(), i / objects);
        let kind = KINDS[step as usize % KINDS.len()];
        let data = json!({"id": object, "status": kind.as_str(), "amount": "125.00", "memo": "bench"});
        let id = events::append(&mut tx, kind, "deposit", &object, &data).await?;
        made.insert(id, (object, step));
        if i % 500 == 499 {
            tx.commit().await?;
            tx = db.begin().await?;
        }
    }
    tx.commit().await?;
    Ok(made)
}

/// Deliveries not finished (waiting, pending, delivering) and events not yet dispatched.
async fn unfinished(db: &Database) -> anyhow::Result<i64> {
    let q = db.sql(
        "SELECT (SELECT COUNT(*) FROM webhook_deliveries WHERE state NOT IN ('delivered', 'failed')) \
         + (SELECT COUNT(*) FROM event_outbox)",
    );
    Ok(db.acquire().await?.exec().int(&q).await?)
}

#[derive(sqlx::FromRow)]
struct Tally {
    endpoint_id: String,
    what: String,
    n: i64,
}

/// Per endpoint: deliveries by state, attempts by outcome.
async fn tallies(db: &Database) -> anyhow::Result<Vec<Tally>> {
    let q = db.sql(
        "SELECT endpoint_id, 'delivery ' || state AS what, COUNT(*) AS n FROM webhook_deliveries GROUP BY endpoint_id, state \
         UNION ALL SELECT endpoint_id, 'attempt ' || outcome AS what, COUNT(*) AS n FROM webhook_attempts GROUP BY endpoint_id, outcome \
         ORDER BY 1, 2",
    );
    Ok(db.acquire().await?.exec().rows(&q).await?)
}

/// Events whose first arrival at `r` came before an earlier event of the same deposit's.
fn out_of_order(r: &Receiver, made: &HashMap<String, (String, u64)>) -> u64 {
    let mut by_object: HashMap<&str, Vec<(Instant, u64)>> = HashMap::new();
    let firsts = r.firsts();
    for (id, f) in &firsts {
        if let Some((object, step)) = made.get(id) {
            by_object.entry(object.as_str()).or_default().push((f.at, *step));
        }
    }
    let mut wrong = 0;
    for list in by_object.values_mut() {
        list.sort();
        wrong += list.windows(2).filter(|w| w[1].1 < w[0].1).count() as u64;
    }
    wrong
}

async fn create_endpoint(base: &str, token: &str, r: &Receiver) -> anyhow::Result<String> {
    let body = json!({"url": r.url, "eventTypes": ["*"], "description": r.name});
    let resp = reqwest::Client::new()
        .post(format!("{base}{}", paths::WEBHOOK_ENDPOINTS))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await?;
    let status = resp.status();
    let b: serde_json::Value = resp.json().await?;
    anyhow::ensure!(status.as_u16() == 201, "creating an endpoint: {status} {b}");
    r.set_secret(b["data"]["secret"].as_str().unwrap_or_default());
    Ok(b["data"]["endpoint"]["id"].as_str().unwrap_or_default().to_string())
}

pub async fn run(backend: &str, url: &str) -> anyhow::Result<()> {
    let n = env_num("WEBHOOK_BENCH_EVENTS", 10_000);
    let per_object = env_num("WEBHOOK_BENCH_PER_OBJECT", 4).max(1);
    let slow_ms = env_num("WEBHOOK_BENCH_SLOW_MS", 200);
    let kill_at = n * env_num("WEBHOOK_BENCH_KILL_AT", 50).min(100) / 100;
    let timeout = Duration::from_secs(env_num("WEBHOOK_BENCH_TIMEOUT_S", 1800));
    println!("\n== {backend}: {n} events ({per_object} per deposit) to 3 endpoints, kill -9 at {kill_at} ==");

    let receivers = [
        Receiver::start("fast", Behaviour::Fast).await?,
        Receiver::start("slow", Behaviour::Slow(Duration::from_millis(slow_ms))).await?,
        Receiver::start("failing", Behaviour::Failing).await?,
    ];
    let setup = Instance::start(&format!("{backend}-setup"), url, false).await?;
    let token = token(url)?;
    let mut names = HashMap::new();
    for r in &receivers {
        names.insert(create_endpoint(&setup.base, &token, r).await?, r.name);
    }
    setup.kill9()?;
    let db = Database::open(url).await?;
    let started = Instant::now();
    let made = append(&db, n, per_object).await?;
    println!("appended {n} events in {:.1} s (library, 500 a transaction)", started.elapsed().as_secs_f64());

    let first = Instance::start(&format!("{backend}-a"), url, true).await?;
    let (fast, slow, failing) = (&receivers[0], &receivers[1], &receivers[2]);
    let deadline = Instant::now() + timeout;
    while fast.unique() < kill_at {
        anyhow::ensure!(Instant::now() < deadline, "the drain did not reach {kill_at}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pid = first.pid;
    first.kill9()?;
    let killed = Instant::now();
    let in_flight = {
        let q = db.sql("SELECT COUNT(*) FROM webhook_deliveries WHERE state = 'delivering'");
        db.acquire().await?.exec().int(&q).await?
    };
    println!(
        "kill -9 pid {pid}: fast {}/{n}, slow {}/{n}, failing {} requests; {in_flight} deliveries left claimed",
        fast.unique(),
        slow.unique(),
        failing.counts().requests
    );
    let second = Instance::start(&format!("{backend}-b"), url, true).await?;
    println!("restarted in {:.2} s (pid {})", killed.elapsed().as_secs_f64(), second.pid);

    let mut report = Instant::now();
    loop {
        let done = fast.unique() >= n && slow.unique() >= n && unfinished(&db).await? == 0;
        if done {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "not drained within {timeout:?}: {} unfinished",
            unfinished(&db).await?
        );
        if report.elapsed() > Duration::from_secs(30) {
            eprintln!(
                "  … fast {}/{n}, slow {}/{n}, {} unfinished",
                fast.unique(),
                slow.unique(),
                unfinished(&db).await?
            );
            report = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(second);
    print_results(&receivers, &made, n, &db, &names).await
}

async fn print_results(
    receivers: &[Receiver],
    made: &HashMap<String, (String, u64)>,
    n: u64,
    db: &Database,
    names: &HashMap<String, &str>,
) -> anyhow::Result<()> {
    println!(
        "\n{:<8} {:>9} {:>8} {:>10} {:>8} {:>9} {:>11} {:>9} {:>9}",
        "receiver", "requests", "unique", "duplicates", "lost", "bad sigs", "out of order", "drain s", "events/s"
    );
    let mut first_any: Option<Instant> = None;
    let mut last_healthy: Option<Instant> = None;
    for r in receivers {
        let c = r.counts();
        let healthy = r.name != "failing";
        let firsts = r.firsts();
        let lost = if healthy { made.keys().filter(|id| !firsts.contains_key(*id)).count() } else { 0 };
        let drain = match (c.first, c.last) {
            (Some(a), Some(b)) => (b - a).as_secs_f64(),
            _ => 0.0,
        };
        let rate = if drain > 0.0 { c.unique as f64 / drain } else { 0.0 };
        first_any = [first_any, c.first].into_iter().flatten().min();
        if healthy {
            last_healthy = [last_healthy, c.last].into_iter().flatten().max();
        }
        println!(
            "{:<8} {:>9} {:>8} {:>10} {:>8} {:>9} {:>11} {:>9.1} {:>9.1}",
            r.name,
            c.requests,
            c.unique,
            c.duplicates,
            if healthy { lost.to_string() } else { "-".into() },
            c.bad_signatures,
            if healthy { out_of_order(r, made).to_string() } else { "-".into() },
            drain,
            rate
        );
    }
    if let (Some(a), Some(b)) = (first_any, last_healthy) {
        let s = (b - a).as_secs_f64();
        println!(
            "drain (first delivery to the last to a healthy endpoint): {s:.1} s, {:.1} events/s per healthy endpoint, {:.1} deliveries/s to both",
            n as f64 / s,
            2.0 * n as f64 / s
        );
    }
    println!("\nthe database, per endpoint:");
    for t in tallies(db).await? {
        println!("  {:<8} {:<28} {:>7}", names.get(&t.endpoint_id).copied().unwrap_or("?"), t.what, t.n);
    }
    Ok(())
}
