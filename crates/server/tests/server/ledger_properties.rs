//! Property: any sequence of deposits (check, electronic, cash) to a few sleeve accounts, their
//! moves (confirm, reject, cancel, send, settle, return), the scheduled jobs (`release_due`,
//! `settle_due`) with the books' clock moved on, and manual adjustments keeps the books: every
//! transaction balanced and every balance row equal to its entries (`verify`), the held
//! balance equal to the open hold tranches, available never below zero (but after a reversal
//! of funds that had been available, or a return, which charges fees), the posted balance the
//! account record's marketValue, each deposit's postings netting to what its status says, and
//! a replay of the entries rebuilding every balance row and running balance. Driven through
//! the stores (no HTTP), on both backends.

use crate::common;

use std::collections::BTreeMap;

use common::Backend;
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::deposits::{DepositAction, DepositStatus, ServiceType};
use moneydesk_model::ledger::{LedgerAccountKind as K, PostingKind};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::settlement::settle_due;
use moneydesk_server::deposits::store::CreateOutcome;
use moneydesk_server::ledger::chart::Code;
use moneydesk_server::ledger::jobs::release_due;
use moneydesk_server::ledger::store::{EntryFilter, Leg, PostError, Posting};
use moneydesk_server::ledger::Books;
use moneydesk_server::state::Stores;
use moneydesk_server::Config;
use proptest::prelude::*;
use proptest::sample::Index;
use rust_decimal::Decimal;

const SLEEVES: usize = 3;

#[derive(Debug, Clone)]
enum Op {
    Deposit {
        kind: ServiceType,
        sleeve: usize,
        amount_cents: i64,
        fee_cents: i64,
    },
    /// One of the moves the deposit's status allows, the first (onward: confirm, send, settle,
    /// return) when `onward`; a refused one when it is final.
    Move {
        deposit: Index,
        onward: bool,
        choice: Index,
    },
    /// The books' clock moves on by days.
    Tick {
        days: i64,
    },
    ReleaseDue,
    SettleDue,
    /// Cents into (positive) or out of (negative) the sleeve's posted or pending account.
    Adjust {
        sleeve: usize,
        pending: bool,
        cents: i64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let kind = prop_oneof![Just(ServiceType::Check), Just(ServiceType::ElectronicDeposit), Just(ServiceType::Cash)];
    // Mostly small; some above the large-deposit threshold ($6,725).
    let amount = prop_oneof![3 => 1..60_000i64, 1 => 60_000..1_500_000i64];
    prop_oneof![
        2 => (kind, 0..SLEEVES, amount, 0..=500i64).prop_map(|(kind, sleeve, amount_cents, fee)| Op::Deposit {
            kind, sleeve, amount_cents, fee_cents: fee.min(amount_cents)
        }),
        8 => (any::<Index>(), prop::bool::weighted(0.7), any::<Index>())
            .prop_map(|(deposit, onward, choice)| Op::Move { deposit, onward, choice }),
        1 => (1..4i64).prop_map(|days| Op::Tick { days }),
        1 => Just(Op::ReleaseDue),
        1 => Just(Op::SettleDue),
        2 => (0..SLEEVES, any::<bool>(), -90_000..40_000i64).prop_map(|(sleeve, pending, cents)| Op::Adjust {
            sleeve, pending, cents: if cents == 0 { 1 } else { cents }
        }),
    ]
}

struct Dep {
    id: i64,
    sleeve: usize,
    kind: ServiceType,
    amount_cents: i64,
    fee_cents: i64,
}

struct World {
    stores: Stores,
    config: Config,
    sleeves: Vec<String>,
    deposits: Vec<Dep>,
    day: i64,
    /// Sleeves that saw a reversal of funds once available, or a return (its fees): their
    /// available balance may go below zero.
    overdrawable: [bool; SLEEVES],
    _dir: tempfile::TempDir,
}

impl World {
    async fn new(backend: Backend) -> World {
        let dir = tempfile::tempdir().unwrap();
        let url = backend.database_url(dir.path()).await;
        let stores = Stores::open(&url).await.expect("stores open");
        let mut accounts: Vec<_> = Accounts::new(SLEEVES, 5).collect();
        let old = LocalDateTime::from_millis(1_577_880_000_000); // 2020: an established account
        let new = LocalDateTime::from_millis(chrono::Utc::now().timestamp_millis() - 5 * 86_400_000);
        // A sleeve with a value, one without (no posted ledger account yet), a new one.
        let values = [Some(Decimal::new(50_000, 2)), None, Some(Decimal::new(1_234_567, 2))];
        for (a, (value, created)) in accounts.iter_mut().zip(values.into_iter().zip([old, old, new])) {
            a.market_value = value;
            a.create_time = created;
        }
        let mut w = stores.accounts.writer().await.unwrap();
        w.insert(&accounts).await.unwrap();
        w.commit().await.unwrap();
        let sleeves = accounts.into_iter().map(|a| a.id).collect();
        World {
            stores,
            config: Config::for_tests(dir.path()),
            sleeves,
            deposits: Vec::new(),
            day: 0,
            overdrawable: [false; SLEEVES],
            _dir: dir,
        }
    }

