//! Who a transfer is for, and what that changes in its price: per-payer schedules and waived
//! fees, kept in the schedule version beside the tiers (description 4.1's `payerId`, `payeeId`
//! and `payeeBankId`; `memo` is checked and never priced).
//!
//! In a schedule file:
//!
//! ```toml
//! [[payer_schedules]]          # a payer priced by its own tiers ...
//! payer_id = "acme-payroll"
//! [[payer_schedules.fees]]     # ... for the transfer types listed here (tiers as [[fees]]);
//! rail = "ach"                 # other transfer types use the schedule's own tiers
//! transfer_type = "EFT"
//! fee_type = "standard"
//! from = "0.00"
//! flat = "0.10"
//!
//! [[waivers]]                  # no fee at all for a transfer naming this party
//! payer_id = "city-food-bank"  # exactly one of payer_id, payee_id, payee_bank_id
//! reason = "Non-profit"        # optional; said in the answer
//! ```
//!
//! A waiver beats a payer schedule, which beats the schedule's own tiers; when several waivers
//! match, the first in file order is the one named.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::coverage::check_coverage;
use super::quote::cents;
use super::tier::parse_tier;
use super::{FeeAmount, FeeEntry, FeeQuote, FeeSchedule, FeeTier, Memo, TierFile, TransferType};

/// A payer's own schedule as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PayerScheduleFile {
    pub payer_id: String,
    #[serde(default)]
    pub fees: Vec<TierFile>,
}

/// A validated payer schedule: its tiers price the transfer types they name for this payer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PayerSchedule {
    pub payer_id: String,
    pub tiers: Vec<FeeTier>,
}

/// A waived fee: exactly one of the three ids is set (as written in the file, and as stored).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FeeWaiver {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payer_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payee_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payee_bank_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl FeeWaiver {
    /// The request field it matches and the id: `("payerId", "city-food-bank")`.
    pub fn party(&self) -> Option<(&'static str, &str)> {
        let named = [("payerId", &self.payer_id), ("payeeId", &self.payee_id), ("payeeBankId", &self.payee_bank_id)];
        named.into_iter().find_map(|(field, id)| id.as_deref().map(|id| (field, id)))
    }
}

/// The request's ids that a price may depend on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeeParties<'a> {
    pub payer_id: Option<&'a str>,
    pub payee_id: Option<&'a str>,
    pub payee_bank_id: Option<&'a str>,
}

