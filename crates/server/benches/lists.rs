//! Deep pages of the lists (issue #50): the audit trail, the events, the ledger entries, the
//! outbox, one vault folder, the webhook delivery log, the returns queue, the cash letters and a
//! vault trash, 1,000,000 rows each, on SQLite and PostgreSQL in one run. For each list, page 1,
//! page 10,000 and the last page of every partition a filter reads, through the store's list
//! (counted ranges, `storage::counted`; the vault folder: counted buckets of each order,
//! `vault::store::buckets`) and — alternating with it, in the same run — the same page as the
//! list found it before (count(*) and OFFSET; the vault folder: sorted whole). p50 / p95 / max
//! in milliseconds, and each deep page's p50 over page 1's. Figures are printed, never judged.
//!
//! Run: `scripts/bench-lists` (starts its own PostgreSQL; or
//! `cargo bench -p moneydesk-server --profile server --bench lists` for SQLite alone). Knobs:
//! LISTS_BENCH_ROWS (1000000), LISTS_BENCH_RUNS (30), LISTS_BENCH_SQLITE (0: PostgreSQL
//! alone), LISTS_BENCH_POSTGRES (an empty PostgreSQL database's URL; the script makes one).

use std::future::Future;
use std::time::{Duration, Instant};

use moneydesk_model::audit::AuditRecord;
use moneydesk_model::collections::SortDir;
use moneydesk_model::email::{MessageState, OutboxMessage};
use moneydesk_model::events::{Event, EventType};
use moneydesk_model::vault::{VaultPath, VaultSortField};
use moneydesk_model::{Page, PageRequest};
use moneydesk_server::audit::store::{self as audit, Filter as AuditFilter};
use moneydesk_server::email::outbox::store::outbox::OutboxFilter;
use moneydesk_server::email::outbox::store::EmailError;
use moneydesk_server::events::store::{self as events, Filter as EventFilter};
use moneydesk_server::ledger::store::{EntryFilter, EntryRow};
use moneydesk_server::state::Stores;
use moneydesk_server::storage::{counted, Database};
use moneydesk_server::vault::store::buckets;

#[path = "lists/deposits.rs"]
mod deposits;
#[path = "lists/trash.rs"]
mod trash;
#[path = "lists/webhooks.rs"]
mod webhooks;
#[path = "lists/writes.rs"]
mod writes;

const SIZE: i64 = 20;
const WARMUP: usize = 3;

/// Whether `LISTS_BENCH_ONLY` (comma-separated: audit, events, ledger, outbox, vault, webhooks,
/// returns, cash_letters, trash, writes; all by default) names `list`.
fn wants(list: &str) -> bool {
    std::env::var("LISTS_BENCH_ONLY").map_or(true, |only| only.split(',').any(|l| l.trim() == list))
}

