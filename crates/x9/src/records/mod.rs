//! The records this crate reads and writes as typed values, and [`RawRecord`] for the others.

mod controls;
mod headers;
mod image;
mod item;
mod returns;

pub use controls::{BundleControl, CashLetterControl, FileControl};
pub use headers::{BundleHeader, CashLetterHeader, FileHeader, COLLECTION_TYPES};
pub use image::{ImageViewData, ImageViewDetail, MAX_DIGITAL_SIGNATURE, MAX_IMAGE_DATA, MAX_IMAGE_REFERENCE_KEY};
pub use item::{CheckDetail, CheckDetailAddendumA, MAX_ITEM_AMOUNT};
pub use returns::{ReturnAddendumA, ReturnAddendumB, ReturnAddendumD, ReturnRecord};

pub(crate) use item::AddendumAOf;
pub(crate) use returns::RETURN_COLLECTION_TYPES;

pub(crate) use image::{Link, IMAGE_DATA_FIXED, IMAGE_DATA_MIN, MAX_RECORD};

use crate::ebcdic::Encoding;
use crate::field::{latin1, Dec, Enc, Sink};
pub use crate::record_type::type_name;

/// Every record but type 52 is this long.
pub const FIXED_RECORD_LEN: usize = 80;

/// One record of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    FileHeader(FileHeader),
    CashLetterHeader(CashLetterHeader),
    BundleHeader(BundleHeader),
    CheckDetail(CheckDetail),
    CheckDetailAddendumA(CheckDetailAddendumA),
    ReturnRecord(ReturnRecord),
    ReturnAddendumA(ReturnAddendumA),
    ReturnAddendumB(ReturnAddendumB),
    ReturnAddendumD(ReturnAddendumD),
    ImageViewDetail(ImageViewDetail),
    ImageViewData(ImageViewData),
    BundleControl(BundleControl),
    CashLetterControl(CashLetterControl),
    FileControl(FileControl),
    /// A record type this crate does not interpret (user record 68, addenda 27, 28 and 34,
    /// image view analysis 54, credits...), kept as it is in the file.
    Other(RawRecord),
}

/// A record kept as its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRecord {
    /// The record type, decoded ("68"); empty for a record shorter than two bytes.
    pub record_type: String,
    /// The whole record as in the file (type included, length prefix excluded).
    pub bytes: Vec<u8>,
    pub encoding: Encoding,
}

impl RawRecord {
    /// The record as text (decoded from EBCDIC if need be), for display.
    pub fn text(&self) -> String {
        self.bytes.iter().map(|&b| self.encoding.decode_byte(b)).collect()
    }
}

impl Record {
    /// The record type as the file writes it: "01", "25"...
    pub fn record_type(&self) -> &str {
        match self {
            Record::FileHeader(_) => "01",
            Record::CashLetterHeader(_) => "10",
            Record::BundleHeader(_) => "20",
            Record::CheckDetail(_) => "25",
            Record::CheckDetailAddendumA(_) => "26",
            Record::ReturnRecord(_) => "31",
            Record::ReturnAddendumA(_) => "32",
            Record::ReturnAddendumB(_) => "33",
            Record::ReturnAddendumD(_) => "35",
            Record::ImageViewDetail(_) => "50",
            Record::ImageViewData(_) => "52",
            Record::BundleControl(_) => "70",
            Record::CashLetterControl(_) => "90",
            Record::FileControl(_) => "99",
            Record::Other(raw) => &raw.record_type,
        }
    }

