//! The records of a returned item (X9.100-187-2016): type 31 return, type 33 return addendum
//! B and type 35 return addendum D. Type 32, the return addendum A, has the layout of type 26
//! ([`CheckDetailAddendumA`](crate::CheckDetailAddendumA)); type 34 is kept raw.

use super::item::split_routing;
use crate::field::{self, Dec, Enc, Kind, Sink};
use crate::return_reasons::{is_return_reason, return_reason};

/// The collection types of the bundles that hold returns: 03 return, 04 return notification,
/// 05 and 06 preliminary and final return notification; 99 (mixed) too.
pub(crate) const RETURN_COLLECTION_TYPES: &[&str] = &["03", "04", "05", "06", "99"];

/// Type 32: the bank of first deposit's endorsement, carried back with the return. Its
/// layout is that of type 26, so it is the same type; the bank of first deposit's routing
/// number, business date, item sequence number and account identify the deposit returned.
pub type ReturnAddendumA = super::CheckDetailAddendumA;

/// Type 31: one returned item, as the paying (or returning) bank sends it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnRecord {
    /// The first eight digits of the payor bank's routing number.
    pub payor_bank_routing_number: String,
    /// The ninth digit, the ABA check digit of the eight.
    pub payor_bank_check_digit: String,
    /// The check's on-us field; right-justified in 20 characters, kept without the blanks.
    pub on_us: String,
    /// Cents.
    pub item_amount: u64,
    /// One of [`RETURN_REASONS`](crate::RETURN_REASONS).
    pub return_reason: char,
    /// How many addenda (types 32, 33, 34, 35) follow. The [`Writer`](crate::Writer) sets it.
    pub addendum_count: u8,
    /// Blank or 'A'..='M'.
    pub documentation_type_indicator: char,
    /// YYYYMMDD: the business date of the forward bundle the item was presented in.
    pub forward_bundle_date: String,
    /// Assigned by the institution that creates the return; unique within the file.
    pub ece_institution_item_sequence_number: String,
    /// Position 44 of the MICR line.
    pub external_processing_code: char,
    /// Blank, '1' preliminary notification, '2' final notification.
    pub return_notification_indicator: char,
    /// Blank or 'A'..='I'.
    pub archive_type_indicator: char,
    /// Blank, '0' unknown, or '1'..='3' times the item was returned.
    pub number_of_times_returned: char,
}

impl Default for ReturnRecord {
    fn default() -> Self {
        ReturnRecord {
            payor_bank_routing_number: String::new(),
            payor_bank_check_digit: String::new(),
            on_us: String::new(),
            item_amount: 0,
            return_reason: 'A',
            addendum_count: 0,
            documentation_type_indicator: 'G',
            forward_bundle_date: String::new(),
            ece_institution_item_sequence_number: String::new(),
            external_processing_code: ' ',
            return_notification_indicator: ' ',
            archive_type_indicator: ' ',
            number_of_times_returned: '1',
        }
    }
}

impl ReturnRecord {
    /// The payor bank's nine-digit routing number (the eight digits and the check digit).
    pub fn payor_bank_routing(&self) -> String {
        format!("{}{}", self.payor_bank_routing_number, self.payor_bank_check_digit)
    }

    /// Sets the payor bank's routing number from its nine digits.
    pub fn set_payor_bank_routing(&mut self, routing: &str) {
        (self.payor_bank_routing_number, self.payor_bank_check_digit) = split_routing(routing);
    }

