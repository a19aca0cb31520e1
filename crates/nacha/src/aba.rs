//! ABA routing transit numbers: eight digits identifying the bank (the "DFI identification"
//! of NACHA records) and a check digit.
//!
//! The check digit makes the weighted sum of all nine digits, weights 3 7 1 3 7 1 3 7 1, a
//! multiple of ten. A typo in a routing number sends a pull to the wrong bank (or to none), so
//! the builder refuses a bad one and the reader reports it.

use std::fmt;
use std::str::FromStr;

/// Why a string is not a routing number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoutingError {
    /// Not nine characters.
    #[error("a routing number has 9 digits, found {0} characters")]
    Length(usize),
    /// Something other than a digit.
    #[error("a routing number has only digits, found {0:?}")]
    NotNumeric(String),
    /// The check digit (the ninth) is wrong.
    #[error("check digit of {routing} should be {expected}")]
    CheckDigit {
        /// The routing number as given.
        routing: String,
        /// The check digit its first eight digits call for.
        expected: u8,
    },
}

/// The check digit for an eight-digit DFI identification (values above 99 999 999 use their
/// last eight digits).
///
/// ```
/// assert_eq!(moneydesk_nacha::check_digit(23138010), 4); // 231380104
/// ```
pub fn check_digit(dfi_identification: u32) -> u8 {
    const WEIGHTS: [u32; 8] = [3, 7, 1, 3, 7, 1, 3, 7];
    let mut rest = dfi_identification % 100_000_000;
    let mut sum = 0;
    // Walk the digits from the right, so the last weight goes with the last digit.
    for weight in WEIGHTS.iter().rev() {
        sum += (rest % 10) * weight;
        rest /= 10;
    }
    ((10 - sum % 10) % 10) as u8
}

/// A nine-digit ABA routing number whose check digit is right.
///
/// ```
/// use moneydesk_nacha::RoutingNumber;
/// let routing: RoutingNumber = "231380104".parse().unwrap();
/// assert_eq!(routing.dfi_identification(), 23138010);
/// assert_eq!(routing.check_digit(), 4);
/// assert!("231380105".parse::<RoutingNumber>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoutingNumber {
    dfi: u32,
    check: u8,
}

impl RoutingNumber {
    /// Parses nine digits and verifies the check digit.
    pub fn parse(s: &str) -> Result<RoutingNumber, RoutingError> {
        if s.len() != 9 {
            return Err(RoutingError::Length(s.chars().count()));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(RoutingError::NotNumeric(s.to_string()));
        }
        let dfi: u32 = s[..8].parse().map_err(|_| RoutingError::NotNumeric(s.to_string()))?;
        let check = s.as_bytes()[8] - b'0';
        let expected = check_digit(dfi);
        if check != expected {
            return Err(RoutingError::CheckDigit { routing: s.to_string(), expected });
        }
        Ok(RoutingNumber { dfi, check })
    }

    /// The first eight digits: what entry details, batch headers and trace numbers carry.
    pub fn dfi_identification(&self) -> u32 {
        self.dfi
    }

    /// The ninth digit.
    pub fn check_digit(&self) -> u8 {
        self.check
    }
}

impl FromStr for RoutingNumber {
    type Err = RoutingError;

    fn from_str(s: &str) -> Result<RoutingNumber, RoutingError> {
        RoutingNumber::parse(s)
    }
}

impl fmt::Display for RoutingNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08}{}", self.dfi, self.check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_routing_numbers_have_the_right_check_digit() {
        for routing in ["231380104", "121042882", "031300012", "061036000", "011000015"] {
            assert_eq!(RoutingNumber::parse(routing).unwrap().to_string(), routing);
        }
    }

    #[test]
    fn a_routing_number_with_a_leading_zero_keeps_it() {
        assert_eq!(RoutingNumber::parse("011000015").unwrap().dfi_identification(), 1_100_001);
        assert_eq!(RoutingNumber::parse("011000015").unwrap().to_string(), "011000015");
    }

    #[test]
    fn a_wrong_check_digit_length_or_character_is_refused() {
        assert_eq!(
            RoutingNumber::parse("231380105"),
            Err(RoutingError::CheckDigit { routing: "231380105".into(), expected: 4 })
        );
        assert_eq!(RoutingNumber::parse("23138010"), Err(RoutingError::Length(8)));
        assert!(matches!(RoutingNumber::parse("23138010X"), Err(RoutingError::NotNumeric(_))));
        assert!(matches!(RoutingNumber::parse("+23138010"), Err(RoutingError::NotNumeric(_))));
    }
}