/// What prices a quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis<'s> {
    /// The schedule's own tiers.
    Schedule,
    /// The payer's own tiers.
    PayerSchedule(&'s PayerSchedule),
    /// No fee.
    Waiver(&'s FeeWaiver),
}

/// How the answer says a quote was not priced by the schedule's own tiers (the fee answer's
/// `pricing` member; left out when it was).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeePricing {
    /// `payer_schedule` or `waiver`.
    #[cfg_attr(feature = "openapi", schema(example = "waiver"))]
    pub basis: String,
    /// The request field that matched: `payerId`, `payeeId` or `payeeBankId`.
    pub field: String,
    /// Its value.
    pub id: String,
    /// The waiver's reason, when the schedule gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl FeeSchedule {
    /// What prices `transfer_type` for these parties: a matching waiver, else the payer's
    /// schedule when it lists the transfer type, else the schedule's own tiers.
    pub fn basis(&self, parties: &FeeParties<'_>, transfer_type: TransferType) -> Basis<'_> {
        let asked =
            [("payerId", parties.payer_id), ("payeeId", parties.payee_id), ("payeeBankId", parties.payee_bank_id)];
        let waived = self.waivers.iter().find(|w| w.party().is_some_and(|p| asked.contains(&(p.0, Some(p.1)))));
        if let Some(w) = waived {
            return Basis::Waiver(w);
        }
        let payer = parties.payer_id.and_then(|id| self.payer_schedules.iter().find(|p| p.payer_id == id));
        match payer {
            Some(p) if p.tiers.iter().any(|t| t.transfer_type == transfer_type) => Basis::PayerSchedule(p),
            _ => Basis::Schedule,
        }
    }

    /// The tiers that price `transfer_type` on this basis (a waiver's are the schedule's own).
    pub fn tiers_on<'s>(&'s self, basis: &Basis<'s>, transfer_type: TransferType) -> Vec<&'s FeeTier> {
        let tiers = match basis {
            Basis::PayerSchedule(p) => &p.tiers,
            _ => &self.tiers,
        };
        tiers.iter().filter(|t| t.transfer_type == transfer_type).collect()
    }

    /// The quote for these parties: the entries and, unless the schedule's own tiers priced it,
    /// how it was priced.
    pub fn quote_for(
        &self,
        parties: &FeeParties<'_>,
        transfer_type: TransferType,
        amount: FeeAmount,
    ) -> (Vec<FeeEntry>, Option<FeePricing>) {
        let basis = self.basis(parties, transfer_type);
        let quotes = super::quote::quote_tiers(&self.tiers_on(&basis, transfer_type), amount);
        (on_basis(&basis, quotes), basis.pricing())
    }

    /// The transfer type's whole schedule for these parties, as [`FeeSchedule::entries`].
    pub fn entries_for(
        &self,
        parties: &FeeParties<'_>,
        transfer_type: TransferType,
    ) -> (Vec<FeeEntry>, Option<FeePricing>) {
        let basis = self.basis(parties, transfer_type);
        let quotes = self
            .tiers_on(&basis, transfer_type)
            .into_iter()
            .map(|t| FeeQuote { entry: super::quote::entry_of(t, t.least_fee()), tier: t.clone() })
            .collect();
        (on_basis(&basis, quotes), basis.pricing())
    }
}

/// The entries as the basis says: a payer's tiers say whose they are, a waiver's fees are 0.00.
fn on_basis(basis: &Basis<'_>, quotes: Vec<FeeQuote>) -> Vec<FeeEntry> {
    let entries = quotes.into_iter();
    match basis {
        Basis::Schedule => entries.map(|q| q.entry).collect(),
        Basis::PayerSchedule(p) => entries
            .map(|q| FeeEntry {
                description: format!("{} (schedule of payerId {})", q.entry.description, p.payer_id),
                ..q.entry
            })
            .collect(),
        Basis::Waiver(w) => entries
            .map(|FeeQuote { entry, tier }| {
                let (field, id) = w.party().unwrap_or_default();
                let reason = w.reason.as_deref().map_or_else(String::new, |r| format!(" ({r})"));
                let range = super::describe_range(tier.from, tier.to);
                FeeEntry {
                    fee_amount: cents(Decimal::ZERO),
                    description: format!(
                        "{} {}, {range}: waived for {field} {id}{reason}",
                        tier.rail.label(),
                        entry.fee_type
                    ),
                    fee_type: entry.fee_type,
                }
            })
            .collect(),
    }
}

impl Basis<'_> {
    /// The answer's `pricing` member: `None` for the schedule's own tiers.
    pub fn pricing(&self) -> Option<FeePricing> {
        match self {
            Basis::Schedule => None,
            Basis::PayerSchedule(p) => Some(FeePricing {
                basis: "payer_schedule".into(),
                field: "payerId".into(),
                id: p.payer_id.clone(),
                reason: None,
            }),
            Basis::Waiver(w) => w.party().map(|(field, id)| FeePricing {
                basis: "waiver".into(),
                field: field.into(),
                id: id.into(),
                reason: w.reason.clone(),
            }),
        }
    }
}