    /// The meaning of the return reason ("Not Sufficient Funds"), `None` for an unknown code.
    pub fn return_reason_meaning(&self) -> Option<&'static str> {
        return_reason(self.return_reason.encode_utf8(&mut [0u8; 4]))
    }

    pub(crate) fn parse(d: &mut Dec) -> Self {
        let r = ReturnRecord {
            payor_bank_routing_number: d.exact(8),
            payor_bank_check_digit: d.exact(1),
            on_us: d.right(20),
            item_amount: d.num("Item Amount", 10),
            return_reason: d.ch(),
            addendum_count: d.num("Return Record Addendum Count", 2) as u8,
            documentation_type_indicator: d.ch(),
            forward_bundle_date: d.exact(8),
            ece_institution_item_sequence_number: d.exact(15),
            external_processing_code: d.ch(),
            return_notification_indicator: d.ch(),
            archive_type_indicator: d.ch(),
            number_of_times_returned: d.ch(),
        };
        d.reserved(8);
        r
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("31");
        e.left(&self.payor_bank_routing_number, 8);
        e.left(&self.payor_bank_check_digit, 1);
        e.right(&self.on_us, 20);
        e.num(self.item_amount, 10);
        e.ch(self.return_reason);
        e.num(u64::from(self.addendum_count), 2);
        e.ch(self.documentation_type_indicator);
        e.left(&self.forward_bundle_date, 8);
        e.zero_fill(&self.ece_institution_item_sequence_number, 15);
        e.ch(self.external_processing_code);
        e.ch(self.return_notification_indicator);
        e.ch(self.archive_type_indicator);
        e.ch(self.number_of_times_returned);
        e.blank(8);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        let routing_ok = field::digits(s, "Payor Bank Routing Number", &self.payor_bank_routing_number, 8, true);
        let digit_ok = field::digits(s, "Payor Bank Routing Number Check Digit", &self.payor_bank_check_digit, 1, true);
        if routing_ok && digit_ok {
            let (first8, digit) = (&self.payor_bank_routing_number, &self.payor_bank_check_digit);
            field::check_digit(s, "Payor Bank Routing Number Check Digit", first8, digit);
        }
        field::text(s, "On-Us", &self.on_us, 20, Kind::MicrField);
        field::fits(s, "Item Amount", self.item_amount, 10);
        if !is_return_reason(self.return_reason) {
            s.error("Return Reason", format!("{:?} is not a return reason code of X9.100-187", self.return_reason));
        }
        field::fits(s, "Return Record Addendum Count", u64::from(self.addendum_count), 2);
        field::code(s, "Documentation Type Indicator", self.documentation_type_indicator, " ABCDEFGHIJKLM");
        field::date(s, "Forward Bundle Date", &self.forward_bundle_date, true);
        if self.ece_institution_item_sequence_number.is_empty() {
            s.error("ECE Institution Item Sequence Number", "is blank but mandatory");
        }
        field::numeric_blank(s, "ECE Institution Item Sequence Number", &self.ece_institution_item_sequence_number, 15);
        let epc = self.external_processing_code.to_string();
        field::text(s, "External Processing Code", &epc, 1, Kind::AlphaNumSpecial);
        field::code(s, "Return Notification Indicator", self.return_notification_indicator, " 12");
        field::code(s, "Archive Type Indicator", self.archive_type_indicator, " ABCDEFGHI");
        field::code(s, "Number of Times Returned", self.number_of_times_returned, " 0123");
    }
}

/// Type 33: the payor bank's own data about the returned item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnAddendumB {
    pub payor_bank_name: String,
    /// The check's auxiliary on-us field; right-justified in 15 characters.
    pub auxiliary_on_us: String,
    /// Numeric or blank (written zero-filled).
    pub payor_bank_item_sequence_number: String,
    /// YYYYMMDD: the day the payor bank received the item.
    pub payor_bank_business_date: String,
    pub payor_account_name: String,
}

impl ReturnAddendumB {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        ReturnAddendumB {
            payor_bank_name: d.left(18),
            auxiliary_on_us: d.right(15),
            payor_bank_item_sequence_number: d.exact(15),
            payor_bank_business_date: d.exact(8),
            payor_account_name: d.left(22),
        }
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("33");
        e.left(&self.payor_bank_name, 18);
        e.right(&self.auxiliary_on_us, 15);
        e.zero_fill(&self.payor_bank_item_sequence_number, 15);
        e.left(&self.payor_bank_business_date, 8);
        e.left(&self.payor_account_name, 22);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::text(s, "Payor Bank Name", &self.payor_bank_name, 18, Kind::AlphaNumSpecial);
        field::text(s, "Auxiliary On-Us", &self.auxiliary_on_us, 15, Kind::MicrField);
        let seq = &self.payor_bank_item_sequence_number;
        field::numeric_blank(s, "Payor Bank Item Sequence Number", seq, 15);
        field::date(s, "Payor Bank Business Date", &self.payor_bank_business_date, false);
        field::text(s, "Payor Account Name", &self.payor_account_name, 22, Kind::AlphaNumSpecial);
    }
}

