//! The return reason codes (addenda type 99) and change codes (addenda type 98) of the NACHA
//! Operating Rules, Appendix Four, so that a return or correction can be named to a person.

/// Return reason codes with their titles (R01–R85; codes the rules leave unassigned are not
/// listed).
pub const RETURN_REASON_CODES: &[(&str, &str)] = &[
    ("R01", "Insufficient Funds"),
    ("R02", "Account Closed"),
    ("R03", "No Account/Unable to Locate Account"),
    ("R04", "Invalid Account Number Structure"),
    ("R05", "Unauthorized Debit to Consumer Account Using Corporate SEC Code"),
    ("R06", "Returned per ODFI's Request"),
    ("R07", "Authorization Revoked by Customer"),
    ("R08", "Payment Stopped"),
    ("R09", "Uncollected Funds"),
    ("R10", "Customer Advises Originator is Not Known to Receiver and/or Originator is Not Authorized by Receiver to Debit Receiver's Account"),
    ("R11", "Customer Advises Entry Not in Accordance with the Terms of the Authorization"),
    ("R12", "Account Sold to Another DFI"),
    ("R13", "Invalid ACH Routing Number"),
    ("R14", "Representative Payee Deceased or Unable to Continue in That Capacity"),
    ("R15", "Beneficiary or Account Holder (Other Than a Representative Payee) Deceased"),
    ("R16", "Account Frozen/Entry Returned per OFAC Instruction"),
    ("R17", "File Record Edit Criteria/Entry with Invalid Account Number Initiated Under Questionable Circumstances"),
    ("R18", "Improper Effective Entry Date"),
    ("R19", "Amount Field Error"),
    ("R20", "Non-Transaction Account"),
    ("R21", "Invalid Company Identification"),
    ("R22", "Invalid Individual ID Number"),
    ("R23", "Credit Entry Refused by Receiver"),
    ("R24", "Duplicate Entry"),
    ("R25", "Addenda Error"),
    ("R26", "Mandatory Field Error"),
    ("R27", "Trace Number Error"),
    ("R28", "Routing Number Check Digit Error"),
    ("R29", "Corporate Customer Advises Not Authorized"),
    ("R30", "RDFI Not Participant in Check Truncation Program"),
    ("R31", "Permissible Return Entry (CCD and CTX only)"),
    ("R32", "RDFI Non-Settlement"),
    ("R33", "Return of XCK Entry"),
    ("R34", "Limited Participation DFI"),
    ("R35", "Return of Improper Debit Entry"),
    ("R36", "Return of Improper Credit Entry"),
    ("R37", "Source Document Presented for Payment"),
    ("R38", "Stop Payment on Source Document"),
    ("R39", "Improper Source Document/Source Document Presented for Payment"),
    ("R40", "Return of ENR Entry by Federal Government Agency"),
    ("R41", "Invalid Transaction Code (ENR only)"),
    ("R42", "Routing Number/Check Digit Error (ENR only)"),
    ("R43", "Invalid DFI Account Number (ENR only)"),
    ("R44", "Invalid Individual ID Number/Identification Number (ENR only)"),
    ("R45", "Invalid Individual Name/Company Name (ENR only)"),
    ("R46", "Invalid Representative Payee Indicator (ENR only)"),
    ("R47", "Duplicate Enrollment (ENR only)"),
    ("R50", "State Law Affecting RCK Acceptance"),
    ("R51", "Item Related to RCK Entry is Ineligible or RCK Entry is Improper"),
    ("R52", "Stop Payment on Item Related to RCK Entry"),
    ("R53", "Item and RCK Entry Presented for Payment"),
    ("R61", "Misrouted Return"),
    ("R62", "Return of Erroneous or Reversing Debit"),
    ("R67", "Duplicate Return"),
    ("R68", "Untimely Return"),
    ("R69", "Field Error(s)"),
    ("R70", "Permissible Return Entry Not Accepted/Return Not Requested by ODFI"),
    ("R71", "Misrouted Dishonored Return"),
    ("R72", "Untimely Dishonored Return"),
    ("R73", "Timely Original Return"),
    ("R74", "Corrected Return"),
    ("R75", "Return Not a Duplicate"),
    ("R76", "No Errors Found"),
    ("R77", "Non-Acceptance of R62 Dishonored Return"),
    ("R80", "IAT Entry Coding Error"),
    ("R81", "Non-Participant in IAT Program"),
    ("R82", "Invalid Foreign Receiving DFI Identification"),
    ("R83", "Foreign Receiving DFI Unable to Settle"),
    ("R84", "Entry Not Processed by Gateway"),
    ("R85", "Incorrectly Coded Outbound International Payment"),
];

/// Change codes of a notification of change with their titles.
pub const CHANGE_CODES: &[(&str, &str)] = &[
    ("C01", "Incorrect DFI Account Number"),
    ("C02", "Incorrect Routing Number"),
    ("C03", "Incorrect Routing Number and Incorrect DFI Account Number"),
    ("C04", "Incorrect Individual Name/Receiving Company Name"),
    ("C05", "Incorrect Transaction Code"),
    ("C06", "Incorrect DFI Account Number and Incorrect Transaction Code"),
    ("C07", "Incorrect Routing Number, Incorrect DFI Account Number, and Incorrect Transaction Code"),
    ("C08", "Incorrect Receiving DFI Identification (IAT only)"),
    ("C09", "Incorrect Individual Identification Number"),
    ("C13", "Addenda Format Error"),
    ("C14", "Incorrect SEC Code for Outbound International Payment"),
];

/// The title of a return reason code ("R01" → "Insufficient Funds"); `None` for a code the
/// rules do not assign.
///
/// ```
/// assert_eq!(moneydesk_nacha::return_reason("R01"), Some("Insufficient Funds"));
/// assert_eq!(moneydesk_nacha::return_reason("R99"), None);
/// ```
pub fn return_reason(code: &str) -> Option<&'static str> {
    lookup(RETURN_REASON_CODES, code)
}

/// The title of a change code ("C01" → "Incorrect DFI Account Number"); `None` for an
/// unknown code.
pub fn change_code(code: &str) -> Option<&'static str> {
    lookup(CHANGE_CODES, code)
}

fn lookup(table: &[(&str, &'static str)], code: &str) -> Option<&'static str> {
    table.iter().find(|(c, _)| *c == code).map(|(_, title)| *title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_in_order_and_cover_the_common_codes() {
        for table in [RETURN_REASON_CODES, CHANGE_CODES] {
            assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "sorted, no duplicates");
        }
        for n in (1..=39).chain(50..=53).chain([61, 62]).chain(67..=77).chain(80..=85) {
            assert!(return_reason(&format!("R{n:02}")).is_some(), "R{n:02}");
        }
        assert_eq!(change_code("C05"), Some("Incorrect Transaction Code"));
        assert_eq!(change_code("C10"), None);
    }
}
