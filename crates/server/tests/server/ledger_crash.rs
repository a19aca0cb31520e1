//! `kill -9` of the server binary while clients confirm deposits, then a look at the data
//! (through the stores, the server down) and a restart on it, several rounds: the books verify,
//! every deposit in Confirmed_2 has exactly its confirmation transaction (and its hold
//! tranches), every one still In_Progress_1 has none, and each sleeve's pending and held
//! balances are what the confirmed deposits say — a move and its postings commit together or
//! not at all. On SQLite and on PostgreSQL.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::process::{start, Process};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::store::CreateOutcome;
use moneydesk_server::state::Stores;
use serde_json::json;

const DEPOSITS: usize = 150;
const ROUNDS: usize = 3;
/// Concurrent confirming clients.
const CLIENTS: usize = 4;
const KINDS: [ServiceType; 3] = [ServiceType::Check, ServiceType::ElectronicDeposit, ServiceType::Cash];

struct Seeded {
    token: String,
    sleeves: Vec<(String, i64)>,
    /// (id, sleeve index, net of fee in units)
    deposits: Vec<(i64, usize, i64)>,
}

/// Two sleeve accounts, `DEPOSITS` deposits In_Progress_1 to them, an admin token.
async fn seed(url: &str) -> Seeded {
    let stores = Stores::open(url).await.expect("stores open");
    let mut accounts: Vec<_> = Accounts::new(2, 9).collect();
    for a in &mut accounts {
        a.market_value = Some(rust_decimal::Decimal::from(250));
        a.create_time = LocalDateTime::from_millis(1_577_880_000_000);
    }
    let mut w = stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let mut deposits = Vec::new();
    for n in 0..DEPOSITS {
        let sleeve = n % 2;
        let (amount, fee) = (1_000 + 997 * n as i64, (n % 4) as i64 * 50);
        let row = common::deposits::row(KINDS[n % 3], &accounts[sleeve].id, amount, fee);
        let CreateOutcome::Created(r) = stores.deposits.create(&row, None).await.unwrap() else { panic!("created") };
        deposits.push((r.id, sleeve, (amount - fee) * 100));
    }
    let token = stores.tokens.create("ops", &[Scope::Admin], None).await.unwrap().token;
    let sleeves = accounts.into_iter().map(|a| (a.id, 250 * 10_000)).collect();
    Seeded { token, sleeves, deposits }
}

/// Confirms `ids` through `p`, `CLIENTS` at a time, counting the confirmations answered.
fn confirm_all(p: &Process, token: &str, ids: Vec<i64>, done: Arc<AtomicUsize>) -> Vec<tokio::task::JoinHandle<()>> {
    let ids = Arc::new(ids);
    (0..CLIENTS)
        .map(|c| {
            let (base, token, ids, done) = (p.base.clone(), token.to_string(), ids.clone(), done.clone());
            tokio::spawn(async move {
                let client = reqwest::Client::new();
                for id in ids.iter().skip(c).step_by(CLIENTS) {
                    let url = format!("{base}{}", paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string()));
                    let sent = client.post(url).bearer_auth(&token).json(&json!({"action": "confirm"})).send().await;
                    match sent {
                        Ok(r) if r.status().as_u16() == 200 => drop(done.fetch_add(1, Ordering::SeqCst)),
                        Ok(r) => panic!("confirm {id}: {} {}", r.status(), r.text().await.unwrap_or_default()),
                        Err(_) => return, // the server is gone
                    }
                }
            })
        })
        .collect()
}

