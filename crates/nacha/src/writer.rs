//! Writing a file: each record laid out at its NACHA positions, then lines of 94 nines up to a
//! multiple of ten records.
//!
//! The writer writes the model as it is, controls included (the [`FileBuilder`] computes
//! them); it refuses only values that cannot be laid out in their field, since writing those
//! would shift every later field. Each record is followed by the line ending, the last one
//! included.
//!
//! [`FileBuilder`]: crate::FileBuilder

use std::io::{self, Write};

use crate::error::WriteError;
use crate::field::{FieldError, RECORD_LEN};
use crate::model::{AchFile, BLOCKING_FACTOR};
use crate::records::RecordType;

/// What ends each line. Banks accept either; `Lf` is the default, CRLF is there for the ones
/// whose systems expect DOS line endings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// "\n"
    #[default]
    Lf,
    /// "\r\n"
    CrLf,
}

impl LineEnding {
    fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// Writes a file with "\n" after every record (see [`write_with`] for CRLF).
///
/// ```
/// # use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
/// # let date = Date::from_ymd(2025, 10, 16).unwrap();
/// # let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date));
/// # let entry = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 12_500, "ACME SUPPLIES");
/// # builder.batch(BatchInfo::new(Sec::Ccd, "MONEYDESK", "1234567890", "DEPOSIT", date, "121042882"), vec![entry]);
/// # let file = builder.build().unwrap();
/// let text = moneydesk_nacha::write(&file).unwrap();
/// assert!(text.lines().all(|line| line.len() == 94));
/// assert_eq!(text.lines().count() % 10, 0);
/// ```
pub fn write(file: &AchFile) -> Result<String, WriteError> {
    write_with(file, LineEnding::Lf)
}

/// Writes a file with the given line ending after every record.
pub fn write_with(file: &AchFile, ending: LineEnding) -> Result<String, WriteError> {
    let lines = lines(file)?;
    let ending = ending.as_str();
    let mut out = String::with_capacity(lines.len() * (RECORD_LEN + ending.len()));
    for line in &lines {
        out.push_str(line);
        out.push_str(ending);
    }
    Ok(out)
}

/// Writes a file to `out` (a [`WriteError`] comes back as an `InvalidInput` I/O error).
///
/// ```
/// # use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
/// # let date = Date::from_ymd(2025, 10, 16).unwrap();
/// # let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date));
/// # let entry = EntryInfo::new(TransactionCode::SavingsDebit, "031300012", "744567899", 12_500, "ACME SUPPLIES");
/// # builder.batch(BatchInfo::new(Sec::Ppd, "MONEYDESK", "1234567890", "DEPOSIT", date, "121042882"), vec![entry]);
/// # let file = builder.build().unwrap();
/// use moneydesk_nacha::LineEnding;
/// let mut bytes = Vec::new();
/// moneydesk_nacha::write_to(&file, LineEnding::CrLf, &mut bytes).unwrap();
/// assert_eq!(&bytes[94..96], b"\r\n");
/// let parsed = moneydesk_nacha::read(bytes.as_slice()).unwrap();
/// assert_eq!(parsed.file, Some(file));
/// ```
pub fn write_to<W: Write>(file: &AchFile, ending: LineEnding, mut out: W) -> io::Result<()> {
    let text = write_with(file, ending).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    out.write_all(text.as_bytes())
}

fn lines(file: &AchFile) -> Result<Vec<String>, WriteError> {
    let mut lines = Vec::with_capacity(file.record_count().next_multiple_of(BLOCKING_FACTOR));
    let mut push = |record: RecordType, line: Result<String, FieldError>| -> Result<(), WriteError> {
        let line =
            line.map_err(|FieldError { field, message }| WriteError { line: lines.len() + 1, record, field, message })?;
        lines.push(line);
        Ok(())
    };
    push(RecordType::FileHeader, file.header.write())?;
    for batch in &file.batches {
        push(RecordType::BatchHeader, batch.header.write())?;
        for entry in &batch.entries {
            push(RecordType::EntryDetail, entry.detail.write())?;
            for addenda in &entry.addenda {
                push(RecordType::Addenda, addenda.write())?;
            }
            for addenda in &entry.return_or_noc {
                push(RecordType::Addenda, addenda.write())?;
            }
        }
        push(RecordType::BatchControl, batch.control.write())?;
    }
    push(RecordType::FileControl, file.control.write())?;
    let padding = "9".repeat(RECORD_LEN);
    while !lines.len().is_multiple_of(BLOCKING_FACTOR) {
        lines.push(padding.clone());
    }
    Ok(lines)
}
