//! The ledger (extension; issue "money that moves"): double-entry books behind every managed
//! sleeve account. `chart.rs` says what posts what; `rules.rs` posts a deposit's moves in the
//! deposit's own transaction; `store/` writes and reads the books (the database keeps every
//! transaction balanced); `jobs.rs` releases holds and settles sent items on schedule, once
//! across instances; `calendar.rs` and `policy.rs` are the bank's business days and its
//! funds-availability schedule.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, Config};

pub mod calendar;
pub mod chart;
mod handlers;
pub mod jobs;
pub mod policy;
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
        .routes(routes!(handlers::entries))
        .routes(routes!(handlers::holds))
        .routes(routes!(handlers::get_transaction))
        .routes(routes!(handlers::deposit_postings))
        .routes(routes!(handlers::adjust))
}

/// The books' settings as values: the calendar, the hold policy, the returned-item fee, when
/// sent items settle, and the clock (the machine's, moved by `MONEYDESK_CLOCK_OFFSET`).
#[derive(Debug, Clone)]
pub struct Books {
    pub calendar: calendar::Calendar,
    pub policy: policy::HoldPolicy,
    returned_item_fee_cents: i64,
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

    /// Today in the business time zone, by the books' clock.
    pub fn today(&self) -> NaiveDate {
        self.now().with_timezone(&self.tz).date_naive()
    }

    /// The business-time-zone day of a moment in milliseconds.
    pub fn day_of_ms(&self, ms: i64) -> Option<NaiveDate> {
        Some(self.tz.timestamp_millis_opt(ms).single()?.date_naive())
    }

    pub fn returned_item_fee_cents(&self) -> i64 {
        self.returned_item_fee_cents
    }
}
