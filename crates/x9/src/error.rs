//! Errors (the operation could not go on) and problems (something in the file is wrong, and
//! reading went on so that a viewer can show every one of them).

use std::fmt;

/// The 1-based position of a record in the file (the file header is record 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct RecordNumber(pub u64);

impl fmt::Display for RecordNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {}", self.0)
    }
}

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing, not a violation: a record type this crate keeps raw, a non-blank
    /// reserved field.
    Note,
    /// The file violates the standard (a bad code, count, total, check digit, layout...).
    Error,
}

/// One thing wrong with a file (or with what was given to the [`Writer`](crate::Writer)),
/// located by record number, record type and field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    /// The record the problem is in. For a problem found at the end of the file (a missing
    /// control record), the number the next record would have had.
    pub record: RecordNumber,
    /// The record type as it is in the file ("25"); empty when there is no record.
    pub record_type: String,
    /// The field's name as the standard spells it; `None` when the problem is the record
    /// itself (out of place, wrong length...).
    pub field: Option<&'static str>,
    pub message: String,
}

impl Problem {
    pub(crate) fn new(
        severity: Severity,
        record: RecordNumber,
        record_type: &str,
        field: Option<&'static str>,
        message: impl Into<String>,
    ) -> Self {
        Problem { severity, record, record_type: record_type.to_owned(), field, message: message.into() }
    }

    /// True for [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Note => "note",
            Severity::Error => "error",
        };
        write!(f, "{level}: {}", self.record)?;
        if !self.record_type.is_empty() {
            let name = crate::record_type::type_name(&self.record_type);
            write!(f, " (type {} {name})", self.record_type)?;
        }
        if let Some(field) = self.field {
            write!(f, ", field \"{field}\"")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Why reading or writing stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// The file cannot be framed any further (a truncated length prefix or record, an
    /// impossible record length, a first record that is not a file header in ASCII or EBCDIC).
    #[error("{record}: {message}")]
    Structure { record: RecordNumber, message: String },
    /// The writer refused a record: nothing of it was written, and the writer can go on.
    #[error("invalid input: {}", list(.0))]
    Invalid(Vec<Problem>),
    /// A writer method called out of order (an item with no bundle open...). Nothing was
    /// written.
    #[error("{0}")]
    Order(String),
    /// An earlier write failed part-way; the output is incomplete and the writer unusable.
    #[error("the writer failed earlier and its output is incomplete")]
    Poisoned,
}

fn list(problems: &[Problem]) -> String {
    problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ")
}

impl Error {
    /// The problems of an [`Error::Invalid`]; empty for the other kinds.
    pub fn problems(&self) -> &[Problem] {
        match self {
            Error::Invalid(p) => p,
            _ => &[],
        }
    }
}
