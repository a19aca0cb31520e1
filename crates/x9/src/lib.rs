//! X9.100-187 image cash letter files: standard levels 03 (X9.37-2003) and 35
//! (X9.100-187-2013/2016), written and read in a stream, and validated.
//!
//! A file is a sequence of records, each preceded by its length as 4 bytes big-endian: a file
//! header (type 01), cash letters (10 … 90) of bundles (20 … 70) of items. An item is a check
//! detail (25), its addenda A (26), and its images, each an image view detail (50) and the
//! image view data (52) holding the image file's bytes (a CCITT Group 4 TIFF, usually).
//! Text fields are in ASCII or EBCDIC (code page 037); image data stays binary.
//!
//! - [`Writer`] writes a file as items come, computing every control (counts, totals,
//!   MICR-valid totals) and refusing invalid input; memory does not grow with the file.
//! - [`Reader`] reads one record at a time, detecting the encoding and checking fields,
//!   order, counts, totals, routing check digits and unique ids as it goes; problems are
//!   collected, each naming the record number, record type and field.
//! - [`read_file`] reads a whole file into a [`File`] with every problem, for a viewer.
//!
//! Amounts are integer cents. Dates are `YYYYMMDD` strings and times `HHMM`, both checked.
//! Return files are read and written too: a return bundle (collection type 03 to 06) holds
//! returned items ([`ReturnItem`]: a return record 31, return addenda A 32, B 33 and D 35,
//! images), each with a return reason of [`RETURN_REASONS`].
//!
//! Record types this crate does not interpret (user records 68, addenda B/C 27 and 28, return
//! addenda C 34, image view analysis 54, ...) are read as [`RawRecord`]s and reported as notes.
//!
//! ```
//! let bytes = moneydesk_x9::example_file();
//! let (file, problems) = moneydesk_x9::read_file(&bytes);
//! assert!(problems.is_empty(), "{problems:?}");
//! for item in file.items() {
//!     println!("{} cents drawn on {}", item.detail.item_amount, item.detail.payor_bank_routing());
//! }
//! ```

mod ebcdic;
mod error;
mod field;
mod model;
mod reader;
mod record_type;
mod records;
mod return_reasons;
mod seqset;
mod validate;
mod writer;

pub use ebcdic::Encoding;
pub use error::{Error, Problem, RecordNumber, Severity};
pub use field::{aba_check_digit, is_allowed_char, is_valid_date, is_valid_routing_number};
pub use model::{read_file, Bundle, CashLetter, File, Image, Item, ReturnItem};
pub use reader::Reader;
pub use records::{
    type_name, BundleControl, BundleHeader, CashLetterControl, CashLetterHeader, CheckDetail, CheckDetailAddendumA,
    FileControl, FileHeader, ImageViewData, ImageViewDetail, RawRecord, Record, ReturnAddendumA, ReturnAddendumB,
    ReturnAddendumD, ReturnRecord, COLLECTION_TYPES, FIXED_RECORD_LEN, MAX_DIGITAL_SIGNATURE, MAX_IMAGE_DATA,
    MAX_IMAGE_REFERENCE_KEY, MAX_ITEM_AMOUNT,
};
pub use return_reasons::{return_reason, RETURN_REASONS};
pub use validate::Validator;
pub use writer::Writer;

/// A small valid file (ASCII, one item of 123.45 with one front image), for examples.
#[doc(hidden)]
pub fn example_file() -> Vec<u8> {
    let date = "20240102";
    let (dest, origin) = ("061000146", "026073150");
    let header = FileHeader {
        immediate_destination_routing_number: dest.into(),
        immediate_origin_routing_number: origin.into(),
        file_creation_date: date.into(),
        file_creation_time: "1200".into(),
        ..FileHeader::default()
    };
    let build = || -> Result<Vec<u8>, Error> {
        let mut w = Writer::new(Vec::new(), Encoding::Ascii, &header)?;
        w.start_cash_letter(&CashLetterHeader {
            destination_routing_number: dest.into(),
            ece_institution_routing_number: origin.into(),
            cash_letter_business_date: date.into(),
            cash_letter_creation_date: date.into(),
            cash_letter_creation_time: "1200".into(),
            cash_letter_id: "EXAMPLE".into(),
            ..CashLetterHeader::default()
        })?;
        w.start_bundle(&BundleHeader {
            destination_routing_number: dest.into(),
            ece_institution_routing_number: origin.into(),
            bundle_business_date: date.into(),
            bundle_creation_date: date.into(),
            bundle_id: "1".into(),
            ..BundleHeader::default()
        })?;
        let mut detail = CheckDetail {
            on_us: "1211-1234-56789/".into(),
            item_amount: 12_345,
            ece_institution_item_sequence_number: "1".into(),
            ..CheckDetail::default()
        };
        detail.set_payor_bank_routing("122000661");
        let image = ImageViewData::new(b"II*\0 not really a tiff".to_vec());
        let images = vec![Image::new(ImageViewDetail::g4_tiff(origin, date, false), image)];
        w.add_item(&Item { detail, images, ..Item::default() })?;
        w.finish_bundle()?;
        w.finish_cash_letter(CashLetterControl::default())?;
        w.finish(FileControl::default())
    };
    build().expect("the example is valid")
}
