//! The amount field: money as it is typed. Letters and signs are refused on the spot (and the
//! user is told), digits are grouped by thousands, at most two decimals and fifteen integer
//! digits are kept, and the parsed value is what the quote is asked for.

use moneydesk_model::fees::{FeeAmount, MAX_INTEGER_DIGITS};

use crate::i18n::fees::text;

/// What the field shows and means after an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// The text to put back in the field: `1,234.5`.
    pub display: String,
    /// The amount as the API takes it (`1234.5`), when it is a positive amount.
    pub amount: Option<String>,
    /// Why something typed was dropped, to say so next to the field.
    pub refused: Option<&'static str>,
}

/// Tidies what is in the field.
pub fn tidy(raw: &str) -> Typed {
    let mut refused = None;
    let (mut int, mut frac, mut dot) = (String::new(), String::new(), false);
    for c in raw.chars() {
        match c {
            '0'..='9' if dot => {
                if frac.len() < 2 {
                    frac.push(c);
                } else {
                    refused = Some(text().two_decimals);
                }
            }
            '0'..='9' => {
                if int.len() < MAX_INTEGER_DIGITS {
                    int.push(c);
                } else {
                    refused = Some(text().fifteen_digits);
                }
            }
            '.' if !dot => dot = true,
            // Our own grouping, and spaces pasted with a number.
            ',' | ' ' | '\u{a0}' => {}
            _ => refused = Some(text().digits_only),
        }
    }
    // One way to write each amount: `007` is `7`, `.5` is `0.5`.
    let trimmed = int.trim_start_matches('0');
    int = if trimmed.is_empty() && (!int.is_empty() || dot) { "0".into() } else { trimmed.to_string() };
    let mut display = crate::format::thousands(&int);
    if dot {
        display.push('.');
        display.push_str(&frac);
    }
    let plain = if frac.is_empty() { int.clone() } else { format!("{int}.{frac}") };
    let amount = FeeAmount::parse(&plain).ok().map(|a| a.to_string());
    Typed { display, amount, refused }
}

/// `1234.5` -> `$1,234.50`.
pub fn dollars(amount: &str) -> String {
    let (int, frac) = amount.split_once('.').unwrap_or((amount, ""));
    format!("${}.{:0<2}", crate::format::thousands(int), frac)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn shown(raw: &str) -> (String, Option<String>, bool) {
        let t = tidy(raw);
        (t.display, t.amount, t.refused.is_some())
    }

    #[wasm_bindgen_test]
    fn money_is_grouped_as_typed_and_letters_are_refused() {
        assert_eq!(shown("1234"), ("1,234".into(), Some("1234".into()), false));
        assert_eq!(shown("1,2345."), ("12,345.".into(), Some("12345".into()), false));
        assert_eq!(shown("1234.567"), ("1,234.56".into(), Some("1234.56".into()), true));
        assert_eq!(shown("12a3"), ("123".into(), Some("123".into()), true));
        assert_eq!(shown("-5"), ("5".into(), Some("5".into()), true));
        assert_eq!(shown("007"), ("7".into(), Some("7".into()), false));
        assert_eq!(shown(".5"), ("0.5".into(), Some("0.5".into()), false));
        assert_eq!(shown("0"), ("0".into(), None, false));
        assert_eq!(shown(""), ("".into(), None, false));
        assert_eq!(shown("1234567890123456"), ("123,456,789,012,345".into(), Some("123456789012345".into()), true));
        assert_eq!(dollars("1234.5"), "$1,234.50");
        assert_eq!(dollars("7"), "$7.00");
    }
}
