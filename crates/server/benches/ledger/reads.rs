//! Balance reads with LEDGER_BENCH_ENTRIES (10,000,000) entries in the books: `sleeve(account,
//! None)` (the balance rows) and `sleeve(account, Some(as_of))` (each ledger account's running
//! balance at its last entry by then), p50/p99 over LEDGER_BENCH_READS reads each (or as many as
//! fit in three times LEDGER_BENCH_SECONDS).
//!
//! The entries are loaded set-wise through the ledger's own tables with its triggers on, in
//! chunks of one database transaction each that keeps the books whole: two-leg transactions
//! (Cr a sleeve account's posted, Dr bank:cash_vault; the credit a tenth of the time to one
//! hot account), entries first with their running balances, then the headers (each checked
//! by the trigger), then the balance rows moved by what the chunk added. `verify` proves it
//! at the end.

use std::time::Instant;

use moneydesk_model::ledger::LedgerAccountKind;
use moneydesk_server::ledger::chart::Code;
use moneydesk_server::ledger::store::LedgerStore;
use moneydesk_server::storage::{Database, Dialect, Sql};

use crate::{env_num, quantile_ms, Rng};

/// Transactions per chunk (two entries each).
const CHUNK: i64 = 500_000;
/// Every transaction moves $1.00 (in ten-thousandths).
const AMOUNT: i64 = 10_000;

/// The entries of transactions `t0..=t1` (numbered from 1): transaction t credits the hot
/// account (index 0) when t is a multiple of ten, else account 1 + r mod (n − 1) where r
/// counts the transactions before t that did not go to the hot account; an entry's running
/// balance is its account's start plus j credits (j-th to that account), the bank's its
/// start less t debits. Ids follow t, so time and id order agree.
fn entries_sql(dialect: Dialect) -> String {
    let series = match dialect {
        Dialect::Postgres => "SELECT t FROM generate_series(?::BIGINT, ?::BIGINT) AS t",
        Dialect::Sqlite => {
            "WITH RECURSIVE s(t) AS (SELECT ? UNION ALL SELECT t + 1 FROM s WHERE t < ?) SELECT t FROM s"
        }
    };
    format!(
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) \
         SELECT ? + g.t, CASE WHEN legs.leg = 0 THEN l.account_id ELSE ? END, \
                CASE WHEN legs.leg = 0 THEN {AMOUNT} ELSE -{AMOUNT} END, \
                CASE WHEN legs.leg = 0 THEN l.start + g.j * {AMOUNT} ELSE ? - g.t * {AMOUNT} END, ? + g.t \
         FROM (SELECT t, CASE WHEN t % 10 = 0 THEN 0 ELSE 1 + (t - t / 10 - 1) % ? END AS idx, \
                      CASE WHEN t % 10 = 0 THEN t / 10 ELSE (t - t / 10 - 1) / ? + 1 END AS j \
               FROM ({series}) s0) g \
         JOIN bench_load l ON l.idx = g.idx CROSS JOIN (SELECT 0 AS leg UNION ALL SELECT 1) legs \
         ORDER BY g.t, legs.leg"
    )
}

fn headers_sql(dialect: Dialect) -> String {
    let series = match dialect {
        Dialect::Postgres => "SELECT t FROM generate_series(?::BIGINT, ?::BIGINT) AS t",
        Dialect::Sqlite => {
            "WITH RECURSIVE s(t) AS (SELECT ? UNION ALL SELECT t + 1 FROM s WHERE t < ?) SELECT t FROM s"
        }
    };
    format!(
        "INSERT INTO ledger_transactions (id, kind, at_ms, actor, memo) \
         SELECT ? + t, 'adjustment', ? + t, 'bench load', 'bench posting' FROM ({series}) s0 ORDER BY t"
    )
}

