//! Type 70 bundle control, type 90 cash letter control, type 99 file control: the counts and
//! totals of what came before them. The [`Writer`](crate::Writer) computes them; the reader
//! checks them.

use crate::field::{self, Dec, Enc, Kind, Sink};

/// Type 70: closes a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleControl {
    /// Check detail records (type 25) in the bundle.
    pub items_within_bundle_count: u32,
    /// Sum of their amounts, in cents.
    pub bundle_total_amount: u64,
    /// Sum of the amounts of those whose MICR valid indicator is '1'.
    pub micr_valid_total_amount: u64,
    /// Image view detail records (type 50) in the bundle.
    pub images_within_bundle_count: u32,
    pub user_field: String,
    /// '0' the totals leave credits out, '1' they include them (blank in X9.37-2003).
    pub credit_total_indicator: char,
}

impl Default for BundleControl {
    fn default() -> Self {
        BundleControl {
            items_within_bundle_count: 0,
            bundle_total_amount: 0,
            micr_valid_total_amount: 0,
            images_within_bundle_count: 0,
            user_field: String::new(),
            credit_total_indicator: '0',
        }
    }
}

impl BundleControl {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let c = BundleControl {
            items_within_bundle_count: d.num("Items Within Bundle Count", 4) as u32,
            bundle_total_amount: d.num("Bundle Total Amount", 12),
            micr_valid_total_amount: d.num("MICR Valid Total Amount", 12),
            images_within_bundle_count: d.num("Images Within Bundle Count", 5) as u32,
            user_field: d.left(20),
            credit_total_indicator: d.ch(),
        };
        d.reserved(24);
        c
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("70");
        e.num(u64::from(self.items_within_bundle_count), 4);
        e.num(self.bundle_total_amount, 12);
        e.num(self.micr_valid_total_amount, 12);
        e.num(u64::from(self.images_within_bundle_count), 5);
        e.left(&self.user_field, 20);
        e.ch(self.credit_total_indicator);
        e.blank(24);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::fits(s, "Items Within Bundle Count", u64::from(self.items_within_bundle_count), 4);
        field::fits(s, "Bundle Total Amount", self.bundle_total_amount, 12);
        field::fits(s, "MICR Valid Total Amount", self.micr_valid_total_amount, 12);
        field::fits(s, "Images Within Bundle Count", u64::from(self.images_within_bundle_count), 5);
        field::text(s, "User Field", &self.user_field, 20, Kind::AlphaNumSpecial);
        field::code(s, "Credit Total Indicator", self.credit_total_indicator, " 01");
    }
}

/// Type 90: closes a cash letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashLetterControl {
    pub bundle_count: u32,
    pub items_within_cash_letter_count: u64,
    /// Cents.
    pub cash_letter_total_amount: u64,
    pub images_within_cash_letter_count: u64,
    pub ece_institution_name: String,
    /// Conditional: YYYYMMDD or blank.
    pub settlement_date: String,
    pub credit_total_indicator: char,
}

impl Default for CashLetterControl {
    fn default() -> Self {
        CashLetterControl {
            bundle_count: 0,
            items_within_cash_letter_count: 0,
            cash_letter_total_amount: 0,
            images_within_cash_letter_count: 0,
            ece_institution_name: String::new(),
            settlement_date: String::new(),
            credit_total_indicator: '0',
        }
    }
}

impl CashLetterControl {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let c = CashLetterControl {
            bundle_count: d.num("Cash Letter Bundle Count", 6) as u32,
            items_within_cash_letter_count: d.num("Items Within Cash Letter Count", 8),
            cash_letter_total_amount: d.num("Cash Letter Total Amount", 14),
            images_within_cash_letter_count: d.num("Images Within Cash Letter Count", 9),
            ece_institution_name: d.left(18),
            settlement_date: d.exact(8),
            credit_total_indicator: d.ch(),
        };
        d.reserved(14);
        c
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("90");
        e.num(u64::from(self.bundle_count), 6);
        e.num(self.items_within_cash_letter_count, 8);
        e.num(self.cash_letter_total_amount, 14);
        e.num(self.images_within_cash_letter_count, 9);
        e.left(&self.ece_institution_name, 18);
        e.left(&self.settlement_date, 8);
        e.ch(self.credit_total_indicator);
        e.blank(14);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::fits(s, "Cash Letter Bundle Count", u64::from(self.bundle_count), 6);
        field::fits(s, "Items Within Cash Letter Count", self.items_within_cash_letter_count, 8);
        field::fits(s, "Cash Letter Total Amount", self.cash_letter_total_amount, 14);
        field::fits(s, "Images Within Cash Letter Count", self.images_within_cash_letter_count, 9);
        field::text(s, "ECE Institution Name", &self.ece_institution_name, 18, Kind::AlphaNumSpecial);
        field::date(s, "Settlement Date", &self.settlement_date, false);
        field::code(s, "Credit Total Indicator", self.credit_total_indicator, " 01");
    }
}

/// Type 99: the last record of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileControl {
    pub cash_letter_count: u32,
    /// Every record of the file, the file header and this one included.
    pub total_record_count: u64,
    pub total_item_count: u64,
    /// Cents.
    pub file_total_amount: u64,
    pub immediate_origin_contact_name: String,
    pub immediate_origin_contact_phone_number: String,
    pub credit_total_indicator: char,
}

impl Default for FileControl {
    fn default() -> Self {
        FileControl {
            cash_letter_count: 0,
            total_record_count: 0,
            total_item_count: 0,
            file_total_amount: 0,
            immediate_origin_contact_name: String::new(),
            immediate_origin_contact_phone_number: String::new(),
            credit_total_indicator: '0',
        }
    }
}

impl FileControl {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let c = FileControl {
            cash_letter_count: d.num("Cash Letter Count", 6) as u32,
            total_record_count: d.num("Total Record Count", 8),
            total_item_count: d.num("Total Item Count", 8),
            file_total_amount: d.num("File Total Amount", 16),
            immediate_origin_contact_name: d.left(14),
            immediate_origin_contact_phone_number: d.exact(10),
            credit_total_indicator: d.ch(),
        };
        d.reserved(15);
        c
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("99");
        e.num(u64::from(self.cash_letter_count), 6);
        e.num(self.total_record_count, 8);
        e.num(self.total_item_count, 8);
        e.num(self.file_total_amount, 16);
        e.left(&self.immediate_origin_contact_name, 14);
        e.zero_fill(&self.immediate_origin_contact_phone_number, 10);
        e.ch(self.credit_total_indicator);
        e.blank(15);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::fits(s, "Cash Letter Count", u64::from(self.cash_letter_count), 6);
        field::fits(s, "Total Record Count", self.total_record_count, 8);
        field::fits(s, "Total Item Count", self.total_item_count, 8);
        field::fits(s, "File Total Amount", self.file_total_amount, 16);
        field::text(s, "Immediate Origin Contact Name", &self.immediate_origin_contact_name, 14, Kind::AlphaNumSpecial);
        field::numeric_blank(
            s,
            "Immediate Origin Contact Phone Number",
            &self.immediate_origin_contact_phone_number,
            10,
        );
        field::code(s, "Credit Total Indicator", self.credit_total_indicator, " 01");
    }
}
