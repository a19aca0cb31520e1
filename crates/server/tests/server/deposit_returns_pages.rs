//! The returns queue in counted ranges (migration 0035) on both backends: every page of all
//! items and of each state agrees with a plain count and OFFSET over the same items — across
//! several ranges of 1024 ids, as items move between states, before and after the counts are
//! folded.

use crate::common;

use moneydesk_model::ledger::ReturnItemState;
use moneydesk_server::deposits::returns::store::{ItemRow, ReturnStore};
use moneydesk_server::storage::{counted, Database};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(every_returns_page_agrees_with_a_scan_as_items_change_state);

/// `n` items an operator entered, in one transaction, each of a random state.
async fn items(db: &Database, rng: &mut StdRng, n: usize) {
    let mut q = db.sql(
        "INSERT INTO deposit_return_items (source, state, reason_code, amount_cents, reference, received_at) VALUES ",
    );
    for i in 0..n {
        let state = ReturnItemState::ALL[rng.gen_range(0..ReturnItemState::ALL.len())].as_str();
        q.push(if i > 0 { ", " } else { "" });
        q.bind_row([
            "operator".into(),
            state.into(),
            "R01".into(),
            rng.gen_range(100..100_000i64).into(),
            format!("{:015}", rng.gen::<u32>()).into(),
            "2026-11-30T10:00:00.000Z".into(),
        ]);
    }
    let mut tx = db.begin().await.unwrap();
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

async fn compare(returns: &ReturnStore, rng: &mut StdRng, when: &str) {
    let states = std::iter::once(None).chain(ReturnItemState::ALL.iter().map(|s| Some(s.as_str())));
    for state in states {
        let (total, _) = returns.list_by_scanning(state, 0, 1).await.unwrap();
        for offset in crate::list_counts::offsets(rng, total) {
            let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
            let got = returns.list(state, offset, limit).await.unwrap();
            let want = returns.list_by_scanning(state, offset, limit).await.unwrap();
            let ids = |p: &(i64, Vec<ItemRow>)| (p.0, p.1.iter().map(|r| r.id).collect::<Vec<_>>());
            assert_eq!(ids(&got), ids(&want), "{when}: returns of {state:?}, offset {offset}, limit {limit}");
        }
    }
}

/// About 2,600 items, then operators' moves between states (each a count moved from one
/// state's partition to another's, the count of all unchanged).
async fn every_returns_page_agrees_with_a_scan_as_items_change_state(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let db = stores.database.clone();
    let returns = ReturnStore::new(db.clone());
    let mut rng = StdRng::seed_from_u64(35);
    for _ in 0..5 {
        items(&db, &mut rng, 520).await;
    }
    let (total, newest) = returns.list(None, 0, 3).await.unwrap();
    assert_eq!(total, 2600);
    assert!(newest.windows(2).all(|w| w[0].id > w[1].id), "newest first");
    compare(&returns, &mut rng, "entered").await;

    for round in 0..2 {
        let mut tx = db.begin().await.unwrap();
        for _ in 0..700 {
            let q = db
                .sql("UPDATE deposit_return_items SET state = ? WHERE id = ?")
                .arg(ReturnItemState::ALL[rng.gen_range(0..ReturnItemState::ALL.len())].as_str())
                .arg(rng.gen_range(1..=total));
            tx.exec().execute(&q).await.unwrap();
        }
        tx.commit_unrecorded().await.unwrap();
        compare(&returns, &mut rng, &format!("moved, round {round}")).await;
        counted::compact(&db, 0).await.unwrap();
        compare(&returns, &mut rng, &format!("moved and folded, round {round}")).await;
    }
    assert_eq!(returns.list(None, 0, 1).await.unwrap().0, 2600, "moves change no count of all");
}
