//! Type 01 file header, type 10 cash letter header, type 20 bundle header.

use crate::field::{self, Dec, Enc, Kind, Sink};

/// The collection type indicators of the standard (type 10 and 20, field 2): 00 preliminary
/// forward information, 01 forward presentment, 02 same-day settlement, 03 return,
/// 04 return notification, 05 preliminary return notification, 06 final return notification,
/// 20 no detail, 99 bundles not all of the same collection type.
pub const COLLECTION_TYPES: &[&str] = &["00", "01", "02", "03", "04", "05", "06", "20", "99"];

/// Type 01: the first record of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    /// "03" (X9.37-2003), "30" (X9.100-187-2008) or "35" (X9.100-187-2013 and 2016).
    pub standard_level: String,
    /// 'T' test, 'P' production.
    pub test_file_indicator: char,
    pub immediate_destination_routing_number: String,
    pub immediate_origin_routing_number: String,
    /// YYYYMMDD.
    pub file_creation_date: String,
    /// HHMM.
    pub file_creation_time: String,
    /// 'N' original file, 'Y' a resend.
    pub resend_indicator: char,
    pub immediate_destination_name: String,
    pub immediate_origin_name: String,
    /// Tells apart files of the same creation date and time and destination.
    pub file_id_modifier: char,
    /// "US", "CA", or blank.
    pub country_code: String,
    pub user_field: String,
    /// Companion document version (a reserved blank in X9.37-2003).
    pub companion_document_indicator: char,
}

impl Default for FileHeader {
    fn default() -> Self {
        FileHeader {
            standard_level: "35".into(),
            test_file_indicator: 'T',
            immediate_destination_routing_number: String::new(),
            immediate_origin_routing_number: String::new(),
            file_creation_date: String::new(),
            file_creation_time: String::new(),
            resend_indicator: 'N',
            immediate_destination_name: String::new(),
            immediate_origin_name: String::new(),
            file_id_modifier: 'A',
            country_code: String::new(),
            user_field: String::new(),
            companion_document_indicator: ' ',
        }
    }
}

impl FileHeader {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        FileHeader {
            standard_level: d.exact(2),
            test_file_indicator: d.ch(),
            immediate_destination_routing_number: d.exact(9),
            immediate_origin_routing_number: d.exact(9),
            file_creation_date: d.exact(8),
            file_creation_time: d.exact(4),
            resend_indicator: d.ch(),
            immediate_destination_name: d.left(18),
            immediate_origin_name: d.left(18),
            file_id_modifier: d.ch(),
            country_code: d.left(2),
            user_field: d.left(4),
            companion_document_indicator: d.ch(),
        }
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("01");
        e.left(&self.standard_level, 2);
        e.ch(self.test_file_indicator);
        e.left(&self.immediate_destination_routing_number, 9);
        e.left(&self.immediate_origin_routing_number, 9);
        e.left(&self.file_creation_date, 8);
        e.left(&self.file_creation_time, 4);
        e.ch(self.resend_indicator);
        e.left(&self.immediate_destination_name, 18);
        e.left(&self.immediate_origin_name, 18);
        e.ch(self.file_id_modifier);
        e.left(&self.country_code, 2);
        e.left(&self.user_field, 4);
        e.ch(self.companion_document_indicator);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::code2(s, "Standard Level", &self.standard_level, &["03", "30", "35"]);
        field::code(s, "Test File Indicator", self.test_file_indicator, "TP");
        field::routing(s, "Immediate Destination Routing Number", &self.immediate_destination_routing_number, true);
        field::routing(s, "Immediate Origin Routing Number", &self.immediate_origin_routing_number, true);
        field::date(s, "File Creation Date", &self.file_creation_date, true);
        field::time(s, "File Creation Time", &self.file_creation_time, true);
        field::code(s, "Resend Indicator", self.resend_indicator, "YN");
        field::text(s, "Immediate Destination Name", &self.immediate_destination_name, 18, Kind::AlphaNumSpecial);
        field::text(s, "Immediate Origin Name", &self.immediate_origin_name, 18, Kind::AlphaNumSpecial);
        field::text(s, "File ID Modifier", &self.file_id_modifier.to_string(), 1, Kind::AlphaNum);
        field::text(s, "Country Code", &self.country_code, 2, Kind::Alpha);
        field::text(s, "User Field", &self.user_field, 4, Kind::AlphaNumSpecial);
        field::code(s, "Companion Document Indicator", self.companion_document_indicator, " 0123456789ABCDEFGHIJ");
    }

    /// True for X9.37-2003 (standard level 03), whose few differences in layout this crate
    /// reads leniently.
    pub fn is_legacy(&self) -> bool {
        self.standard_level == "03"
    }
}

