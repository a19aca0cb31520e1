//! A vault folder's pages (vault/store/list.rs): folders first, then files, each read through
//! its own index, the files' total kept by the database (migration 0030). On both backends,
//! every page in every order agrees with one query sorting the whole folder (what the listing
//! did before), after uploads, moves out of the folder and a subfolder's deletion with its files.

use crate::common;

use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{VaultPath, VaultSortField};
use moneydesk_server::storage::Database;
use moneydesk_server::vault::store::{VaultStore, VersionRow};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(every_folder_page_agrees_with_sorting_the_whole_folder);

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

/// Five subfolders and 1,200 files of few distinct sizes and times (ties everywhere), then 100
/// files moved into a subfolder and another subfolder deleted with its 30 files.
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
    let upload = |rng: &mut StdRng, at: &str| VersionRow {
        version: 1,
        sha256: format!("{:064x}", rng.gen::<u64>()),
        size: rng.gen_range(1..8) * 100,
        content_type: "text/plain".into(),
        created_at: format!("2026-11-{:02}T10:00:00Z", rng.gen_range(1..9)),
        uploaded_by: at.into(),
    };
    for i in 0..1200 {
        let v = upload(&mut rng, "test");
        vault.add_version(USER, &root, &format!("file-{:04}.txt", (i * 7919) % 10_000), &v).await.unwrap();
    }
    let d = VaultPath::parse("d").unwrap();
    for i in 0..30 {
        let v = upload(&mut rng, "test");
        vault.add_version(USER, &d, &format!("in-d-{i}.txt"), &v).await.unwrap();
    }
    compare(&db, &vault, &mut rng, &root, 1205, "uploaded").await;
    compare(&db, &vault, &mut rng, &d, 30, "uploaded").await;

    let (_, first) = vault.list(USER, &root, VaultSortField::Name, SortDir::Asc, 5, 100).await.unwrap();
    for entry in &first {
        let from = VaultPath::parse(&entry.name).unwrap();
        let to = VaultPath::parse(&format!("a/{}", entry.name)).unwrap();
        vault.move_file(USER, &from, &to).await.unwrap();
    }
    vault.delete_folders(USER, &[d]).await.unwrap();
    compare(&db, &vault, &mut rng, &root, 1104, "moved and deleted").await;
    compare(&db, &vault, &mut rng, &VaultPath::parse("a").unwrap(), 100, "moved in").await;
}
