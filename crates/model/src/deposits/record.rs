//! The deposit record (description 2.5): what check-deposit creation answers, every field
//! present, the unknown ones `null` (CONTRACT.md point 14).

use serde::{Deserialize, Serialize};

use super::{Date, DepositStatus};
use crate::Money;

/// The deposit record in the description's names and order. Types of the fields the
/// description shows only as `null` are ours: text, dates as `YYYY-MM-DD`, `completedDate` in
/// the `createdDate` form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DepositRecord {
    pub id: i64,
    /// The payee's service-side id (the payee account's id).
    pub ac_id: Option<String>,
    /// The payee's name.
    pub name: Option<String>,
    /// The payee's account number.
    pub account_number: Option<String>,
    pub record_type_id: Option<String>,
    /// The managed sleeve account the deposit applies to (the request's `payerId`).
    pub sleeve_account_id: Option<String>,
    /// Who submitted it (the token's name).
    pub submitter_id: Option<String>,
    pub account_as_vendor_id: Option<String>,
    pub vendor_email: Option<String>,
    pub last_name: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    /// As given in the request (the example's `transferType`).
    pub transfer_type: Option<String>,
    pub payment_type: Option<String>,
    /// When the money moves: `YYYY-MM-DD` (the request's, or the creation day).
    pub schedule_date: Date,
    /// `Mon DD,YYYY hh:mm AM/PM` in the business time zone, e.g. `Nov 04,2026 03:05 PM`.
    #[cfg_attr(feature = "openapi", schema(example = "Nov 04,2026 03:05 PM"))]
    pub created_date: String,
    /// Exactly two decimals.
    pub amount: Money,
    /// The fee quoted at creation (the fee schedule's standard fee for the amount), stored and
    /// never recomputed; exactly two decimals.
    pub fee_applied: Money,
    pub is_confirmed: bool,
    pub overnight_mail: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = DepositStatus))]
    pub status: DepositStatus,
    /// `Process_N`: see the state machine (`deposits::state`).
    #[cfg_attr(feature = "openapi", schema(example = "Process_2"))]
    pub step: String,
    pub owner_name: Option<String>,
    pub vendor: Option<String>,
    pub check_stub: Option<String>,
    pub check_date: Option<Date>,
    pub daytime_phone: Option<String>,
    pub account_to_account_payee: Option<String>,
    /// When it settled (or was returned, rejected or cancelled), in the `createdDate` form.
    pub completed_date: Option<String>,
    pub contact_as_vendor_id: Option<String>,
    pub ssn_tax_payer_id: Option<String>,
    pub party: Option<String>,
    pub check_number: Option<String>,
    pub pay_to_account: Option<String>,
    pub actual_pick_up_date: Option<Date>,
    /// The request's `bankInfoId` (the example's `payeeBankId`).
    pub bank_info_id: Option<String>,
    pub memo: Option<String>,
    /// The request's, or the routing directory's name for the routing number.
    pub bank_name: Option<String>,
    pub first_name: Option<String>,
    pub swift_code: Option<String>,
    pub destination_country: Option<String>,
    pub care_of: Option<String>,
    pub bank_routing_number: Option<String>,
    pub amount_type: Option<String>,
    pub requested_pickup_date: Option<Date>,
    pub account_type: Option<String>,
    /// The account number on the check (the request's `bankAccountNumber`).
    pub full_bank_account_number: Option<String>,
    pub intermediary_routing_number: Option<String>,
    pub intermediary_financial_institution: Option<String>,
    /// The ACH batch an electronic deposit went out in.
    pub ach_batch_id: Option<String>,
}

/// A local date and time as `createdDate` writes it: `Mon DD,YYYY hh:mm AM/PM` (no space after
/// the comma, a 12-hour clock with a leading zero).
///
/// ```
/// use moneydesk_model::deposits::{created_date_text, Date};
/// let d = Date::parse("2026-11-04").unwrap();
/// assert_eq!(created_date_text(d, 15, 5), "Nov 04,2026 03:05 PM");
/// assert_eq!(created_date_text(d, 0, 0), "Nov 04,2026 12:00 AM");
/// assert_eq!(created_date_text(d, 12, 30), "Nov 04,2026 12:30 PM");
/// ```
pub fn created_date_text(date: Date, hour: u8, minute: u8) -> String {
    let (h12, half) = match hour {
        0 => (12, "AM"),
        1..=11 => (hour, "AM"),
        12 => (12, "PM"),
        _ => (hour - 12, "PM"),
    };
    format!("{} {:02},{:04} {:02}:{:02} {half}", date.month_abbreviation(), date.day(), date.year(), h12, minute)
}

