//! The fee schedule: its file format, and the all-or-nothing validation that turns a file into
//! a [`FeeSchedule`] or into every problem it has, each at its place.
//!
//! A schedule file (TOML on the server's command line, or the same fields as JSON) is one
//! complete version of the schedule, in force from `effective_from` until a later version's
//! `effective_from`:
//!
//! ```toml
//! effective_from = "2026-01-01T00:00:00Z"   # or a date: 2026-01-01 = midnight UTC
//! returned_item_fee = "15.00"   # optional: charged when a deposited item comes back returned
//!                               # (at least 0, two decimals); left out: MONEYDESK_RETURNED_ITEM_FEE
//!
//! [[fees]]
//! rail = "ach"                # ach | wire
//! transfer_type = "EFT"       # EFT, SAME_DAY_ACH (ach); DOMESTIC_WIRE, INTERNATIONAL_WIRE (wire)
//! fee_type = "standard"       # lowercase name: standard, express, ...
//! from = "1000.00"            # amounts from this one (inclusive) ...
//! to = "10000.00"             # ... up to this one (exclusive); leave out on the last tier
//! flat = "0.25"               # a flat fee, and/or
//! percent = "0.10"            # a percentage of the amount (0 to 100) ...
//! fee_max = "25.00"           # ... with the fee clamped to fee_min / fee_max
//! ```
//!
//! Amounts are strings (a TOML float would be a binary fraction). For every rail, transfer type
//! and fee type the tiers must start at 0.00 and follow each other without gap or overlap up
//! to an open last tier, so that every amount falls in exactly one tier of each fee type; every
//! transfer type of both rails must be priced.
//!
//! A file may also give payers their own tiers (`[[payer_schedules]]`) and waive the fees of a
//! payer, a payee or a payee's bank (`[[waivers]]`): see `parties.rs`.

use std::fmt;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::coverage::check_coverage;
use super::parties::{self, FeeWaiver, PayerSchedule, PayerScheduleFile};
use super::tier::parse_tier;
use super::{Rail, TransferType};
use crate::Money;

/// The schedule the server loads on its first start (documented in the server's README).
pub const DEFAULT_SCHEDULE_TOML: &str = include_str!("default-schedule.toml");

/// A schedule file as written: amounts still text, so that every bad value can be reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleFile {
    pub effective_from: String,
    /// Written before the first `[[fees]]` (a TOML key after it would belong to that tier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returned_item_fee: Option<String>,
    #[serde(default)]
    pub fees: Vec<TierFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payer_schedules: Vec<PayerScheduleFile>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waivers: Vec<FeeWaiver>,
}

/// One `[[fees]]` entry as written.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TierFile {
    pub rail: String,
    pub transfer_type: String,
    pub fee_type: String,
    pub from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee_min: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fee_max: Option<String>,
}

/// A validated schedule version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeSchedule {
    /// When this version takes effect: RFC 3339 UTC, `YYYY-MM-DDTHH:MM:SSZ` (sorts as text).
    pub effective_from: String,
    /// The tiers, sorted by rail, transfer type, fee type (in the file's order) and amount.
    pub tiers: Vec<FeeTier>,
    /// What a deposited item that comes back returned is charged while this version is in
    /// force; `null`: the server's `MONEYDESK_RETURNED_ITEM_FEE` (versions stored before the
    /// field existed read as `null`).
    #[serde(default)]
    pub returned_item_fee: Option<Money>,
    /// Payers priced by their own tiers for the transfer types those list (versions stored
    /// before the field existed read as none).
    #[serde(default)]
    pub payer_schedules: Vec<PayerSchedule>,
    /// Parties whose transfers are not charged: a quote naming one is 0.00 for every fee type.
    #[serde(default)]
    pub waivers: Vec<FeeWaiver>,
}

/// One tier: the fee of one fee type for amounts in `[from, to)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeTier {
    pub rail: Rail,
    pub transfer_type: TransferType,
    pub fee_type: String,
    /// Inclusive lower bound of the amount.
    pub from: Money,
    /// Exclusive upper bound; `null` on the open last tier.
    pub to: Option<Money>,
    pub flat: Option<Money>,
    /// Percent of the amount (`0.10` = 0.10 %), as a decimal string.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "0.10"))]
    pub percent: Option<Decimal>,
    pub fee_min: Option<Money>,
    pub fee_max: Option<Money>,
}

impl FeeTier {
    /// True when `amount` lies in `[from, to)`.
    pub fn contains(&self, amount: Decimal) -> bool {
        amount >= self.from.decimal() && self.to.is_none_or(|to| amount < to.decimal())
    }
}

/// What is wrong with a schedule file, and where: `place` is `effective_from`, `fees`, or
/// `fees[i]` (0-based, in file order) with the field when one is at fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleProblem {
    pub place: String,
    pub message: String,
}

/// Every problem of a refused file (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleProblems(pub Vec<ScheduleProblem>);

