//! Type 25 check detail and type 26 check detail addendum A (whose layout type 32, the return
//! addendum A, shares).

use crate::field::{self, Dec, Enc, Kind, Sink};

/// The largest item amount the 10-digit field holds, in cents.
pub const MAX_ITEM_AMOUNT: u64 = 9_999_999_999;

/// Type 25: one check, as read from its MICR line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckDetail {
    /// The MICR field left of the routing number (often the check number on business
    /// checks); right-justified in 15 characters, kept here without the leading blanks.
    pub auxiliary_on_us: String,
    /// Position 44 of the MICR line.
    pub external_processing_code: char,
    /// The first eight digits of the payor bank's routing number.
    pub payor_bank_routing_number: String,
    /// The ninth digit, which must be the ABA check digit of the eight.
    pub payor_bank_check_digit: String,
    /// The on-us field (account, often check number, '/' for the on-us symbol, '-' for dash);
    /// right-justified in 20 characters, kept without the leading blanks.
    pub on_us: String,
    /// Cents.
    pub item_amount: u64,
    /// Assigned by the ECE institution; unique within the file.
    pub ece_institution_item_sequence_number: String,
    /// Blank (the cash letter's applies) or 'A'..='M'.
    pub documentation_type_indicator: char,
    pub return_acceptance_indicator: char,
    /// '1' good read, '2' good read with a missing field, '3' read error, '4' both; blank.
    pub micr_valid_indicator: char,
    /// 'Y' the ECE institution is the bank of first deposit, 'N' it is not, 'U' unknown.
    pub bofd_indicator: char,
    /// How many addenda (types 26, 27, 28) follow. The [`Writer`](crate::Writer) sets it.
    pub addendum_count: u8,
    pub correction_indicator: char,
    pub archive_type_indicator: char,
}

impl Default for CheckDetail {
    fn default() -> Self {
        CheckDetail {
            auxiliary_on_us: String::new(),
            external_processing_code: ' ',
            payor_bank_routing_number: String::new(),
            payor_bank_check_digit: String::new(),
            on_us: String::new(),
            item_amount: 0,
            ece_institution_item_sequence_number: String::new(),
            documentation_type_indicator: 'G',
            return_acceptance_indicator: ' ',
            micr_valid_indicator: '1',
            bofd_indicator: 'Y',
            addendum_count: 0,
            correction_indicator: ' ',
            archive_type_indicator: ' ',
        }
    }
}

impl CheckDetail {
    /// The payor bank's nine-digit routing number (the eight digits and the check digit).
    pub fn payor_bank_routing(&self) -> String {
        format!("{}{}", self.payor_bank_routing_number, self.payor_bank_check_digit)
    }

    /// Sets the payor bank's routing number from its nine digits.
    ///
    /// ```
    /// let mut detail = moneydesk_x9::CheckDetail::default();
    /// detail.set_payor_bank_routing("122000661");
    /// assert_eq!(detail.payor_bank_routing_number, "12200066");
    /// assert_eq!(detail.payor_bank_check_digit, "1");
    /// ```
    pub fn set_payor_bank_routing(&mut self, routing: &str) {
        (self.payor_bank_routing_number, self.payor_bank_check_digit) = split_routing(routing);
    }