/// Checks the data after a kill; the deposits still In_Progress_1.
async fn check(url: &str, s: &Seeded) -> Vec<i64> {
    let stores = Stores::open(url).await.expect("stores open after the kill");
    let (mismatches, unbalanced) = stores.ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]), "the books verify after kill -9");
    let mut pending: BTreeMap<usize, i64> = BTreeMap::new();
    let mut left = Vec::new();
    for &(id, sleeve, net) in &s.deposits {
        let row = stores.deposits.get(id).await.unwrap().unwrap();
        let txs = stores.ledger.deposit_postings(id).await.unwrap();
        let kinds: Vec<&str> = txs.iter().map(|(t, _)| t.kind.as_str()).collect();
        let holds: i64 = stores.ledger.holds(None, Some(id)).await.unwrap().iter().map(|h| h.amount).sum();
        let held = if row.service_type == ServiceType::Cash.as_str() { 0 } else { net };
        if row.status == DepositStatus::Confirmed.as_str() {
            assert_eq!(kinds, ["deposit_confirmed"], "deposit {id} confirmed: its confirmation, once");
            assert_eq!(holds, held, "deposit {id} confirmed: its hold tranches");
            *pending.entry(sleeve).or_default() += net;
        } else {
            assert_eq!(row.status, DepositStatus::InProgress.as_str(), "deposit {id}");
            assert!(kinds.is_empty() && holds == 0, "deposit {id} not confirmed, yet posted: {kinds:?}, {holds}");
            left.push(id);
        }
    }
    let tranches = stores.ledger.holds(None, None).await.unwrap();
    for (i, (sleeve, opening)) in s.sleeves.iter().enumerate() {
        let rows = stores.ledger.sleeve(sleeve, None).await.unwrap();
        let open: i64 = tranches.iter().filter(|h| &h.account_id == sleeve).map(|h| h.amount).sum();
        assert_eq!(rows.pending(), opening + pending.get(&i).copied().unwrap_or(0), "{sleeve}: pending");
        assert_eq!(rows.held(), open, "{sleeve}: held is its tranches");
    }
    left
}

async fn kill_while_confirming(data_dir: &Path, url: &str, env: Vec<(&'static str, String)>) {
    let seeded = seed(url).await;
    let mut left: Vec<i64> = seeded.deposits.iter().map(|d| d.0).collect();
    for round in 0..ROUNDS {
        let server = start(data_dir, &env).await;
        let done = Arc::new(AtomicUsize::new(0));
        let clients = confirm_all(&server, &seeded.token, left.clone(), done.clone());
        // Killed once some confirmations are answered, with others in flight.
        let goal = 10 + 5 * round;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while done.load(Ordering::SeqCst) < goal {
            assert!(std::time::Instant::now() < deadline, "no progress");
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        server.kill_9();
        for c in clients {
            c.await.expect("a client");
        }
        let answered = done.load(Ordering::SeqCst);
        let now = check(url, &seeded).await;
        let confirmed = left.len() - now.len();
        assert!(confirmed >= answered, "every answered confirmation is kept: {answered} answered, {confirmed} kept");
        assert!(!now.is_empty(), "killed mid-way (round {round})");
        eprintln!("round {round}: {answered} answered, {confirmed} confirmed, {} left", now.len());
        left = now;
    }
    // A last restart confirms the rest.
    let server = start(data_dir, &env).await;
    let done = Arc::new(AtomicUsize::new(0));
    for c in confirm_all(&server, &seeded.token, left.clone(), done.clone()) {
        c.await.expect("a client");
    }
    assert_eq!(done.load(Ordering::SeqCst), left.len(), "the rest confirmed after the restart");
    server.kill_9();
    assert_eq!(check(url, &seeded).await, Vec::<i64>::new());
}

#[tokio::test]
async fn a_kill_while_confirming_leaves_each_deposit_wholly_posted_or_not_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = moneydesk_server::Config::for_tests(dir.path()).database_url;
    kill_while_confirming(dir.path(), &url, vec![]).await;
}

#[tokio::test]
async fn a_kill_while_confirming_leaves_each_deposit_wholly_posted_or_not_on_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let url = common::postgres::fresh_database().await;
    kill_while_confirming(dir.path(), &url, vec![("MONEYDESK_DATABASE_URL", url.clone())]).await;
}
