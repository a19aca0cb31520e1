//! What the counts cost a write (`LISTS_BENCH_ONLY=writes`): one row a transaction, as a
//! request writes, into a table with its count triggers and into a copy of it without them
//! (same columns and indexes), alternating in rounds in one run; per row p50 / p95 in µs and
//! the difference of the medians. The vault's files (three bucket rows a file, migration 0032)
//! and the audit trail (two `list_counts` rows a record, migration 0028); beside them an upload
//! through the store (`VaultStore::add_version`: the file, its version, its event), for scale.

use std::time::{Duration, Instant};

use moneydesk_model::vault::VaultPath;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;
use moneydesk_server::vault::store::VersionRow;

/// Makes `copy`: `table`'s columns and indexes, none of its triggers.
async fn copy_of(db: &Database, table: &str, copy: &str) -> anyhow::Result<()> {
    match db {
        Database::Postgres(_) => {
            db.execute(&format!("CREATE TABLE {copy} (LIKE {table} INCLUDING ALL)")).await?;
        }
        Database::Sqlite(_) => {
            let q = db
                .sql("SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type DESC")
                .arg(table);
            let ddl: Vec<(String,)> = db.acquire().await?.exec().rows(&q).await?;
            for (sql,) in ddl {
                db.execute(&sql.replace(table, copy)).await?;
            }
        }
    }
    Ok(())
}

/// One INSERT in its own transaction; its time.
async fn insert(db: &Database, text: &str, args: [moneydesk_server::storage::sql::Arg; 2]) -> anyhow::Result<Duration> {
    let t = Instant::now();
    let mut tx = db.begin().await?;
    let [a, b] = args;
    let q = db.sql(text).arg(a).arg(b);
    tx.exec().execute(&q).await?;
    tx.commit_unrecorded().await?;
    Ok(t.elapsed())
}

pub async fn run(stores: &Stores, rounds: usize, batch: usize) -> anyhow::Result<()> {
    let db = &stores.database;
    copy_of(db, "vault_files", "vault_files_plain").await?;
    copy_of(db, "audit_records", "audit_plain").await?;
    let folder = VaultPath::parse("writes")?;
    stores.vault.create_folder("bench-w", &VaultPath::root(), "writes").await.map_err(|e| anyhow::anyhow!("{e}"))?;
    let folder_id = db
        .acquire()
        .await?
        .exec()
        .int(&db.sql("SELECT id FROM vault_folders WHERE user_id = 'bench-w' AND path = 'writes'"))
        .await?;
    let file = |table: &str| {
        format!(
            "INSERT INTO {table} (folder_id, name, size, content_type, modified_at, versions) \
             VALUES (?, ?, 4096, 'application/pdf', '2026-11-30T10:00:00Z', 1)"
        )
    };
    let record = |table: &str| {
        format!("INSERT INTO {table} (at, day, user_id, operation, outcome) VALUES (?, '2026-11-30', ?, 'bench', 'ok')")
    };
    let (mut files, mut files_plain, mut records, mut records_plain, mut uploads) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        for i in 0..batch {
            // Names in no order, so a file's bucket is anywhere in the folder's.
            let name = format!("w-{:08}.pdf", ((round * batch + i) * 7919) % 100_000_000);
            files.push(insert(db, &file("vault_files"), [folder_id.into(), name.as_str().into()]).await?);
            files_plain.push(insert(db, &file("vault_files_plain"), [folder_id.into(), name.as_str().into()]).await?);
            let user = format!("u{}", i % 3);
            records.push(
                insert(db, &record("audit_records"), ["2026-11-30T10:00:00Z".into(), user.as_str().into()]).await?,
            );
            records_plain
                .push(insert(db, &record("audit_plain"), ["2026-11-30T10:00:00Z".into(), user.as_str().into()]).await?);
            let v = VersionRow {
                version: 1,
                sha256: format!("{:064x}", round * batch + i),
                size: 4096,
                content_type: "application/pdf".into(),
                created_at: "2026-11-30T10:00:00Z".into(),
                uploaded_by: "bench".into(),
            };
            let t = Instant::now();
            stores
                .vault
                .add_version("bench-w", &folder, &format!("s-{name}"), &v)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            uploads.push(t.elapsed());
        }
    }
    println!("| one row a transaction ({} rows each) | p50 / p95 µs |", rounds * batch);
    println!("|---|---|");
    let line = |label: &str, times: &mut Vec<Duration>| {
        // `p` answers milliseconds; these are printed in µs.
        let p50 = crate::p(times, 0.5) * 1000.0;
        println!("| {label} | {p50:.0} / {:.0} |", crate::p(times, 0.95) * 1000.0);
        p50
    };
    let (a, b) =
        (line("vault file, with its bucket triggers", &mut files), line("vault file, no triggers", &mut files_plain));
    let (c, d) = (
        line("audit record, with its count triggers", &mut records),
        line("audit record, no triggers", &mut records_plain),
    );
    let u = line("an upload through the store (file, version, event)", &mut uploads);
    println!(
        "| the vault's buckets, per file (p50 difference) | {:.0} µs, {:.0} % of an upload |",
        a - b,
        (a - b) / u * 100.0
    );
    println!("| the audit trail's counts, per record (p50 difference) | {:.0} µs |", c - d);
    Ok(())
}
