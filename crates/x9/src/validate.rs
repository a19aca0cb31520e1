//! Checks that need the records around a record: the order of the records, the counts and
//! totals of the controls, uniqueness of ids, and the fields of an image view data record
//! that repeat its bundle's and item's. It keeps running totals only (and the ids), so it
//! validates a file of any length in flat memory.

use std::collections::HashSet;

use crate::error::{Problem, RecordNumber, Severity};
use crate::field::Sink;
use crate::records::{type_name, Record};
use crate::seqset::SequenceSet;

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
    routing: String,
    date: String,
    cycle: String,
    totals: Totals,
    micr_valid_amount: u64,
}

#[derive(Debug)]
struct ItemState {
    number: RecordNumber,
    sequence: String,
    declared_addenda: u8,
    addenda: u32,
    addenda_a: u8,
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

    fn check_context(&mut self, number: RecordNumber, record: &Record, s: &mut Sink) {
        match record {
            Record::FileHeader(h) => {
                if self.started {
                    s.record_error("a second file header");
                }
                self.started = true;
                self.legacy = h.is_legacy();
            }
            Record::CashLetterHeader(h) => {
                self.close_cash_letter(s, "a cash letter header");
                self.file.groups += 1;
                if !self.cash_letter_ids.insert(h.cash_letter_id.clone()) {
                    s.error(
                        "Cash Letter ID",
                        format!("\"{}\" is already the id of a cash letter of this file", h.cash_letter_id),
                    );
                }
                self.cash_letter = Some(CashLetterState {
                    collection_type: h.collection_type_indicator.clone(),
                    documentation_type: h.cash_letter_documentation_type_indicator,
                    totals: Totals::default(),
                    bundle_ids: HashSet::new(),
                });
            }
            Record::BundleHeader(h) => {
                self.close_bundle(s, "a bundle header");
                let Some(cl) = self.cash_letter.as_mut() else {
                    return s.record_error("a bundle header outside a cash letter");
                };
                cl.totals.groups += 1;
                if !cl.bundle_ids.insert(h.bundle_id.clone()) {
                    s.error(
                        "Bundle ID",
                        format!("\"{}\" is already the id of a bundle of this cash letter", h.bundle_id),
                    );
                }
                if cl.collection_type != "99" && h.collection_type_indicator != cl.collection_type {
                    s.error(
                        "Collection Type Indicator",
                        format!(
                            "\"{}\" differs from the cash letter's \"{}\"",
                            h.collection_type_indicator, cl.collection_type
                        ),
                    );
                }
                self.bundle = Some(BundleState {
                    routing: h.ece_institution_routing_number.clone(),
                    date: h.bundle_business_date.clone(),
                    cycle: h.cycle_number.clone(),
                    totals: Totals::default(),
                    micr_valid_amount: 0,
                });
            }
            Record::CheckDetail(d) => {
                self.close_item(s);
                let Some(bundle) = self.bundle.as_mut() else {
                    return s.record_error("a check detail outside a bundle");
                };
                let amount = d.item_amount;
                bundle.totals.items += 1;
                bundle.totals.amount = bundle.totals.amount.saturating_add(amount);
                if d.micr_valid_indicator == '1' {
                    bundle.micr_valid_amount = bundle.micr_valid_amount.saturating_add(amount);
                }
                if let Some(cl) = self.cash_letter.as_mut() {
                    cl.totals.items += 1;
                    cl.totals.amount = cl.totals.amount.saturating_add(amount);
                    if cl.documentation_type == 'Z' && d.documentation_type_indicator == ' ' {
                        s.error(
                            "Documentation Type Indicator",
                            "is blank but the cash letter's is 'Z' (given per item)",
                        );
                    }
                }
                self.file.items += 1;
                self.file.amount = self.file.amount.saturating_add(amount);
                let seq = &d.ece_institution_item_sequence_number;
                if !seq.is_empty() && !self.sequences.insert(seq) {
                    s.error(
                        "ECE Institution Item Sequence Number",
                        format!("\"{seq}\" is already the sequence number of an item of this file"),
                    );
                }
                self.item = Some(ItemState {
                    number,
                    sequence: seq.clone(),
                    declared_addenda: d.addendum_count,
                    addenda: 0,
                    addenda_a: 0,
                    images_started: false,
                    pending_image: None,
                });
            }
            Record::CheckDetailAddendumA(a) => {
                let Some(item) = self.addendum_position(s) else { return };
                item.addenda_a += 1;
                if a.record_number != item.addenda_a {
                    s.error(
                        "Check Detail Addendum A Record Number",
                        format!("is {} but this is addendum A number {} of its item", a.record_number, item.addenda_a),
                    );
                }
            }
            Record::ImageViewDetail(v) => {
                let Some(item) = self.item.as_mut() else {
                    return s.record_error("an image view detail outside an item (no check detail before it)");
                };
                if let Some((pending, _)) = item.pending_image.take() {
                    s.problems.push(missing_data(pending));
                }
                item.images_started = true;
                item.pending_image = Some((number, v.image_view_data_size));
                if let Some(b) = self.bundle.as_mut() {
                    b.totals.images += 1;
                }
                if let Some(cl) = self.cash_letter.as_mut() {
                    cl.totals.images += 1;
                }
                self.file.images += 1;
            }
            Record::ImageViewData(data) => {
                let pending = self.item.as_mut().and_then(|i| i.pending_image.take());
                let Some((detail_number, size)) = pending else {
                    return s
                        .record_error("an image view data record without its image view detail (type 50) before it");
                };
                let len = data.image_data.len();
                if size.is_some_and(|size| size as usize != len) {
                    s.problems.push(Problem::new(
                        Severity::Error,
                        detail_number,
                        "50",
                        Some("Image View Data Size"),
                        format!("is {} but its image view data ({number}) holds {len} bytes", size.unwrap_or(0)),
                    ));
                }
                if let Some(b) = &self.bundle {
                    same(
                        s,
                        "ECE Institution Routing Number",
                        &data.ece_institution_routing_number,
                        &b.routing,
                        "bundle header's",
                    );
                    same(s, "Bundle Business Date", &data.bundle_business_date, &b.date, "bundle header's");
                    same(s, "Cycle Number", &data.cycle_number, &b.cycle, "bundle header's");
                }
                if let Some(item) = &self.item {
                    let (ours, theirs) = (&data.ece_institution_item_sequence_number, &item.sequence);
                    same(s, "ECE Institution Item Sequence Number", ours, theirs, "check detail's");
                }
            }
            Record::BundleControl(c) => {
                self.close_item(s);
                let Some(b) = self.bundle.take() else {
                    return s.record_error("a bundle control without a bundle header before it");
                };
                count(
                    s,
                    "Items Within Bundle Count",
                    c.items_within_bundle_count.into(),
                    b.totals.items,
                    "check detail records in the bundle",
                );
                count(
                    s,
                    "Bundle Total Amount",
                    c.bundle_total_amount,
                    b.totals.amount,
                    "the sum of the bundle's item amounts",
                );
                count(
                    s,
                    "MICR Valid Total Amount",
                    c.micr_valid_total_amount,
                    b.micr_valid_amount,
                    "the sum of the amounts of its items with MICR valid indicator 1",
                );
                count(
                    s,
                    "Images Within Bundle Count",
                    c.images_within_bundle_count.into(),
                    b.totals.images,
                    "image view detail records in the bundle",
                );
            }
            Record::CashLetterControl(c) => {
                self.close_bundle(s, "a cash letter control");
                let Some(cl) = self.cash_letter.take() else {
                    return s.record_error("a cash letter control without a cash letter header before it");
                };
                let t = cl.totals;
                count(s, "Cash Letter Bundle Count", c.bundle_count.into(), t.groups, "bundles in the cash letter");
                count(
                    s,
                    "Items Within Cash Letter Count",
                    c.items_within_cash_letter_count,
                    t.items,
                    "check detail records in the cash letter",
                );
                count(
                    s,
                    "Cash Letter Total Amount",
                    c.cash_letter_total_amount,
                    t.amount,
                    "the sum of the cash letter's item amounts",
                );
                count(
                    s,
                    "Images Within Cash Letter Count",
                    c.images_within_cash_letter_count,
                    t.images,
                    "image view detail records in the cash letter",
                );
            }
            Record::FileControl(c) => {
                self.close_cash_letter(s, "the file control");
                self.ended = true;
                let t = &self.file;
                count(s, "Cash Letter Count", c.cash_letter_count.into(), t.groups, "cash letters in the file");
                count(s, "Total Record Count", c.total_record_count, self.records, "records in the file");
                count(s, "Total Item Count", c.total_item_count, t.items, "check detail records in the file");
                count(s, "File Total Amount", c.file_total_amount, t.amount, "the sum of the file's item amounts");
            }
            Record::Other(raw) => match raw.record_type.as_str() {
                "27" | "28" => {
                    self.addendum_position(s);
                    s.note(None, format!("{} records are kept raw, not interpreted", type_name(&raw.record_type)));
                }
                "" => s.record_error("a record too short to hold a record type"),
                t if type_name(t) == "unknown record type" => {
                    s.note(None, format!("unknown record type \"{t}\", kept raw"))
                }
                t => s.note(None, format!("{} records (type {t}) are kept raw, not interpreted", type_name(t))),
            },
        }
    }

    /// Where an addendum (26, 27, 28) must be: after its check detail, before the images.
    fn addendum_position(&mut self, s: &mut Sink) -> Option<&mut ItemState> {
        match self.item.as_mut() {
            None => {
                s.record_error("an addendum outside an item (no check detail before it)");
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
            s.problems.push(Problem::new(
                Severity::Error,
                item.number,
                "25",
                Some("Check Detail Record Addendum Count"),
                format!("is {} but {} addendum records (types 26, 27, 28) follow", item.declared_addenda, item.addenda),
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

fn same(s: &mut Sink, field: &'static str, ours: &str, theirs: &str, whose: &str) {
    if ours.trim_end() != theirs.trim_end() {
        s.error(field, format!("\"{ours}\" differs from the {whose} \"{theirs}\""));
    }
}

fn count(s: &mut Sink, field: &'static str, stated: u64, actual: u64, what: &str) {
    if stated != actual {
        s.error(field, format!("is {stated} but there are {actual} ({what})"));
    }
}