    pub(crate) fn parse(d: &mut Dec) -> Self {
        CheckDetail {
            auxiliary_on_us: d.right(15),
            external_processing_code: d.ch(),
            payor_bank_routing_number: d.exact(8),
            payor_bank_check_digit: d.exact(1),
            on_us: d.right(20),
            item_amount: d.num("Item Amount", 10),
            ece_institution_item_sequence_number: d.exact(15),
            documentation_type_indicator: d.ch(),
            return_acceptance_indicator: d.ch(),
            micr_valid_indicator: d.ch(),
            bofd_indicator: d.ch(),
            addendum_count: d.num("Check Detail Record Addendum Count", 2) as u8,
            correction_indicator: d.ch(),
            archive_type_indicator: d.ch(),
        }
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("25");
        e.right(&self.auxiliary_on_us, 15);
        e.ch(self.external_processing_code);
        e.left(&self.payor_bank_routing_number, 8);
        e.left(&self.payor_bank_check_digit, 1);
        e.right(&self.on_us, 20);
        e.num(self.item_amount, 10);
        e.zero_fill(&self.ece_institution_item_sequence_number, 15);
        e.ch(self.documentation_type_indicator);
        e.ch(self.return_acceptance_indicator);
        e.ch(self.micr_valid_indicator);
        e.ch(self.bofd_indicator);
        e.num(u64::from(self.addendum_count), 2);
        e.ch(self.correction_indicator);
        e.ch(self.archive_type_indicator);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::text(s, "Auxiliary On-Us", &self.auxiliary_on_us, 15, Kind::MicrField);
        field::text(
            s,
            "External Processing Code",
            &self.external_processing_code.to_string(),
            1,
            Kind::AlphaNumSpecial,
        );
        let routing_ok = field::digits(s, "Payor Bank Routing Number", &self.payor_bank_routing_number, 8, true);
        let digit_ok = field::digits(s, "Payor Bank Routing Number Check Digit", &self.payor_bank_check_digit, 1, true);
        if routing_ok && digit_ok {
            field::check_digit(
                s,
                "Payor Bank Routing Number Check Digit",
                &self.payor_bank_routing_number,
                &self.payor_bank_check_digit,
            );
        }
        if self.on_us.trim().is_empty() {
            s.error("On-Us", "is blank but mandatory");
        }
        field::text(s, "On-Us", &self.on_us, 20, Kind::MicrField);
        field::fits(s, "Item Amount", self.item_amount, 10);
        if self.ece_institution_item_sequence_number.is_empty() {
            s.error("ECE Institution Item Sequence Number", "is blank but mandatory");
        }
        field::numeric_blank(s, "ECE Institution Item Sequence Number", &self.ece_institution_item_sequence_number, 15);
        field::code(s, "Documentation Type Indicator", self.documentation_type_indicator, " ABCDEFGHIJKLM");
        field::code(s, "Return Acceptance Indicator", self.return_acceptance_indicator, " 0123456789ABCDEF");
        field::code(s, "MICR Valid Indicator", self.micr_valid_indicator, " 1234");
        field::code(s, "BOFD Indicator", self.bofd_indicator, "YNU");
        field::fits(s, "Check Detail Record Addendum Count", u64::from(self.addendum_count), 2);
        field::code(s, "Correction Indicator", self.correction_indicator, " 01234");
        field::code(s, "Archive Type Indicator", self.archive_type_indicator, " ABCDEFGHI");
    }
}

/// A nine-digit routing number as the eight digits and the check digit the MICR records hold
/// apart.
pub(crate) fn split_routing(routing: &str) -> (String, String) {
    let split = routing.char_indices().nth(8).map_or(routing.len(), |(i, _)| i);
    (routing[..split].to_owned(), routing[split..].to_owned())
}

/// Which record a [`CheckDetailAddendumA`] is: type 26 of a check, or type 32 of a return
/// (same layout); only the record type and the first field's name differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AddendumAOf {
    Check,
    Return,
}

impl AddendumAOf {
    fn record_type(self) -> &'static str {
        match self {
            AddendumAOf::Check => "26",
            AddendumAOf::Return => "32",
        }
    }

    pub(crate) fn number_field(self) -> &'static str {
        match self {
            AddendumAOf::Check => "Check Detail Addendum A Record Number",
            AddendumAOf::Return => "Return Addendum A Record Number",
        }
    }
}

