//! The return reason codes of X9.100-187 (the return record's field 6 and the return addendum
//! D's field 9), so that a returned item's reason can be named to a person.

/// Every return reason code with its meaning, as the standard's annex lists them: the
/// letters A–Z, then the digits 1–9.
pub const RETURN_REASONS: &[(&str, &str)] = &[
    ("A", "Not Sufficient Funds"),
    ("B", "Uncollected Funds Hold"),
    ("C", "Stop Payment"),
    ("D", "Closed Account"),
    ("E", "Unable to Locate Account"),
    ("F", "Frozen/Blocked Account"),
    ("G", "Stale Dated"),
    ("H", "Post Dated"),
    ("I", "Endorsement Missing"),
    ("J", "Endorsement Irregular"),
    ("K", "Signature(s) Missing"),
    ("L", "Signature(s) Irregular, Suspected Forgery"),
    ("M", "Non-Cash Item (Non Negotiable)"),
    ("N", "Altered/Fictitious Item/Suspected Counterfeit/Counterfeit"),
    ("O", "Unable to Process (e.g. Mutilated Item)"),
    ("P", "Item Exceeds Stated Max Value"),
    ("Q", "Not Authorized"),
    ("R", "Branch/Account Sold (Wrong Bank)"),
    ("S", "Refer to Maker"),
    ("T", "Item Cannot be Re-presented (Exceeds Number of Allowable Times for Presentment)"),
    ("U", "Unusable Image"),
    ("V", "Image fails security check"),
    ("W", "Cannot Determine Amount"),
    ("X", "Refer to Image"),
    ("Y", "Duplicate Presentment"),
    ("Z", "Forgery"),
    ("1", "Does not Conform with ANS X9.100-181"),
    ("2", "Requested Image Not Available"),
    ("3", "Does not Conform to the Industry's Universal Companion Document"),
    ("4", "Warranty Breach (includes Rule 8 & 9 claims)"),
    ("5", "RCC Warranty Breach (Rule 8)"),
    ("6", "Forged and Counterfeit Warranty Breach (Rule 9)"),
    ("7", "Retired/Ineligible Routing Number"),
    ("8", "Reserved for Future Use"),
    ("9", "Reserved"),
];

/// The meaning of a return reason code ("A" → "Not Sufficient Funds"); `None` for a code
/// the standard does not define.
///
/// ```
/// assert_eq!(moneydesk_x9::return_reason("A"), Some("Not Sufficient Funds"));
/// assert_eq!(moneydesk_x9::return_reason("a"), None);
/// ```
pub fn return_reason(code: &str) -> Option<&'static str> {
    RETURN_REASONS.iter().find(|(c, _)| *c == code).map(|(_, meaning)| *meaning)
}

/// True for a one-character code of [`RETURN_REASONS`].
pub(crate) fn is_return_reason(code: char) -> bool {
    let mut buf = [0u8; 4];
    return_reason(code.encode_utf8(&mut buf)).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_and_digit_but_zero_is_a_reason() {
        assert_eq!(RETURN_REASONS.len(), 35);
        assert!(('A'..='Z').chain('1'..='9').all(is_return_reason));
        assert!(!is_return_reason('0') && !is_return_reason(' '));
        assert_eq!(return_reason("7"), Some("Retired/Ineligible Routing Number"));
    }
}
