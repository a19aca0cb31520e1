//! Checks that need the records around a record: the order of the records, the counts and
//! totals of the controls, uniqueness of ids, and the fields of an image view data record
//! that repeat its bundle's and item's. It keeps running totals only (and the ids), so it
//! validates a file of any length in flat memory.

use std::collections::HashSet;

use crate::error::{Problem, RecordNumber, Severity};
use crate::field::Sink;
use crate::records::Record;
use crate::seqset::SequenceSet;

mod context;
mod returns;

/// Validates a file record by record, in the file's order.
///
/// The [`Reader`](crate::Reader) runs one itself; use this one to check records from
/// elsewhere.
///
/// ```
/// use moneydesk_x9::{Record, RecordNumber, Validator, FileControl};
/// let mut v = Validator::new();
/// v.check(RecordNumber(1), &Record::FileControl(FileControl::default()));
/// let problems = v.finish();
/// assert!(problems[0].message.contains("first record"));
/// ```
#[derive(Debug, Default)]
pub struct Validator {
    problems: Vec<Problem>,
    records: u64,
    legacy: bool,
    started: bool,
    ended: bool,
    file: Totals,
    cash_letter_ids: HashSet<String>,
    sequences: SequenceSet,
    cash_letter: Option<CashLetterState>,
    bundle: Option<BundleState>,
    item: Option<ItemState>,
}

#[derive(Debug, Default)]
struct Totals {
    groups: u64,
    items: u64,
    amount: u64,
    images: u64,
}

#[derive(Debug)]
struct CashLetterState {
    collection_type: String,
    documentation_type: char,
    totals: Totals,
    bundle_ids: HashSet<String>,
}

#[derive(Debug)]
struct BundleState {
    collection_type: String,
    routing: String,
    date: String,
    cycle: String,
    totals: Totals,
    micr_valid_amount: u64,
}

#[derive(Debug)]
struct ItemState {
    number: RecordNumber,
    /// A return (type 31) rather than a check (type 25).
    returned: bool,
    sequence: String,
    declared_addenda: u8,
    addenda: u32,
    addenda_a: u8,
    addenda_b: u8,
    addenda_d: u8,
    images_started: bool,
    /// A type 50 still waiting for its type 52: its number and the data size it announced.
    pending_image: Option<(RecordNumber, Option<u32>)>,
}

impl Validator {
    pub fn new() -> Self {
        Validator::default()
    }

    /// The problems found so far.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Hands over the problems found so far (a streaming viewer can show them as they come).
    pub fn take_problems(&mut self) -> Vec<Problem> {
        std::mem::take(&mut self.problems)
    }

    pub(crate) fn push(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    /// Records counted so far.
    pub fn record_count(&self) -> u64 {
        self.records
    }

    /// Checks the next record of the file, numbered `number`.
    pub fn check(&mut self, number: RecordNumber, record: &Record) {
        self.records += 1;
        let rtype = record.record_type().to_owned();
        let mut problems = std::mem::take(&mut self.problems);
        let mut s = Sink { record: number, record_type: &rtype, problems: &mut problems };
        if self.ended {
            s.record_error("a record after the file control record (type 99)");
        }
        if !self.started && !matches!(record, Record::FileHeader(_)) {
            s.record_error("the first record of a file must be the file header (type 01)");
            self.started = true;
        }
        record.check_fields(&mut s, self.legacy);
        self.check_context(number, record, &mut s);
        self.problems = problems;
    }

    /// Checks `record` against the records before it, one helper per record type
    /// (in `context.rs`).
    fn check_context(&mut self, number: RecordNumber, record: &Record, s: &mut Sink) {
        match record {
            Record::FileHeader(h) => self.file_header(h, s),
            Record::CashLetterHeader(h) => self.cash_letter_header(h, s),
            Record::BundleHeader(h) => self.bundle_header(h, s),
            Record::CheckDetail(d) => self.check_detail(number, d, s),
            Record::CheckDetailAddendumA(a) => self.check_detail_addendum_a(a, s),
            Record::ReturnRecord(r) => self.return_record(number, r, s),
            Record::ReturnAddendumA(a) => self.return_addendum_a(a, s),
            Record::ReturnAddendumB(_) => self.return_addendum_b(s),
            Record::ReturnAddendumD(d) => self.return_addendum_d(d, s),
            Record::ImageViewDetail(v) => self.image_view_detail(number, v, s),
            Record::ImageViewData(data) => self.image_view_data(number, data, s),
            Record::BundleControl(c) => self.bundle_control(c, s),
            Record::CashLetterControl(c) => self.cash_letter_control(c, s),
            Record::FileControl(c) => self.file_control(c, s),
            Record::Other(raw) => self.other(raw, s),
        }
    }

    /// Where an addendum must be: after its check detail (26, 27, 28) or return record (32
    /// to 35), before the images.
    fn addendum_position(&mut self, s: &mut Sink, returned: bool) -> Option<&mut ItemState> {
        let (own, other) = if returned { ("return record", "check detail") } else { ("check detail", "return record") };
        match self.item.as_mut() {
            None => {
                s.record_error(format!("an addendum outside an item (no {own} before it)"));
                None
            }
            Some(item) if item.returned != returned => {
                s.record_error(format!("an addendum of a {own} after a {other}"));
                None
            }
            Some(item) if item.images_started => {
                s.record_error("an addendum after the item's images (addenda come right after the check detail)");
                None
            }
            Some(item) => {
                item.addenda += 1;
                Some(item)
            }
        }
    }

    fn close_item(&mut self, s: &mut Sink) {
        let Some(item) = self.item.take() else { return };
        if let Some((pending, _)) = item.pending_image {
            s.problems.push(missing_data(pending));
        }
        if u32::from(item.declared_addenda) != item.addenda {
            let (record_type, field, types) = if item.returned {
                ("31", "Return Record Addendum Count", "32, 33, 34, 35")
            } else {
                ("25", "Check Detail Record Addendum Count", "26, 27, 28")
            };
            s.problems.push(Problem::new(
                Severity::Error,
                item.number,
                record_type,
                Some(field),
                format!("is {} but {} addendum records (types {types}) follow", item.declared_addenda, item.addenda),
            ));
        }
    }

    fn close_bundle(&mut self, s: &mut Sink, what: &str) {
        self.close_item(s);
        if self.bundle.take().is_some() {
            s.record_error(format!("{what} before the bundle control (type 70) of the open bundle"));
        }
    }

    fn close_cash_letter(&mut self, s: &mut Sink, what: &str) {
        self.close_bundle(s, what);
        if self.cash_letter.take().is_some() {
            s.record_error(format!("{what} before the cash letter control (type 90) of the open cash letter"));
        }
    }

    /// Ends the file: reports what is still open, and returns every problem found.
    pub fn finish(mut self) -> Vec<Problem> {
        let next = RecordNumber(self.records + 1);
        let mut problems = std::mem::take(&mut self.problems);
        let mut s = Sink { record: next, record_type: "", problems: &mut problems };
        if self.records == 0 {
            s.record_error("the file holds no records");
        } else if !self.ended {
            self.close_cash_letter(&mut s, "the end of the file");
            s.record_error("the file ends without a file control record (type 99)");
        }
        problems
    }
}

fn missing_data(detail: RecordNumber) -> Problem {
    let message = "an image view detail without its image view data record (type 52) after it";
    Problem::new(Severity::Error, detail, "50", None, message)
}
