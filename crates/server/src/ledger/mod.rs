//! The ledger (extension; issue "money that moves"): double-entry books behind every managed
//! sleeve account. `chart.rs` says what posts what; `rules.rs` posts a deposit's moves in the
//! deposit's own transaction; `store/` writes and reads the books (the database keeps every
//! transaction balanced); `jobs.rs` releases holds and settles sent items on schedule, once
//! across instances; `calendar.rs` and `policy.rs` are the bank's business days and its
//! funds-availability schedule; `reconciliation.rs` is the daily report.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, Config};

pub mod calendar;
pub mod chart;
mod handlers;
pub mod jobs;
pub mod policy;
pub mod reconciliation;
pub mod rules;
pub mod store;

crate::group_state! {
    /// What the ledger handlers reach: the books, their settings, and the time zone days are in.
    pub struct LedgerState {
        ledger: crate::ledger::store::LedgerStore = stores.ledger,
        accounts: crate::accounts::store::AccountStore = stores.accounts,
        books: crate::ledger::Books = books,
        config: std::sync::Arc<crate::Config> = config,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::ledger_accounts))
        .routes(routes!(handlers::balances))
        .routes(routes!(handlers::batch::balances_batch))
        .routes(routes!(reconciliation::reconciliation))
        .routes(routes!(handlers::entries))
        .routes(routes!(handlers::holds))
        .routes(routes!(handlers::get_transaction))
        .routes(routes!(handlers::deposit_postings))
        .routes(routes!(handlers::adjust))
}

/// The returned-item fee of the fee schedule in force at a moment (cents), if it sets one.
pub type ScheduleFee = std::sync::Arc<dyn Fn(DateTime<Utc>) -> Option<i64> + Send + Sync>;

/// The books' settings as values: the calendar, the hold policy, the returned-item fee, when
/// sent items settle, and the clock (the machine's, moved by `MONEYDESK_CLOCK_OFFSET`).
#[derive(Clone)]
pub struct Books {
    pub calendar: calendar::Calendar,
    pub policy: policy::HoldPolicy,
    returned_item_fee_cents: i64,
    /// Set by the composition root from the fee schedule versions; without it (a CLI, a test's
    /// own books) the configured fee applies.
    schedule_fee: Option<ScheduleFee>,
    pub settlement_days: u32,
    offset: chrono::Duration,
    tz: chrono_tz::Tz,
}

impl Books {
    pub fn new(config: &Config) -> Books {
        let c = &config.ledger;
        Books {
            calendar: calendar::Calendar::federal_reserve()
                .with_holidays(c.holidays.iter().copied())
                .with_business_days(c.business_days.iter().copied()),
            policy: policy::HoldPolicy {
                next_day_amount: c.hold_next_day_cents,
                standard_days: c.hold_days,
                large_deposit_threshold_cents: c.hold_large_deposit_cents,
                extended_days: c.hold_extended_days,
                ..Default::default()
            },
            returned_item_fee_cents: c.returned_item_fee_cents,
            schedule_fee: None,
            settlement_days: c.settlement_days,
            offset: chrono::Duration::seconds(c.clock_offset_seconds),
            tz: config.business_time_zone,
        }
    }

    /// Now, by the books' clock.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.offset
    }

    pub fn now_ms(&self) -> i64 {
        self.now().timestamp_millis()
    }

    /// The business time zone (what the API writes local times in).
    pub fn time_zone(&self) -> chrono_tz::Tz {
        self.tz
    }

    /// Today in the business time zone, by the books' clock.
    pub fn today(&self) -> NaiveDate {
        self.now().with_timezone(&self.tz).date_naive()
    }

    /// The business-time-zone day of a moment in milliseconds.
    pub fn day_of_ms(&self, ms: i64) -> Option<NaiveDate> {
        Some(self.tz.timestamp_millis_opt(ms).single()?.date_naive())
    }

    /// Charges the returned-item fee of the fee schedule in force (by the books' clock),
    /// `MONEYDESK_RETURNED_ITEM_FEE` when it sets none.
    pub fn with_schedule_fee(mut self, fee: ScheduleFee) -> Books {
        self.schedule_fee = Some(fee);
        self
    }

    /// The fee a returned item is charged now, in cents.
    pub fn returned_item_fee_cents(&self) -> i64 {
        let of_schedule = self.schedule_fee.as_ref().and_then(|f| f(self.now()));
        of_schedule.unwrap_or(self.returned_item_fee_cents)
    }

    /// The start of `day` in the business time zone, in milliseconds (its earliest midnight).
    pub fn day_start_ms(&self, day: NaiveDate) -> i64 {
        let midnight = day.and_hms_opt(0, 0, 0).expect("midnight exists");
        // A zone that skips midnight (DST at 00:00) starts the day an hour later.
        let start = self
            .tz
            .from_local_datetime(&midnight)
            .earliest()
            .or_else(|| self.tz.from_local_datetime(&(midnight + chrono::Duration::hours(1))).earliest());
        start.map_or(0, |t| t.timestamp_millis())
    }
}

impl std::fmt::Debug for Books {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Books")
            .field("calendar", &self.calendar)
            .field("policy", &self.policy)
            .field("returned_item_fee_cents", &self.returned_item_fee_cents)
            .field("schedule_fee", &self.schedule_fee.is_some())
            .field("settlement_days", &self.settlement_days)
            .field("offset", &self.offset)
            .field("tz", &self.tz)
            .finish()
    }
}

/// The ledger tag's description in the OpenAPI document: the table "what posts what", read from
/// `chart.rs`'s own documentation so that it is written once, and the balances' definitions.
pub fn tag_description() -> String {
    let chart = include_str!("chart.rs");
    let table: Vec<&str> =
        chart.lines().filter_map(|l| l.strip_prefix("//! ")).filter(|l| l.starts_with('|')).collect();
    format!(
        "Double-entry books behind every managed sleeve account (extension): every move of a deposit \
         posts a balanced transaction in the deposit's own database transaction. A sleeve account has \
         three ledger accounts (`sma:{{accountId}}:pending|posted|held`), the bank one of each other \
         kind (`bank:{{kind}}`).\n\n**What posts what** (Dr debit, Cr credit; A amount, F fee, R \
         returned-item fee of the fee schedule in force):\n\n{}\n\n**Balances** of a sleeve account: \
         **posted**: settled money, the account record's `marketValue`; **pending**: posted plus \
         credited-not-settled; **held**: what the hold schedule has not released yet; **available**: \
         pending less held, below zero only when a returned item's funds had been released \
         (`negativeAvailable`). The bank's accounts are shown on their normal side (clearing, \
         settlement, cash vault and items in process are debit-normal, the rest credit-normal). Every \
         balance row equals the sum of its entries: `moneydesk-server ledger verify` proves it. A bank \
         account's balance is kept in 16 parts, each posting moving one (so that postings do not take \
         turns on one row); its balance, as of any moment too, and each of its entries' running balance \
         are the account's whole.",
        table.join("\n")
    )
}
