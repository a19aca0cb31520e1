//! A streaming writer: records go out as they are given, and only running totals (and the
//! ids that must stay unique) are kept, so memory does not grow with the file.

use std::collections::HashSet;
use std::io::Write;

use crate::ebcdic::Encoding;
use crate::error::{Error, Problem, RecordNumber};
use crate::field::Sink;
use crate::records::{
    BundleControl, BundleHeader, CashLetterControl, CashLetterHeader, FileControl, FileHeader, Link, Record,
};
use crate::seqset::SequenceSet;

mod item;
mod output;
mod returns;

use output::Chunked;

/// Writes an image cash letter file: the file header, then for each cash letter its header,
/// bundles of items (each a check detail, its addenda A and its images), and controls the
/// writer computes (counts, totals, the MICR-valid total).
///
/// Every record is checked before it is written, with the checks the reader applies;
/// anything invalid is refused with [`Error::Invalid`] and nothing of it is written, so the
/// caller can leave the offending item out and go on.
///
/// Fields the writer sets itself, whatever the caller put there: the check detail's addendum
/// count, the addenda's record numbers, the image view detail's data size, and, when left
/// empty, the image view data's routing number, business date and cycle number (from the
/// bundle header) and item sequence number (from the check detail).
///
/// ```
/// use moneydesk_x9::*;
/// # fn main() -> Result<(), Error> {
/// let date = "20240102";
/// let header = FileHeader {
///     immediate_destination_routing_number: "061000146".into(),
///     immediate_origin_routing_number: "026073150".into(),
///     file_creation_date: date.into(),
///     file_creation_time: "0911".into(),
///     ..FileHeader::default()
/// };
/// let mut w = Writer::new(Vec::new(), Encoding::Ebcdic, &header)?;
/// w.start_cash_letter(&CashLetterHeader {
///     destination_routing_number: "061000146".into(),
///     ece_institution_routing_number: "026073150".into(),
///     cash_letter_business_date: date.into(),
///     cash_letter_creation_date: date.into(),
///     cash_letter_creation_time: "0911".into(),
///     cash_letter_id: "CL1".into(),
///     ..CashLetterHeader::default()
/// })?;
/// w.start_bundle(&BundleHeader {
///     destination_routing_number: "061000146".into(),
///     ece_institution_routing_number: "026073150".into(),
///     bundle_business_date: date.into(),
///     bundle_creation_date: date.into(),
///     bundle_id: "B1".into(),
///     ..BundleHeader::default()
/// })?;
/// let mut detail = CheckDetail { on_us: "1211-1234-56789/".into(), item_amount: 10_000, ..CheckDetail::default() };
/// detail.set_payor_bank_routing("122000661");
/// detail.ece_institution_item_sequence_number = "1".into();
/// let front = Image::new(ImageViewDetail::g4_tiff("026073150", date, false), ImageViewData::new(vec![0x49, 0x49, 42, 0]));
/// w.add_item(&Item { detail, images: vec![front], ..Item::default() })?;
/// // A bad routing check digit is refused, and nothing is written.
/// let mut bad = CheckDetail { on_us: "1/".into(), item_amount: 5, ..CheckDetail::default() };
/// bad.set_payor_bank_routing("122000662");
/// bad.ece_institution_item_sequence_number = "2".into();
/// assert!(w.add_item(&Item { detail: bad, ..Item::default() }).is_err());
/// w.finish_bundle()?;
/// w.finish_cash_letter(CashLetterControl::default())?;
/// let bytes = w.finish(FileControl::default())?;
/// let (file, problems) = read_file(&bytes);
/// assert!(problems.is_empty());
/// assert_eq!(file.control.unwrap().file_total_amount, 10_000);
/// # Ok(()) }
/// ```
pub struct Writer<W: Write> {
    out: Chunked<W>,
    encoding: Encoding,
    legacy: bool,
    records: u64,
    poisoned: bool,
    scratch: Vec<u8>,
    file: Totals,
    cash_letter_ids: HashSet<String>,
    sequences: SequenceSet,
    cash_letter: Option<CashLetterState>,
    bundle: Option<BundleState>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    groups: u64,
    items: u64,
    amount: u64,
    images: u64,
    micr_valid: u64,
}