    fn books(&self) -> Books {
        let mut c = self.config.clone();
        c.ledger.clock_offset_seconds = self.day * 86_400;
        Books::new(&c)
    }

    async fn run(&mut self, op: &Op) {
        let books = self.books();
        match *op {
            Op::Deposit { kind, sleeve, amount_cents, fee_cents } => {
                let row = common::deposits::row(kind, &self.sleeves[sleeve], amount_cents, fee_cents);
                let id = match self.stores.deposits.create(&row, None).await.expect("created") {
                    CreateOutcome::Created(r) => r.id,
                    other => panic!("expected a new deposit, got {other:?}"),
                };
                self.deposits.push(Dep { id, sleeve, kind, amount_cents, fee_cents });
            }
            Op::Move { deposit, onward, choice } => {
                if self.deposits.is_empty() {
                    return;
                }
                let d = deposit.get(&self.deposits);
                let from = self.status(d.id).await;
                let allowed = from.allowed();
                let pick = if onward { allowed.first() } else { (!allowed.is_empty()).then(|| choice.get(allowed)) };
                let Some(&action) = pick else {
                    let refused = self.stores.deposits.apply(d.id, DepositAction::Confirm, "p", None, &books).await;
                    assert!(refused.is_err(), "a final deposit does not move");
                    return;
                };
                let holds = self.stores.ledger.holds(None, Some(d.id)).await.unwrap();
                let was_available = d.kind == ServiceType::Cash || holds.iter().any(|h| h.released_tx.is_some());
                let reversal = matches!(action, DepositAction::Reject | DepositAction::Cancel) && was_available;
                if action == DepositAction::Return || (from == DepositStatus::Confirmed && reversal) {
                    self.overdrawable[d.sleeve] = true;
                }
                let (id, reason) = (d.id, Some("property test"));
                self.stores.deposits.apply(id, action, "p", reason, &books).await.expect("an allowed move");
            }
            Op::Tick { days } => self.day += days,
            Op::ReleaseDue => drop(release_due(&self.stores.ledger, &books).await.expect("holds released")),
            Op::SettleDue => drop(settle_due(&self.stores.deposits, &books).await.expect("items settled")),
            Op::Adjust { sleeve, pending, cents } => self.adjust(&books, sleeve, pending, cents).await,
        }
    }

    async fn adjust(&self, books: &Books, sleeve: usize, pending: bool, cents: i64) {
        let id = &self.sleeves[sleeve];
        let code = Code::sleeve(id, if pending { K::Pending } else { K::Posted });
        let bank = Code::bank(K::Adjustments);
        let units = cents.abs() * 100;
        let mut p = Posting::new(PostingKind::Adjustment, "admin");
        p.memo = Some("property test".into());
        p.legs = if cents < 0 {
            vec![Leg::debit(code, units), Leg::credit(bank, units)]
        } else {
            vec![Leg::debit(bank, units), Leg::credit(code, units)]
        };
        p.guard_available = true;
        let before = self.stores.ledger.sleeve(id, None).await.unwrap();
        let result = self.stores.ledger.post_at(&p, books.now_ms()).await;
        let after = self.stores.ledger.sleeve(id, None).await.unwrap();
        match result {
            Ok(Some(_)) => assert!(
                cents > 0 || after.available() >= 0,
                "an adjustment out of {id} left available at {} ({before:?} → {after:?})",
                after.available()
            ),
            Err(PostError::Insufficient { .. }) => {
                assert!(cents < 0 && before.available() - units < 0, "refused only when it overdraws: {before:?}");
                assert_eq!(before, after, "a refused adjustment leaves nothing");
            }
            other => panic!("adjustment of {cents} cents to {id}: {other:?}"),
        }
    }