/// Type 10: opens a cash letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashLetterHeader {
    /// One of [`COLLECTION_TYPES`]; "01" forward presentment.
    pub collection_type_indicator: String,
    pub destination_routing_number: String,
    /// The electronic check exchange (ECE) institution that created the cash letter.
    pub ece_institution_routing_number: String,
    /// YYYYMMDD.
    pub cash_letter_business_date: String,
    /// YYYYMMDD.
    pub cash_letter_creation_date: String,
    /// HHMM.
    pub cash_letter_creation_time: String,
    /// 'N' no electronic records, 'E' electronic records without images, 'I' with images,
    /// 'F' with images that were already sent.
    pub cash_letter_record_type_indicator: char,
    /// 'A'..='M' for every item, or 'Z' when the items say it each.
    pub cash_letter_documentation_type_indicator: char,
    /// Unique within the file.
    pub cash_letter_id: String,
    pub originator_contact_name: String,
    pub originator_contact_phone_number: String,
    pub fed_work_type: char,
    /// X9.100-187 only: blank, 'E', 'R', 'J' or 'N'.
    pub returns_indicator: char,
    pub user_field: char,
}

impl Default for CashLetterHeader {
    fn default() -> Self {
        CashLetterHeader {
            collection_type_indicator: "01".into(),
            destination_routing_number: String::new(),
            ece_institution_routing_number: String::new(),
            cash_letter_business_date: String::new(),
            cash_letter_creation_date: String::new(),
            cash_letter_creation_time: String::new(),
            cash_letter_record_type_indicator: 'I',
            cash_letter_documentation_type_indicator: 'G',
            cash_letter_id: String::new(),
            originator_contact_name: String::new(),
            originator_contact_phone_number: String::new(),
            fed_work_type: ' ',
            returns_indicator: ' ',
            user_field: ' ',
        }
    }
}

impl CashLetterHeader {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let h = CashLetterHeader {
            collection_type_indicator: d.exact(2),
            destination_routing_number: d.exact(9),
            ece_institution_routing_number: d.exact(9),
            cash_letter_business_date: d.exact(8),
            cash_letter_creation_date: d.exact(8),
            cash_letter_creation_time: d.exact(4),
            cash_letter_record_type_indicator: d.ch(),
            cash_letter_documentation_type_indicator: d.ch(),
            cash_letter_id: d.left(8),
            originator_contact_name: d.left(14),
            originator_contact_phone_number: d.exact(10),
            fed_work_type: d.ch(),
            returns_indicator: d.ch(),
            user_field: d.ch(),
        };
        d.reserved(1);
        h
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("10");
        e.left(&self.collection_type_indicator, 2);
        e.left(&self.destination_routing_number, 9);
        e.left(&self.ece_institution_routing_number, 9);
        e.left(&self.cash_letter_business_date, 8);
        e.left(&self.cash_letter_creation_date, 8);
        e.left(&self.cash_letter_creation_time, 4);
        e.ch(self.cash_letter_record_type_indicator);
        e.ch(self.cash_letter_documentation_type_indicator);
        e.left(&self.cash_letter_id, 8);
        e.left(&self.originator_contact_name, 14);
        e.zero_fill(&self.originator_contact_phone_number, 10);
        e.ch(self.fed_work_type);
        e.ch(self.returns_indicator);
        e.ch(self.user_field);
        e.blank(1);
    }

    pub(crate) fn check(&self, s: &mut Sink, legacy: bool) {
        field::code2(s, "Collection Type Indicator", &self.collection_type_indicator, COLLECTION_TYPES);
        field::routing(s, "Destination Routing Number", &self.destination_routing_number, true);
        field::routing(s, "ECE Institution Routing Number", &self.ece_institution_routing_number, true);
        field::date(s, "Cash Letter Business Date", &self.cash_letter_business_date, true);
        field::date(s, "Cash Letter Creation Date", &self.cash_letter_creation_date, true);
        field::time(s, "Cash Letter Creation Time", &self.cash_letter_creation_time, true);
        field::code(s, "Cash Letter Record Type Indicator", self.cash_letter_record_type_indicator, "NEIF");
        field::code(
            s,
            "Cash Letter Documentation Type Indicator",
            self.cash_letter_documentation_type_indicator,
            "ABCDEFGHIJKLMZ",
        );
        if self.cash_letter_id.trim().is_empty() {
            s.error("Cash Letter ID", "is blank but mandatory");
        }
        field::text(s, "Cash Letter ID", &self.cash_letter_id, 8, Kind::AlphaNum);
        field::text(s, "Originator Contact Name", &self.originator_contact_name, 14, Kind::AlphaNumSpecial);
        field::numeric_blank(s, "Originator Contact Phone Number", &self.originator_contact_phone_number, 10);
        field::text(s, "Fed Work Type", &self.fed_work_type.to_string(), 1, Kind::AlphaNum);
        // X9.37-2003 had a two-character user field where X9.100-187 put the returns indicator.
        if legacy {
            field::text(s, "User Field", &self.returns_indicator.to_string(), 1, Kind::AlphaNumSpecial);
        } else {
            field::code(s, "Returns Indicator", self.returns_indicator, " ERJN");
        }
        field::text(s, "User Field", &self.user_field.to_string(), 1, Kind::AlphaNumSpecial);
    }
}

