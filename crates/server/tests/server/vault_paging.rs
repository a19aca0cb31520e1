//! A vault folder's pages (vault/store/list.rs): folders first, then files, each found through
//! the folder's counted buckets (vault/store/buckets.rs, migration 0032). On both backends,
//! every page in every order agrees with one query sorting the whole folder (what the listing
//! did before) — after uploads, new versions, moves, the trash and back, a subfolder's deletion
//! with its files, as the migration leaves an upgraded folder, and while writers and the
//! compactor run at once — both before the compactor folds and cuts the buckets and after, and
//! every bucket's count is then the number of files between its key and the next bucket's.

use crate::common;

use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{VaultPath, VaultSortField};
use moneydesk_server::storage::Database;
use moneydesk_server::vault::store::buckets::compact;
use moneydesk_server::vault::store::{Deleter, VaultStore, VersionRow};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(
    every_folder_page_agrees_with_sorting_the_whole_folder,
    buckets_stay_exact_while_writers_and_the_compactor_run_at_once
);

/// Small buckets, so a few hundred files make many of them (the server's are 1,024).
const BUCKET_ROWS: i64 = 16;

const USER: &str = "u1";

#[derive(sqlx::FromRow)]
struct Name {
    name: String,
}

/// The names of a page as the old listing found them: both tables in one sorted union.
async fn sorted_whole(db: &Database, path: &VaultPath, key: &str, dir: &str, offset: i64, limit: i64) -> Vec<String> {
    let q = db
        .sql(&format!(
            "SELECT name FROM ( \
               SELECT 'folder' AS kind, name, CAST(NULL AS BIGINT) AS size, created_at AS modified_at \
                 FROM vault_folders WHERE user_id = ? AND parent = ? \
               UNION ALL \
               SELECT 'file', fi.name, fi.size, fi.modified_at FROM vault_files fi JOIN vault_folders f ON f.id = fi.folder_id \
                 WHERE f.user_id = ? AND f.path = ? \
             ) entries ORDER BY kind DESC, {key} {dir}, name {dir} LIMIT ? OFFSET ?"
        ))
        .arg(USER)
        .arg(path.as_str())
        .arg(USER)
        .arg(path.as_str())
        .arg(limit)
        .arg(offset);
    let rows: Vec<Name> = db.acquire().await.unwrap().exec().rows(&q).await.unwrap();
    rows.into_iter().map(|r| r.name).collect()
}

async fn compare(db: &Database, vault: &VaultStore, rng: &mut StdRng, path: &VaultPath, want_total: u64, when: &str) {
    for (sort, key) in
        [(VaultSortField::Name, "name"), (VaultSortField::Size, "size"), (VaultSortField::ModifiedAt, "modified_at")]
    {
        for (dir, word) in [(SortDir::Asc, "ASC"), (SortDir::Desc, "DESC")] {
            let mut offsets = vec![0, 3, 4, 5, want_total.saturating_sub(1), want_total];
            offsets.extend((0..8).map(|_| rng.gen_range(0..want_total + 2)));
            for offset in offsets {
                let limit = [1u32, 3, 20, 100][rng.gen_range(0..4)];
                let (total, entries) = vault.list(USER, path, sort, dir, offset, limit).await.unwrap();
                assert_eq!(total, want_total, "{when}: {path}'s total");
                let got: Vec<String> = entries.into_iter().map(|e| e.name).collect();
                let want = sorted_whole(db, path, key, word, offset as i64, i64::from(limit)).await;
                assert_eq!(got, want, "{when}: {path} by {key} {word}, offset {offset}, limit {limit}");
            }
        }
    }
}

#[derive(sqlx::FromRow)]
struct BucketRow {
    sort: i64,
    lo_int: i64,
    lo_text: String,
    lo_name: String,
    n: i64,
}

