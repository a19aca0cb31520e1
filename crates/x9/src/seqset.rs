//! The set of item sequence numbers seen so far, to find duplicates without memory growing
//! with the item count in the usual case: numbers are kept as merged ranges, so a file whose
//! sequence numbers run consecutively (as the [`Writer`](crate::Writer)'s callers usually
//! assign them) costs one entry whatever its length. Only scattered numbers cost one entry
//! each (16 bytes), and non-numeric ones (which the checks report anyway) a string each.

use std::collections::{BTreeMap, HashSet};

#[derive(Debug, Default, Clone)]
pub(crate) struct SequenceSet {
    /// Disjoint, non-adjacent ranges: start → end (inclusive).
    ranges: BTreeMap<u64, u64>,
    other: HashSet<String>,
}

fn numeric(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 19 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl SequenceSet {
    pub fn contains(&self, s: &str) -> bool {
        match numeric(s) {
            Some(v) => self.ranges.range(..=v).next_back().is_some_and(|(_, &end)| v <= end),
            None => self.other.contains(s),
        }
    }

    /// Adds `s`; false when it was already there.
    pub fn insert(&mut self, s: &str) -> bool {
        let Some(v) = numeric(s) else {
            return self.other.insert(s.to_owned());
        };
        if self.contains(s) {
            return false;
        }
        let (mut start, mut end) = (v, v);
        if let Some((&s0, &e0)) = self.ranges.range(..v).next_back() {
            if e0.checked_add(1) == Some(v) {
                start = s0;
            }
        }
        if let Some(next) = v.checked_add(1) {
            if let Some(e1) = self.ranges.remove(&next) {
                end = e1;
            }
        }
        self.ranges.insert(start, end);
        true
    }

    #[cfg(test)]
    fn entries(&self) -> usize {
        self.ranges.len() + self.other.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_numbers_take_one_entry_and_duplicates_are_found() {
        let mut set = SequenceSet::default();
        for i in 0..10_000u64 {
            assert!(set.insert(&format!("{i:015}")));
        }
        assert_eq!(set.entries(), 1);
        assert!(!set.insert("000000000000042"));
        assert!(set.insert("20000"));
        assert!(set.insert("19999"));
        assert!(set.insert("10000"));
        assert_eq!(set.entries(), 2);
        assert!(!set.insert("19999"));
        assert!(set.insert("AB") && !set.insert("AB"));
    }
}
