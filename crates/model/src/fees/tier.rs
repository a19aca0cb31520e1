//! One tier of a schedule file read: every bad value reported at its field, the tier made
//! only when all are good. Shared by the schedule's own tiers and a payer's (`parties.rs`).

use rust_decimal::Decimal;

use super::{FeeTier, Rail, TierFile, TransferType};
use crate::Money;

/// Decimal places allowed in a percentage (0.0125 % is a real price).
const PERCENT_PLACES: u32 = 4;

pub(super) fn parse_tier(t: &TierFile, at: &mut impl FnMut(&str, String)) -> Option<FeeTier> {
    let rail = Rail::parse(&t.rail);
    if rail.is_none() {
        at("rail", format!("rail {:?} is not known; use ach or wire", t.rail));
    }
    let transfer_type = match rail {
        Some(r) => TransferType::parse_for(r, &t.transfer_type).map_err(|m| at("transfer_type", m)).ok(),
        None => None,
    };
    let fee_type_ok = {
        let b = t.fee_type.as_bytes();
        (1..=32).contains(&b.len())
            && b[0].is_ascii_lowercase()
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_')
    };
    if !fee_type_ok {
        at("fee_type", format!("fee_type {:?} must be 1 to 32 of a-z, 0-9 and _, starting with a letter", t.fee_type));
    }
    let mut money = |field: &str, v: &str| -> Option<Money> {
        let parsed = Money::parse(v).and_then(|m| m.check_amount(2));
        parsed.map_err(|e| at(field, format!("{field} {v:?}: {e}"))).ok()
    };
    let from = money("from", &t.from);
    let to = t.to.as_deref().map(|v| money("to", v));
    let flat = t.flat.as_deref().map(|v| money("flat", v));
    let fee_min = t.fee_min.as_deref().map(|v| money("fee_min", v));
    let fee_max = t.fee_max.as_deref().map(|v| money("fee_max", v));
    let percent = t.percent.as_deref().map(|v| {
        let p = Money::parse(v).ok().map(|m| m.decimal());
        match p {
            Some(p) if p < Decimal::ZERO || p > Decimal::ONE_HUNDRED => {
                at("percent", format!("percent {v} must be between 0 and 100"));
                None
            }
            Some(p) if p.scale() > PERCENT_PLACES => {
                at("percent", format!("percent {v} has more than {PERCENT_PLACES} decimal places"));
                None
            }
            Some(p) => Some(p),
            None => {
                at("percent", format!("percent {v:?} must be a plain decimal like 0.10"));
                None
            }
        }
    });
    if t.flat.is_none() && t.percent.is_none() {
        at("flat", "a tier needs a flat fee, a percent, or both".into());
    }
    if t.percent.is_none() && (t.fee_min.is_some() || t.fee_max.is_some()) {
        at("fee_min", "fee_min and fee_max clamp a percentage fee; this tier has no percent".into());
    }
    let mut consistent = t.flat.is_some() || t.percent.is_some();
    if t.percent.is_none() && (t.fee_min.is_some() || t.fee_max.is_some()) {
        consistent = false;
    }
    if let (Some(Some(lo)), Some(Some(hi))) = (fee_min, fee_max) {
        if lo > hi {
            at("fee_max", format!("fee_max {hi} is below fee_min {lo}"));
            consistent = false;
        }
    }
    if let (Some(f), Some(Some(to))) = (from, to) {
        if to <= f {
            at("to", format!("to {to} must be above from {f}"));
            consistent = false;
        }
    }
    if !consistent {
        return None;
    }
    // Every field parsed (an inner None is a reported problem).
    let flatten = |o: Option<Option<Money>>| match o {
        None => Some(None),
        Some(Some(m)) => Some(Some(m)),
        Some(None) => None,
    };
    Some(FeeTier {
        rail: rail?,
        transfer_type: transfer_type?,
        fee_type: fee_type_ok.then(|| t.fee_type.clone())?,
        from: from?,
        to: flatten(to)?,
        flat: flatten(flat)?,
        percent: match percent {
            None => None,
            Some(p) => Some(p?),
        },
        fee_min: flatten(fee_min)?,
        fee_max: flatten(fee_max)?,
    })
}