    async fn status(&self, id: i64) -> DepositStatus {
        let row = self.stores.deposits.get(id).await.unwrap().expect("the deposit");
        DepositStatus::parse(&row.status).expect("a known status")
    }
}

/// What a deposit's transactions must net to on each ledger account in `status` (the table in
/// `ledger/chart.rs`), `open` being its hold tranches neither released nor cancelled.
fn expected_nets(d: &Dep, sleeve: &str, status: DepositStatus, open: i64, returned_fee: i64) -> BTreeMap<String, i64> {
    let (a, f) = (d.amount_cents * 100, d.fee_cents * 100);
    let s = |k| Code::sleeve(sleeve, k).as_str().to_string();
    let b = |k| Code::bank(k).as_str().to_string();
    let clearing = if d.kind == ServiceType::ElectronicDeposit { K::ClearingAch } else { K::ClearingX9 };
    let held = [(s(K::Held), -open), (b(K::Holds), open)];
    let cash = d.kind == ServiceType::Cash;
    let nets: Vec<(String, i64)> = match status {
        DepositStatus::InProgress | DepositStatus::Rejected | DepositStatus::Cancelled => vec![],
        DepositStatus::Returned => vec![(s(K::Posted), -f - returned_fee), (b(K::FeeIncome), f + returned_fee)],
        _ if cash => vec![(b(K::CashVault), -a), (s(K::Posted), a - f), (b(K::FeeIncome), f)],
        DepositStatus::Confirmed => {
            vec![(b(K::ItemsInProcess), -a), (s(K::Pending), a - f), (b(K::FeeIncomePending), f)]
        }
        DepositStatus::Sent => vec![(b(clearing), -a), (s(K::Pending), a - f), (b(K::FeeIncomePending), f)],
        DepositStatus::Settled => vec![(b(K::Settlement), -a), (s(K::Posted), a - f), (b(K::FeeIncome), f)],
    };
    let with_holds = matches!(status, DepositStatus::Confirmed | DepositStatus::Sent | DepositStatus::Settled);
    let holds = if with_holds && !cash { held.to_vec() } else { vec![] };
    nets.into_iter().chain(holds).filter(|(_, n)| *n != 0).collect()
}

/// The invariants, after every operation.
async fn check(w: &World) {
    let ledger = &w.stores.ledger;
    let (mismatches, unbalanced) = ledger.verify().await.unwrap();
    assert_eq!(
        (mismatches, unbalanced),
        (vec![], vec![]),
        "every balance row equals its entries, every transaction balances"
    );
    let holds = ledger.holds(None, None).await.unwrap();
    let open = |h: &&moneydesk_server::ledger::store::HoldRow| h.released_tx.is_none() && h.cancelled_tx.is_none();
    for (i, id) in w.sleeves.iter().enumerate() {
        let rows = ledger.sleeve(id, None).await.unwrap();
        let held: i64 = holds.iter().filter(open).filter(|h| &h.account_id == id).map(|h| h.amount).sum();
        assert_eq!(rows.held(), held, "{id}: the held balance is its open hold tranches");
        assert!(w.overdrawable[i] || rows.available() >= 0, "{id}: available below zero: {rows:?}");
        let account = w.stores.accounts.get(id).await.unwrap().expect("the account");
        let value = account.market_value.unwrap_or_default();
        assert_eq!(value, Decimal::new(rows.posted(), 4), "{id}: marketValue is the posted balance");
    }
    for d in &w.deposits {
        let status = w.status(d.id).await;
        let mine: Vec<_> = holds.iter().filter(|h| h.deposit_id == d.id).collect();
        let open_amount: i64 = mine.iter().copied().filter(open).map(|h| h.amount).sum();
        let sleeve = &w.sleeves[d.sleeve];
        let want = expected_nets(d, sleeve, status, open_amount, w.config.ledger.returned_item_fee_cents * 100);
        let mut got = BTreeMap::<String, i64>::new();
        for (_, entries) in ledger.deposit_postings(d.id).await.unwrap() {
            for e in entries {
                *got.entry(e.code).or_default() += e.amount;
            }
        }
        got.retain(|_, n| *n != 0);
        assert_eq!(got, want, "deposit {} ({:?}, {status:?}) nets to what its status says", d.id, d.kind);
    }
}

/// Replays every entry in order: each running balance, and each balance row (a sleeve's, or a
/// part of a bank account's: -1 is the account's own row) and count, rebuilt.
async fn replay(w: &World) {
    let db = &w.stores.database;
    let q = db.sql("SELECT account_id, COALESCE(part, -1), amount, balance_after FROM ledger_entries ORDER BY id");
    let entries: Vec<(i64, i64, i64, i64)> = db.acquire().await.unwrap().exec().rows(&q).await.unwrap();
    let mut rebuilt = BTreeMap::<(i64, i64), (i64, i64)>::new();
    for (account, part, amount, balance_after) in entries {
        let (balance, count) = rebuilt.entry((account, part)).or_default();
        *balance += amount;
        *count += 1;
        assert_eq!(*balance, balance_after, "ledger account {account} part {part}: the running balance replays");
    }
    let q = db.sql(
        "SELECT id, -1, balance, entry_count FROM ledger_accounts \
         UNION ALL SELECT account_id, part, balance, entry_count FROM ledger_balance_parts",
    );
    let rows: Vec<(i64, i64, i64, i64)> = db.acquire().await.unwrap().exec().rows(&q).await.unwrap();
    let rows: BTreeMap<(i64, i64), (i64, i64)> = rows.into_iter().map(|(id, p, b, n)| ((id, p), (b, n))).collect();
    rebuilt.retain(|_, (b, n)| *b != 0 || *n != 0);
    let mut kept = rows.clone();
    kept.retain(|_, (b, n)| *b != 0 || *n != 0);
    assert_eq!(kept, rebuilt, "the balance rows are the entries replayed");

    // A bank account whole: its balance (row plus parts) and each entry's running balance as
    // the API answers it are the sums of the account's entries up to it.
    let q = db.sql(
        "SELECT a.code, e.amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         WHERE a.owner IS NULL ORDER BY e.at_ms, e.id",
    );
    let bank: Vec<(String, i64)> = db.acquire().await.unwrap().exec().rows(&q).await.unwrap();
    let mut running = BTreeMap::<String, Vec<i64>>::new();
    for (code, amount) in bank {
        let sums = running.entry(code).or_default();
        sums.push(sums.last().copied().unwrap_or(0) + amount);
    }
    for (code, _, balance, n) in w.stores.ledger.accounts(true).await.unwrap() {
        let sums = running.get(&code).cloned().unwrap_or_default();
        assert_eq!((balance, n), (sums.last().copied().unwrap_or(0), sums.len() as i64), "{code}: its balance whole");
    }
    for (code, sums) in &running {
        let f = EntryFilter { codes: vec![code.clone()], ..EntryFilter::default() };
        let (total, page) = w.stores.ledger.entries(&f, 0, sums.len() as i64).await.unwrap();
        assert_eq!(total, sums.len() as i64, "{code}: its entries counted");
        let got: Vec<i64> = page.iter().rev().map(|e| e.balance_after).collect();
        assert_eq!(&got, sums, "{code}: each entry's running balance, newest first");
    }
}

async fn property(backend: Backend, ops: Vec<Op>) {
    let mut w = World::new(backend).await;
    check(&w).await;
    for op in &ops {
        w.run(op).await;
        check(&w).await;
    }
    // The rest of the way: every hold due, every sent item settled, then the replay.
    w.day += 15;
    w.run(&Op::ReleaseDue).await;
    w.run(&Op::SettleDue).await;
    check(&w).await;
    replay(&w).await;
}

fn run(backend: Backend, ops: Vec<Op>) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(property(backend, ops));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, max_shrink_iters: 300, ..ProptestConfig::default() })]
    #[test]
    fn any_sequence_of_moves_jobs_and_adjustments_keeps_the_books_on_sqlite(ops in prop::collection::vec(op(), 8..40)) {
        run(Backend::Sqlite, ops);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, max_shrink_iters: 60, ..ProptestConfig::default() })]
    #[test]
    fn any_sequence_of_moves_jobs_and_adjustments_keeps_the_books_on_postgres(ops in prop::collection::vec(op(), 8..40)) {
        run(Backend::Postgres, ops);
    }
}
