//! The deposit list's counted buckets (deposits::store::buckets), through the store on both
//! backends: every page of every order, partition and range agrees with a plain count and
//! OFFSET over the same rows — with buckets of four rows, so a few hundred deposits split
//! buckets many times; after creations and moves in any order, from concurrent writers, and
//! before the first rebuild.

use crate::common;

use moneydesk_model::deposits::{DepositAction, DepositStatus, ServiceType};
use moneydesk_server::deposits::store::{DepositRow, DepositStore, ListFilter};
use moneydesk_server::state::Stores;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(
    every_page_agrees_with_a_scan_after_creations_and_moves,
    concurrent_writers_keep_every_count_exact,
    the_first_list_before_a_rebuild_scans_and_starts_one,
);

async fn store_on(backend: Backend) -> (DepositStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = Stores::open(&url).await.expect("stores open");
    (stores.deposits.clone().with_bucket_rows(4), dir)
}

/// A deposit of `amount` cents created at second `second` of one day: few distinct keys, so
/// ties (broken by id) are everywhere, and creation times not in id order.
fn deposit(second: u32, amount: i64, service_type: ServiceType) -> DepositRow {
    let mut row = common::deposits::row(service_type, "001A000001", amount, 0);
    row.created_at = format!("2026-11-20T10:{:02}:{:02}Z", second / 60, second % 60);
    row
}

const TYPES: [ServiceType; 3] = [ServiceType::Check, ServiceType::Cash, ServiceType::CheckScan];

/// Creates `n` deposits and moves some of the earlier ones after each, at random.
async fn write(store: &DepositStore, rng: &mut StdRng, n: usize, ids: &mut Vec<i64>) {
    for _ in 0..n {
        let row = deposit(rng.gen_range(0..40), rng.gen_range(1..30) * 100, TYPES[rng.gen_range(0..TYPES.len())]);
        let created = store.create(&row, None).await.expect("created");
        ids.push(match created {
            moneydesk_server::deposits::store::CreateOutcome::Created(r) => r.id,
            other => panic!("expected a new deposit, got {other:?}"),
        });
        if rng.gen_bool(0.6) {
            let id = ids[rng.gen_range(0..ids.len())];
            let action = DepositAction::ALL[rng.gen_range(0..DepositAction::ALL.len())];
            // Illegal moves are refused and change nothing; the legal ones move the counts.
            let books =
                moneydesk_server::ledger::Books::new(&moneydesk_server::Config::for_tests(std::path::Path::new(".")));
            let _ = store.apply(id, action, "test", Some("paging test"), &books).await;
        }
    }
}

/// Every filter the buckets answer (and one they do not), in both orders and directions.
fn filters() -> Vec<ListFilter> {
    let mut out = Vec::new();
    let statuses: Vec<Option<String>> =
        std::iter::once(None).chain(DepositStatus::ALL.iter().map(|s| Some(s.as_str().to_string()))).collect();
    for status in &statuses {
        for service_type in [None, Some(ServiceType::Check.as_str().to_string())] {
            for sort_amount in [false, true] {
                for desc in [true, false] {
                    for ranged in [false, true] {
                        let mut f = ListFilter {
                            status: status.clone(),
                            service_type: service_type.clone(),
                            sort_amount,
                            desc,
                            ..Default::default()
                        };
                        if ranged && sort_amount {
                            (f.amount_min_cents, f.amount_max_cents) = (Some(700), Some(2100));
                        } else if ranged {
                            (f.created_from, f.created_to) =
                                (Some("2026-11-20T10:00:09Z".into()), Some("2026-11-20T10:00:31Z".into()));
                        }
                        out.push(f);
                    }
                }
            }
        }
    }
    // A payee and a range of the other key: answered by the scan itself.
    out.push(ListFilter { payee_account_id: Some("001A000001".into()), desc: true, ..Default::default() });
    out
}

async fn assert_pages_agree(store: &DepositStore, when: &str) {
    for f in filters() {
        let limit = 7;
        let mut offset = 0;
        loop {
            let (total, rows) = store.list(&f, offset, limit).await.unwrap();
            let (want_total, want) = store.list_by_scanning(&f, offset, limit).await.unwrap();
            let ids = |r: &[DepositRow]| r.iter().map(|d| d.id).collect::<Vec<_>>();
            assert_eq!(total, want_total, "{when}: the total of {f:?}");
            assert_eq!(ids(&rows), ids(&want), "{when}: the page at offset {offset} of {f:?}");
            assert_eq!(rows, want, "{when}: the rows themselves at offset {offset} of {f:?}");
            if offset > total {
                break;
            }
            offset += limit;
        }
    }
}

async fn every_page_agrees_with_a_scan_after_creations_and_moves(backend: Backend) {
    let (store, _dir) = store_on(backend).await;
    store.rebuild_index().await.unwrap();
    let mut rng = StdRng::seed_from_u64(16);
    let mut ids = Vec::new();
    write(&store, &mut rng, 150, &mut ids).await;
    assert_pages_agree(&store, "after 150 writes").await;
    write(&store, &mut rng, 150, &mut ids).await;
    assert_pages_agree(&store, "after 300 writes").await;
    store.rebuild_index().await.unwrap();
    assert_pages_agree(&store, "after a rebuild").await;
}

async fn concurrent_writers_keep_every_count_exact(backend: Backend) {
    let (store, _dir) = store_on(backend).await;
    store.rebuild_index().await.unwrap();
    let writers = (0..6u64).map(|w| {
        let store = store.clone();
        tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(100 + w);
            let mut ids = Vec::new();
            write(&store, &mut rng, 40, &mut ids).await;
        })
    });
    for w in writers.collect::<Vec<_>>() {
        w.await.unwrap();
    }
    let (total, _) = store.list(&ListFilter::default(), 0, 1).await.unwrap();
    assert_eq!(total, 240, "every deposit of every writer is counted once");
    assert_pages_agree(&store, "after six concurrent writers").await;
}

async fn the_first_list_before_a_rebuild_scans_and_starts_one(backend: Backend) {
    let (store, _dir) = store_on(backend).await;
    let mut rng = StdRng::seed_from_u64(7);
    let mut ids = Vec::new();
    // Written before the index is built (as after an upgrade): not counted by the writes.
    write(&store, &mut rng, 60, &mut ids).await;
    assert_pages_agree(&store, "before the rebuild").await;
    // The first list started the rebuild; once it is done, the buckets answer.
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        write(&store, &mut rng, 1, &mut ids).await;
        if built_by_now(&store).await {
            break;
        }
    }
    assert!(built_by_now(&store).await, "the list started a rebuild of the index");
    write(&store, &mut rng, 60, &mut ids).await;
    assert_pages_agree(&store, "after the background rebuild and 60 more writes").await;
}

/// Whether the buckets answer the list (the store's own account of its index).
async fn built_by_now(store: &DepositStore) -> bool {
    store.index_built().await.unwrap()
}
