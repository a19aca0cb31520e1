//! Figures and dates as every page writes them, in the user's locale (`i18n::locale`): digits
//! grouped by thousands (with commas in en-US);
//! amounts in dollars from their decimal text; sizes in binary units; instants in the user's
//! locale and time zone, calendar dates in the user's locale.

mod bytes;
mod date;
mod money;

pub use bytes::bytes;
pub use date::{format_date, format_date_time};
pub use money::{format_amount, format_money};

/// `"19010"` → `"19,010"`: a run of ASCII digits, grouped by thousands with commas in every
/// locale (the grammar of the amount fields, which read it back).
pub fn thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `2400` → `2,400`: a count as the user's locale writes it (`24.000` in Spanish).
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    if !crate::i18n::locale::writes_itself() {
        if let Some(text) = crate::i18n::locale::intl_number(&digits, false) {
            return text;
        }
    }
    thousands(&digits)
}
