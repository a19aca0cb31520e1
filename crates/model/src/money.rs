//! Money: an exact decimal, never a float.
//!
//! On the wire it is a JSON number (as the description shows, `"fee_amount": 2.00`), written
//! from the decimal's own digits so no float ever touches it. It reads from a JSON number or a
//! decimal string, again from the text itself.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(Decimal);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error("amount is empty")]
    Empty,
    #[error("amount must be a decimal number like 123.45, got {0:?}")]
    NotDecimal(String),
    #[error("amount has {0} decimal places; at most {1} are allowed")]
    TooPrecise(u32, u32),
    #[error("amount must not be negative, got {0}")]
    Negative(String),
}

impl Money {
    pub const ZERO: Money = Money(Decimal::ZERO);

    pub fn new(d: Decimal) -> Self {
        Money(d)
    }

    pub fn decimal(&self) -> Decimal {
        self.0
    }

    /// Parses a plain decimal (`123.45`, `-0.5`, `10`). No exponents, no thousands separators,
    /// no currency signs: a money field that needs those is a client bug worth reporting.
    pub fn parse(s: &str) -> Result<Self, MoneyError> {
        let t = s.trim();
        if t.is_empty() {
            return Err(MoneyError::Empty);
        }
        let digits = t.strip_prefix('-').unwrap_or(t);
        let ok = !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit() || c == '.')
            && digits.matches('.').count() <= 1
            && !digits.starts_with('.')
            && !digits.ends_with('.');
        if !ok {
            return Err(MoneyError::NotDecimal(s.to_string()));
        }
        Decimal::from_str_exact(t).map(Money).map_err(|_| MoneyError::NotDecimal(s.to_string()))
    }

    /// The same amount written with exactly two decimals (`2` -> `2.00`), rounded half-even
    /// when it has more: how amounts of money are answered.
    ///
    /// ```
    /// use moneydesk_model::Money;
    /// assert_eq!(Money::parse("2").unwrap().with_cents().to_string(), "2.00");
    /// assert_eq!(Money::parse("0.125").unwrap().with_cents().to_string(), "0.12");
    /// ```
    pub fn with_cents(self) -> Money {
        let mut d = self.0.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointNearestEven);
        d.rescale(2);
        Money(d)
    }

    /// Checks an amount that is to be charged or moved: not negative, at most `places` decimals.
    pub fn check_amount(self, places: u32) -> Result<Self, MoneyError> {
        if self.0.is_sign_negative() && !self.0.is_zero() {
            return Err(MoneyError::Negative(self.to_string()));
        }
        if self.0.scale() > places {
            return Err(MoneyError::TooPrecise(self.0.scale(), places));
        }
        Ok(self)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Money {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Money::parse(s)
    }
}

impl From<Decimal> for Money {
    fn from(d: Decimal) -> Self {
        Money(d)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The decimal's own text as a JSON number token: exact, no f64 round trip.
        let raw = RawValue::from_string(self.0.to_string()).map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let text = raw.get().trim();
        let inner = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(quoted) => quoted,
            None => text,
        };
        if inner.contains(['e', 'E']) {
            return Err(serde::de::Error::custom(format!("amount must be a plain decimal, got {text}")));
        }
        Money::parse(inner).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Money {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Number))
            .description(Some("Exact decimal amount in US dollars, written as a JSON number from its decimal digits; requests may also send it as a decimal string."))
            .examples([serde_json::json!(123.45)])
            .into()
    }
}
#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Money {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn serialises_as_exact_json_number() {
        let m = Money::parse("2.00").unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), "2.00");
        let big = Money::parse("12345678901234567.89").unwrap();
        assert_eq!(serde_json::to_string(&big).unwrap(), "12345678901234567.89");
    }

    #[test]
    fn reads_number_or_string_exactly() {
        let a: Money = serde_json::from_str("0.1").unwrap();
        let b: Money = serde_json::from_str("\"0.1\"").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "0.1");
        let c: Money = serde_json::from_str("12345678901234567.89").unwrap();
        assert_eq!(c.to_string(), "12345678901234567.89");
        assert!(serde_json::from_str::<Money>("1e3").is_err());
        assert!(serde_json::from_str::<Money>("\"12,00\"").is_err());
        assert!(serde_json::from_str::<Money>("true").is_err());
    }

    #[test]
    fn amount_checks_say_what_is_wrong() {
        assert_eq!(Money::parse("1.234").unwrap().check_amount(2), Err(MoneyError::TooPrecise(3, 2)));
        assert!(matches!(Money::parse("-1").unwrap().check_amount(2), Err(MoneyError::Negative(_))));
        assert_eq!(Money::parse(""), Err(MoneyError::Empty));
        assert!(matches!(Money::parse("$5"), Err(MoneyError::NotDecimal(_))));
        assert!(matches!(Money::parse("5."), Err(MoneyError::NotDecimal(_))));
    }

    proptest! {
        #[test]
        fn json_round_trip_is_exact(units in -10_000_000_000i64..10_000_000_000i64, scale in 0u32..6) {
            let m = Money::new(Decimal::new(units, scale));
            let json = serde_json::to_string(&m).unwrap();
            let back: Money = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, m);
            prop_assert_eq!(back.decimal().scale(), scale);
            let quoted: Money = serde_json::from_str(&format!("\"{}\"", m)).unwrap();
            prop_assert_eq!(quoted, m);
        }
    }
}
