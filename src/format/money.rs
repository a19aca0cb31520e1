//! Amounts as people read them, from the API's decimal text, in the user's locale.

/// `1284350.27` → `$1,284,350.27`, `-5` → `-$5.00`, `0.5` → `$0.50`: digits are grouped from
/// the decimal text itself (never a float), at least two decimals, all given decimals kept.
/// `None` when the text is not a plain decimal.
pub fn format_money(s: &str) -> Option<String> {
    let s = s.trim();
    let (neg, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !all_digits(int) || !all_digits(frac) || (digits.contains('.') && frac.is_empty()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    // Another locale than en-US: Intl writes it (`1.284.350,27 US$` in Spanish), from the text.
    if !crate::i18n::locale::writes_itself() {
        let sign = if neg { "-" } else { "" };
        let plain = if frac.is_empty() { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") };
        if let Some(text) = crate::i18n::locale::intl_number(&plain, true) {
            return Some(text);
        }
    }
    let mut out = String::with_capacity(int.len() + int.len() / 3 + frac.len() + 4);
    let is_zero = int == "0" && frac.bytes().all(|b| b == b'0');
    if neg && !is_zero {
        out.push('-');
    }
    out.push('$');
    out.push_str(&super::thousands(int));
    out.push('.');
    out.push_str(frac);
    for _ in frac.len()..2 {
        out.push('0');
    }
    Some(out)
}

/// A typed amount as [`format_money`] writes it (the sign before the currency's `$`); the
/// decimal text as it is should it not read.
pub fn format_amount(m: &moneydesk_model::Money) -> String {
    let s = m.to_string();
    format_money(&s).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn money_is_grouped_from_the_decimal_text() {
        assert_eq!(format_money("1284350.27").as_deref(), Some("$1,284,350.27"));
        assert_eq!(format_money("1000").as_deref(), Some("$1,000.00"));
        assert_eq!(format_money("999.5").as_deref(), Some("$999.50"));
        assert_eq!(format_money("0.125").as_deref(), Some("$0.125"), "every given decimal is kept");
        assert_eq!(format_money("-1234567.00").as_deref(), Some("-$1,234,567.00"));
        assert_eq!(format_money("-0.00").as_deref(), Some("$0.00"));
        assert_eq!(format_money("007").as_deref(), Some("$7.00"));
        // Past f64's exact range: still exact.
        assert_eq!(format_money("12345678901234567890.01").as_deref(), Some("$12,345,678,901,234,567,890.01"));
        for bad in ["", "abc", "1.2.3", "1e5", "12.", ".5", "1,000", "--1"] {
            assert_eq!(format_money(bad), None, "{bad:?}");
        }
    }
}
