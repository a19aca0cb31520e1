//! What a bulk check found, counted (`Tally`), and the sentences that say so: pure functions of
//! the rows' outcomes.

use super::super::format::count;
use super::run::Outcome;
use crate::i18n::fill;
use crate::i18n::routing::text;

/// The rows counted by outcome. A row not checked yet counts as valid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub valid: u64,
    pub invalid: u64,
    pub in_ach: u64,
    pub in_wire: u64,
    /// Valid, and in neither directory.
    pub neither: u64,
}

impl Tally {
    /// The tally with one more row.
    pub fn add(mut self, o: &Outcome) -> Tally {
        match o {
            Outcome::Invalid(_) => self.invalid += 1,
            Outcome::Checked { ach, wire } => {
                self.valid += 1;
                self.in_ach += ach.is_some() as u64;
                self.in_wire += wire.is_some() as u64;
                self.neither += (ach.is_none() && wire.is_none()) as u64;
            }
            _ => self.valid += 1,
        }
        self
    }

    /// `4 rows: 2 valid, 2 invalid; 1 in ACH, 1 in wire, 1 in neither.`
    pub fn text(&self) -> String {
        let counts = [self.valid + self.invalid, self.valid, self.invalid, self.in_ach, self.in_wire, self.neither];
        let counts = counts.map(count);
        fill(text().tally, &counts.each_ref().map(String::as_str))
    }
}

/// `2 of 2 distinct valid numbers looked up`.
pub fn progress(done: usize, lookups: usize) -> String {
    fill(text().progress, &[&count(done as u64), &count(lookups as u64)])
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_rows_are_counted_by_what_was_found() {
        let outcomes = [
            Outcome::Invalid("too short".into()),
            Outcome::Checked { ach: Some("Bank".into()), wire: None },
            Outcome::Checked { ach: None, wire: Some("Bank".into()) },
            Outcome::Checked { ach: None, wire: None },
            Outcome::Pending,
            Outcome::Failed("offline".into()),
        ];
        let t = outcomes.iter().fold(Tally::default(), Tally::add);
        assert_eq!(t, Tally { valid: 5, invalid: 1, in_ach: 1, in_wire: 1, neither: 1 });
        assert_eq!(t.text(), "6 rows: 5 valid, 1 invalid; 1 in ACH, 1 in wire, 1 in neither.");
        assert_eq!(Tally::default().text(), "0 rows: 0 valid, 0 invalid; 0 in ACH, 0 in wire, 0 in neither.");
        assert_eq!(progress(1200, 4000), "1,200 of 4,000 distinct valid numbers looked up");
    }
}
