//! The fee quote's validated request fields: the amount and the memo.

use std::fmt;

use rust_decimal::Decimal;

use crate::Money;

/// The most integer digits a quoted amount may have (999,999,999,999,999.99 at most).
pub const MAX_INTEGER_DIGITS: usize = 15;

/// What [`FeeAmount::parse`] accepts, as the OpenAPI document's `pattern` (zero excluded).
pub const AMOUNT_PATTERN: &str = r"^([1-9][0-9]{0,14}(\.[0-9]{1,2})?|0\.(0[1-9]|[1-9][0-9]?))$";

/// An amount to quote a fee for: a positive decimal string of at most 15 integer digits and at
/// most 2 decimals, written plainly (no sign, exponent, spaces, separators, currency sign or
/// leading zeros): [`AMOUNT_PATTERN`].
///
/// ```
/// use moneydesk_model::fees::{FeeAmount, FeeAmountError};
/// assert_eq!(FeeAmount::parse("1000.5").unwrap().to_string(), "1000.5");
/// assert_eq!(FeeAmount::parse("0"), Err(FeeAmountError::NotPositive));
/// assert_eq!(FeeAmount::parse("0.001"), Err(FeeAmountError::TooPrecise(3)));
/// assert_eq!(FeeAmount::parse("1e3"), Err(FeeAmountError::NotDecimal("1e3".into())));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FeeAmount(Decimal);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeeAmountError {
    #[error("amount is empty")]
    Empty,
    #[error("amount has spaces around it; send the digits alone")]
    Whitespace,
    #[error("amount must not be negative or signed; got {0:?}")]
    Signed(String),
    #[error(
        "amount must be a plain decimal number like 1234.56 (no exponent, separators or currency sign), got {0:?}"
    )]
    NotDecimal(String),
    #[error("amount has {0} decimal places; at most 2 are allowed")]
    TooPrecise(usize),
    #[error("amount has leading zeros; write it like 12.50 or 0.75")]
    LeadingZeros,
    #[error("amount has {0} integer digits; at most 15 are allowed")]
    TooLarge(usize),
    #[error("amount must be greater than zero")]
    NotPositive,
}

impl FeeAmount {
    pub fn parse(s: &str) -> Result<FeeAmount, FeeAmountError> {
        if s.is_empty() {
            return Err(FeeAmountError::Empty);
        }
        if s.trim() != s {
            return Err(FeeAmountError::Whitespace);
        }
        if s.starts_with(['-', '+']) {
            return Err(FeeAmountError::Signed(s.to_string()));
        }
        let (int, frac) = match s.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (s, None),
        };
        let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || frac.is_some_and(|f| !digits(f)) {
            return Err(FeeAmountError::NotDecimal(s.to_string()));
        }
        if let Some(f) = frac.filter(|f| f.len() > 2) {
            return Err(FeeAmountError::TooPrecise(f.len()));
        }
        // One way to write each amount (the OpenAPI pattern says the same): `007` is refused.
        if int.len() > 1 && int.starts_with('0') {
            return Err(FeeAmountError::LeadingZeros);
        }
        if int.len() > MAX_INTEGER_DIGITS {
            return Err(FeeAmountError::TooLarge(int.len()));
        }
        // At most 15 + 2 digits: always fits a Decimal exactly.
        let d = Decimal::from_str_exact(s).map_err(|_| FeeAmountError::NotDecimal(s.to_string()))?;
        if d.is_zero() {
            return Err(FeeAmountError::NotPositive);
        }
        Ok(FeeAmount(d))
    }

    pub fn decimal(self) -> Decimal {
        self.0
    }

    pub fn money(self) -> Money {
        Money::new(self.0)
    }
}

impl fmt::Display for FeeAmount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The most characters a memo may have (a NACHA addenda carries 80; a wire's remittance text
/// 140: the larger).
pub const MEMO_MAX_CHARS: usize = 140;

/// What [`Memo::parse`] accepts besides the length, as the OpenAPI document's `pattern`: no C0
/// or C1 control character.
pub const MEMO_PATTERN: &str = r"^[^\x00-\x1f\x7f-\x9f]*$";

/// A memo: at most 140 characters, none of them a control character (a memo ends up in bank
/// files, where a line break or a NUL would corrupt the record): [`MEMO_PATTERN`]. Blank is a
/// memo too.
///
/// ```
/// use moneydesk_model::fees::{Memo, MemoError};
/// assert_eq!(Memo::parse("Invoice 4711").unwrap().as_str(), "Invoice 4711");
/// assert_eq!(Memo::parse("a\nb"), Err(MemoError::Control { position: 2 }));
/// assert_eq!(Memo::parse(&"x".repeat(141)), Err(MemoError::TooLong(141)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memo(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoError {
    #[error("memo has {0} characters; at most 140 are allowed")]
    TooLong(usize),
    #[error("memo has a control character at position {position}")]
    Control { position: usize },
}