struct CashLetterState {
    collection_type: String,
    totals: Totals,
    bundle_ids: HashSet<String>,
}

struct BundleState {
    collection_type: String,
    routing: String,
    date: String,
    cycle: String,
    totals: Totals,
}

/// The largest value of a numeric field of `width` digits.
fn max_of(width: u32) -> u64 {
    10u64.pow(width) - 1
}

impl<W: Write> Writer<W> {
    /// Starts a file: checks and writes its header.
    pub fn new(out: W, encoding: Encoding, header: &FileHeader) -> Result<Self, Error> {
        let mut problems = Vec::new();
        header.check(&mut sink(&mut problems, 1, "01"));
        refuse(problems)?;
        let mut w = Writer {
            out: Chunked::new(out),
            encoding,
            legacy: header.is_legacy(),
            records: 0,
            poisoned: false,
            scratch: Vec::with_capacity(256),
            file: Totals::default(),
            cash_letter_ids: HashSet::new(),
            sequences: SequenceSet::default(),
            cash_letter: None,
            bundle: None,
        };
        w.write_fixed(&Record::FileHeader(header.clone()))?;
        Ok(w)
    }

    /// Records written so far.
    pub fn record_count(&self) -> u64 {
        self.records
    }

    fn next(&self) -> u64 {
        self.records + 1
    }

    fn usable(&self) -> Result<(), Error> {
        if self.poisoned {
            Err(Error::Poisoned)
        } else {
            Ok(())
        }
    }

    /// Opens a cash letter (the previous one must be finished).
    pub fn start_cash_letter(&mut self, header: &CashLetterHeader) -> Result<(), Error> {
        self.usable()?;
        if self.cash_letter.is_some() {
            return order("start_cash_letter: the open cash letter is not finished (finish_cash_letter)");
        }
        let mut problems = Vec::new();
        let mut s = sink(&mut problems, self.next(), "10");
        header.check(&mut s, self.legacy);
        if self.cash_letter_ids.contains(&header.cash_letter_id) {
            s.error(
                "Cash Letter ID",
                format!("\"{}\" is already the id of a cash letter of this file", header.cash_letter_id),
            );
        }
        if self.file.groups >= max_of(6) {
            s.record_error("the file already holds as many cash letters as its control can count");
        }
        refuse(problems)?;
        self.write_fixed(&Record::CashLetterHeader(header.clone()))?;
        self.cash_letter_ids.insert(header.cash_letter_id.clone());
        self.file.groups += 1;
        self.cash_letter = Some(CashLetterState {
            collection_type: header.collection_type_indicator.clone(),
            totals: Totals::default(),
            bundle_ids: HashSet::new(),
        });
        Ok(())
    }

    /// Opens a bundle in the open cash letter (the previous bundle must be finished).
    pub fn start_bundle(&mut self, header: &BundleHeader) -> Result<(), Error> {
        self.usable()?;
        if self.bundle.is_some() {
            return order("start_bundle: the open bundle is not finished (finish_bundle)");
        }
        let next = self.next();
        let Some(cl) = self.cash_letter.as_ref() else {
            return order("start_bundle: no cash letter is open (start_cash_letter)");
        };
        let mut problems = Vec::new();
        let mut s = sink(&mut problems, next, "20");
        header.check(&mut s);
        if cl.bundle_ids.contains(&header.bundle_id) {
            s.error("Bundle ID", format!("\"{}\" is already the id of a bundle of this cash letter", header.bundle_id));
        }
        if cl.collection_type != "99" && header.collection_type_indicator != cl.collection_type {
            let msg = format!(
                "\"{}\" differs from the cash letter's \"{}\"",
                header.collection_type_indicator, cl.collection_type
            );
            s.error("Collection Type Indicator", msg);
        }
        if cl.totals.groups >= max_of(6) {
            s.record_error("the cash letter already holds as many bundles as its control can count");
        }
        refuse(problems)?;
        self.write_fixed(&Record::BundleHeader(header.clone()))?;
        let cl = self.cash_letter.as_mut().expect("checked above");
        cl.bundle_ids.insert(header.bundle_id.clone());
        cl.totals.groups += 1;
        self.bundle = Some(BundleState {
            collection_type: header.collection_type_indicator.clone(),
            routing: header.ece_institution_routing_number.clone(),
            date: header.bundle_business_date.clone(),
            cycle: header.cycle_number.clone(),
            totals: Totals::default(),
        });
        Ok(())
    }

