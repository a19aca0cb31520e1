//! Holds released, and sent items settled, on the right business day: the books' clock is
//! moved to a chosen day (noon, business time) when the server starts, a check is confirmed
//! there, then `release_due` and `settle_due` run with the clock at each following day, the
//! balances and holds read over HTTP each day. Thanksgiving and the weekend are skipped, and an
//! extra holiday (`MONEYDESK_HOLIDAYS`) pushes a release by a day.

use crate::common;

use chrono::{NaiveDate, TimeZone};
use common::{json, Backend, Server};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::settlement::settle_due;
use moneydesk_server::deposits::store::CreateOutcome;
use moneydesk_server::ledger::jobs::release_due;
use moneydesk_server::ledger::Books;
use moneydesk_server::Config;
use rust_decimal::Decimal;
use serde_json::{json, Value};

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

/// The clock offset (seconds) that puts the books at noon of `on`, business time.
fn offset_to(on: NaiveDate) -> i64 {
    let tz = Config::for_tests(std::path::Path::new(".")).business_time_zone;
    let noon = tz.from_local_datetime(&on.and_hms_opt(12, 0, 0).unwrap()).single().unwrap();
    (noon.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_seconds()
}

struct Bank {
    server: Server,
    sleeve: String,
    reader: String,
    admin: String,
}

/// A server whose books' clock is at noon of `on`, with `holidays` closed, and an established
/// sleeve account opened at $100.00.
async fn bank_on(backend: Backend, on: &str, holidays: &[&str]) -> Bank {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let (offset, holidays) = (offset_to(day(on)), holidays.iter().map(|h| day(h)).collect::<Vec<_>>());
    let server = Server::start_in_dir(dir, move |c| {
        c.database_url = url;
        c.ledger.clock_offset_seconds = offset;
        c.ledger.holidays = holidays;
    })
    .await;
    assert_eq!(server.running.state.books.today(), day(on), "the books' clock is moved");
    let mut account = Accounts::new(1, 3).next().unwrap();
    account.market_value = Some(Decimal::new(10_000, 2));
    account.create_time = LocalDateTime::from_millis(1_577_880_000_000); // 2020: not a new account
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(std::slice::from_ref(&account)).await.unwrap();
    w.commit().await.unwrap();
    let reader = server.token(&[Scope::LedgerRead]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Bank { server, sleeve: account.id, reader, admin }
}

impl Bank {
    /// The books with their clock at noon of `on`.
    fn books_on(&self, on: &str) -> Books {
        let mut c = (*self.server.running.state.config).clone();
        c.ledger.clock_offset_seconds = offset_to(day(on));
        Books::new(&c)
    }

    /// A confirmed $1,000.00 check deposit (no fee) to the sleeve account; its id.
    async fn confirmed_check(&self) -> i64 {
        let row = common::deposits::row(ServiceType::Check, &self.sleeve, 100_000, 0);
        let id = match self.server.running.state.stores.deposits.create(&row, None).await.unwrap() {
            CreateOutcome::Created(r) => r.id,
            other => panic!("{other:?}"),
        };
        self.act(id, "confirm").await;
        id
    }

    async fn act(&self, id: i64, action: &str) {
        let path = paths::DEPOSIT_ACTIONS.replace("{id}", &id.to_string());
        let r = self.server.client.post(self.server.url(&path)).bearer_auth(&self.admin);
        let r = r.json(&json!({"action": action})).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{action}: {}", r.text().await.unwrap());
    }

    async fn get(&self, path: &str) -> Value {
        let r = self.server.get_auth(&path.replace("{accountId}", &self.sleeve), &self.reader).await;
        assert_eq!(r.status().as_u16(), 200, "GET {path}");
        json(r).await["data"].clone()
    }

    /// (posted, available, held) in dollars.
    async fn balances(&self) -> (Decimal, Decimal, Decimal) {
        let d = self.get(paths::LEDGER_BALANCES).await;
        (dec(&d["posted"]), dec(&d["available"]), dec(&d["held"]))
    }

    /// Each tranche: (release day, amount, state).
    async fn holds(&self) -> Vec<(String, Decimal, String)> {
        let d = self.get(paths::LEDGER_HOLDS).await;
        let text = |v: &Value| v.as_str().unwrap().to_string();
        d.as_array().unwrap().iter().map(|h| (text(&h["releaseOn"]), dec(&h["amount"]), text(&h["state"]))).collect()
    }

    /// Runs `release_due` with the clock at noon of `on`; how many tranches it released.
    async fn release_on(&self, on: &str) -> u64 {
        release_due(&self.server.running.state.stores.ledger, &self.books_on(on)).await.unwrap()
    }
}

fn dec(v: &Value) -> Decimal {
    v.as_str().map_or_else(|| v.to_string(), str::to_string).parse().unwrap_or_else(|_| panic!("not money: {v}"))
}

fn usd(dollars: i64) -> Decimal {
    Decimal::from(dollars)
}

fn tranches(items: &[(&str, i64, &str)]) -> Vec<(String, Decimal, String)> {
    items.iter().map(|(on, amount, state)| (on.to_string(), usd(*amount), state.to_string())).collect()
}

on_both_backends!(a_check_confirmed_before_thanksgiving_is_released_on_friday_and_monday);

async fn a_check_confirmed_before_thanksgiving_is_released_on_friday_and_monday(backend: Backend) {
    let b = bank_on(backend, "2026-11-25", &[]).await;
    b.confirmed_check().await;
    assert_eq!(b.balances().await, (usd(100), usd(100), usd(1000)), "confirmed Wednesday: all of it held");
    let held = tranches(&[("2026-11-27", 275, "held"), ("2026-11-30", 725, "held")]);
    assert_eq!(b.holds().await, held, "the next-day part on Friday, the rest on Monday");
    // (day, tranches released that day, available after, held after)
    let days = [
        ("2026-11-25", 0, 100, 1000),
        ("2026-11-26", 0, 100, 1000), // Thanksgiving
        ("2026-11-27", 1, 375, 725),
        ("2026-11-28", 0, 375, 725),
        ("2026-11-29", 0, 375, 725),
        ("2026-11-30", 1, 1100, 0),
        ("2026-12-01", 0, 1100, 0),
    ];
    for (on, released, available, held) in days {
        assert_eq!(b.release_on(on).await, released, "tranches released on {on}");
        assert_eq!(b.balances().await, (usd(100), usd(available), usd(held)), "balances on {on}");
        if on == "2026-11-27" {
            let friday = tranches(&[("2026-11-27", 275, "released"), ("2026-11-30", 725, "held")]);
            assert_eq!(b.holds().await, friday, "Friday's tranche released, Monday's held");
        }
    }
    let done = tranches(&[("2026-11-27", 275, "released"), ("2026-11-30", 725, "released")]);
    assert_eq!(b.holds().await, done);
    let (mismatches, unbalanced) = b.server.running.state.stores.ledger.verify().await.unwrap();
    assert_eq!((mismatches, unbalanced), (vec![], vec![]));
}

#[tokio::test]
async fn an_extra_holiday_pushes_each_release_a_business_day_later() {
    // Friday after Thanksgiving closed too: the next-day part waits for Monday, the rest Tuesday.
    let b = bank_on(Backend::Sqlite, "2026-11-25", &["2026-11-27"]).await;
    b.confirmed_check().await;
    let held = tranches(&[("2026-11-30", 275, "held"), ("2026-12-01", 725, "held")]);
    assert_eq!(b.holds().await, held);
    let days = [
        ("2026-11-26", 0, 100),
        ("2026-11-27", 0, 100),
        ("2026-11-29", 0, 100),
        ("2026-11-30", 1, 375),
        ("2026-12-01", 1, 1100),
    ];
    for (on, released, available) in days {
        assert_eq!(b.release_on(on).await, released, "tranches released on {on}");
        assert_eq!(b.balances().await.1, usd(available), "available on {on}");
    }
}

#[tokio::test]
async fn a_sent_check_settles_only_after_the_settlement_days_across_the_weekend() {
    let b = bank_on(Backend::Sqlite, "2026-11-25", &[]).await;
    assert_eq!(b.server.running.state.config.ledger.settlement_days, 2);
    let id = b.confirmed_check().await;
    b.act(id, "send").await; // sent Wednesday: two business days are Friday and Monday
    let deposits = &b.server.running.state.stores.deposits;
    for (on, settled, posted) in [
        ("2026-11-25", 0, 100),
        ("2026-11-26", 0, 100),
        ("2026-11-27", 0, 100),
        ("2026-11-28", 0, 100),
        ("2026-11-29", 0, 100),
        ("2026-11-30", 1, 1100),
        ("2026-12-01", 0, 1100),
    ] {
        assert_eq!(settle_due(deposits, &b.books_on(on)).await.unwrap(), settled, "items settled on {on}");
        assert_eq!(b.balances().await.0, usd(posted), "posted on {on}");
        let status = deposits.get(id).await.unwrap().unwrap().status;
        let want = if posted == 100 { DepositStatus::Sent } else { DepositStatus::Settled };
        assert_eq!(status, want.as_str(), "status on {on}");
    }
    let postings = b.server.running.state.stores.ledger.deposit_postings(id).await.unwrap();
    let settled = postings.iter().find(|(t, _)| t.kind == "deposit_settled").expect("the settlement");
    assert_eq!(settled.0.actor, "settlement", "settled on schedule, not by hand");
}
