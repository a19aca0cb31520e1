//! What the page says of a cash letter, as pure functions of the record: its amount, the
//! preview's summary, the toast of one made.

use moneydesk_model::cash_letters::CashLetter;
use moneydesk_model::Money;

use crate::format::{format_money, group};
use crate::i18n::{cash_letters::text, fill};

/// `$1,234.50`; the amount as sent when it does not read as money.
pub fn money(m: &Money) -> String {
    format_money(&m.to_string()).unwrap_or_else(|| m.to_string())
}

/// `2 checks in 1 bundle, $201.50 in all.`
pub fn summary(p: &CashLetter) -> String {
    let t = text();
    let plural = |n: u64, one: &str, many: &str| format!("{} {}", group(n), if n == 1 { one } else { many });
    fill(
        t.summary,
        &[
            &plural(p.item_count, t.check, t.checks),
            &plural(p.bundle_count, t.bundle, t.bundles),
            &money(&p.total_amount),
        ],
    )
}

/// `Cash letter 00000001 was made: 2 checks, $201.50.`
pub fn made(letter: &CashLetter) -> String {
    fill(text().made, &[&letter.cash_letter_id, &group(letter.item_count), &money(&letter.total_amount)])
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn letter(items: u64, bundles: u64, total: &str) -> CashLetter {
        CashLetter {
            id: 0,
            cash_letter_id: "00000001".into(),
            business_date: "2024-05-01".into(),
            created_at: None,
            created_by: None,
            item_count: items,
            bundle_count: bundles,
            total_amount: total.parse().unwrap(),
            file_bytes: None,
            file_sha256: None,
            items: Vec::new(),
        }
    }

    #[wasm_bindgen_test]
    fn the_summary_counts_checks_and_bundles() {
        assert_eq!(summary(&letter(2, 1, "201.50")), "2 checks in 1 bundle, $201.50 in all.");
        assert_eq!(summary(&letter(1, 2, "1234.00")), "1 check in 2 bundles, $1,234.00 in all.");
    }

    #[wasm_bindgen_test]
    fn a_letter_made_is_named_with_its_checks_and_total() {
        assert_eq!(made(&letter(2, 1, "201.50")), "Cash letter 00000001 was made: 2 checks, $201.50.");
    }
}
