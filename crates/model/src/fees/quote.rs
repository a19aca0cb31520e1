//! Quoting: the fee of each fee type for an amount, exact in decimal, rounded once to cents
//! half-even; and the whole schedule of a transfer type as fee entries with their ranges.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use super::{FeeAmount, FeeEntry, FeeSchedule, FeeTier, TransferType};
use crate::Money;

/// One fee type's fee for a quoted amount, with the tier that priced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FeeQuote {
    pub entry: FeeEntry,
    pub tier: FeeTier,
}

impl FeeTier {
    /// `clamp(flat + amount × percent / 100, fee_min, fee_max)`, exact, then rounded to cents
    /// half-even (a midpoint goes to the even cent: 1.255 -> 1.26, 1.265 -> 1.26), written
    /// with exactly two decimals.
    ///
    /// ```
    /// use moneydesk_model::fees::{FeeSchedule, TransferType, FeeAmount};
    /// let schedule = FeeSchedule::from_json(r#"{"effective_from":"2026-01-01","fees":[
    ///   {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","flat":"0.25","percent":"0.10","fee_max":"25.00"},
    ///   {"rail":"ach","transfer_type":"SAME_DAY_ACH","fee_type":"standard","from":"0","flat":"1"},
    ///   {"rail":"wire","transfer_type":"DOMESTIC_WIRE","fee_type":"standard","from":"0","flat":"15"},
    ///   {"rail":"wire","transfer_type":"INTERNATIONAL_WIRE","fee_type":"standard","from":"0","flat":"45"}]}"#).unwrap();
    /// let tier = schedule.tiers_for(TransferType::Eft).next().unwrap();
    /// assert_eq!(tier.fee_for(FeeAmount::parse("1005.00").unwrap()).to_string(), "1.26");
    /// assert_eq!(tier.fee_for(FeeAmount::parse("1015.00").unwrap()).to_string(), "1.26");
    /// assert_eq!(tier.fee_for(FeeAmount::parse("99999.00").unwrap()).to_string(), "25.00");
    /// ```
    pub fn fee_for(&self, amount: FeeAmount) -> Money {
        let mut fee = self.flat.map_or(Decimal::ZERO, |m| m.decimal());
        if let Some(p) = self.percent {
            // p / 100 exactly, as a shift of the scale rather than a division (the quote's
            // hot path; a percent has at most 4 decimals, so the scale stays small).
            let rate = Decimal::from_i128_with_scale(p.mantissa(), p.scale() + 2);
            fee += amount.decimal() * rate;
            if let Some(lo) = self.fee_min {
                fee = fee.max(lo.decimal());
            }
            if let Some(hi) = self.fee_max {
                fee = fee.min(hi.decimal());
            }
        }
        cents(fee)
    }

    /// The least fee this tier charges (at its lowest amount): what the schedule lists when no
    /// amount is given.
    pub fn least_fee(&self) -> Money {
        let lowest = if self.from.decimal().is_zero() { Decimal::new(1, 2) } else { self.from.decimal() };
        match FeeAmount::parse(&lowest.to_string()) {
            Ok(a) => self.fee_for(a),
            Err(_) => cents(self.flat.map_or(Decimal::ZERO, |m| m.decimal())),
        }
    }

    /// How the tier prices, as people read it: `0.25 + 0.10 %, max 25.00`.
    pub fn formula(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.flat {
            parts.push(grouped(cents(f.decimal()).decimal()));
        }
        if let Some(p) = self.percent {
            parts.push(format!("{} %", at_least_two_places(p.normalize())));
        }
        let mut text = parts.join(" + ");
        if let Some(lo) = self.fee_min {
            text.push_str(&format!(", min {}", grouped(cents(lo.decimal()).decimal())));
        }
        if let Some(hi) = self.fee_max {
            text.push_str(&format!(", max {}", grouped(cents(hi.decimal()).decimal())));
        }
        text
    }

    /// `ACH standard, 1,000.00 to 9,999.99: 0.25 + 0.10 %, max 25.00`.
    pub fn description(&self) -> String {
        format!("{} {}, {}: {}", self.rail.label(), self.fee_type, describe_range(self.from, self.to), self.formula())
    }
}

/// `1,000.00 to 9,999.99` for `[1000, 10000)`; `10,000.00 and above` for an open tier.
///
/// ```
/// use moneydesk_model::{fees::describe_range, Money};
/// let m = |s| Money::parse(s).unwrap();
/// assert_eq!(describe_range(m("1000"), Some(m("10000"))), "1,000.00 to 9,999.99");
/// assert_eq!(describe_range(m("0"), None), "any amount");
/// assert_eq!(describe_range(m("10000"), None), "10,000.00 and above");
/// ```
pub fn describe_range(from: Money, to: Option<Money>) -> String {
    let from_text = grouped(cents(from.decimal()).decimal());
    match to {
        // The bound is exclusive and amounts are in cents: the last amount is a cent below.
        Some(to) => format!("{from_text} to {}", grouped(cents(to.decimal() - Decimal::new(1, 2)).decimal())),
        None if from.decimal().is_zero() => "any amount".into(),
        None => format!("{from_text} and above"),
    }
}

impl FeeSchedule {
    /// One entry per fee type, for the tier the amount falls in (the schedule's own tiers; for
    /// a payer or a waiver, [`FeeSchedule::quote_for`]).
    pub fn quote(&self, transfer_type: TransferType, amount: FeeAmount) -> Vec<FeeQuote> {
        quote_tiers(&self.tiers_for(transfer_type).collect::<Vec<_>>(), amount)
    }

    /// The whole schedule of a transfer type: each tier an entry with its least fee, its
    /// description stating the range.
    pub fn entries(&self, transfer_type: TransferType) -> Vec<FeeEntry> {
        self.tiers_for(transfer_type).map(|t| entry_of(t, t.least_fee())).collect()
    }
}

/// One entry per fee type of `tiers` (one transfer type's), for the tier `amount` falls in.
pub(super) fn quote_tiers(tiers: &[&FeeTier], amount: FeeAmount) -> Vec<FeeQuote> {
    let mut fee_types: Vec<&str> = Vec::new();
    for t in tiers {
        if !fee_types.contains(&t.fee_type.as_str()) {
            fee_types.push(&t.fee_type);
        }
    }
    fee_types
        .into_iter()
        .filter_map(|fee_type| {
            let tier = tiers.iter().find(|t| t.fee_type == fee_type && t.contains(amount.decimal()))?;
            Some(FeeQuote { entry: entry_of(tier, tier.fee_for(amount)), tier: (*tier).clone() })
        })
        .collect()
}

/// A tier's entry charging `fee`.
pub(super) fn entry_of(tier: &FeeTier, fee: Money) -> FeeEntry {
    FeeEntry { fee_type: tier.fee_type.clone(), fee_amount: fee, description: tier.description() }
}

/// Rounded to cents half-even, with exactly two decimals.
pub(super) fn cents(d: Decimal) -> Money {
    let mut r = d.round_dp_with_strategy(2, RoundingStrategy::MidpointNearestEven);
    r.rescale(2);
    Money::new(r)
}

/// `1234567.5` -> `1,234,567.50` (two decimals, thousands grouped).
fn grouped(d: Decimal) -> String {
    let text = cents(d).to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    let (sign, digits) = int.strip_prefix('-').map_or(("", int), |rest| ("-", rest));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}.{frac}")
}

/// At least two decimals (`0.1` -> `0.10`), more when the percent has them (`0.0125`).
fn at_least_two_places(mut d: Decimal) -> String {
    if d.scale() < 2 {
        d.rescale(2);
    }
    d.to_string()
}
