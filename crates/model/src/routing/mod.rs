//! ABA routing numbers and the Fed's directory records (CONTRACT.md points 1 and 9).
//!
//! The directory records and the routing extensions' types are in `directory` and re-exported
//! here.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

mod directory;

pub use directory::{
    AchParticipant, AsOfSource, DirectoryFormat, DirectoryPart, DirectorySource, DirectoryStatus, RefreshFailure,
    RoutingSearchHit, SearchDirectory, WireParticipant,
};
// The routing extensions' paths are written once, with every other path, in `paths`.
pub use crate::paths::{ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH, ROUTING_SEARCH};

/// Nine ASCII digits, ABA checksum (weights 3, 7, 1) holds, not all zeros.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RoutingNumber([u8; 9]);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoutingNumberError {
    #[error("routing number must be 9 digits, got {0}")]
    Length(usize),
    #[error("routing number must contain only digits; {found:?} at position {position} is not a digit")]
    NotDigit { found: char, position: usize },
    #[error("routing number 000000000 is not a valid routing number")]
    AllZeros,
    #[error("checksum digit should be {expected}, got {got}")]
    Checksum { expected: u8, got: u8 },
}

impl RoutingNumberError {
    /// A stable word for the kind of error (the portal and the error body use it).
    pub fn kind(&self) -> &'static str {
        match self {
            RoutingNumberError::Length(_) => "length",
            RoutingNumberError::NotDigit { .. } => "non_digit",
            RoutingNumberError::AllZeros => "all_zeros",
            RoutingNumberError::Checksum { .. } => "checksum",
        }
    }
}

const WEIGHTS: [u32; 9] = [3, 7, 1, 3, 7, 1, 3, 7, 1];

/// The check digit (9th digit) that makes the first eight digits a valid routing number.
pub fn check_digit(first_eight: &[u8; 8]) -> u8 {
    let sum: u32 = first_eight.iter().zip(WEIGHTS).map(|(d, w)| *d as u32 * w).sum();
    ((10 - sum % 10) % 10) as u8
}

impl RoutingNumber {
    pub fn parse(s: &str) -> Result<Self, RoutingNumberError> {
        if let Ok(digits) = <&[u8; 9]>::try_from(s.as_bytes()) {
            if digits.iter().all(u8::is_ascii_digit) {
                return Self::from_ascii_digits(digits);
            }
        }
        // Not nine ASCII digits: say what is wrong, in characters.
        let len = s.chars().count();
        if let Some((i, c)) = s.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
            // Length first when it is also wrong: "12345" is short before it is anything else,
            // but "12345678x" should say which character is the problem.
            if len != 9 {
                return Err(RoutingNumberError::Length(len));
            }
            return Err(RoutingNumberError::NotDigit { found: c, position: i + 1 });
        }
        Err(RoutingNumberError::Length(len))
    }

    /// Nine ASCII digits: all zeros and the checksum remain to check.
    fn from_ascii_digits(ascii: &[u8; 9]) -> Result<Self, RoutingNumberError> {
        let d = ascii.map(|b| b - b'0');
        if d.iter().all(|x| *x == 0) {
            return Err(RoutingNumberError::AllZeros);
        }
        let mut first = [0u8; 8];
        first.copy_from_slice(&d[..8]);
        let expected = check_digit(&first);
        if expected != d[8] {
            return Err(RoutingNumberError::Checksum { expected, got: d[8] });
        }
        Ok(RoutingNumber(d))
    }

    pub fn digits(&self) -> [u8; 9] {
        self.0
    }

    /// The first four digits: the Federal Reserve routing symbol (district and office).
    pub fn frb_district(&self) -> u8 {
        self.0[0] * 10 + self.0[1]
    }
}

impl fmt::Display for RoutingNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in self.0 {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl FromStr for RoutingNumber {
    type Err = RoutingNumberError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RoutingNumber::parse(s)
    }
}

impl Serialize for RoutingNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RoutingNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        RoutingNumber::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn errors_say_what_is_wrong() {
        assert_eq!(RoutingNumber::parse("12345678").unwrap_err().to_string(), "routing number must be 9 digits, got 8");
        assert_eq!(RoutingNumber::parse("011000017").unwrap_err().to_string(), "checksum digit should be 5, got 7");
        assert_eq!(RoutingNumber::parse("01100001x").unwrap_err().kind(), "non_digit");
        assert_eq!(RoutingNumber::parse("000000000").unwrap_err(), RoutingNumberError::AllZeros);
        assert_eq!(RoutingNumber::parse("٠١١٠٠٠٠١٥").unwrap_err().kind(), "non_digit");
        assert_eq!(RoutingNumber::parse("011000015").unwrap().to_string(), "011000015");
    }

    proptest! {
        #[test]
        fn computed_check_digit_always_validates(first in proptest::array::uniform8(0u8..10)) {
            let cd = check_digit(&first);
            let s: String = first.iter().chain(std::iter::once(&cd)).map(|d| char::from(b'0' + d)).collect();
            if s == "000000000" {
                prop_assert_eq!(RoutingNumber::parse(&s), Err(RoutingNumberError::AllZeros));
            } else {
                prop_assert_eq!(RoutingNumber::parse(&s).unwrap().to_string(), s.clone());
                // Any other last digit fails the checksum and names the expected one.
                let wrong = (cd + 1) % 10;
                let bad = format!("{}{}", &s[..8], wrong);
                prop_assert_eq!(RoutingNumber::parse(&bad), Err(RoutingNumberError::Checksum { expected: cd, got: wrong }));
            }
        }

        #[test]
        fn wrong_length_is_reported(s in "[0-9]{0,8}|[0-9]{10,14}") {
            prop_assert_eq!(RoutingNumber::parse(&s), Err(RoutingNumberError::Length(s.len())));
        }
    }
}
