//! Counted ranges (storage::counted, migrations 0028 and 0029) behind the audit trail, the
//! events, the ledger entries and the outbox, through the stores on both backends: every page
//! of every partition agrees with a plain count and OFFSET over the same rows — across several
//! ranges of 1024 keys, after a retention purge and state changes, before and after the counts
//! are folded — and writers running beside the folding never lose a count.

use crate::common;

use moneydesk_model::email::{Delivery, MessageState};
use moneydesk_model::events::EventType;
use moneydesk_model::{Page, PageRequest};
use moneydesk_server::audit::store::{self as audit, Filter as AuditFilter};
use moneydesk_server::email::outbox::store::outbox::{NewMessage, OutboxFilter};
use moneydesk_server::email::outbox::store::{EmailStore, StoredMailbox, StoredMessage, StoredRecipients};
use moneydesk_server::events::store::{self as events, Filter as EventFilter};
use moneydesk_server::ledger::store::{EntryFilter, LedgerStore};
use moneydesk_server::storage::{counted, Database};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use common::Backend;

on_both_backends!(
    every_page_agrees_with_a_scan,
    every_outbox_page_agrees_with_a_scan_as_messages_change_state,
    writers_beside_the_folding_lose_no_count,
);

const USERS: [&str; 3] = ["ana", "ben", "cy"];
const TYPES: [EventType; 3] = [EventType::DepositCreated, EventType::DepositSent, EventType::TokenRevoked];
const ACCOUNTS: [&str; 3] = ["test:a", "test:b", "test:c"];

async fn open(backend: Backend) -> (Database, LedgerStore, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    (stores.database.clone(), stores.ledger.clone(), dir)
}