/// The deposit list item's `createdDate`: ISO 8601 without a zone, in the same time zone
/// (CONTRACT.md point 14): `2026-11-04T15:05:09`.
pub fn list_created_date_text(date: Date, hour: u8, minute: u8, second: u8) -> String {
    format!("{date}T{hour:02}:{minute:02}:{second:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_of_the_description_is_written_even_when_unknown() {
        let names = [
            "id",
            "acId",
            "name",
            "accountNumber",
            "recordTypeId",
            "sleeveAccountId",
            "submitterId",
            "accountAsVendorId",
            "vendorEmail",
            "lastName",
            "address",
            "city",
            "state",
            "zipCode",
            "transferType",
            "paymentType",
            "scheduleDate",
            "createdDate",
            "amount",
            "feeApplied",
            "isConfirmed",
            "overnightMail",
            "status",
            "step",
            "ownerName",
            "vendor",
            "checkStub",
            "checkDate",
            "daytimePhone",
            "accountToAccountPayee",
            "completedDate",
            "contactAsVendorId",
            "ssnTaxPayerId",
            "party",
            "checkNumber",
            "payToAccount",
            "actualPickUpDate",
            "bankInfoId",
            "memo",
            "bankName",
            "firstName",
            "swiftCode",
            "destinationCountry",
            "careOf",
            "bankRoutingNumber",
            "amountType",
            "requestedPickupDate",
            "accountType",
            "fullBankAccountNumber",
            "intermediaryRoutingNumber",
            "intermediaryFinancialInstitution",
            "achBatchId",
        ];
        let record = DepositRecord {
            id: 7,
            ac_id: None,
            name: None,
            account_number: None,
            record_type_id: None,
            sleeve_account_id: None,
            submitter_id: None,
            account_as_vendor_id: None,
            vendor_email: None,
            last_name: None,
            address: None,
            city: None,
            state: None,
            zip_code: None,
            transfer_type: None,
            payment_type: None,
            schedule_date: Date::parse("2026-11-04").unwrap(),
            created_date: created_date_text(Date::parse("2026-11-04").unwrap(), 15, 5),
            amount: Money::parse("0.1").unwrap().with_cents(),
            fee_applied: Money::parse("2").unwrap().with_cents(),
            is_confirmed: false,
            overnight_mail: false,
            status: DepositStatus::InProgress,
            step: DepositStatus::InProgress.step().into(),
            owner_name: None,
            vendor: None,
            check_stub: None,
            check_date: None,
            daytime_phone: None,
            account_to_account_payee: None,
            completed_date: None,
            contact_as_vendor_id: None,
            ssn_tax_payer_id: None,
            party: None,
            check_number: None,
            pay_to_account: None,
            actual_pick_up_date: None,
            bank_info_id: None,
            memo: None,
            bank_name: None,
            first_name: None,
            swift_code: None,
            destination_country: None,
            care_of: None,
            bank_routing_number: None,
            amount_type: None,
            requested_pickup_date: None,
            account_type: None,
            full_bank_account_number: None,
            intermediary_routing_number: None,
            intermediary_financial_institution: None,
            ach_batch_id: None,
        };
        let text = serde_json::to_string(&record).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = names.to_vec();
        let mut got = keys.clone();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);
        assert!(text.contains(r#""amount":0.10,"feeApplied":2.00"#), "{text}");
        assert!(text.contains(r#""status":"In_Progress_1","step":"Process_2""#), "{text}");
        assert!(text.contains(r#""createdDate":"Nov 04,2026 03:05 PM""#), "{text}");
        assert_eq!(serde_json::from_str::<DepositRecord>(&text).unwrap(), record);
    }
}