    /// Closes the open bundle with its control record, which it returns.
    pub fn finish_bundle(&mut self) -> Result<BundleControl, Error> {
        self.usable()?;
        let Some(b) = self.bundle.as_ref() else {
            return order("finish_bundle: no bundle is open");
        };
        let control = BundleControl {
            items_within_bundle_count: b.totals.items as u32,
            bundle_total_amount: b.totals.amount,
            micr_valid_total_amount: b.totals.micr_valid,
            images_within_bundle_count: b.totals.images as u32,
            ..BundleControl::default()
        };
        self.write_fixed(&Record::BundleControl(control.clone()))?;
        self.bundle = None;
        Ok(control)
    }

    /// Closes the open cash letter. From `control` only the ECE institution name, the
    /// settlement date and the credit total indicator are used; the counts and totals are
    /// computed. Returns the control record written.
    pub fn finish_cash_letter(&mut self, control: CashLetterControl) -> Result<CashLetterControl, Error> {
        self.usable()?;
        if self.bundle.is_some() {
            return order("finish_cash_letter: the open bundle is not finished (finish_bundle)");
        }
        let Some(cl) = self.cash_letter.as_ref() else {
            return order("finish_cash_letter: no cash letter is open");
        };
        let control = CashLetterControl {
            bundle_count: cl.totals.groups as u32,
            items_within_cash_letter_count: cl.totals.items,
            cash_letter_total_amount: cl.totals.amount,
            images_within_cash_letter_count: cl.totals.images,
            ..control
        };
        let mut problems = Vec::new();
        control.check(&mut sink(&mut problems, self.next(), "90"));
        refuse(problems)?;
        self.write_fixed(&Record::CashLetterControl(control.clone()))?;
        self.cash_letter = None;
        Ok(control)
    }

    /// Ends the file with its control record (from `control` only the contact name and phone
    /// number and the credit total indicator are used) and returns the output, flushed.
    pub fn finish(mut self, control: FileControl) -> Result<W, Error> {
        self.usable()?;
        if self.cash_letter.is_some() {
            return order("finish: the open cash letter is not finished (finish_cash_letter)");
        }
        let control = FileControl {
            cash_letter_count: self.file.groups as u32,
            total_record_count: self.records + 1,
            total_item_count: self.file.items,
            file_total_amount: self.file.amount,
            ..control
        };
        let mut problems = Vec::new();
        control.check(&mut sink(&mut problems, self.next(), "99"));
        refuse(problems)?;
        self.write_fixed(&Record::FileControl(control))?;
        // The writer is consumed: a failure here leaves nothing to poison.
        self.out.finish().map_err(Error::Io)
    }
}

/// The bundle and item fields a type 52 repeats: its own, or the bundle's and item's (its
/// item sequence number `sequence`) where it left them empty.
fn link<'a>(data: &'a crate::ImageViewData, bundle: &'a BundleState, sequence: &'a str) -> Link<'a> {
    let pick = |own: &'a str, theirs: &'a str| if own.is_empty() { theirs } else { own };
    Link {
        routing: pick(&data.ece_institution_routing_number, &bundle.routing),
        date: pick(&data.bundle_business_date, &bundle.date),
        cycle: pick(&data.cycle_number, &bundle.cycle),
        sequence: pick(&data.ece_institution_item_sequence_number, sequence),
    }
}

fn sink<'a>(problems: &'a mut Vec<Problem>, number: u64, record_type: &'a str) -> Sink<'a> {
    Sink { record: RecordNumber(number), record_type, problems }
}

fn refuse(problems: Vec<Problem>) -> Result<(), Error> {
    // Notes (a non-blank reserved field...) cannot arise from typed values; any problem here
    // is an error.
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid(problems))
    }
}

fn order<T>(message: &str) -> Result<T, Error> {
    Err(Error::Order(message.to_owned()))
}
