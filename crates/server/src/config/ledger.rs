//! The ledger's settings (environment only): the bank's calendar, the hold policy's figures,
//! the returned-item fee, when sent items settle, and the clock the books keep.

use anyhow::{bail, Context};
use chrono::NaiveDate;

/// The ledger's settings; every figure has a default (`LedgerConfig::default`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerConfig {
    /// Days the bank is closed beyond the Federal Reserve's holidays (`MONEYDESK_HOLIDAYS`,
    /// `YYYY-MM-DD` separated by commas or spaces) and days it opens on one
    /// (`MONEYDESK_BUSINESS_DAYS`).
    pub holidays: Vec<NaiveDate>,
    pub business_days: Vec<NaiveDate>,
    /// Of a check, how much is available the next business day (`MONEYDESK_HOLD_NEXT_DAY`,
    /// dollars, default 275.00: Regulation CC since July 2025), and after how many business days
    /// the rest (`MONEYDESK_HOLD_DAYS`, default 2), and the part above
    /// `MONEYDESK_HOLD_LARGE_DEPOSIT` (default 6725.00) or a new account's
    /// (`MONEYDESK_HOLD_EXTENDED_DAYS`, default 7).
    pub hold_next_day_cents: i64,
    pub hold_days: u32,
    pub hold_large_deposit_cents: i64,
    pub hold_extended_days: u32,
    /// The fee charged when a deposited item comes back returned
    /// (`MONEYDESK_RETURNED_ITEM_FEE`, dollars, default 15.00).
    pub returned_item_fee_cents: i64,
    /// Business days after it is sent that an item settles when no return came
    /// (`MONEYDESK_SETTLEMENT_DAYS`, default 2).
    pub settlement_days: u32,
    /// How far the books' clock is ahead of the machine's (`MONEYDESK_CLOCK_OFFSET`, e.g.
    /// `3d`, `-2h`, `90m`; default 0): for drills and tests that move time forward without
    /// sleeping. Hold releases, settlement and posting times read this clock.
    pub clock_offset_seconds: i64,
}

impl Default for LedgerConfig {
    fn default() -> Self {
        LedgerConfig {
            holidays: Vec::new(),
            business_days: Vec::new(),
            hold_next_day_cents: 27_500,
            hold_days: 2,
            hold_large_deposit_cents: 672_500,
            hold_extended_days: 7,
            returned_item_fee_cents: 1_500,
            settlement_days: 2,
            clock_offset_seconds: 0,
        }
    }
}

impl LedgerConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<LedgerConfig> {
        let mut c = LedgerConfig::default();
        if let Some(v) = var("MONEYDESK_HOLIDAYS") {
            c.holidays = days(&v).context("MONEYDESK_HOLIDAYS")?;
        }
        if let Some(v) = var("MONEYDESK_BUSINESS_DAYS") {
            c.business_days = days(&v).context("MONEYDESK_BUSINESS_DAYS")?;
        }
        for (name, slot) in [
            ("MONEYDESK_HOLD_NEXT_DAY", &mut c.hold_next_day_cents),
            ("MONEYDESK_HOLD_LARGE_DEPOSIT", &mut c.hold_large_deposit_cents),
            ("MONEYDESK_RETURNED_ITEM_FEE", &mut c.returned_item_fee_cents),
        ] {
            if let Some(v) = var(name) {
                *slot = cents(&v).with_context(|| format!("{name} must be dollars like 15.00, got {v:?}"))?;
            }
        }
        for (name, slot) in [
            ("MONEYDESK_HOLD_DAYS", &mut c.hold_days),
            ("MONEYDESK_HOLD_EXTENDED_DAYS", &mut c.hold_extended_days),
            ("MONEYDESK_SETTLEMENT_DAYS", &mut c.settlement_days),
        ] {
            if let Some(v) = var(name) {
                *slot = v
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n <= 30)
                    .with_context(|| format!("{name} must be 0 to 30 business days, got {v:?}"))?;
            }
        }
        if let Some(v) = var("MONEYDESK_CLOCK_OFFSET") {
            c.clock_offset_seconds = offset(&v).with_context(|| {
                format!("MONEYDESK_CLOCK_OFFSET must be a signed duration like 3d, -2h or 90m, got {v:?}")
            })?;
        }
        Ok(c)
    }
}

fn days(text: &str) -> anyhow::Result<Vec<NaiveDate>> {
    text.split([',', ' ', '\n', '\t'])
        .filter(|s| !s.is_empty())
        .map(|s| NaiveDate::parse_from_str(s, "%Y-%m-%d").with_context(|| format!("{s:?} is not a YYYY-MM-DD day")))
        .collect()
}

fn cents(text: &str) -> anyhow::Result<i64> {
    let m = moneydesk_model::Money::parse(text)?.check_amount(2)?;
    use rust_decimal::prelude::ToPrimitive;
    (m.decimal() * rust_decimal::Decimal::from(100)).to_i64().context("too large")
}

/// `3d`, `-2h`, `90m`, `45s`, or bare seconds.
fn offset(text: &str) -> anyhow::Result<i64> {
    let t = text.trim();
    let (sign, t) = match t.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let (digits, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: i64 = digits.parse().context("no number")?;
    let per = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        other => bail!("unknown unit {other:?}"),
    };
    Ok(sign * n * per)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_settings_and_names_a_bad_one() {
        let env = |k: &str| match k {
            "MONEYDESK_HOLIDAYS" => Some("2026-12-24, 2026-12-31".to_string()),
            "MONEYDESK_CLOCK_OFFSET" => Some("+3d".to_string()),
            "MONEYDESK_RETURNED_ITEM_FEE" => Some("20".to_string()),
            _ => None,
        };
        let c = LedgerConfig::from_env(&env).unwrap();
        assert_eq!(c.holidays.len(), 2);
        assert_eq!(c.clock_offset_seconds, 3 * 86_400);
        assert_eq!(c.returned_item_fee_cents, 2_000);
        let bad = |k: &str| (k == "MONEYDESK_HOLD_DAYS").then(|| "many".to_string());
        assert!(format!("{:#}", LedgerConfig::from_env(&bad).unwrap_err()).contains("MONEYDESK_HOLD_DAYS"));
    }
}