/// Every bucket of every order of every folder holds exactly the files from its key to the
/// next bucket's (counted here by the files' keys in Rust, not by the store's SQL), none is
/// empty, and none holds more than twice `BUCKET_ROWS`. Answers how many buckets there are.
async fn assert_buckets_exact(db: &Database, when: &str) -> usize {
    let mut conn = db.acquire().await.unwrap();
    let folders = conn.exec().ints(&db.sql("SELECT DISTINCT folder_id FROM vault_buckets")).await.unwrap();
    let mut seen = 0;
    for folder in folders {
        let q = db
            .sql(
                "SELECT sort, lo_int, lo_text, lo_name, CAST(SUM(n) AS BIGINT) AS n FROM vault_buckets WHERE folder_id = ? \
                 GROUP BY sort, lo_int, lo_text, lo_name ORDER BY sort, lo_int, lo_text, lo_name",
            )
            .arg(folder);
        let buckets: Vec<BucketRow> = conn.exec().rows(&q).await.unwrap();
        let q = db.sql("SELECT name, size, modified_at FROM vault_files WHERE folder_id = ?").arg(folder);
        let files: Vec<(String, i64, String)> = conn.exec().rows(&q).await.unwrap();
        for sort in 0..3 {
            let mine: Vec<&BucketRow> = buckets.iter().filter(|b| b.sort == sort).collect();
            let key = |f: &(String, i64, String)| match sort {
                0 => (0, String::new(), f.0.clone()),
                1 => (f.1, String::new(), f.0.clone()),
                _ => (0, f.2.clone(), f.0.clone()),
            };
            for (i, b) in mine.iter().enumerate() {
                let lo = (b.lo_int, b.lo_text.clone(), b.lo_name.clone());
                let hi = mine.get(i + 1).map(|n| (n.lo_int, n.lo_text.clone(), n.lo_name.clone()));
                let inside =
                    files.iter().map(key).filter(|k| *k >= lo && hi.as_ref().is_none_or(|h| k < h)).count() as i64;
                assert_eq!(b.n, inside, "{when}: folder {folder}, order {sort}, bucket {lo:?}");
                assert!(
                    b.n > 0 && b.n <= 2 * BUCKET_ROWS,
                    "{when}: folder {folder}, order {sort}, bucket {lo:?}: {}",
                    b.n
                );
            }
            seen += mine.len();
        }
    }
    seen
}

fn upload(rng: &mut StdRng) -> VersionRow {
    VersionRow {
        version: 1,
        sha256: format!("{:064x}", rng.gen::<u64>()),
        size: rng.gen_range(1..8) * 100,
        content_type: "text/plain".into(),
        created_at: format!("2026-11-{:02}T10:00:00Z", rng.gen_range(1..9)),
        uploaded_by: "test".into(),
    }
}

/// Compares before the compactor runs (the triggers' rows as written), then after it has
/// folded and cut them.
async fn compare_and_compact(
    db: &Database,
    vault: &VaultStore,
    rng: &mut StdRng,
    folders: &[(&VaultPath, u64)],
    when: &str,
) {
    for (path, total) in folders {
        compare(db, vault, rng, path, *total, &format!("{when}, as written")).await;
    }
    compact(db, 0, BUCKET_ROWS).await.unwrap();
    for (path, total) in folders {
        compare(db, vault, rng, path, *total, &format!("{when}, compacted")).await;
    }
    assert_buckets_exact(db, when).await;
}