impl Memo {
    pub fn parse(s: &str) -> Result<Memo, MemoError> {
        if let Some(i) = s.chars().position(char::is_control) {
            return Err(MemoError::Control { position: i + 1 });
        }
        let n = s.chars().count();
        if n > MEMO_MAX_CHARS {
            return Err(MemoError::TooLong(n));
        }
        Ok(Memo(s.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<Memo> for String {
    fn from(m: Memo) -> String {
        m.0
    }
}

/// The OpenAPI schema of an optional memo field, named by the field's `schema_with` (utoipa's
/// `pattern` and `max_length` take only literals).
#[cfg(feature = "openapi")]
impl Memo {
    pub fn nullable_schema() -> utoipa::openapi::Object {
        use utoipa::openapi::schema::{SchemaType, Type};
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .description(Some("At most 140 characters, no control characters."))
            .max_length(Some(MEMO_MAX_CHARS))
            .pattern(Some(MEMO_PATTERN))
            .build()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_amount_of_the_issue_is_refused_with_its_reason() {
        let cases = [
            ("1e3", FeeAmountError::NotDecimal("1e3".into())),
            ("-5", FeeAmountError::Signed("-5".into())),
            ("+5", FeeAmountError::Signed("+5".into())),
            ("0", FeeAmountError::NotPositive),
            ("0.00", FeeAmountError::NotPositive),
            ("0.001", FeeAmountError::TooPrecise(3)),
            ("abc", FeeAmountError::NotDecimal("abc".into())),
            (" 12", FeeAmountError::Whitespace),
            ("12 ", FeeAmountError::Whitespace),
            ("", FeeAmountError::Empty),
            ("1,000", FeeAmountError::NotDecimal("1,000".into())),
            ("$5", FeeAmountError::NotDecimal("$5".into())),
            ("5.", FeeAmountError::NotDecimal("5.".into())),
            (".5", FeeAmountError::NotDecimal(".5".into())),
            ("1.2.3", FeeAmountError::NotDecimal("1.2.3".into())),
            ("1234567890123456", FeeAmountError::TooLarge(16)),
            ("١٢", FeeAmountError::NotDecimal("١٢".into())),
        ];
        for (input, expected) in cases {
            assert_eq!(FeeAmount::parse(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn good_amounts_keep_their_exact_digits() {
        assert_eq!(FeeAmount::parse("0012.5"), Err(FeeAmountError::LeadingZeros));
        for (input, text) in [("0.01", "0.01"), ("999999999999999.99", "999999999999999.99"), ("0.5", "0.5")] {
            assert_eq!(FeeAmount::parse(input).unwrap().to_string(), text, "{input}");
        }
    }

    #[test]
    fn a_memo_of_140_characters_of_any_script_is_fine() {
        assert!(Memo::parse(&"é".repeat(140)).is_ok());
        assert_eq!(Memo::parse("tab\there"), Err(MemoError::Control { position: 4 }));
        assert_eq!(Memo::parse("nul\u{0}"), Err(MemoError::Control { position: 4 }));
    }
}

#[cfg(test)]
mod pattern_tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The OpenAPI pattern and the parser accept exactly the same amounts.
        #[test]
        fn the_documented_pattern_is_what_the_parser_accepts(s in "[0-9.]{1,19}") {
            let pattern = regex::Regex::new(AMOUNT_PATTERN).unwrap();
            prop_assert_eq!(pattern.is_match(&s), FeeAmount::parse(&s).is_ok(), "{:?}", s);
        }

        /// The same for the memo (its length is `maxLength`'s, counted in characters too).
        #[test]
        fn the_documented_memo_pattern_is_what_the_parser_accepts(s in "[ a\u{0}\u{1f}\u{7f}\u{9f}\u{a0}é]{0,3}") {
            let pattern = regex::Regex::new(MEMO_PATTERN).unwrap();
            prop_assert_eq!(pattern.is_match(&s), Memo::parse(&s).is_ok(), "{:?}", s);
        }
    }
}