/// Type 20: opens a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleHeader {
    /// One of [`COLLECTION_TYPES`]; the cash letter's unless that one is "99".
    pub collection_type_indicator: String,
    pub destination_routing_number: String,
    pub ece_institution_routing_number: String,
    /// YYYYMMDD; repeated in each image view data record of the bundle.
    pub bundle_business_date: String,
    /// YYYYMMDD.
    pub bundle_creation_date: String,
    /// Unique within the cash letter.
    pub bundle_id: String,
    /// Numeric or blank (written zero-filled).
    pub bundle_sequence_number: String,
    /// Repeated in each image view data record of the bundle.
    pub cycle_number: String,
    /// Conditional: blank or a routing number.
    pub return_location_routing_number: String,
    pub user_field: String,
}

impl Default for BundleHeader {
    fn default() -> Self {
        BundleHeader {
            collection_type_indicator: "01".into(),
            destination_routing_number: String::new(),
            ece_institution_routing_number: String::new(),
            bundle_business_date: String::new(),
            bundle_creation_date: String::new(),
            bundle_id: String::new(),
            bundle_sequence_number: String::new(),
            cycle_number: String::new(),
            return_location_routing_number: String::new(),
            user_field: String::new(),
        }
    }
}

impl BundleHeader {
    pub(crate) fn parse(d: &mut Dec) -> Self {
        let h = BundleHeader {
            collection_type_indicator: d.exact(2),
            destination_routing_number: d.exact(9),
            ece_institution_routing_number: d.exact(9),
            bundle_business_date: d.exact(8),
            bundle_creation_date: d.exact(8),
            bundle_id: d.left(10),
            bundle_sequence_number: d.exact(4),
            cycle_number: d.left(2),
            return_location_routing_number: d.exact(9),
            user_field: d.left(5),
        };
        d.reserved(12);
        h
    }

    pub(crate) fn encode(&self, e: &mut Enc) {
        e.raw("20");
        e.left(&self.collection_type_indicator, 2);
        e.left(&self.destination_routing_number, 9);
        e.left(&self.ece_institution_routing_number, 9);
        e.left(&self.bundle_business_date, 8);
        e.left(&self.bundle_creation_date, 8);
        e.left(&self.bundle_id, 10);
        e.zero_fill(&self.bundle_sequence_number, 4);
        e.left(&self.cycle_number, 2);
        e.left(&self.return_location_routing_number, 9);
        e.left(&self.user_field, 5);
        e.blank(12);
    }

    pub(crate) fn check(&self, s: &mut Sink) {
        field::code2(s, "Collection Type Indicator", &self.collection_type_indicator, COLLECTION_TYPES);
        field::routing(s, "Destination Routing Number", &self.destination_routing_number, true);
        field::routing(s, "ECE Institution Routing Number", &self.ece_institution_routing_number, true);
        field::date(s, "Bundle Business Date", &self.bundle_business_date, true);
        field::date(s, "Bundle Creation Date", &self.bundle_creation_date, true);
        if self.bundle_id.trim().is_empty() {
            s.error("Bundle ID", "is blank but mandatory");
        }
        field::text(s, "Bundle ID", &self.bundle_id, 10, Kind::AlphaNum);
        field::numeric_blank(s, "Bundle Sequence Number", &self.bundle_sequence_number, 4);
        field::text(s, "Cycle Number", &self.cycle_number, 2, Kind::AlphaNum);
        field::routing(s, "Return Location Routing Number", &self.return_location_routing_number, false);
        field::text(s, "User Field", &self.user_field, 5, Kind::AlphaNumSpecial);
    }
}
