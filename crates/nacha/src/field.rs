//! Fixed-width fields. Each record module lists its fields once (NACHA's 1-based start
//! position and width) and both the writer and the reader use that list, so the two cannot
//! disagree about where a field sits.
//!
//! Justification follows the NACHA rules: numeric fields are right-justified and zero-filled,
//! alphanumeric fields left-justified and space-filled.

use std::collections::HashSet;

use crate::date::{Date, Time};
use crate::error::{Problem, ProblemKind};
use crate::record_type::RecordType;

/// Every NACHA record is 94 characters.
pub(crate) const RECORD_LEN: usize = 94;

/// Where a field sits in its record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field {
    /// NACHA's name for it, as shown in problems.
    pub(crate) name: &'static str,
    /// 1-based position of its first character, as in the NACHA record layouts.
    pub(crate) start: usize,
    pub(crate) len: usize,
}

impl Field {
    pub(crate) const fn new(name: &'static str, start: usize, len: usize) -> Field {
        Field { name, start, len }
    }

    /// The first `len` characters: for fields written in parts (a trace number is the ODFI's
    /// eight digits and a seven-digit sequence number).
    pub(crate) const fn with_len(self, len: usize) -> Field {
        Field { len, ..self }
    }

    /// The last `len` characters.
    pub(crate) const fn tail(self, len: usize) -> Field {
        Field { start: self.start + self.len - len, len, ..self }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start - 1..self.start - 1 + self.len
    }
}

/// The record type code, position 1 of every record.
pub(crate) const RECORD_TYPE: Field = Field::new("Record Type Code", 1, 1);

/// Not a field: the entries of a batch, named in "a batch must hold at least one entry".
pub(crate) const ENTRIES: Field = Field::new("Entries", 1, 0);

/// Printable ASCII: what NACHA allows in alphanumeric fields.
pub(crate) fn is_printable(c: char) -> bool {
    (' '..='~').contains(&c)
}

/// A value that did not fit its field while writing (the writer adds line and record).
#[derive(Debug)]
pub(crate) struct FieldError {
    pub(crate) field: &'static str,
    pub(crate) message: String,
}

/// One record being written, field by field in order.
pub(crate) struct LineBuf(String);

impl LineBuf {
    pub(crate) fn new(record_type: char) -> LineBuf {
        let mut s = String::with_capacity(RECORD_LEN);
        s.push(record_type);
        LineBuf(s)
    }

    /// Fields must be written in layout order with nothing skipped; a slip here would shift
    /// every later field, so it is asserted in debug builds (and the tests check positions).
    fn at(&self, f: Field) {
        debug_assert_eq!(self.0.len(), f.start - 1, "{} starts at position {}", f.name, f.start);
    }

    /// Right-justified, zero-filled.
    pub(crate) fn num(&mut self, f: Field, value: u64) -> Result<(), FieldError> {
        self.at(f);
        let digits = value.to_string();
        if digits.len() > f.len {
            return Err(FieldError { field: f.name, message: format!("{value} has more than {} digits", f.len) });
        }
        self.0.extend(std::iter::repeat_n('0', f.len - digits.len()));
        self.0.push_str(&digits);
        Ok(())
    }

    /// Left-justified, space-filled. Only printable ASCII: anything else would either change
    /// the record's length in bytes or break it across lines.
    pub(crate) fn text(&mut self, f: Field, value: &str) -> Result<(), FieldError> {
        self.at(f);
        if let Some(c) = value.chars().find(|&c| !is_printable(c)) {
            return Err(FieldError { field: f.name, message: format!("{c:?} is not printable ASCII") });
        }
        if value.len() > f.len {
            return Err(FieldError {
                field: f.name,
                message: format!("{value:?} is longer than {} characters", f.len),
            });
        }
        self.0.push_str(value);
        self.0.extend(std::iter::repeat_n(' ', f.len - value.len()));
        Ok(())
    }

    pub(crate) fn finish(self) -> String {
        debug_assert_eq!(self.0.len(), RECORD_LEN);
        self.0
    }
}

