//! The kinds of record: below both the errors and the records, which name them.

use std::fmt;

/// The kinds of 94-character line in a NACHA file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordType {
    /// Type 1: who sends the file to whom, and when.
    FileHeader,
    /// Type 5: the originator, SEC code and effective date of a batch.
    BatchHeader,
    /// Type 6: one debit or credit.
    EntryDetail,
    /// Type 7: extra payment information for the entry before it.
    Addenda,
    /// Type 8: the batch's counts, entry hash and totals.
    BatchControl,
    /// Type 9: the file's counts, entry hash and totals.
    FileControl,
    /// Lines of 94 nines filling the last block of ten records.
    Padding,
}

impl RecordType {
    /// The record type code in position 1.
    pub fn code(self) -> char {
        match self {
            RecordType::FileHeader => '1',
            RecordType::BatchHeader => '5',
            RecordType::EntryDetail => '6',
            RecordType::Addenda => '7',
            RecordType::BatchControl => '8',
            RecordType::FileControl | RecordType::Padding => '9',
        }
    }

    /// A name for people.
    pub fn name(self) -> &'static str {
        match self {
            RecordType::FileHeader => "file header",
            RecordType::BatchHeader => "batch header",
            RecordType::EntryDetail => "entry detail",
            RecordType::Addenda => "addenda",
            RecordType::BatchControl => "batch control",
            RecordType::FileControl => "file control",
            RecordType::Padding => "padding",
        }
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
