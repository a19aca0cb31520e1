//! Two server instances on one PostgreSQL database: 32 concurrent clients split between them
//! post adjustments to one hot sleeve account (out of it, into it, and transfers with a few
//! others, so two balance rows are locked at once in both orders) — no update is lost, the
//! books verify, adjustments that would overdraw are refused with 409
//! `insufficient_available`, available is never seen below zero, and the bank account on the
//! other side is moved in parts and whole in its balance. And the hold job racing
//! cancellations on the two instances leaves nothing held of a cancelled deposit.

use crate::common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{json, s3, Server};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::deposits::{DepositAction, ServiceType};
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::store::CreateOutcome;
use moneydesk_server::ledger::jobs::release_due;
use moneydesk_server::ledger::Books;
use moneydesk_server::storage::blobs::BlobConfig;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_decimal::Decimal;
use serde_json::{json, Value};

const CLIENTS: usize = 32;
const REQUESTS: usize = 10;

/// Two instances on one fresh database and bucket, and sleeve accounts opened at `values`
/// (dollars); their ids.
async fn pair(values: &[i64]) -> (Arc<Server>, Arc<Server>, Vec<String>) {
    let url = common::postgres::fresh_database().await;
    let bucket = s3::fresh_bucket();
    let start =
        |url: String, bucket| Server::start_with(move |c| (c.database_url, c.blobs) = (url, BlobConfig::S3(bucket)));
    let a = start(url.clone(), bucket.clone()).await;
    let b = start(url, bucket).await;
    let mut accounts: Vec<_> = Accounts::new(values.len(), 21).collect();
    for (account, value) in accounts.iter_mut().zip(values) {
        account.market_value = Some(Decimal::from(*value));
        account.create_time = LocalDateTime::from_millis(1_577_880_000_000); // 2020: established
    }
    let mut w = a.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    (Arc::new(a), Arc::new(b), accounts.into_iter().map(|a| a.id).collect())
}

/// One accepted adjustment: (debited, credited, cents).
type Accepted = (String, String, i64);

/// A client's adjustments through `s`: mostly out of the hot account, some into it, some
/// transfers between it and another; what was accepted and how many were refused.
async fn client(s: Arc<Server>, token: String, seed: u64, hot: String, others: Vec<String>) -> (Vec<Accepted>, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut accepted, mut refused) = (Vec::new(), 0);
    let posted = |id: &str| format!("sma:{id}:posted");
    for _ in 0..REQUESTS {
        let other = posted(&others[rng.gen_range(0..others.len())]);
        let (debit, credit, cents) = match rng.gen_range(0..8) {
            0..=3 => (posted(&hot), "bank:adjustments".to_string(), rng.gen_range(500..6_000)),
            4 | 5 => ("bank:adjustments".to_string(), posted(&hot), rng.gen_range(100..3_000)),
            6 => (posted(&hot), other, rng.gen_range(100..4_000)),
            _ => (other, posted(&hot), rng.gen_range(100..4_000)),
        };
        let amount = Decimal::new(cents, 2).to_string();
        let body = json!({"debit": debit, "credit": credit, "amount": amount, "reason": "load"});
        let r = s.client.post(s.url(paths::LEDGER_ADJUSTMENTS)).bearer_auth(&token).json(&body).send().await.unwrap();
        let status = r.status().as_u16();
        let answer = json(r).await;
        match status {
            201 => accepted.push((debit, credit, cents)),
            409 => {
                let reason = answer["reason"].as_str();
                assert_eq!(reason, Some("insufficient_available"), "{answer}");
                refused += 1;
            }
            _ => panic!("adjustment {body}: {status} {answer}"),
        }
    }
    (accepted, refused)
}

/// Reads the hot account's balances through both instances until told to stop: available is
/// never below zero. How many reads.
async fn watch(servers: [Arc<Server>; 2], token: String, hot: String, stop: Arc<AtomicBool>) -> usize {
    let path = paths::LEDGER_BALANCES.replace("{accountId}", &hot);
    let mut reads = 0;
    while !stop.load(Ordering::Relaxed) {
        let s = &servers[reads % 2];
        let d: Value = json(s.get_auth(&path, &token).await).await["data"].clone();
        let available: Decimal = d["available"].to_string().trim_matches('"').parse().expect("an amount");
        assert!(available >= Decimal::ZERO && d["negativeAvailable"] == false, "available below zero: {d}");
        reads += 1;
    }
    reads
}