/// Five subfolders and 1,200 files of few distinct sizes and times (ties everywhere); then new
/// versions of 200 of them, 100 moved into a subfolder, 20 trashed and 10 of those restored, and
/// another subfolder deleted with its 30 files; then every bucket dropped and the files counted
/// as migration 0032 counts an upgraded folder (one bucket an order), and cut by the compactor;
/// then every bucket of one order given a wrong count, which the compactor counts again.
async fn every_folder_page_agrees_with_sorting_the_whole_folder(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, vault) = (stores.database.clone(), stores.vault.clone());
    let mut rng = StdRng::seed_from_u64(30);
    let root = VaultPath::root();
    for name in ["b", "a", "e", "c", "d"] {
        vault.create_folder(USER, &root, name).await.unwrap();
    }
    let name = |i: usize| format!("file-{:04}.txt", (i * 7919) % 10_000);
    for i in 0..1200 {
        vault.add_version(USER, &root, &name(i), &upload(&mut rng)).await.unwrap();
    }
    let (a, d) = (VaultPath::parse("a").unwrap(), VaultPath::parse("d").unwrap());
    for i in 0..30 {
        vault.add_version(USER, &d, &format!("in-d-{i}.txt"), &upload(&mut rng)).await.unwrap();
    }
    compare_and_compact(&db, &vault, &mut rng, &[(&root, 1205), (&d, 30)], "uploaded").await;
    let cut = assert_buckets_exact(&db, "uploaded").await;
    assert!(cut >= 3 * 1200 / (2 * BUCKET_ROWS as usize), "1,200 files cut into buckets of {BUCKET_ROWS}: {cut}");

    for _ in 0..200 {
        let i = rng.gen_range(0..1200);
        vault.add_version(USER, &root, &name(i), &upload(&mut rng)).await.unwrap();
    }
    compare_and_compact(&db, &vault, &mut rng, &[(&root, 1205)], "new versions").await;

    let (_, first) = vault.list(USER, &root, VaultSortField::Name, SortDir::Asc, 5, 100).await.unwrap();
    for entry in &first {
        let from = VaultPath::parse(&entry.name).unwrap();
        let to = VaultPath::parse(&format!("a/{}", entry.name)).unwrap();
        vault.move_file(USER, &from, &to).await.unwrap();
    }
    let who = Deleter { by: "test", retention: std::time::Duration::from_secs(3600) };
    let (_, last) = vault.list(USER, &root, VaultSortField::Size, SortDir::Desc, 500, 20).await.unwrap();
    let mut trashed = Vec::new();
    for entry in &last {
        trashed.push(vault.trash_file(USER, &VaultPath::parse(&entry.name).unwrap(), &who).await.unwrap());
    }
    let (_, items) = vault.trash(USER, 0, 100).await.unwrap();
    for item in items.iter().take(10) {
        vault.restore(USER, item.id as i64, None).await.unwrap();
    }
    vault.delete_folders(USER, &[d]).await.unwrap();
    compare_and_compact(&db, &vault, &mut rng, &[(&root, 1094), (&a, 100)], "moved, trashed, restored, deleted").await;

    db.execute("DELETE FROM vault_buckets").await.unwrap();
    db.execute(
        "INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n) \
         SELECT folder_id, s.sort, -1, '', '', COUNT(*) FROM vault_files, \
         (SELECT 0 AS sort UNION ALL SELECT 1 UNION ALL SELECT 2) s GROUP BY folder_id, s.sort",
    )
    .await
    .unwrap();
    compare_and_compact(&db, &vault, &mut rng, &[(&root, 1094), (&a, 100)], "as an upgrade leaves them").await;

    // A count gone wrong (written here by hand) is counted again from the files as it is cut.
    db.execute(&format!(
        "INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n) \
         SELECT folder_id, sort, lo_int, lo_text, lo_name, {} FROM vault_buckets WHERE sort = 1 AND lo_int >= 0",
        3 * BUCKET_ROWS
    ))
    .await
    .unwrap();
    compact(&db, 0, BUCKET_ROWS).await.unwrap();
    assert_buckets_exact(&db, "wrong counts counted again").await;
    compare(&db, &vault, &mut rng, &root, 1094, "wrong counts counted again").await;
}

/// Four writers upload, re-upload and move files in one folder while the compactor folds and
/// cuts its buckets in a loop: no file is counted in a bucket whose bounds moved under it.
async fn buckets_stay_exact_while_writers_and_the_compactor_run_at_once(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, vault) = (stores.database.clone(), stores.vault.clone());
    let root = VaultPath::root();
    vault.create_folder(USER, &root, "elsewhere").await.unwrap();
    let writers: Vec<_> = (0..4u64)
        .map(|w| {
            let vault = vault.clone();
            tokio::spawn(async move {
                let mut rng = StdRng::seed_from_u64(w);
                let root = VaultPath::root();
                for i in 0..150 {
                    let name = format!("w{w}-{:03}.txt", (i * 37) % 150);
                    vault.add_version(USER, &root, &name, &upload(&mut rng)).await.unwrap();
                    if i % 10 == 9 {
                        let j = rng.gen_range(0..i);
                        let again = format!("w{w}-{:03}.txt", (j * 37) % 150);
                        vault.add_version(USER, &root, &again, &upload(&mut rng)).await.unwrap();
                    }
                }
                for i in 0..10 {
                    let from = VaultPath::parse(&format!("w{w}-{:03}.txt", i * 7)).unwrap();
                    let to = VaultPath::parse(&format!("elsewhere/w{w}-{:03}.txt", i * 7)).unwrap();
                    vault.move_file(USER, &from, &to).await.unwrap();
                }
            })
        })
        .collect();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let compactor = {
        let (db, done) = (db.clone(), done.clone());
        tokio::spawn(async move {
            let (mut seen, mut rounds) = (0, 0);
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                seen = compact(&db, seen, BUCKET_ROWS).await.unwrap();
                rounds += 1;
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            rounds
        })
    };
    for w in writers {
        w.await.unwrap();
    }
    done.store(true, std::sync::atomic::Ordering::Release);
    let rounds = compactor.await.unwrap();
    assert!(rounds > 10, "the compactor ran beside the writers: {rounds} rounds");
    let mut rng = StdRng::seed_from_u64(99);
    compare_and_compact(
        &db,
        &vault,
        &mut rng,
        &[(&root, 1 + 4 * 140), (&VaultPath::parse("elsewhere").unwrap(), 40)],
        "written while compacting",
    )
    .await;
}