fn knob(name: &str, default: i64) -> i64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `n` rows of each list in one statement each: audit records of three users (a tenth with
/// none), events of five types, ledger postings moving 1 from a hot bank account to one of two
/// sleeve accounts (two entries each). Then the counts are folded, as the server's compactor
/// does within seconds.
async fn build(db: &Database, n: i64) -> anyhow::Result<()> {
    let started = Instant::now();
    let numbers = |last: i64| match db {
        Database::Sqlite(_) => {
            format!("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {last})")
        }
        // BIGINT: `i * 7919` passes INTEGER's range at a million.
        Database::Postgres(_) => format!("WITH n(i) AS (SELECT generate_series(CAST(1 AS BIGINT), {last}))"),
    };
    if wants("audit") {
        db.execute(&format!(
        "{} INSERT INTO audit_records (at, day, user_id, operation, outcome) SELECT '2026-11-30T10:00:00Z', '2026-11-30', \
         CASE i % 10 WHEN 0 THEN NULL WHEN 1 THEN 'ana' WHEN 2 THEN 'ana' WHEN 3 THEN 'ben' ELSE 'ops' END, 'bench.write', 'ok' FROM n",
        numbers(n)
    ))
    .await?;
    }
    if wants("events") {
        db.execute(&format!(
        "{} INSERT INTO events (id, type, created, api_version, object_type, object_id, data) SELECT 'evt_' || i, \
         CASE i % 5 WHEN 0 THEN 'deposit.created' WHEN 1 THEN 'deposit.sent' WHEN 2 THEN 'deposit.settled' \
         WHEN 3 THEN 'email.delivered' ELSE 'token.revoked' END, '2026-11-30T10:00:00Z', '2026-11-01', 'deposit', 'x', '{{}}' FROM n",
        numbers(n)
    ))
    .await?;
    }
    if wants("ledger") {
        for code in ["bench:bank", "bench:a", "bench:b"] {
            db.execute(&format!(
                "INSERT INTO ledger_accounts (code, kind, normal) VALUES ('{code}', 'bench', 'credit')"
            ))
            .await?;
        }
        let account = |code: &str| format!("(SELECT id FROM ledger_accounts WHERE code = '{code}')");
        let postings = n / 2;
        let mut tx = db.begin().await?;
        let entries = format!(
            "{} INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) \
         SELECT (i + 1) / 2, CASE WHEN i % 2 = 1 THEN {bank} WHEN i % 4 = 0 THEN {a} ELSE {b} END, \
         CASE WHEN i % 2 = 1 THEN -1 ELSE 1 END, 0, i FROM n",
            numbers(2 * postings),
            bank = account("bench:bank"),
            a = account("bench:a"),
            b = account("bench:b"),
        );
        tx.exec().execute(&db.sql(&entries)).await?;
        let headers = format!(
            "{} INSERT INTO ledger_transactions (id, kind, at_ms, actor) SELECT i, 'adjustment', 2 * i, 'bench' FROM n",
            numbers(postings)
        );
        tx.exec().execute(&db.sql(&headers)).await?;
        tx.commit_unrecorded().await?;
    }
    if wants("outbox") {
        db.execute(&format!(
        "{} INSERT INTO email_messages (seq, id, batch_id, idx, state, delivery, message_id, date_header, from_email, \
         recipients, subject, created_by, created_at, next_attempt_at) SELECT i, 'msg_' || i, 'req_' || i, 0, \
         CASE i % 10 WHEN 0 THEN 'failed' WHEN 1 THEN 'deferred' ELSE 'sent' END, 'mailbox', i || '@bench', 'Mon, 30 Nov 2026', \
         'ops@example.com', '{{\"to\":[{{\"email\":\"r@example.com\"}}]}}', 'bench', 'bench', '2026-11-30T10:00:00.000Z', \
         '2026-11-30T10:00:00.000Z' FROM n",
        numbers(n)
    ))
    .await?;
        if let Database::Postgres(_) = db {
            db.execute("SELECT setval('email_messages_seq', (SELECT MAX(seq) FROM email_messages))").await?;
        }
    }
    if wants("vault") {
        db.execute("INSERT INTO vault_folders (user_id, path, parent, name, created_at) VALUES ('bench', '', NULL, '', '2026-11-30T10:00:00Z')")
        .await?;
        db.execute(&format!(
            "{} INSERT INTO vault_files (folder_id, name, size, content_type, modified_at, versions) \
         SELECT (SELECT id FROM vault_folders WHERE user_id = 'bench'), 'file-' || ((i * 7919) % {n}) || '.pdf', \
         (i * 104729) % 100000, 'application/pdf', '2026-11-30T10:00:00Z', 1 FROM n",
            numbers(n)
        ))
        .await?;
    }
    if wants("webhooks") {
        webhooks::build(db, &numbers(n)).await?;
    }
    deposits::build(db, &numbers(n)).await?;
    if wants("trash") {
        trash::build(db, &numbers(n)).await?;
    }
    let inserted = started.elapsed();
    counted::compact(db, 0).await?;
    let folded = started.elapsed();
    // The folder's files were all counted in its first bucket of each order (nothing cuts
    // buckets during an INSERT … SELECT): the compactor's first round cuts them, as it does a
    // folder the upgrade to migration 0032 counted.
    buckets::compact(db, 0, buckets::BUCKET_ROWS).await?;
    let cut = started.elapsed() - folded;
    match db {
        Database::Sqlite(_) => db.execute("PRAGMA wal_checkpoint(TRUNCATE)").await?,
        Database::Postgres(_) => db.execute("VACUUM ANALYZE").await?,
    };
    eprintln!(
        "built {n} rows a list in {:.1} s (counts folded in {:.1} s, the vault folder's buckets cut in {:.1} s)",
        started.elapsed().as_secs_f64(),
        (folded - inserted).as_secs_f64(),
        cut.as_secs_f64()
    );
    Ok(())
}

fn p(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    times[((times.len() as f64 * q).ceil() as usize).saturating_sub(1)].as_secs_f64() * 1000.0
}

/// Times `counted` and `scanned` alternately on the same page (each answer checked against the
/// other); the medians of both, printed with p95 and max.
async fn case<T, F, G, A, B>(label: &str, runs: usize, counted: F, scanned: G) -> anyhow::Result<(f64, f64)>
where
    T: PartialEq,
    F: Fn() -> A,
    G: Fn() -> B,
    A: Future<Output = sqlx::Result<(i64, Vec<T>)>>,
    B: Future<Output = sqlx::Result<(i64, Vec<T>)>>,
{
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for i in 0..WARMUP + runs {
        let t = Instant::now();
        let got = counted().await?;
        let ta = t.elapsed();
        let t = Instant::now();
        let want = scanned().await?;
        let tb = t.elapsed();
        anyhow::ensure!(got == want, "{label}: the counted page and the scan disagree");
        anyhow::ensure!(!got.1.is_empty(), "{label}: empty page");
        if i >= WARMUP {
            a.push(ta);
            b.push(tb);
        }
    }
    let (a50, b50) = (p(&mut a, 0.5), p(&mut b, 0.5));
    println!(
        "| {label} | {a50:.2} / {:.2} / {:.2} | {b50:.2} / {:.2} / {:.2} |",
        p(&mut a, 0.95),
        p(&mut a, 1.0),
        p(&mut b, 0.95),
        p(&mut b, 1.0)
    );
    Ok((a50, b50))
}

fn ids<T, K>(page: sqlx::Result<(i64, Vec<T>)>, key: fn(&T) -> K) -> sqlx::Result<(i64, Vec<K>)> {
    page.map(|(n, rows)| (n, rows.iter().map(key).collect()))
}

/// Page 1, page 10,000 and the last page of one partition, and the deep pages over page 1.
async fn pages<T, K, F, G, A, B>(
    name: &str,
    total: i64,
    runs: usize,
    key: fn(&T) -> K,
    counted: F,
    scanned: G,
) -> anyhow::Result<()>
where
    K: PartialEq,
    F: Fn(i64) -> A,
    G: Fn(i64) -> B,
    A: Future<Output = sqlx::Result<(i64, Vec<T>)>>,
    B: Future<Output = sqlx::Result<(i64, Vec<T>)>>,
{
    let last = (total - 1) / SIZE;
    let mut first = 0.0;
    let mut ratios = Vec::new();
    for (label, page) in [("page 1", 0), ("page 10,000", 9_999.min(last)), ("last page", last)] {
        let offset = page * SIZE;
        let (c, _) = case(
            &format!("{name}, {label} ({} of {total})", page + 1),
            runs,
            || async { ids(counted(offset).await, key) },
            || async { ids(scanned(offset).await, key) },
        )
        .await?;
        if page == 0 {
            first = c;
        } else {
            ratios.push(format!("{label} {:.2}×", c / first));
        }
    }
    println!("| {name}: deep over page 1 (counted, p50) | {} | |", ratios.join(", "));
    Ok(())
}

async fn run(stores: &Stores, runs: usize) -> anyhow::Result<()> {
    let (db, ledger, email, vault) = (&stores.database, &stores.ledger, &stores.email, &stores.vault);
    println!("| case ({SIZE} rows a page) | counted: p50 / p95 / max ms | count(*) + OFFSET: p50 / p95 / max ms |");
    println!("|---|---|---|");
    for user in [None, Some("ana")].into_iter().filter(|_| wants("audit")) {
        let f = AuditFilter { user_id: user.map(str::to_string), ..Default::default() };
        let total = audit::list(db, &f, 0, 1).await?.0;
        let name = format!("audit, {}", user.map_or("all".to_string(), |u| format!("user {u}")));
        let key: fn(&AuditRecord) -> i64 = |r| r.id;
        pages(&name, total, runs, key, |o| audit::list(db, &f, o, SIZE), |o| audit::list_by_scanning(db, &f, o, SIZE))
            .await?;
    }
    let every = ["deposit.created", "deposit.sent", "deposit.settled", "email.delivered", "token.revoked"];
    for (name, types) in [("events, every type", &every[..]), ("events, deposit.sent", &every[1..2])] {
        if !wants("events") {
            continue;
        }
        let f = EventFilter { types: types.iter().filter_map(|t| EventType::parse(t)).collect(), ..Default::default() };
        let total = events::list(db, &f, 0, 1).await?.0;
        let key: fn(&Event) -> String = |e| e.id.clone();
        pages(name, total, runs, key, |o| events::list(db, &f, o, SIZE), |o| events::list_by_scanning(db, &f, o, SIZE))
            .await?;
    }
    for (name, codes) in [
        ("ledger, the bank account", &["bench:bank"][..]),
        ("ledger, three accounts", &["bench:bank", "bench:a", "bench:b"][..]),
    ] {
        if !wants("ledger") {
            continue;
        }
        let f = EntryFilter { codes: codes.iter().map(|c| c.to_string()).collect(), ..Default::default() };
        let total = ledger.entries(&f, 0, 1).await?.0;
        let key: fn(&EntryRow) -> i64 = |e| e.id;
        pages(name, total, runs, key, |o| ledger.entries(&f, o, SIZE), |o| ledger.entries_by_scanning(&f, o, SIZE))
            .await?;
    }
    for (name, states) in [("outbox, every state", vec![]), ("outbox, failed", vec![MessageState::Failed])] {
        if !wants("outbox") {
            continue;
        }
        let f = &OutboxFilter { states, ..Default::default() };
        let page = |o: i64| PageRequest { index: (o / SIZE) as u64, size: SIZE as u32 };
        let total = email.list(f, page(0)).await.map_err(|e| anyhow::anyhow!("{e}"))?.total_elements as i64;
        let key: fn(&OutboxMessage) -> String = |m| m.id.clone();
        let as_rows = |p: Result<Page<OutboxMessage>, EmailError>| {
            p.map(|p| (p.total_elements as i64, p.content)).map_err(|e| sqlx::Error::Protocol(e.to_string()))
        };
        pages(
            name,
            total,
            runs,
            key,
            |o| async move { as_rows(email.list(f, page(o)).await) },
            |o| async move { as_rows(email.list_by_scanning(f, page(o)).await) },
        )
        .await?;
    }
    for (name, sort, key, dir, word) in [
        ("vault folder, by name", VaultSortField::Name, "name", SortDir::Asc, "ASC"),
        ("vault folder, largest first", VaultSortField::Size, "size", SortDir::Desc, "DESC"),
    ] {
        if !wants("vault") {
            continue;
        }
        let root = VaultPath::root();
        let total = vault.list("bench", &root, sort, dir, 0, 1).await.map_err(|e| anyhow::anyhow!("{e}"))?.0 as i64;
        let name_of: fn(&String) -> String = |n| n.clone();
        pages(
            name,
            total,
            runs,
            name_of,
            |o| {
                let root = root.clone();
                async move {
                    let page = vault.list("bench", &root, sort, dir, o as u64, SIZE as u32).await;
                    page.map(|(t, e)| (t as i64, e.into_iter().map(|e| e.name).collect()))
                        .map_err(|e| sqlx::Error::Protocol(e.to_string()))
                }
            },
            |o| sorted_folder(db, key, word, o),
        )
        .await?;
    }
    if wants("webhooks") {
        webhooks::run(stores, runs).await?;
    }
    deposits::run(stores, runs).await?;
    if wants("trash") {
        trash::run(stores, runs).await?;
    }
    Ok(())
}

#[derive(sqlx::FromRow)]
struct Name {
    name: String,
}

/// A page of the bench folder as the listing found it before: a count, and both tables in one
/// sorted union.
async fn sorted_folder(db: &Database, key: &str, dir: &str, offset: i64) -> sqlx::Result<(i64, Vec<String>)> {
    let mut conn = db.acquire().await?;
    let count = db.sql(
        "SELECT (SELECT COUNT(*) FROM vault_folders WHERE user_id = 'bench' AND parent = '') \
         + (SELECT COUNT(*) FROM vault_files WHERE folder_id = (SELECT id FROM vault_folders WHERE user_id = 'bench'))",
    );
    let total = conn.exec().int(&count).await?;
    let q = db
        .sql(&format!(
            "SELECT name FROM ( \
               SELECT 'folder' AS kind, name, CAST(NULL AS BIGINT) AS size FROM vault_folders WHERE user_id = 'bench' AND parent = '' \
               UNION ALL \
               SELECT 'file', name, size FROM vault_files WHERE folder_id = (SELECT id FROM vault_folders WHERE user_id = 'bench') \
             ) entries ORDER BY kind DESC, {key} {dir}, name {dir} LIMIT ? OFFSET ?"
        ))
        .arg(SIZE)
        .arg(offset);
    let rows: Vec<Name> = conn.exec().rows(&q).await?;
    Ok((total, rows.into_iter().map(|r| r.name).collect()))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let rows = knob("LISTS_BENCH_ROWS", 1_000_000);
    let runs = knob("LISTS_BENCH_RUNS", 30) as usize;
    let dir = tempfile::tempdir()?;
    let mut backends = Vec::new();
    if std::env::var("LISTS_BENCH_SQLITE").as_deref() != Ok("0") {
        backends.push(("SQLite", format!("sqlite://{}/lists.db", dir.path().display())));
    }
    if let Ok(url) = std::env::var("LISTS_BENCH_POSTGRES") {
        backends.push(("PostgreSQL", url));
    }
    for (name, url) in backends {
        println!("\n### {name}: {rows} rows a list, {runs} runs after {WARMUP} warm-up\n");
        let stores = Stores::open(&url).await?;
        build(&stores.database, rows).await?;
        run(&stores, runs).await?;
        if wants("writes") {
            println!();
            writes::run(&stores, knob("LISTS_BENCH_WRITE_ROUNDS", 10) as usize, 200).await?;
        }
    }
    Ok(())
}
