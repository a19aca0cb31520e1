//! The cash letters in counted ranges (migration 0036) on both backends: every page agrees
//! with a plain count and OFFSET over the same letters, across several ranges of 1024 ids,
//! before and after the counts are folded and after more letters.

use crate::common;

use moneydesk_server::cash_letters::store::CashLetterStore;
use moneydesk_server::storage::{counted, Database};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(every_letters_page_agrees_with_a_scan);

/// `n` letters in one transaction, numbered from `first`.
async fn letters(db: &Database, first: usize, n: usize) {
    let mut q = db.sql(
        "INSERT INTO cash_letters (cash_letter_id, business_date, created_at, created_by, item_count, bundle_count, \
         total_cents, file_path, file_bytes, file_sha256) VALUES ",
    );
    for i in first..first + n {
        q.push(if i > first { ", " } else { "" });
        q.bind_row([
            format!("CL{i:08}").into(),
            "2026-11-30".into(),
            "2026-11-30T10:00:00.000Z".into(),
            "ops".into(),
            1i64.into(),
            1i64.into(),
            100i64.into(),
            format!("cash-letters/{i}.x9").into(),
            1000i64.into(),
            "0".repeat(64).into(),
        ]);
    }
    let mut tx = db.begin().await.unwrap();
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

async fn compare(store: &CashLetterStore, rng: &mut StdRng, when: &str) {
    let (total, _) = store.list_by_scanning(0, 1).await.unwrap();
    for offset in crate::list_counts::offsets(rng, total) {
        let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
        let got = store.list(offset, limit).await.unwrap();
        let want = store.list_by_scanning(offset, limit).await.unwrap();
        assert_eq!(got, want, "{when}: offset {offset}, limit {limit}");
    }
}

async fn every_letters_page_agrees_with_a_scan(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, store) = (stores.database.clone(), stores.cash_letters.clone());
    let mut rng = StdRng::seed_from_u64(36);
    for round in 0..4 {
        letters(&db, round * 600, 600).await;
    }
    let (total, newest) = store.list(0, 2).await.unwrap();
    assert_eq!((total, newest[0].cash_letter_id.as_str()), (2400, "CL00002399"), "newest first");
    compare(&store, &mut rng, "written").await;
    counted::compact_by(&db, 0, 300).await.unwrap();
    compare(&store, &mut rng, "folded").await;
    letters(&db, 2400, 300).await;
    compare(&store, &mut rng, "written after folding").await;
}