/// Type 26: the bank of first deposit's endorsement of a check. Also type 32, the return
/// addendum A (see [`ReturnAddendumA`](crate::ReturnAddendumA)), whose layout is the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckDetailAddendumA {
    /// 1 for the first addendum A of the item, 2 for the next... The
    /// [`Writer`](crate::Writer) sets it.
    pub record_number: u8,
    /// The bank of first deposit.
    pub bofd_routing_number: String,
    /// YYYYMMDD.
    pub bofd_business_date: String,
    pub bofd_item_sequence_number: String,
    pub deposit_account_number_at_bofd: String,
    pub bofd_deposit_branch: String,
    pub payee_name: String,
    /// 'Y' the check was truncated (no paper follows), 'N' not.
    pub truncation_indicator: char,
    pub bofd_conversion_indicator: char,
    pub bofd_correction_indicator: char,
    pub user_field: char,
}

impl Default for CheckDetailAddendumA {
    fn default() -> Self {
        CheckDetailAddendumA {
            record_number: 1,
            bofd_routing_number: String::new(),
            bofd_business_date: String::new(),
            bofd_item_sequence_number: String::new(),
            deposit_account_number_at_bofd: String::new(),
            bofd_deposit_branch: String::new(),
            payee_name: String::new(),
            truncation_indicator: 'Y',
            bofd_conversion_indicator: ' ',
            bofd_correction_indicator: ' ',
            user_field: ' ',
        }
    }
}

impl CheckDetailAddendumA {
    pub(crate) fn parse(d: &mut Dec, of: AddendumAOf) -> Self {
        let a = CheckDetailAddendumA {
            record_number: d.num(of.number_field(), 1) as u8,
            bofd_routing_number: d.exact(9),
            bofd_business_date: d.exact(8),
            bofd_item_sequence_number: d.exact(15),
            deposit_account_number_at_bofd: d.left(18),
            bofd_deposit_branch: d.left(5),
            payee_name: d.left(15),
            truncation_indicator: d.ch(),
            bofd_conversion_indicator: d.ch(),
            bofd_correction_indicator: d.ch(),
            user_field: d.ch(),
        };
        d.reserved(3);
        a
    }

    pub(crate) fn encode(&self, e: &mut Enc, of: AddendumAOf) {
        e.raw(of.record_type());
        e.num(u64::from(self.record_number), 1);
        e.left(&self.bofd_routing_number, 9);
        e.left(&self.bofd_business_date, 8);
        e.zero_fill(&self.bofd_item_sequence_number, 15);
        e.left(&self.deposit_account_number_at_bofd, 18);
        e.left(&self.bofd_deposit_branch, 5);
        e.left(&self.payee_name, 15);
        e.ch(self.truncation_indicator);
        e.ch(self.bofd_conversion_indicator);
        e.ch(self.bofd_correction_indicator);
        e.ch(self.user_field);
        e.blank(3);
    }

    pub(crate) fn check(&self, s: &mut Sink, of: AddendumAOf) {
        if !(1..=9).contains(&self.record_number) {
            s.error(of.number_field(), format!("{} is not 1 to 9", self.record_number));
        }
        field::routing(s, "BOFD Routing Number", &self.bofd_routing_number, true);
        field::date(s, "BOFD Business (Endorsement) Date", &self.bofd_business_date, true);
        field::numeric_blank(s, "BOFD Item Sequence Number", &self.bofd_item_sequence_number, 15);
        field::text(
            s,
            "Deposit Account Number at BOFD",
            &self.deposit_account_number_at_bofd,
            18,
            Kind::AlphaNumSpecial,
        );
        field::text(s, "BOFD Deposit Branch", &self.bofd_deposit_branch, 5, Kind::AlphaNumSpecial);
        field::text(s, "Payee Name", &self.payee_name, 15, Kind::AlphaNumSpecial);
        field::code(s, "Truncation Indicator", self.truncation_indicator, "YN");
        field::code(s, "BOFD Conversion Indicator", self.bofd_conversion_indicator, " 012345678");
        field::code(s, "BOFD Correction Indicator", self.bofd_correction_indicator, " 01234");
        field::text(s, "User Field", &self.user_field.to_string(), 1, Kind::AlphaNumSpecial);
    }
}