impl fmt::Display for ScheduleProblems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the fee schedule has {} problem(s):", self.0.len())?;
        for p in &self.0 {
            write!(f, "\n  {}: {}", p.place, p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for ScheduleProblems {}

impl FeeSchedule {
    /// Validates a whole file: the schedule, or every problem found (all-or-nothing).
    pub fn from_file(file: &ScheduleFile) -> Result<FeeSchedule, ScheduleProblems> {
        let mut problems = Vec::new();
        let mut say = |place: String, message: String| problems.push(ScheduleProblem { place, message });
        let effective_from = match normalise_instant(&file.effective_from) {
            Ok(t) => t,
            Err(m) => {
                say("effective_from".into(), m);
                String::new()
            }
        };
        let returned_item_fee = file.returned_item_fee.as_deref().and_then(|v| match returned_item_fee(v) {
            Ok(m) => Some(m),
            Err(m) => {
                say("returned_item_fee".into(), m);
                None
            }
        });
        let mut tiers = Vec::new();
        // Which file entry each tier came from, for the range checks' messages.
        let mut origin = Vec::new();
        // (transfer type, fee type) as written, of entries with a problem: their group's range
        // checks would only repeat that problem in other words, so they are left out.
        let mut refused: Vec<(&str, &str)> = Vec::new();
        for (i, t) in file.fees.iter().enumerate() {
            let mut at = |field: &str, m: String| say(format!("fees[{i}].{field}"), m);
            match parse_tier(t, &mut at) {
                Some(tier) => {
                    tiers.push(tier);
                    origin.push(i);
                }
                None => refused.push((&t.transfer_type, &t.fee_type)),
            }
        }
        check_coverage(&tiers, &origin, &refused, "fees", true, &mut say);
        let (payer_schedules, waivers) = parties::check(&file.payer_schedules, &file.waivers, &mut say);
        if !problems.is_empty() {
            return Err(ScheduleProblems(problems));
        }
        let tiers = parties::order_fee_types(tiers);
        Ok(FeeSchedule { effective_from, tiers, returned_item_fee, payer_schedules, waivers })
    }

    /// The returned-item fee in cents, when the schedule sets one.
    ///
    /// ```
    /// use moneydesk_model::fees::FeeSchedule;
    /// let mut s = FeeSchedule { effective_from: "2026-01-01T00:00:00Z".into(), tiers: vec![], returned_item_fee: None, payer_schedules: vec![], waivers: vec![] };
    /// assert_eq!(s.returned_item_fee_cents(), None);
    /// s.returned_item_fee = Some(moneydesk_model::Money::parse("22.50").unwrap());
    /// assert_eq!(s.returned_item_fee_cents(), Some(2_250));
    /// ```
    pub fn returned_item_fee_cents(&self) -> Option<i64> {
        use rust_decimal::prelude::ToPrimitive;
        (self.returned_item_fee?.decimal() * Decimal::ONE_HUNDRED).to_i64()
    }

    /// Parses and validates a JSON schedule file (the server reads TOML the same way).
    pub fn from_json(text: &str) -> Result<FeeSchedule, ScheduleProblems> {
        let file: ScheduleFile = serde_json::from_str(text).map_err(|e| {
            ScheduleProblems(vec![ScheduleProblem {
                place: format!("line {}, column {}", e.line(), e.column()),
                message: e.to_string(),
            }])
        })?;
        FeeSchedule::from_file(&file)
    }

    /// The tiers of one transfer type, fee types in schedule order.
    pub fn tiers_for(&self, transfer_type: TransferType) -> impl Iterator<Item = &FeeTier> {
        self.tiers.iter().filter(move |t| t.transfer_type == transfer_type)
    }

    /// The fee types of one transfer type, in schedule order.
    pub fn fee_types(&self, transfer_type: TransferType) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for t in self.tiers_for(transfer_type) {
            if !out.contains(&t.fee_type.as_str()) {
                out.push(&t.fee_type);
            }
        }
        out
    }
}

/// The returned-item fee: at least 0.00, at most two decimals, below a billion.
fn returned_item_fee(v: &str) -> Result<Money, String> {
    let m = Money::parse(v).and_then(|m| m.check_amount(2)).map_err(|e| format!("returned_item_fee {v:?}: {e}"))?;
    if m.decimal() >= Decimal::from(1_000_000_000) {
        return Err(format!("returned_item_fee {v} is too large (at most 999999999.99)"));
    }
    Ok(m)
}

/// `YYYY-MM-DDTHH:MM:SSZ` as is, or `YYYY-MM-DD` as its midnight UTC; anything else refused.
fn normalise_instant(s: &str) -> Result<String, String> {
    let bad = || format!("effective_from {s:?} must be an RFC 3339 UTC time like 2026-01-01T00:00:00Z, or a date");
    let full = if s.len() == 10 { format!("{s}T00:00:00Z") } else { s.to_string() };
    let b = full.as_bytes();
    let shape = b.len() == 20
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            10 => *c == b'T',
            13 | 16 => *c == b':',
            19 => *c == b'Z',
            _ => c.is_ascii_digit(),
        });
    if !shape {
        return Err(bad());
    }
    let n = |r: std::ops::Range<usize>| full[r].parse::<u32>().unwrap_or(0);
    let (y, mo, d, h, mi, se) = (n(0..4), n(5..7), n(8..10), n(11..13), n(14..16), n(17..19));
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let ok = (1..=12).contains(&mo) && d >= 1 && d <= days[(mo.max(1) - 1) as usize] && h < 24 && mi < 60 && se < 60;
    if ok {
        Ok(full)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
