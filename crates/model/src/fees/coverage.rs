//! A schedule's amount ranges: every amount priced exactly once per fee type.

use std::collections::BTreeMap;

use super::{FeeTier, TransferType};

/// Tiers of each (rail, transfer type, fee type) start at 0.00, follow each other without gap
/// or overlap, and end open; with `every_type`, every transfer type is priced. Places are
/// `{list}[i]`, `i` the entry's position in the file's list.
pub(super) fn check_coverage(
    tiers: &[FeeTier],
    origin: &[usize],
    refused: &[(&str, &str)],
    list: &str,
    every_type: bool,
    say: &mut impl FnMut(String, String),
) {
    let mut groups: BTreeMap<(TransferType, &str), Vec<usize>> = BTreeMap::new();
    for (k, t) in tiers.iter().enumerate() {
        if !refused.contains(&(t.transfer_type.as_str(), t.fee_type.as_str())) {
            groups.entry((t.transfer_type, &t.fee_type)).or_default().push(k);
        }
    }
    for t in TransferType::ALL {
        let mentioned = refused.iter().any(|(tt, _)| *tt == t.as_str()) || tiers.iter().any(|x| x.transfer_type == t);
        if every_type && !mentioned {
            say(list.into(), format!("transfer type {t} ({} rail) has no tiers", t.rail()));
        }
    }
    for ((transfer_type, fee_type), mut ks) in groups {
        ks.sort_by_key(|k| tiers[*k].from);
        let name = format!("{} {transfer_type} {fee_type}", transfer_type.rail());
        let place = |k: usize| format!("{list}[{}]", origin[k]);
        let first = &tiers[ks[0]];
        if !first.from.decimal().is_zero() {
            say(place(ks[0]), format!("{name}: the first tier starts at {}; it must start at 0.00", first.from));
        }
        for pair in ks.windows(2) {
            let (a, b) = (&tiers[pair[0]], &tiers[pair[1]]);
            match a.to {
                None => say(
                    place(pair[0]),
                    format!("{name}: the open tier from {} overlaps the tier from {}", a.from, b.from),
                ),
                Some(to) if to.decimal() < b.from.decimal() => say(
                    place(pair[1]),
                    format!("{name}: gap between {to} and {} (no tier prices those amounts)", b.from),
                ),
                Some(to) if to.decimal() > b.from.decimal() => {
                    say(place(pair[1]), format!("{name}: the tier from {} overlaps the tier up to {to}", b.from))
                }
                Some(_) => {}
            }
        }
        let last = ks[ks.len() - 1];
        if let Some(to) = tiers[last].to {
            say(place(last), format!("{name}: the last tier ends at {to}; leave out `to` so every amount is priced"));
        }
    }
}
