//! Checks that need more than one field: routing check digits, the controls (counts, entry
//! hash, totals, block count) against what they summarise, batch controls against their
//! headers, trace and batch number order, addenda consistency, and what a batch's service
//! class or a prenote allows.
//!
//! Single-field syntax (digits, printable characters, codes, dates) is the reader's job, since
//! the model's types cannot hold a malformed value; so [`validate`] on a model someone built
//! by hand covers everything but syntax, and the writer refuses what does not fit.
//!
//! Line numbers are worked out from the model: its order is the file's.

use std::collections::HashMap;

use crate::aba::check_digit;
use crate::error::{Problem, ProblemKind};
use crate::field::{Field, Unreliable, ENTRIES};
use crate::model::{AchFile, Batch, Entry};
use crate::records::{
    addenda_fields as ad, batch_control_fields as bc, batch_header_fields as bh, entry_fields as ed,
    file_control_fields as fc, file_header_fields as fh, return_addenda_fields as ra, FileHeader, RecordType,
    ReturnOrNoc, TraceNumber,
};

/// Checks a file model (see the module notes for what is and is not covered). The reader runs
/// these checks itself; this is for a model made or changed in code.
///
/// ```
/// # use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
/// # let date = Date::from_ymd(2025, 10, 16).unwrap();
/// # let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date));
/// # let entry = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 12_500, "ACME SUPPLIES");
/// # builder.batch(BatchInfo::new(Sec::Ccd, "MONEYDESK", "1234567890", "DEPOSIT", date, "121042882"), vec![entry]);
/// # let mut file = builder.build().unwrap();
/// assert!(moneydesk_nacha::validate(&file).is_empty());
/// file.control.total_debit += 1;
/// let problems = moneydesk_nacha::validate(&file);
/// assert_eq!(problems[0].field, "Total Debit Entry Dollar Amount in File");
/// ```
pub fn validate(file: &AchFile) -> Vec<Problem> {
    let mut problems = Vec::new();
    check(file, &Unreliable::default(), &mut problems);
    problems.sort_by_key(|p| p.line);
    problems
}

/// The checks, skipping those that depend on a field the reader could not read.
pub(crate) fn check(file: &AchFile, unreliable: &Unreliable, problems: &mut Vec<Problem>) {
    let mut c = Checker { unreliable, problems, traces: HashMap::new() };
    c.file_header(&file.header);
    let mut line = 2;
    let mut previous_batch_number = None;
    let mut file_hash_ok = true;
    let mut file_totals_ok = true;
    for batch in &file.batches {
        let sums = c.batch(batch, line, &mut previous_batch_number);
        file_hash_ok &= sums.hash_ok;
        file_totals_ok &= sums.totals_ok;
        line += batch.record_count();
    }
    c.file_control(file, line, file_hash_ok, file_totals_ok);
}

struct Checker<'a> {
    unreliable: &'a Unreliable,
    problems: &'a mut Vec<Problem>,
    /// Trace numbers seen so far and their lines: unique within the file.
    traces: HashMap<TraceNumber, usize>,
}

/// Whether a batch's computed hash and totals can be trusted (all their inputs were read).
struct Sums {
    hash_ok: bool,
    totals_ok: bool,
}