/// Loads `transactions` two-leg transactions over `accounts` (the hot one first).
async fn load(db: &Database, accounts: &[String], transactions: i64) -> anyhow::Result<()> {
    let store = LedgerStore::new(db.clone());
    let hot = Code::sleeve(&accounts[0], LedgerAccountKind::Posted).to_string();
    // The bank's account (and the hot account's pending and held), opened by a real posting.
    let mut p =
        moneydesk_server::ledger::store::Posting::new(moneydesk_model::ledger::PostingKind::Adjustment, "bench");
    p.legs = vec![
        moneydesk_server::ledger::store::Leg::debit(Code::parse("bank:cash_vault").expect("code"), AMOUNT),
        moneydesk_server::ledger::store::Leg::credit(Code::parse(&hot).expect("code"), AMOUNT),
    ];
    p.guard_available = true;
    let now = chrono::Utc::now().timestamp_millis();
    store.post_at(&p, now).await?;
    db.execute("CREATE TABLE bench_load (idx BIGINT PRIMARY KEY, account_id BIGINT NOT NULL, start BIGINT NOT NULL)")
        .await?;
    for (i, a) in accounts.iter().enumerate() {
        let code = Code::sleeve(a, LedgerAccountKind::Posted).to_string();
        let q = db
            .sql("INSERT INTO bench_load (idx, account_id, start) SELECT ?, id, balance FROM ledger_accounts WHERE code = ?")
            .arg(i as i64)
            .arg(code);
        db.acquire().await?.exec().execute(&q).await?;
    }
    let q = db.sql("SELECT id, balance FROM ledger_accounts WHERE code = 'bank:cash_vault'");
    let (bank, bank_start): (i64, i64) = db.acquire().await?.exec().row(&q).await?.expect("the bank's account");
    let base = db.acquire().await?.exec().int(&db.sql("SELECT COALESCE(MAX(id), 0) FROM ledger_transactions")).await?;
    // After every entry already there: each chunk's entries are the latest by time as by id.
    let at0 = now + 1_000;
    let others = accounts.len() as i64 - 1;
    let started = Instant::now();
    let mut t0 = 1;
    while t0 <= transactions {
        let t1 = (t0 + CHUNK - 1).min(transactions);
        let mut tx = db.begin().await?;
        let d = tx.dialect();
        let q = Sql::new(d, &entries_sql(d))
            .arg(base)
            .arg(bank)
            .arg(bank_start)
            .arg(at0)
            .arg(others)
            .arg(others)
            .arg(t0)
            .arg(t1);
        tx.exec().execute(&q).await?;
        tx.exec().execute(&Sql::new(d, &headers_sql(d)).arg(base).arg(at0).arg(t0).arg(t1)).await?;
        let q = Sql::new(
            d,
            "UPDATE ledger_accounts SET balance = ledger_accounts.balance + s.total, entry_count = ledger_accounts.entry_count + s.n \
             FROM (SELECT account_id, SUM(amount) AS total, COUNT(*) AS n FROM ledger_entries \
                   WHERE transaction_id BETWEEN ? AND ? GROUP BY account_id) s WHERE ledger_accounts.id = s.account_id",
        )
        .arg(base + t0)
        .arg(base + t1);
        tx.exec().execute(&q).await?;
        tx.commit().await?;
        let secs = started.elapsed().as_secs_f64();
        eprintln!(
            "  {} of {} entries in {secs:.0} s (about {:.0} s in all)",
            2 * t1,
            2 * transactions,
            secs * transactions as f64 / t1 as f64
        );
        t0 = t1 + 1;
    }
    if let Database::Postgres(_) = db {
        let q =
            db.sql("SELECT setval(pg_get_serial_sequence('ledger_transactions', 'id'), ?)").arg(base + transactions);
        db.acquire().await?.exec().execute(&q).await?;
        db.execute("VACUUM ANALYZE").await?;
    } else {
        db.execute("ANALYZE").await?;
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").await?;
    }
    eprintln!("  loaded in {:.0} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Part 3 on one backend: seeds the accounts, loads the entries, proves the books, times reads.
pub async fn run(backend: &str, url: &str) -> anyhow::Result<()> {
    let entries = env_num("LEDGER_BENCH_ENTRIES", 10_000_000) as i64;
    let reads = env_num("LEDGER_BENCH_READS", 10_000) as usize;
    let n = env_num("LEDGER_BENCH_ACCOUNTS", 1_000) as usize;
    // Each kind of read stops after this long, with fewer reads if they are slow.
    let cap = env_num("LEDGER_BENCH_SECONDS", 20) * 3;
    let db = Database::open(url).await?;
    let accounts = crate::seed_accounts(&db, n).await?;
    eprintln!("{backend}: loading {entries} entries ...");
    let started = Instant::now();
    load(&db, &accounts, entries / 2).await?;
    let load_secs = started.elapsed().as_secs_f64();
    let store = LedgerStore::new(db.clone());
    let started = Instant::now();
    let (mismatches, unbalanced) = store.verify().await?;
    let verify_secs = started.elapsed().as_secs_f64();
    let q = db.sql("SELECT COUNT(*) FROM ledger_entries");
    let total = db.acquire().await?.exec().int(&q).await?;
    let q = db.sql("SELECT MIN(at_ms), MAX(at_ms) FROM ledger_entries");
    let (first, last): (i64, i64) = db.acquire().await?.exec().row(&q).await?.expect("entries");
    let hot_code = Code::sleeve(&accounts[0], LedgerAccountKind::Posted).to_string();
    let q = db.sql("SELECT entry_count FROM ledger_accounts WHERE code = ?").arg(hot_code);
    let hot_entries = db.acquire().await?.exec().int(&q).await?;
    println!(
        "\n{backend}: {total} entries loaded in {load_secs:.0} s; verify {verify_secs:.1} s: unbalanced {}, balance rows off {}; \
         hot account {hot_entries} entries",
        unbalanced.len(),
        mismatches.len()
    );
    anyhow::ensure!(mismatches.is_empty() && unbalanced.is_empty(), "the loaded books do not verify");
    println!("{:<28} {:>8} {:>8} {:>8}", "read (LedgerStore::sleeve)", "reads", "p50 ms", "p99 ms");
    let mut rng = Rng::new(7);
    for (what, hot_only, as_of) in [
        ("now, hot account", true, false),
        ("now, any account", false, false),
        ("as of, hot account", true, true),
        ("as of, any account", false, true),
    ] {
        let mut micros = Vec::with_capacity(reads);
        let until = Instant::now() + std::time::Duration::from_secs(cap);
        while micros.len() < reads && Instant::now() < until {
            let account = if hot_only { &accounts[0] } else { &accounts[rng.below(accounts.len() as u64) as usize] };
            let at = as_of.then(|| first + rng.below((last - first + 1) as u64) as i64);
            let t = Instant::now();
            store.sleeve(account, at).await?;
            micros.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
        }
        micros.sort_unstable();
        let done = micros.len();
        println!("{what:<28} {done:>8} {:>8.3} {:>8.3}", quantile_ms(&micros, 0.5), quantile_ms(&micros, 0.99));
    }
    Ok(())
}