/// Validates the payer schedules and waivers of a file, reporting each problem at its place
/// (`payer_schedules[0].fees[1].flat`, `waivers[2]`).
pub(super) fn check(
    payer_files: &[PayerScheduleFile],
    waiver_files: &[FeeWaiver],
    say: &mut impl FnMut(String, String),
) -> (Vec<PayerSchedule>, Vec<FeeWaiver>) {
    let mut waivers = Vec::new();
    for (i, w) in waiver_files.iter().enumerate() {
        let ids = [("payer_id", &w.payer_id), ("payee_id", &w.payee_id), ("payee_bank_id", &w.payee_bank_id)];
        let given: Vec<_> = ids.iter().filter(|(_, v)| v.is_some()).collect();
        let mut ok = given.len() == 1;
        if !ok {
            say(format!("waivers[{i}]"), "a waiver names exactly one of payer_id, payee_id, payee_bank_id".into());
        }
        for (name, v) in &given {
            if let Some(problem) = v.as_deref().and_then(super::request::id_problem) {
                say(format!("waivers[{i}].{name}"), format!("{name} {problem}"));
                ok = false;
            }
        }
        if let Some(Err(e)) = w.reason.as_deref().map(Memo::parse) {
            say(format!("waivers[{i}].reason"), e.to_string().replacen("memo", "reason", 1));
            ok = false;
        }
        if ok && waivers.iter().any(|x: &FeeWaiver| x.party() == w.party()) {
            let (field, id) = w.party().unwrap_or_default();
            say(format!("waivers[{i}]"), format!("{field} {id} is waived twice"));
            ok = false;
        }
        if ok {
            waivers.push(w.clone());
        }
    }
    let mut payers: Vec<PayerSchedule> = Vec::new();
    for (i, p) in payer_files.iter().enumerate() {
        let at_payer = format!("payer_schedules[{i}]");
        let mut ok = true;
        if let Some(problem) = super::request::id_problem(&p.payer_id) {
            say(format!("{at_payer}.payer_id"), format!("payer_id {problem}"));
            ok = false;
        } else if payer_files[..i].iter().any(|q| q.payer_id == p.payer_id) {
            say(format!("{at_payer}.payer_id"), format!("payer {} has a schedule already", p.payer_id));
            ok = false;
        } else if waivers.iter().any(|w| w.payer_id.as_deref() == Some(&p.payer_id)) {
            say(
                format!("{at_payer}.payer_id"),
                format!("payer {} is waived; its schedule would never price", p.payer_id),
            );
            ok = false;
        }
        if p.fees.is_empty() {
            say(format!("{at_payer}.fees"), "a payer schedule needs at least one tier".into());
            ok = false;
        }
        let (mut tiers, mut origin, mut refused) = (Vec::new(), Vec::new(), Vec::new());
        for (j, t) in p.fees.iter().enumerate() {
            let mut at = |field: &str, m: String| say(format!("{at_payer}.fees[{j}].{field}"), m);
            match parse_tier(t, &mut at) {
                Some(tier) => {
                    tiers.push(tier);
                    origin.push(j);
                }
                None => refused.push((t.transfer_type.as_str(), t.fee_type.as_str())),
            }
        }
        // Only the transfer types it lists: the others are the schedule's.
        let mut covered = true;
        check_coverage(&tiers, &origin, &refused, &format!("{at_payer}.fees"), false, &mut |place, m| {
            covered = false;
            say(place, m)
        });
        if ok && covered && refused.is_empty() {
            payers.push(PayerSchedule { payer_id: p.payer_id.clone(), tiers: order_fee_types(tiers) });
        }
    }
    (payers, waivers)
}

/// Fee types in the order of their first appearance within each transfer type, amounts ascending.
pub(super) fn order_fee_types(tiers: Vec<FeeTier>) -> Vec<FeeTier> {
    let first_seen = |t: &FeeTier| tiers.iter().position(|u| u.fee_type == t.fee_type).unwrap_or(0);
    let mut keyed: Vec<(usize, &FeeTier)> = tiers.iter().map(|t| (first_seen(t), t)).collect();
    keyed.sort_by(|(a, x), (b, y)| (x.rail, x.transfer_type, *a, x.from).cmp(&(y.rail, y.transfer_type, *b, y.from)));
    keyed.into_iter().map(|(_, t)| t.clone()).collect()
}

#[cfg(test)]
#[path = "parties_tests.rs"]
mod tests;
