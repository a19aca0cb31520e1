//! What can go wrong: problems found while reading (collected, many per file), and the single
//! error that stops the builder or the writer.

use std::fmt;

use crate::record_type::RecordType;

/// What sort of problem a [`Problem`] is, so callers can group or filter without parsing the
/// message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// A line is not 94 characters long. Fatal: the reader stops here.
    LineLength,
    /// An unknown record type, or a record where the file's structure does not allow one
    /// (an entry outside a batch, a missing batch or file control). Fatal: the reader stops.
    Structure,
    /// A numeric field holds something other than digits.
    NotNumeric,
    /// A character that is not printable ASCII (or lowercase where a code must be uppercase).
    Character,
    /// A required field is blank.
    Missing,
    /// A coded value outside its allowed set (record size, SEC code, transaction code, …).
    InvalidCode,
    /// A date (YYMMDD) or time (HHMM) that does not exist.
    InvalidDate,
    /// An ABA routing number whose check digit is wrong.
    CheckDigit,
    /// A value that disagrees with what it summarises or repeats: counts, entry hash, totals,
    /// a batch control that does not match its header, a trace number of another ODFI.
    Mismatch,
    /// Out of order or duplicated: trace numbers, batch numbers, addenda sequence numbers.
    Sequence,
    /// A well-formed value that the rules do not allow here (a credit in a debits-only batch,
    /// a prenote with an amount, a second addenda on a CCD/PPD entry).
    NotAllowed,
    /// Blocking: the record count is not a multiple of 10, or a padding line is not all nines.
    Blocking,
}

impl ProblemKind {
    /// Whether the reader stopped at this problem (and so returned no file).
    pub fn is_fatal(self) -> bool {
        matches!(self, ProblemKind::LineLength | ProblemKind::Structure)
    }
}

/// One problem in a file being read: where (1-based line, record type, field) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line number (the record number for files without line breaks).
    pub line: usize,
    /// The record the line holds; `None` when its record type code is unknown.
    pub record: Option<RecordType>,
    /// The field, by its NACHA name (e.g. "Check Digit", "Entry Hash").
    pub field: &'static str,
    /// What sort of problem.
    pub kind: ProblemKind,
    /// A sentence for people, quoting the value found (and the one expected where known).
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.record {
            Some(record) => write!(f, "line {} ({record}), {}: {}", self.line, self.field, self.message),
            None => write!(f, "line {}, {}: {}", self.line, self.field, self.message),
        }
    }
}

impl std::error::Error for Problem {}

/// Which part of the builder's input an error is about (indices are 0-based; `Display` shows
/// them 1-based, as people count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// The file header information.
    File,
    /// A batch's header information.
    Batch {
        /// 0-based index of the batch.
        batch: usize,
    },
    /// An entry of a batch.
    Entry {
        /// 0-based index of the batch.
        batch: usize,
        /// 0-based index of the entry within its batch.
        entry: usize,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Location::File => f.write_str("file"),
            Location::Batch { batch } => write!(f, "batch {}", batch + 1),
            Location::Entry { batch, entry } => write!(f, "batch {}, entry {}", batch + 1, entry + 1),
        }
    }
}

/// The builder refused its input: which input, which field, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {field}: {message}")]
pub struct BuildError {
    /// Which part of the input.
    pub location: Location,
    /// The field, by its NACHA name.
    pub field: &'static str,
    /// Why it was refused.
    pub message: String,
}

/// The writer could not lay a value out in its field (too long, too many digits, not printable
/// ASCII). Files from [`FileBuilder`](crate::FileBuilder) and clean reads never cause it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line} ({record}), {field}: {message}")]
pub struct WriteError {
    /// 1-based line the record would have been written on.
    pub line: usize,
    /// The record being written.
    pub record: RecordType,
    /// The field, by its NACHA name.
    pub field: &'static str,
    /// Why it does not fit.
    pub message: String,
}