/// Fields the reader could not read and replaced by a placeholder (0, blank, a default code).
/// Cross-record checks that depend on them are skipped, so one bad amount is reported once
/// rather than again as a wrong batch total and a wrong file total.
#[derive(Debug, Default)]
pub(crate) struct Unreliable(HashSet<(usize, &'static str)>);

impl Unreliable {
    pub(crate) fn contains(&self, line: usize, f: Field) -> bool {
        self.0.contains(&(line, f.name))
    }
}

/// Reads the fields of one 94-character, ASCII-only line, reporting each bad field.
pub(crate) struct RecordReader<'a> {
    line: &'a str,
    pub(crate) lineno: usize,
    record: RecordType,
    problems: &'a mut Vec<Problem>,
    unreliable: &'a mut Unreliable,
}

impl<'a> RecordReader<'a> {
    /// `line` must be 94 ASCII characters (the reader replaces anything else by a control
    /// character beforehand, so slicing by byte is safe and the field check reports it).
    pub(crate) fn new(
        line: &'a str,
        lineno: usize,
        record: RecordType,
        problems: &'a mut Vec<Problem>,
        unreliable: &'a mut Unreliable,
    ) -> RecordReader<'a> {
        debug_assert!(line.len() == RECORD_LEN && line.is_ascii());
        RecordReader { line, lineno, record, problems, unreliable }
    }

    pub(crate) fn raw(&self, f: Field) -> &'a str {
        &self.line[f.range()]
    }

    pub(crate) fn report(&mut self, f: Field, kind: ProblemKind, message: String) {
        self.problems.push(Problem { line: self.lineno, record: Some(self.record), field: f.name, kind, message });
    }

    /// Reports a field whose value could not be taken, so the model holds a placeholder.
    pub(crate) fn fail(&mut self, f: Field, kind: ProblemKind, message: String) {
        self.report(f, kind, message);
        self.unreliable.0.insert((self.lineno, f.name));
    }

    /// All digits; otherwise a problem and 0. (No field is wider than 15 digits, so u64 holds it.)
    pub(crate) fn number(&mut self, f: Field) -> u64 {
        let raw = self.raw(f);
        if raw.bytes().all(|b| b.is_ascii_digit()) {
            raw.parse().unwrap_or(0)
        } else {
            self.fail(f, ProblemKind::NotNumeric, format!("must be {} digits, found {raw:?}", f.len));
            0
        }
    }

    /// Alphanumeric: printable ASCII, trailing spaces dropped (they are the fill). Leading
    /// spaces are kept so writing the value back reproduces the field.
    pub(crate) fn text(&mut self, f: Field) -> String {
        let raw = self.raw(f);
        if let Some((i, c)) = raw.char_indices().find(|&(_, c)| !is_printable(c)) {
            self.fail(
                f,
                ProblemKind::Character,
                format!("character at position {} is not printable ASCII ({c:?})", f.start + i),
            );
        }
        raw.trim_end().to_string()
    }

    /// Like `text`, and the field must not be blank.
    pub(crate) fn required(&mut self, f: Field) -> String {
        let text = self.text(f);
        if text.trim().is_empty() {
            self.fail(f, ProblemKind::Missing, "is required but blank".to_string());
        }
        text
    }

    /// A field with one allowed value (priority code, record size, …).
    pub(crate) fn constant(&mut self, f: Field, expected: &str) {
        let raw = self.raw(f);
        if raw != expected {
            self.report(f, ProblemKind::InvalidCode, format!("must be {expected:?}, found {raw:?}"));
        }
    }

    /// A reserved field: blank.
    pub(crate) fn reserved(&mut self, f: Field) {
        let raw = self.raw(f);
        if raw.bytes().any(|b| b != b' ') {
            self.report(f, ProblemKind::NotAllowed, format!("is reserved and must be blank, found {raw:?}"));
        }
    }

    pub(crate) fn date(&mut self, f: Field) -> Date {
        let raw = self.raw(f);
        match Date::parse(raw) {
            Ok(date) => date,
            Err(_) => {
                self.fail(f, ProblemKind::InvalidDate, format!("must be a date as YYMMDD, found {raw:?}"));
                Date::PLACEHOLDER
            }
        }
    }

    /// HHMM, or blank for none.
    pub(crate) fn time(&mut self, f: Field) -> Option<Time> {
        let raw = self.raw(f);
        if raw.trim().is_empty() {
            return None;
        }
        match Time::parse(raw) {
            Ok(time) => Some(time),
            Err(_) => {
                self.fail(f, ProblemKind::InvalidDate, format!("must be a time as HHMM or blank, found {raw:?}"));
                None
            }
        }
    }
}