#[tokio::test]
async fn concurrent_adjustments_on_two_instances_lose_no_update_and_never_overdraw() {
    let opening = [500, 100, 100, 100];
    let (a, b, ids) = pair(&opening).await;
    let admin = a.token(&[Scope::Admin]).await;
    let reader = a.token(&[Scope::LedgerRead]).await;
    let (hot, others) = (ids[0].clone(), ids[1..].to_vec());
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = tokio::spawn(watch([a.clone(), b.clone()], reader.clone(), hot.clone(), stop.clone()));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let s = if i % 2 == 0 { a.clone() } else { b.clone() };
            tokio::spawn(client(s, admin.clone(), i as u64, hot.clone(), others.clone()))
        })
        .collect();
    let (mut accepted, mut refused) = (Vec::new(), 0);
    for c in clients {
        let (mine, no) = c.await.expect("a client");
        accepted.extend(mine);
        refused += no;
    }
    stop.store(true, Ordering::Relaxed);
    let reads = watcher.await.expect("the watcher");
    assert!(!accepted.is_empty() && refused > 0, "some accepted ({}), some refused ({refused})", accepted.len());

    // Each sleeve's posted balance is its opening plus what was accepted, to the cent.
    let mut want: BTreeMap<String, i64> = ids.iter().zip(opening).map(|(id, v)| (id.clone(), v * 100)).collect();
    for (debit, credit, cents) in &accepted {
        for (code, sign) in [(debit, -1), (credit, 1)] {
            if let Some(id) = code.strip_prefix("sma:").and_then(|c| c.strip_suffix(":posted")) {
                *want.get_mut(id).unwrap() += sign * cents;
            }
        }
    }
    let ledger = &b.running.state.stores.ledger;
    for (id, cents) in &want {
        let rows = ledger.sleeve(id, None).await.unwrap();
        assert_eq!(rows.posted(), cents * 100, "{id}: opening + accepted adjustments (no lost update)");
        assert!(rows.available() >= 0, "{id}: {rows:?}");
        let account = a.running.state.stores.accounts.get(id).await.unwrap().unwrap();
        assert_eq!(account.market_value, Some(Decimal::new(*cents, 2)), "{id}: marketValue is the posted balance");
    }
    let (mismatches, unbalanced) = ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]), "the books verify");

    // bank:adjustments took the other side of every accepted adjustment with the hot account,
    // in parts (its postings did not take turns on one row), and its balance is them whole.
    let bank = "bank:adjustments";
    let moved: i64 = accepted
        .iter()
        .map(|(debit, credit, cents)| {
            if debit == bank {
                -cents
            } else if credit == bank {
                *cents
            } else {
                0
            }
        })
        .sum();
    let accounts = ledger.accounts(true).await.unwrap();
    let (_, _, balance, _) = accounts.iter().find(|(code, ..)| code == bank).expect("bank:adjustments");
    assert_eq!(*balance, moved * 100, "{bank}: the sum of its parts");
    let db = ledger.database();
    let q = db.sql(
        "SELECT COUNT(*) FROM ledger_balance_parts WHERE account_id = (SELECT id FROM ledger_accounts WHERE code = ?)",
    )
    .arg(bank);
    let parts = db.acquire().await.unwrap().exec().int(&q).await.unwrap();
    assert!(parts > 1, "{bank}: its postings spread over its parts ({parts})");
    eprintln!("{} accepted, {refused} refused, {reads} balance reads, {parts} parts", accepted.len());
}

#[tokio::test]
async fn holds_released_while_their_deposits_are_cancelled_leave_nothing_held() {
    const DEPOSITS: i64 = 60;
    let (a, b, ids) = pair(&[100]).await;
    let sleeve = ids[0].clone();
    let deposits = &a.running.state.stores.deposits;
    let mut confirmed = Vec::new();
    for n in 0..DEPOSITS {
        let CreateOutcome::Created(row) =
            deposits.create(&common::deposits::row(ServiceType::Check, &sleeve, 100_000 + n, 0), None).await.unwrap()
        else {
            panic!()
        };
        deposits.apply(row.id, DepositAction::Confirm, "test", None, &a.running.state.books).await.unwrap();
        confirmed.push(row.id);
    }
    // Every tranche due: both instances' hold jobs run while the deposits are cancelled
    // through both instances.
    let mut config = (*a.running.state.config).clone();
    config.ledger.clock_offset_seconds = 15 * 86_400;
    let later = Books::new(&config);
    let release =
        |s: Arc<Server>, books: Books| async move { release_due(&s.running.state.stores.ledger, &books).await };
    let cancel = |s: Arc<Server>, ids: Vec<i64>| async move {
        for id in ids {
            let books = &s.running.state.books;
            s.running.state.stores.deposits.apply(id, DepositAction::Cancel, "test", None, books).await.unwrap();
        }
    };
    let (evens, odds): (Vec<i64>, Vec<i64>) = confirmed.iter().partition(|id| *id % 2 == 0);
    let (ra, rb, _, _) = tokio::join!(
        release(a.clone(), later.clone()),
        release(b.clone(), later.clone()),
        cancel(a.clone(), evens),
        cancel(b.clone(), odds),
    );
    eprintln!("released {} + {}", ra.unwrap(), rb.unwrap());

    let ledger = &a.running.state.stores.ledger;
    let rows = ledger.sleeve(&sleeve, None).await.unwrap();
    let mut wrong = Vec::new();
    for id in &confirmed {
        let mut nets = BTreeMap::<String, i64>::new();
        for (_, entries) in ledger.deposit_postings(*id).await.unwrap() {
            for e in entries {
                *nets.entry(e.code).or_default() += e.amount;
            }
        }
        nets.retain(|_, n| *n != 0);
        if !nets.is_empty() {
            wrong.push((*id, nets));
        }
    }
    assert_eq!(wrong, vec![], "a cancelled deposit's transactions net to nothing on every ledger account");
    assert_eq!((rows.held(), rows.available()), (0, 100 * 10_000), "nothing held, nothing made available twice");
    let (mismatches, unbalanced) = ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]));
}