/// `n` audit records in one transaction, each of a random user (or none) on `day`.
async fn audit_records(db: &Database, rng: &mut StdRng, day: &str, n: usize) {
    let mut q = db.sql("INSERT INTO audit_records (at, day, user_id, operation, outcome) VALUES ");
    for i in 0..n {
        let user = USERS.get(rng.gen_range(0..USERS.len() + 1)).map(|u| u.to_string());
        q.push(if i > 0 { ", " } else { "" });
        q.bind_row([format!("{day}T10:00:00Z").into(), day.into(), user.into(), "test.write".into(), "ok".into()]);
    }
    let mut tx = db.begin().await.unwrap();
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

/// `n` events of random types in one transaction.
async fn some_events(db: &Database, rng: &mut StdRng, n: usize) {
    let mut q = db.sql("INSERT INTO events (id, type, created, api_version, object_type, object_id, data) VALUES ");
    for i in 0..n {
        let kind = TYPES[rng.gen_range(0..TYPES.len())].as_str();
        let id = format!("evt_{}", rng.gen::<u64>());
        q.push(if i > 0 { ", " } else { "" });
        q.bind_row([
            id.into(),
            kind.into(),
            "2026-11-30T10:00:00Z".into(),
            "2026-11-01".into(),
            "deposit".into(),
            "1".into(),
            "{}".into(),
        ]);
    }
    let mut tx = db.begin().await.unwrap();
    tx.exec().execute(&q).await.unwrap();
    tx.commit_unrecorded().await.unwrap();
}

/// `n` balanced ledger transactions, each moving 1 between two random test accounts.
async fn ledger_postings(db: &Database, rng: &mut StdRng, first_tx: i64, n: i64) {
    let mut tx = db.begin().await.unwrap();
    for t in first_tx..first_tx + n {
        let from = rng.gen_range(0..ACCOUNTS.len());
        let to = (from + rng.gen_range(1..ACCOUNTS.len())) % ACCOUNTS.len();
        let mut q =
            db.sql("INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after, at_ms) VALUES ");
        for (i, (account, amount)) in [(from, -1i64), (to, 1)].into_iter().enumerate() {
            q.push(if i > 0 { ", " } else { "" })
                .push("(")
                .bind(t)
                .push(", (SELECT id FROM ledger_accounts WHERE code = ");
            q.bind(ACCOUNTS[account]).push("), ").bind(amount).push(", 0, ").bind(t).push(")");
        }
        tx.exec().execute(&q).await.unwrap();
        let q = db
            .sql("INSERT INTO ledger_transactions (id, kind, at_ms, actor) VALUES (?, 'adjustment', ?, 'test')")
            .arg(t)
            .arg(t);
        tx.exec().execute(&q).await.unwrap();
    }
    tx.commit_unrecorded().await.unwrap();
}

async fn chart(db: &Database) {
    for code in ACCOUNTS {
        let q = db.sql("INSERT INTO ledger_accounts (code, kind, normal) VALUES (?, 'test', 'credit')").arg(code);
        db.acquire().await.unwrap().exec().execute(&q).await.unwrap();
    }
}

/// Offsets worth asking for in a list of `total`: the ends, around range edges, at random.
pub(crate) fn offsets(rng: &mut StdRng, total: i64) -> Vec<i64> {
    let mut out = vec![0, 1, total - 1, total, total + 5];
    out.extend((0..12).map(|_| rng.gen_range(0..total.max(1) + 3)));
    out.into_iter().filter(|o| *o >= 0).collect()
}

async fn compare_everything(db: &Database, ledger: &LedgerStore, rng: &mut StdRng, when: &str) {
    let users = std::iter::once(None).chain(USERS.iter().map(|u| Some(u.to_string())));
    for user_id in users {
        let f = AuditFilter { user_id: user_id.clone(), ..Default::default() };
        let (total, _) = audit::list_by_scanning(db, &f, 0, 1).await.unwrap();
        for offset in offsets(rng, total) {
            let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
            let got = audit::list(db, &f, offset, limit).await.unwrap();
            let want = audit::list_by_scanning(db, &f, offset, limit).await.unwrap();
            let ids = |p: &(i64, Vec<moneydesk_model::audit::AuditRecord>)| {
                (p.0, p.1.iter().map(|r| r.id).collect::<Vec<_>>())
            };
            assert_eq!(ids(&got), ids(&want), "{when}: audit of {user_id:?}, offset {offset}, limit {limit}");
        }
    }
    for types in [vec![TYPES[0]], vec![TYPES[1], TYPES[2]], TYPES.to_vec()] {
        let f = EventFilter { types: types.clone(), ..Default::default() };
        let (total, _) = events::list_by_scanning(db, &f, 0, 1).await.unwrap();
        for offset in offsets(rng, total) {
            let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
            let got = events::list(db, &f, offset, limit).await.unwrap();
            let want = events::list_by_scanning(db, &f, offset, limit).await.unwrap();
            let ids = |p: &(i64, Vec<moneydesk_model::events::Event>)| {
                (p.0, p.1.iter().map(|e| e.id.clone()).collect::<Vec<_>>())
            };
            assert_eq!(ids(&got), ids(&want), "{when}: events of {types:?}, offset {offset}, limit {limit}");
        }
    }
    for codes in [vec![ACCOUNTS[0]], vec![ACCOUNTS[1], ACCOUNTS[2]], ACCOUNTS.to_vec(), vec!["test:none"]] {
        let f = EntryFilter { codes: codes.iter().map(|c| c.to_string()).collect(), ..Default::default() };
        let (total, _) = ledger.entries_by_scanning(&f, 0, 1).await.unwrap();
        for offset in offsets(rng, total) {
            let limit = [1, 7, 20, 100][rng.gen_range(0..4)];
            let got = ledger.entries(&f, offset, limit).await.unwrap();
            let want = ledger.entries_by_scanning(&f, offset, limit).await.unwrap();
            assert_eq!(got, want, "{when}: entries of {codes:?}, offset {offset}, limit {limit}");
        }
    }
}

/// Pages of every partition, deep and shallow, against count and OFFSET: while the counts are
/// one row a write, once folded, after more writes, after a purged day.
async fn every_page_agrees_with_a_scan(backend: Backend) {
    let (db, ledger, _dir) = open(backend).await;
    let mut rng = StdRng::seed_from_u64(50);
    chart(&db).await;
    for round in 0..6 {
        let day = format!("2026-11-{:02}", 20 + round);
        audit_records(&db, &mut rng, &day, 500).await;
        some_events(&db, &mut rng, 450).await;
    }
    ledger_postings(&db, &mut rng, 1, 1300).await;
    compare_everything(&db, &ledger, &mut rng, "unfolded").await;

    // In turns of 500 count rows (the server's are 20,000): a range's rows folded in one turn
    // and its later rows in another still add up.
    counted::compact_by(&db, 0, 500).await.unwrap();
    compare_everything(&db, &ledger, &mut rng, "folded").await;
    for table in ["audit", "events", "ledger"] {
        let rows = counted::rows_of(&db, table).await.unwrap();
        assert!(rows < 30, "{table}: folded into one row per partition and range, not {rows}");
    }

    audit_records(&db, &mut rng, "2026-11-30", 300).await;
    some_events(&db, &mut rng, 300).await;
    ledger_postings(&db, &mut rng, 2000, 300).await;
    // Retention removes the oldest day whole, once its purge is on record.
    let purge = db
        .sql("INSERT INTO audit_purges (day, purged_at, records, last_hash) VALUES ('2026-11-20', '2026-11-30T00:00:00Z', 500, NULL)");
    db.acquire().await.unwrap().exec().execute(&purge).await.unwrap();
    db.execute("DELETE FROM audit_records WHERE day = '2026-11-20'").await.unwrap();
    compare_everything(&db, &ledger, &mut rng, "written and purged after folding").await;
    counted::compact(&db, 0).await.unwrap();
    compare_everything(&db, &ledger, &mut rng, "folded again").await;
}

/// Four writers add audit records in small transactions while two folders (as two instances
/// would) fold the counts over and over: at the end every partition's total is its count(*).
async fn writers_beside_the_folding_lose_no_count(backend: Backend) {
    let (db, _ledger, _dir) = open(backend).await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let folders: Vec<_> = (0..2)
        .map(|_| {
            let (db, stop) = (db.clone(), stop.clone());
            tokio::spawn(async move {
                let mut seen = 0;
                let mut folds = 0;
                while !stop.load(std::sync::atomic::Ordering::Acquire) {
                    seen = counted::compact(&db, seen).await.expect("fold");
                    folds += 1;
                }
                folds
            })
        })
        .collect();
    let writers: Vec<_> = (0..4u64)
        .map(|w| {
            let db = db.clone();
            tokio::spawn(async move {
                let mut rng = StdRng::seed_from_u64(w);
                for _ in 0..40 {
                    let n = rng.gen_range(1..40);
                    audit_records(&db, &mut rng, "2026-11-30", n).await;
                }
            })
        })
        .collect();
    for w in writers {
        w.await.unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Release);
    for folder in folders {
        assert!(folder.await.unwrap() > 1, "the counts were folded while the writers wrote");
    }
    for user_id in std::iter::once(None).chain(USERS.iter().map(|u| Some(u.to_string()))) {
        let f = AuditFilter { user_id: user_id.clone(), ..Default::default() };
        let scanned = audit::list_by_scanning(&db, &f, 0, 1).await.unwrap().0;
        assert!(scanned > 0);
        assert_eq!(audit::list(&db, &f, 0, 1).await.unwrap().0, scanned, "{user_id:?}");
    }
}

/// A request of `n` messages, queued.
fn request(rng: &mut StdRng, n: u32) -> Vec<NewMessage> {
    let batch = format!("req_{:016x}", rng.gen::<u64>());
    (0..n)
        .map(|index| {
            let id = format!("msg_{:016x}", rng.gen::<u64>());
            let to = StoredMailbox { email: format!("r{index}@example.com"), name: None };
            NewMessage {
                message: StoredMessage {
                    id: id.clone(),
                    batch_id: batch.clone(),
                    index,
                    message_id: format!("{id}@moneydesk.test"),
                    date_header: "Mon, 30 Nov 2026 10:00:00 +0000".into(),
                    from: StoredMailbox { email: "ops@example.com".into(), name: None },
                    reply_to: None,
                    recipients: StoredRecipients { to: vec![to], ..Default::default() },
                    subject: format!("message {index}"),
                    text: Some("hello".into()),
                    html: None,
                    attachments: Vec::new(),
                    categories: Vec::new(),
                    template_id: None,
                    template_version: None,
                },
                state: MessageState::Queued,
                delivery: Delivery::Mailbox,
                created_by: "ops".into(),
                created_at: "2026-11-30T10:00:00.000Z".into(),
                send_at: None,
                next_attempt_at: "2026-11-30T10:00:00.000Z".into(),
            }
        })
        .collect()
}

async fn compare_outbox(email: &EmailStore, rng: &mut StdRng, when: &str) {
    use MessageState::*;
    for states in [vec![], vec![Sent], vec![Queued, Failed], vec![Deferred]] {
        let f = OutboxFilter { states: states.clone(), ..Default::default() };
        let total = email.list_by_scanning(&f, PageRequest { index: 0, size: 1 }).await.unwrap().total_elements as i64;
        for offset in offsets(rng, total) {
            let size = [1u32, 7, 20, 100][rng.gen_range(0..4)];
            let page = PageRequest { index: (offset / i64::from(size)) as u64, size };
            let got = email.list(&f, page).await.unwrap();
            let want = email.list_by_scanning(&f, page).await.unwrap();
            let ids = |p: &Page<moneydesk_model::email::OutboxMessage>| {
                (p.total_elements, p.content.iter().map(|m| m.id.clone()).collect::<Vec<_>>())
            };
            assert_eq!(ids(&got), ids(&want), "{when}: outbox of {states:?}, page {page:?}");
        }
    }
}

/// Requests of one to five messages, then random moves between states (each a count moved
/// from one state's partition to another's): pages by state and of all agree with a scan, and
/// a request's messages read in personalization order.
async fn every_outbox_page_agrees_with_a_scan_as_messages_change_state(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let stores = moneydesk_server::state::Stores::open(&url).await.expect("stores open");
    let (db, email) = (stores.database.clone(), stores.email.clone());
    let mut rng = StdRng::seed_from_u64(29);
    let mut ids = Vec::new();
    while ids.len() < 2600 {
        let n = rng.gen_range(1..6);
        let messages = request(&mut rng, n);
        ids.extend(messages.iter().map(|m| m.message.id.clone()));
        email.insert(&messages).await.unwrap();
    }
    let newest = email.list(&OutboxFilter::default(), PageRequest { index: 0, size: 100 }).await.unwrap();
    let first_batch: Vec<_> =
        newest.content.iter().take_while(|m| m.batch_id == newest.content[0].batch_id).map(|m| m.index).collect();
    assert_eq!(first_batch, (0..first_batch.len() as u32).collect::<Vec<_>>(), "personalization order");
    compare_outbox(&email, &mut rng, "queued").await;

    let states = ["sent", "failed", "deferred", "sending", "queued"];
    for round in 0..2 {
        let mut tx = db.begin().await.unwrap();
        for _ in 0..900 {
            let q = db
                .sql("UPDATE email_messages SET state = ? WHERE id = ?")
                .arg(states[rng.gen_range(0..states.len())])
                .arg(ids[rng.gen_range(0..ids.len())].as_str());
            tx.exec().execute(&q).await.unwrap();
        }
        tx.commit_unrecorded().await.unwrap();
        compare_outbox(&email, &mut rng, &format!("moved, round {round}")).await;
        counted::compact(&db, 0).await.unwrap();
        compare_outbox(&email, &mut rng, &format!("moved and folded, round {round}")).await;
    }
}
