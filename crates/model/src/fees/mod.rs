//! Fee schedules (ACH, wire): the vocabulary, the quote request's validated fields, the
//! schedule (tiers by rail, transfer type, fee type and amount range) and the exact quote.
//!
//! A fee depends on the rail (`ach`, `wire`), the transfer type, and the amount range the
//! amount falls in (description 1, 4.1). Each tier charges a flat fee, a percentage of the
//! amount clamped to a minimum and a maximum, or both:
//! `fee = flat + clamp(amount × percent / 100, percent_min, percent_max)`, computed exactly in
//! decimal and rounded to cents half-even (banker's rounding) once, at the end.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;
use crate::Money;

mod amount;
mod coverage;
mod parties;
mod quote;
mod request;
mod schedule;
mod tier;

pub use amount::{
    FeeAmount, FeeAmountError, Memo, MemoError, AMOUNT_PATTERN, MAX_INTEGER_DIGITS, MEMO_MAX_CHARS, MEMO_PATTERN,
};
pub use parties::{Basis, FeeParties, FeePricing, FeeWaiver, PayerSchedule, PayerScheduleFile};
pub use quote::{describe_range, FeeQuote};
pub use request::{message_of, FeeRequest, FeeRequestFields, FIELDS, ID_MAX_CHARS};
pub use schedule::{
    FeeSchedule, FeeTier, ScheduleFile, ScheduleProblem, ScheduleProblems, TierFile, DEFAULT_SCHEDULE_TOML,
};

/// One fee of a schedule, as the description's example writes it (snake_case names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeEntry {
    pub fee_type: String,
    pub fee_amount: Money,
    pub description: String,
}

/// A fee answer (description 4.1: `status` and `data`), with `pricing` added when the quote
/// was not priced by the schedule's own tiers (a waiver, a payer's schedule); a client written
/// from the description ignores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeAnswer {
    /// `success`.
    pub status: String,
    pub data: Vec<FeeEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing: Option<FeePricing>,
}

/// A stored schedule version, as the versions extension lists it (snake_case, like every body
/// of the fee group).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleVersion {
    pub id: i64,
    /// RFC 3339 UTC.
    pub effective_from: String,
    /// True for the version quotes use now; later versions are false until their time.
    pub in_force: bool,
    pub loaded_at: String,
    /// A token's name, `cli`, or `default` (the schedule stored on the first start).
    pub loaded_by: String,
    pub schedule: FeeSchedule,
}

vocabulary!(
    /// The two fee schedules of the description (4.1): one path each.
    #[derive(PartialOrd, Ord)]
    pub enum Rail {
        Ach = "ach" / "ACH",
        Wire = "wire" / "Wire",
    }
);

impl Rail {
    /// The transfer types this rail's schedule prices (`as_str` is the path segment and the
    /// schedule file's spelling, `label` how people write it).
    ///
    /// ```
    /// use moneydesk_model::fees::{Rail, TransferType};
    /// assert_eq!(Rail::Wire.as_str(), "wire");
    /// assert_eq!(Rail::parse("ach"), Some(Rail::Ach));
    /// assert_eq!(Rail::parse("ACH"), None);
    /// assert_eq!(Rail::Ach.label(), "ACH");
    /// assert_eq!(Rail::Ach.transfer_types(), &[TransferType::Eft, TransferType::SameDayAch]);
    /// ```
    pub fn transfer_types(self) -> &'static [TransferType] {
        match self {
            Rail::Ach => &[TransferType::Eft, TransferType::SameDayAch],
            Rail::Wire => &[TransferType::DomesticWire, TransferType::InternationalWire],
        }
    }
}

vocabulary!(
    /// The transfer types the schedules price (the description shows only `EFT`; the rest of the
    /// set is ours, documented in the OpenAPI document). Each belongs to one rail.
    #[derive(PartialOrd, Ord)]
    pub enum TransferType {
        /// Standard ACH (next-day settlement): the description's example value.
        Eft = "EFT" / "Standard ACH (EFT)",
        /// Same-day ACH.
        SameDayAch = "SAME_DAY_ACH" / "Same-day ACH",
        /// A Fedwire transfer inside the United States.
        DomesticWire = "DOMESTIC_WIRE" / "Domestic wire",
        /// A wire to a bank outside the United States.
        InternationalWire = "INTERNATIONAL_WIRE" / "International wire",
    }
);

impl TransferType {
    /// The rail whose schedule prices it.
    ///
    /// ```
    /// use moneydesk_model::fees::{Rail, TransferType};
    /// assert_eq!(TransferType::parse("EFT"), Some(TransferType::Eft));
    /// assert_eq!(TransferType::parse("eft"), None, "the spelling is exact");
    /// assert_eq!(TransferType::SameDayAch.rail(), Rail::Ach);
    /// ```
    pub fn rail(self) -> Rail {
        match self {
            TransferType::Eft | TransferType::SameDayAch => Rail::Ach,
            TransferType::DomesticWire | TransferType::InternationalWire => Rail::Wire,
        }
    }

    /// Parses a transfer type for a rail, saying what is allowed when it is not.
    ///
    /// ```
    /// use moneydesk_model::fees::{Rail, TransferType};
    /// assert_eq!(TransferType::parse_for(Rail::Wire, "DOMESTIC_WIRE"), Ok(TransferType::DomesticWire));
    /// let err = TransferType::parse_for(Rail::Wire, "EFT").unwrap_err();
    /// assert_eq!(err, "transferType EFT is not a wire transfer type; use one of DOMESTIC_WIRE, INTERNATIONAL_WIRE");
    /// ```
    pub fn parse_for(rail: Rail, s: &str) -> Result<TransferType, String> {
        // The list is written only for the error (a quote's hot path parses a good one).
        let list = || rail.transfer_types().iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
        match TransferType::parse(s) {
            Some(t) if t.rail() == rail => Ok(t),
            Some(_) => {
                Err(format!("transferType {s} is not a{} {} transfer type; use one of {}", article(rail), rail, list()))
            }
            None => Err(format!("transferType {s:?} is not known; use one of {}", list())),
        }
    }
}

fn article(rail: Rail) -> &'static str {
    match rail {
        Rail::Ach => "n",
        Rail::Wire => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_transfer_type_belongs_to_exactly_the_rail_that_lists_it() {
        for t in TransferType::ALL {
            for rail in Rail::ALL {
                assert_eq!(rail.transfer_types().contains(&t), t.rail() == rail, "{t} on {rail}");
            }
            assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{}\"", t.as_str()));
        }
    }

    #[test]
    fn an_ach_type_on_the_wire_path_is_refused_with_the_allowed_set() {
        let err = TransferType::parse_for(Rail::Ach, "DOMESTIC_WIRE").unwrap_err();
        assert_eq!(err, "transferType DOMESTIC_WIRE is not an ach transfer type; use one of EFT, SAME_DAY_ACH");
        assert!(TransferType::parse_for(Rail::Ach, "WIRE").unwrap_err().contains("is not known"));
    }
}