    /// The standard's name of the record type.
    pub fn name(&self) -> &'static str {
        type_name(self.record_type())
    }

    /// Checks every field of this record on its own (codes, widths, characters, routing
    /// check digits, dates), as the reader does; the [`Validator`](crate::Validator) adds the
    /// checks that need the records around it. `legacy`: standard level 03.
    pub(crate) fn check_fields(&self, s: &mut Sink, legacy: bool) {
        match self {
            Record::FileHeader(r) => r.check(s),
            Record::CashLetterHeader(r) => r.check(s, legacy),
            Record::BundleHeader(r) => r.check(s),
            Record::CheckDetail(r) => r.check(s),
            Record::CheckDetailAddendumA(r) => r.check(s, AddendumAOf::Check),
            Record::ReturnRecord(r) => r.check(s),
            Record::ReturnAddendumA(r) => r.check(s, AddendumAOf::Return),
            Record::ReturnAddendumB(r) => r.check(s),
            Record::ReturnAddendumD(r) => r.check(s),
            Record::ImageViewDetail(r) => r.check(s),
            Record::ImageViewData(r) => r.check(s, &r.link()),
            Record::BundleControl(r) => r.check(s),
            Record::CashLetterControl(r) => r.check(s),
            Record::FileControl(r) => r.check(s),
            Record::Other(_) => {}
        }
    }
}

/// Parses a fixed-length record of a type this crate interprets (not 52) from its Latin-1
/// text, padded to 80 bytes; `None` for the other types.
pub(crate) fn parse_fixed(record_type: &str, text: &[u8], sink: Sink) -> Option<Record> {
    let mut d = Dec::new(text, sink);
    Some(match record_type {
        "01" => Record::FileHeader(FileHeader::parse(&mut d)),
        "10" => Record::CashLetterHeader(CashLetterHeader::parse(&mut d)),
        "20" => Record::BundleHeader(BundleHeader::parse(&mut d)),
        "25" => Record::CheckDetail(CheckDetail::parse(&mut d)),
        "26" => Record::CheckDetailAddendumA(CheckDetailAddendumA::parse(&mut d, AddendumAOf::Check)),
        "31" => Record::ReturnRecord(ReturnRecord::parse(&mut d)),
        "32" => Record::ReturnAddendumA(ReturnAddendumA::parse(&mut d, AddendumAOf::Return)),
        "33" => Record::ReturnAddendumB(ReturnAddendumB::parse(&mut d)),
        "35" => Record::ReturnAddendumD(ReturnAddendumD::parse(&mut d)),
        "50" => Record::ImageViewDetail(ImageViewDetail::parse(&mut d)),
        "70" => Record::BundleControl(BundleControl::parse(&mut d)),
        "90" => Record::CashLetterControl(CashLetterControl::parse(&mut d)),
        "99" => Record::FileControl(FileControl::parse(&mut d)),
        _ => return None,
    })
}

/// True for the types [`parse_fixed`] interprets.
pub(crate) fn is_fixed_type(record_type: &str) -> bool {
    matches!(record_type, "01" | "10" | "20" | "25" | "26" | "31" | "32" | "33" | "35" | "50" | "70" | "90" | "99")
}

/// Encodes a fixed-length record as Latin-1 text (80 bytes). Type 52 and raw records are
/// written by the writer itself.
pub(crate) fn encode_fixed(record: &Record, buf: &mut Vec<u8>) {
    let mut e = Enc { buf };
    match record {
        Record::FileHeader(r) => r.encode(&mut e),
        Record::CashLetterHeader(r) => r.encode(&mut e),
        Record::BundleHeader(r) => r.encode(&mut e),
        Record::CheckDetail(r) => r.encode(&mut e),
        Record::CheckDetailAddendumA(r) => r.encode(&mut e, AddendumAOf::Check),
        Record::ReturnRecord(r) => r.encode(&mut e),
        Record::ReturnAddendumA(r) => r.encode(&mut e, AddendumAOf::Return),
        Record::ReturnAddendumB(r) => r.encode(&mut e),
        Record::ReturnAddendumD(r) => r.encode(&mut e),
        Record::ImageViewDetail(r) => r.encode(&mut e),
        Record::BundleControl(r) => r.encode(&mut e),
        Record::CashLetterControl(r) => r.encode(&mut e),
        Record::FileControl(r) => r.encode(&mut e),
        Record::ImageViewData(_) | Record::Other(_) => {}
    }
}

/// The decoded record type of a record's first two bytes.
pub(crate) fn decode_type(bytes: &[u8], encoding: Encoding) -> String {
    let mut t = [0u8; 2];
    let n = bytes.len().min(2);
    t[..n].copy_from_slice(&bytes[..n]);
    encoding.decode_in_place(&mut t[..n]);
    latin1(&t[..n])
}
