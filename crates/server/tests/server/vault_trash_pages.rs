//! Each user's vault trash in counted ranges (migration 0037) on both backends: every page of
//! every user's trash agrees with a plain count and OFFSET over the same items — across several
//! ranges of 1024 ids, interleaved between users, after restores and purges (rows deleted),
//! before and after the counts are folded.

use crate::common;

use moneydesk_server::storage::{counted, Database};
use moneydesk_server::vault::store::VaultStore;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(every_trash_page_agrees_with_a_scan);

const USERS: [&str; 3] = ["ana", "ben", "cy"];

/// `n` trashed items of random users in one transaction.
async fn trashed(db: &Database, rng: &mut StdRng, n: usize) {
    let mut q = db.sql("INSERT INTO vault_trash (user_id, kind, path, size, deleted_at, deleted_by, purge_at) VALUES ");
    for i in 0..n {
        let user = USERS[[0, 0, 1, 2][rng.gen_range(0..4)]];
        q.push(if i > 0 { ", " } else { "" });
        q.bind_row([
            user.into(),
            "file".into(),
            format!("reports/{}.pdf", rng.gen::<u32>()).into(),
            rng.gen_range(1..1_000_000i64).into(),
            // Many in the same second: the trash's order is the ids'.
            "2026-11-30T10:00:00Z".into(),
            "ops".into(),
            "2026-12-30T10:00:00Z".into(),
        ]);
    }
    let mut tx = db.begin().await.unwrap();
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

async fn compare(vault: &VaultStore, rng: &mut StdRng, when: &str) {
    for user in USERS {
        let (total, _) = vault.trash_by_scanning(user, 0, 1).await.unwrap();
        for offset in crate::list_counts::offsets(rng, total as i64) {
            let limit = [1u32, 7, 20, 100][rng.gen_range(0..4)];
            let got = vault.trash(user, offset as u64, limit).await.unwrap();
            let want = vault.trash_by_scanning(user, offset as u64, limit).await.unwrap();
            assert_eq!(got, want, "{when}: trash of {user}, offset {offset}, limit {limit}");
        }
    }
}

async fn every_trash_page_agrees_with_a_scan(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, vault) = (stores.database.clone(), stores.vault.clone());
    let mut rng = StdRng::seed_from_u64(37);
    for _ in 0..5 {
        trashed(&db, &mut rng, 520).await;
    }
    let (_, newest) = vault.trash(USERS[0], 0, 20).await.unwrap();
    assert!(newest.windows(2).all(|w| w[0].id > w[1].id), "newest first, though trashed in one second");
    compare(&vault, &mut rng, "trashed").await;
    counted::compact_by(&db, 0, 400).await.unwrap();
    compare(&vault, &mut rng, "folded").await;

    // Restores and purges delete rows; the sweeper's purge of everything due, too.
    let mut tx = db.begin().await.unwrap();
    for _ in 0..300 {
        let q = db.sql("DELETE FROM vault_trash WHERE id = ?").arg(rng.gen_range(1..=2600i64));
        tx.exec().execute(&q).await.unwrap();
    }
    tx.commit_unrecorded().await.unwrap();
    trashed(&db, &mut rng, 200).await;
    compare(&vault, &mut rng, "restored, purged and trashed again").await;
    counted::compact(&db, 0).await.unwrap();
    compare(&vault, &mut rng, "folded again").await;
}