/// Type 35: one endorsement of the returned item by a bank it passed through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnAddendumD {
    /// 1 for the first addendum D of the item, 2 for the next... The
    /// [`Writer`](crate::Writer) sets it.
    pub record_number: u8,
    pub endorsing_bank_routing_number: String,
    /// YYYYMMDD: the endorsing bank's business (endorsement) date.
    pub endorsement_date: String,
    /// Numeric or blank (written zero-filled).
    pub endorsing_bank_item_sequence_number: String,
    /// 'Y' the item was truncated, 'N' not.
    pub truncation_indicator: char,
    pub endorsing_bank_conversion_indicator: char,
    pub endorsing_bank_correction_indicator: char,
    /// Blank or one of [`RETURN_REASONS`](crate::RETURN_REASONS).
    pub return_reason: char,
    pub user_field: String,
    /// Blank, '0' depository bank, '1' other collecting bank, '2' other returning bank,
    /// '3' payor bank.
    pub endorsing_bank_identifier: char,
}

impl Default for ReturnAddendumD {
    fn default() -> Self {
        ReturnAddendumD {
            record_number: 1,
            endorsing_bank_routing_number: String::new(),
            endorsement_date: String::new(),
            endorsing_bank_item_sequence_number: String::new(),
            truncation_indicator: 'Y',
            endorsing_bank_conversion_indicator: ' ',
            endorsing_bank_correction_indicator: ' ',
            return_reason: ' ',
            user_field: String::new(),
            endorsing_bank_identifier: ' ',
        }
    }
}

impl ReturnAddendumD {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let r = ReturnAddendumD {
            record_number: d.num("Return Addendum D Record Number", 2) as u8,
            endorsing_bank_routing_number: d.exact(9),
            endorsement_date: d.exact(8),
            endorsing_bank_item_sequence_number: d.exact(15),
            truncation_indicator: d.ch(),
            endorsing_bank_conversion_indicator: d.ch(),
            endorsing_bank_correction_indicator: d.ch(),
            return_reason: d.ch(),
            user_field: d.left(19),
            endorsing_bank_identifier: d.ch(),
        };
        d.reserved(20);
        r
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("35");
        e.num(u64::from(self.record_number), 2);
        e.left(&self.endorsing_bank_routing_number, 9);
        e.left(&self.endorsement_date, 8);
        e.zero_fill(&self.endorsing_bank_item_sequence_number, 15);
        e.ch(self.truncation_indicator);
        e.ch(self.endorsing_bank_conversion_indicator);
        e.ch(self.endorsing_bank_correction_indicator);
        e.ch(self.return_reason);
        e.left(&self.user_field, 19);
        e.ch(self.endorsing_bank_identifier);
        e.blank(20);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        if !(1..=99).contains(&self.record_number) {
            s.error("Return Addendum D Record Number", format!("{} is not 1 to 99", self.record_number));
        }
        field::routing(s, "Endorsing Bank Routing Number", &self.endorsing_bank_routing_number, true);
        field::date(s, "Endorsing Bank Endorsement Date", &self.endorsement_date, true);
        let seq = &self.endorsing_bank_item_sequence_number;
        field::numeric_blank(s, "Endorsing Bank Item Sequence Number", seq, 15);
        field::code(s, "Truncation Indicator", self.truncation_indicator, "YN");
        let conversion = self.endorsing_bank_conversion_indicator;
        field::code(s, "Endorsing Bank Conversion Indicator", conversion, " 012345678");
        field::code(s, "Endorsing Bank Correction Indicator", self.endorsing_bank_correction_indicator, " 01234");
        if self.return_reason != ' ' && !is_return_reason(self.return_reason) {
            s.error("Return Reason", format!("{:?} is neither blank nor a return reason code", self.return_reason));
        }
        field::text(s, "User Field", &self.user_field, 19, Kind::AlphaNumSpecial);
        field::code(s, "Endorsing Bank Identifier", self.endorsing_bank_identifier, " 0123");
    }
}