impl Checker<'_> {
    fn ok(&self, line: usize, field: Field) -> bool {
        !self.unreliable.contains(line, field)
    }

    fn push(&mut self, line: usize, record: RecordType, field: Field, kind: ProblemKind, message: String) {
        self.problems.push(Problem { line, record: Some(record), field: field.name, kind, message });
    }

    /// A control field against the value computed from what it summarises.
    fn compare(&mut self, line: usize, record: RecordType, field: Field, found: u64, expected: u64, what: &str) {
        if found != expected && self.ok(line, field) {
            self.push(line, record, field, ProblemKind::Mismatch, format!("is {found}, but {what} is {expected}"));
        }
    }

    fn file_header(&mut self, header: &FileHeader) {
        for (field, value) in
            [(fh::IMMEDIATE_DESTINATION, header.destination_routing()), (fh::IMMEDIATE_ORIGIN, header.origin_routing())]
        {
            let Some(routing) = value else { continue };
            let dfi: u32 = routing[..8].parse().unwrap_or(0);
            let expected = check_digit(dfi);
            if routing.as_bytes()[8] - b'0' != expected {
                let message = format!("routing number {routing} has a wrong check digit (should be {expected})");
                self.push(1, RecordType::FileHeader, field, ProblemKind::CheckDigit, message);
            }
        }
    }

    fn batch(&mut self, batch: &Batch, header_line: usize, previous_number: &mut Option<u32>) -> Sums {
        let header = &batch.header;
        let number = header.batch_number;
        if let Some(previous) = previous_number.filter(|_| self.ok(header_line, bh::BATCH_NUMBER)) {
            if number <= previous {
                let message = format!("batch numbers must ascend: {number} follows {previous}");
                self.push(header_line, RecordType::BatchHeader, bh::BATCH_NUMBER, ProblemKind::Sequence, message);
            }
        }
        *previous_number = Some(number);
        if batch.entries.is_empty() {
            let message = "a batch must hold at least one entry".to_string();
            self.push(header_line, RecordType::BatchHeader, ENTRIES, ProblemKind::Missing, message);
        }

        let mut sums = Sums { hash_ok: true, totals_ok: true };
        let mut line = header_line + 1;
        let mut previous_trace = None;
        for entry in &batch.entries {
            let d = &entry.detail;
            sums.hash_ok &= self.ok(line, ed::RECEIVING_DFI);
            sums.totals_ok &= self.ok(line, ed::AMOUNT) && self.ok(line, ed::TRANSACTION_CODE);
            self.entry(batch, entry, header_line, line, &mut previous_trace);
            line += 1;
            for (i, addenda) in entry.addenda.iter().enumerate() {
                if i == 1 {
                    let message = "CCD and PPD entries may carry only one addenda record".to_string();
                    self.push(line, RecordType::Addenda, ad::ADDENDA_TYPE_CODE, ProblemKind::NotAllowed, message);
                }
                let expected = i as u64 + 1;
                if u64::from(addenda.sequence_number) != expected && self.ok(line, ad::ADDENDA_SEQUENCE_NUMBER) {
                    let message =
                        format!("is {}, but this is the entry's addenda number {expected}", addenda.sequence_number);
                    self.push(line, RecordType::Addenda, ad::ADDENDA_SEQUENCE_NUMBER, ProblemKind::Sequence, message);
                }
                if self.ok(line - 1 - i, ed::TRACE_NUMBER) {
                    let what = "the sequence number in its entry's trace number";
                    let (found, expected) = (addenda.entry_detail_sequence_number, d.trace_number.sequence);
                    self.compare(
                        line,
                        RecordType::Addenda,
                        ad::ENTRY_DETAIL_SEQUENCE_NUMBER,
                        found.into(),
                        expected.into(),
                        what,
                    );
                }
                line += 1;
            }
            line = self.return_or_noc(entry, line - 1 - entry.addenda.len(), line);
        }
        self.batch_control(batch, header_line, line, &sums);
        sums
    }

    /// The type 99 or 98 addenda of an entry (on line `entry_line`), from `line` on: one, after
    /// a return entry (21, 26, 31, 36), with its entry's trace number. Returns the next line.
    fn return_or_noc(&mut self, entry: &Entry, entry_line: usize, mut line: usize) -> usize {
        let (d, rec) = (&entry.detail, RecordType::Addenda);
        let code_ok = self.ok(entry_line, ed::TRANSACTION_CODE);
        if code_ok && d.transaction_code.is_return() && entry.return_or_noc.is_empty() {
            let message = format!(
                "{} is the code of a return or notification of change, which carries an addenda type 99 or 98",
                d.transaction_code.code()
            );
            self.push(entry_line, RecordType::EntryDetail, ed::TRANSACTION_CODE, ProblemKind::Missing, message);
        }
        for (i, addenda) in entry.return_or_noc.iter().enumerate() {
            if code_ok && !d.transaction_code.is_return() {
                let message = format!(
                    "a return or notification of change addenda after an entry with transaction code {} (returns carry 21, 26, 31 or 36)",
                    d.transaction_code.code()
                );
                self.push(line, rec, ra::ADDENDA_TYPE_CODE, ProblemKind::NotAllowed, message);
            } else if i > 0 || !entry.addenda.is_empty() {
                let message = "a return or notification of change carries exactly one addenda record".to_string();
                self.push(line, rec, ra::ADDENDA_TYPE_CODE, ProblemKind::NotAllowed, message);
            }
            if matches!(addenda, ReturnOrNoc::Noc(_)) && d.amount != 0 && self.ok(entry_line, ed::AMOUNT) {
                let message = format!("is {}, but a notification of change carries a zero amount", d.amount);
                self.push(entry_line, RecordType::EntryDetail, ed::AMOUNT, ProblemKind::NotAllowed, message);
            }
            let trace = addenda.trace_number();
            if trace != d.trace_number && self.ok(entry_line, ed::TRACE_NUMBER) && self.ok(line, ra::TRACE_NUMBER) {
                let message = format!("is {trace}, but its entry's trace number is {}", d.trace_number);
                self.push(line, rec, ra::TRACE_NUMBER, ProblemKind::Mismatch, message);
            }
            line += 1;
        }
        line
    }

    fn entry(
        &mut self,
        batch: &Batch,
        entry: &Entry,
        header_line: usize,
        line: usize,
        previous_trace: &mut Option<TraceNumber>,
    ) {
        let d = &entry.detail;
        let rec = RecordType::EntryDetail;
        if self.ok(line, ed::RECEIVING_DFI) && self.ok(line, ed::CHECK_DIGIT) {
            let expected = check_digit(d.receiving_dfi);
            if d.check_digit != expected {
                let message = format!(
                    "is {}, but receiving DFI identification {:08} calls for {expected} (routing number {:08}{expected})",
                    d.check_digit, d.receiving_dfi, d.receiving_dfi
                );
                self.push(line, rec, ed::CHECK_DIGIT, ProblemKind::CheckDigit, message);
            }
        }
        let class = batch.header.service_class;
        let class_ok = self.ok(header_line, bh::SERVICE_CLASS_CODE);
        let code = d.transaction_code;
        if self.ok(line, ed::TRANSACTION_CODE) {
            if class_ok && !class.allows(code) {
                let (direction, only) = if code.is_debit() { ("debit", "credits") } else { ("credit", "debits") };
                let message = format!(
                    "a {direction} ({}) in a batch of service class {} ({only} only)",
                    code.code(),
                    class.code()
                );
                self.push(line, rec, ed::TRANSACTION_CODE, ProblemKind::NotAllowed, message);
            }
            if code.is_prenote() && d.amount != 0 && self.ok(line, ed::AMOUNT) {
                let message = format!("is {}, but a prenote ({}) carries a zero amount", d.amount, code.code());
                self.push(line, rec, ed::AMOUNT, ProblemKind::NotAllowed, message);
            }
        }
        if self.ok(line, ed::ADDENDA_RECORD_INDICATOR) && d.addenda_record_indicator == (entry.addenda_count() == 0) {
            let message = if d.addenda_record_indicator {
                "is 1, but no addenda record follows"
            } else {
                "is 0, but an addenda record follows"
            };
            self.push(line, rec, ed::ADDENDA_RECORD_INDICATOR, ProblemKind::Mismatch, message.to_string());
        }
        if self.ok(line, ed::TRACE_NUMBER) {
            self.trace(batch, d.trace_number, header_line, line, previous_trace);
        }
    }

    fn trace(
        &mut self,
        batch: &Batch,
        trace: TraceNumber,
        header_line: usize,
        line: usize,
        previous: &mut Option<TraceNumber>,
    ) {
        let rec = RecordType::EntryDetail;
        let odfi = batch.header.originating_dfi;
        if trace.odfi != odfi && self.ok(header_line, bh::ORIGINATING_DFI) {
            let message = format!("{trace} must start with the batch's originating DFI identification {odfi:08}");
            self.push(line, rec, ed::TRACE_NUMBER, ProblemKind::Mismatch, message);
        }
        if let Some(first) = self.traces.insert(trace, line) {
            let message = format!("{trace} is already used on line {first}; trace numbers are unique in a file");
            self.push(line, rec, ed::TRACE_NUMBER, ProblemKind::Sequence, message);
        } else if let Some(before) = previous.filter(|&before| trace < before) {
            let message = format!("{trace} follows {before}; trace numbers ascend within a batch");
            self.push(line, rec, ed::TRACE_NUMBER, ProblemKind::Sequence, message);
        }
        *previous = Some(trace);
    }

    fn batch_control(&mut self, batch: &Batch, header_line: usize, line: usize, sums: &Sums) {
        let (h, c, rec) = (&batch.header, &batch.control, RecordType::BatchControl);
        let repeated = [
            (
                bh::SERVICE_CLASS_CODE,
                bc::SERVICE_CLASS_CODE,
                h.service_class.code().to_string(),
                c.service_class.code().to_string(),
            ),
            (
                bh::COMPANY_IDENTIFICATION,
                bc::COMPANY_IDENTIFICATION,
                h.company_identification.clone(),
                c.company_identification.clone(),
            ),
            (
                bh::ORIGINATING_DFI,
                bc::ORIGINATING_DFI,
                format!("{:08}", h.originating_dfi),
                format!("{:08}", c.originating_dfi),
            ),
            (bh::BATCH_NUMBER, bc::BATCH_NUMBER, h.batch_number.to_string(), c.batch_number.to_string()),
        ];
        for (header_field, field, in_header, in_control) in repeated {
            if in_header != in_control && self.ok(header_line, header_field) && self.ok(line, field) {
                let message =
                    format!("is {in_control:?}, but the batch header (line {header_line}) says {in_header:?}");
                self.push(line, rec, field, ProblemKind::Mismatch, message);
            }
        }
        let what = "the number of entry detail and addenda records in the batch";
        self.compare(
            line,
            rec,
            bc::ENTRY_ADDENDA_COUNT,
            c.entry_addenda_count.into(),
            batch.entry_addenda_count(),
            what,
        );
        if sums.hash_ok {
            let what = "the sum of the batch's receiving DFI identifications (last ten digits)";
            self.compare(line, rec, bc::ENTRY_HASH, c.entry_hash, batch.entry_hash(), what);
        }
        if sums.totals_ok {
            let what = "the sum of the batch's debit amounts";
            self.compare(line, rec, bc::TOTAL_DEBIT, c.total_debit, batch.total_debit(), what);
            let what = "the sum of the batch's credit amounts";
            self.compare(line, rec, bc::TOTAL_CREDIT, c.total_credit, batch.total_credit(), what);
        }
    }

    fn file_control(&mut self, file: &AchFile, line: usize, hash_ok: bool, totals_ok: bool) {
        let (c, rec) = (&file.control, RecordType::FileControl);
        self.compare(
            line,
            rec,
            fc::BATCH_COUNT,
            c.batch_count.into(),
            file.batches.len() as u64,
            "the number of batches",
        );
        let what = "the number of blocks of ten lines, padding included";
        self.compare(line, rec, fc::BLOCK_COUNT, c.block_count.into(), file.block_count(), what);
        let what = "the number of entry detail and addenda records in the file";
        self.compare(
            line,
            rec,
            fc::ENTRY_ADDENDA_COUNT,
            c.entry_addenda_count.into(),
            file.entry_addenda_count(),
            what,
        );
        if hash_ok {
            let what = "the sum of the file's receiving DFI identifications (last ten digits)";
            self.compare(line, rec, fc::ENTRY_HASH, c.entry_hash, file.entry_hash(), what);
        }
        if totals_ok {
            self.compare(
                line,
                rec,
                fc::TOTAL_DEBIT,
                c.total_debit,
                file.total_debit(),
                "the sum of the file's debit amounts",
            );
            let what = "the sum of the file's credit amounts";
            self.compare(line, rec, fc::TOTAL_CREDIT, c.total_credit, file.total_credit(), what);
        }
    }
}
