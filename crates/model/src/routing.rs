//! ABA routing numbers and the Fed's directory records (CONTRACT.md points 1 and 9).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
        let chars: Vec<char> = s.chars().collect();
        if let Some((i, c)) = chars.iter().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
            // Length first when it is also wrong: "12345" is short before it is anything else,
            // but "12345678x" should say which character is the problem.
            if chars.len() != 9 {
                return Err(RoutingNumberError::Length(chars.len()));
            }
            return Err(RoutingNumberError::NotDigit { found: *c, position: i + 1 });
        }
        if chars.len() != 9 {
            return Err(RoutingNumberError::Length(chars.len()));
        }
        let mut d = [0u8; 9];
        for (i, c) in chars.iter().enumerate() {
            d[i] = *c as u8 - b'0';
        }
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

/// A FedACH participant exactly as the ACH validate endpoint answers it (description 2.3).
/// Values are kept as the Fed writes them: codes and dates as strings, names trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AchParticipant {
    pub routing_number: String,
    /// `O` main office, `B` branch.
    pub office_code: String,
    #[serde(rename = "servicingFRBNumber", alias = "servicingFrbNumber")]
    pub servicing_frb_number: String,
    /// `0` a Federal Reserve Bank, `1` send to the customer's routing number, `2` send to
    /// `newRoutingNumber`.
    pub record_type_code: String,
    /// MMDDYY.
    pub change_date: String,
    pub new_routing_number: String,
    pub customer_name: String,
    pub customer_address: String,
    pub customer_city: String,
    pub customer_state: String,
    pub customer_zip: String,
    pub customer_zip_ext: String,
    pub customer_area_code: String,
    pub customer_phone_prefix: String,
    pub customer_phone_suffix: String,
    /// `1` receives gov/commercial ACH.
    #[serde(alias = "statusCode")]
    pub institution_status_code: String,
    /// `1` current address.
    pub data_view_code: String,
}

/// A Fedwire Funds participant exactly as the wire validate endpoint answers it (2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WireParticipant {
    pub routing_number: String,
    pub telegraphic_name: String,
    pub customer_name: String,
    pub customer_state: String,
    pub customer_city: String,
    /// `Y` eligible, `N` ineligible.
    pub funds_eligibility: String,
    /// `S` settlement-only, or a single space: never trimmed to empty.
    #[serde(alias = "fundsSettlementOnlyStatus")]
    pub settlement_only: String,
    pub securities_eligibility: String,
    /// YYYYMMDD, or blank.
    pub change_date: String,
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

    #[test]
    fn ach_reads_both_spellings_and_writes_the_contract_one() {
        let json = r#"{"routingNumber":"011000015","officeCode":"O","servicingFrbNumber":"011000015","recordTypeCode":"0","changeDate":"122415","newRoutingNumber":"000000000","customerName":"FEDERAL RESERVE BANK","customerAddress":"1000 PEACHTREE ST N.E.","customerCity":"ATLANTA","customerState":"GA","customerZip":"30309","customerZipExt":"4470","customerAreaCode":"877","customerPhonePrefix":"372","customerPhoneSuffix":"2457","statusCode":"1","dataViewCode":"1"}"#;
        let a: AchParticipant = serde_json::from_str(json).unwrap();
        let out = serde_json::to_value(&a).unwrap();
        assert_eq!(out["servicingFRBNumber"], "011000015");
        assert_eq!(out["institutionStatusCode"], "1");
        assert!(out.get("servicingFrbNumber").is_none());
    }

    #[test]
    fn wire_keeps_the_space_settlement_flag() {
        let json = r#"{"routingNumber":"011000015","telegraphicName":"FRB-BOS","customerName":"FEDERAL RESERVE BANK OF BOSTON","customerState":"MA","customerCity":"BOSTON","fundsEligibility":"Y","fundsSettlementOnlyStatus":" ","securitiesEligibility":"Y","changeDate":"20040910"}"#;
        let w: WireParticipant = serde_json::from_str(json).unwrap();
        assert_eq!(w.settlement_only, " ");
        assert_eq!(serde_json::to_value(&w).unwrap()["settlementOnly"], " ");
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
