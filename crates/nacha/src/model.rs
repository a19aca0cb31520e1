//! The file as a tree: a header, batches of entries, and the controls that summarise them.
//! The order of records in the file is the order of this tree, so line numbers can be worked
//! out from it (the validator does).

use crate::records::{Addenda, BatchControl, BatchHeader, EntryDetail, FileControl, FileHeader, ReturnOrNoc};

/// Entry hashes keep the last ten digits of the sum.
pub(crate) const ENTRY_HASH_MODULUS: u64 = 10_000_000_000;

/// Records per block; files are padded with lines of nines to a whole number of blocks.
pub const BLOCKING_FACTOR: usize = 10;

/// A NACHA file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AchFile {
    /// Record type 1.
    pub header: FileHeader,
    /// The batches, in file order.
    pub batches: Vec<Batch>,
    /// Record type 9.
    pub control: FileControl,
}

/// A batch: entries of one originator, SEC code and effective date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// Record type 5.
    pub header: BatchHeader,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    /// Record type 8.
    pub control: BatchControl,
}

/// An entry detail and the addenda records that follow it (CCD and PPD allow at most one; a
/// list so that a file breaking that rule can still be shown as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Record type 6.
    pub detail: EntryDetail,
    /// Record type 7 records of addenda type 05.
    pub addenda: Vec<Addenda>,
    /// Record type 7 records of addenda type 99 or 98: a return entry or notification of
    /// change carries one (a list, like `addenda`, to show a file breaking that rule).
    pub return_or_noc: Vec<ReturnOrNoc>,
}

impl Entry {
    /// Addenda records of every type after the entry detail.
    pub fn addenda_count(&self) -> usize {
        self.addenda.len() + self.return_or_noc.len()
    }
}

impl Batch {
    /// Entry detail and addenda records, as the batch control should count them.
    pub fn entry_addenda_count(&self) -> u64 {
        self.entries.iter().map(|e| 1 + e.addenda_count() as u64).sum()
    }

    /// The sum of the entries' receiving DFI identifications, last ten digits.
    pub fn entry_hash(&self) -> u64 {
        entry_hash(self.entries.iter())
    }

    /// Debit amounts in cents (prenotes carry none).
    pub fn total_debit(&self) -> u64 {
        self.entries.iter().filter(|e| e.detail.transaction_code.is_debit()).map(|e| e.detail.amount).sum()
    }

    /// Credit amounts in cents.
    pub fn total_credit(&self) -> u64 {
        self.entries.iter().filter(|e| e.detail.transaction_code.is_credit()).map(|e| e.detail.amount).sum()
    }

    /// Lines the batch takes: header, entries, addenda, control.
    pub fn record_count(&self) -> usize {
        2 + self.entries.iter().map(|e| 1 + e.addenda_count()).sum::<usize>()
    }
}

impl AchFile {
    /// Entry detail and addenda records in the file.
    pub fn entry_addenda_count(&self) -> u64 {
        self.batches.iter().map(Batch::entry_addenda_count).sum()
    }

    /// The sum of all entries' receiving DFI identifications, last ten digits (equal to the
    /// sum of the batches' entry hashes, last ten digits).
    pub fn entry_hash(&self) -> u64 {
        entry_hash(self.batches.iter().flat_map(|b| b.entries.iter()))
    }

    /// Debit amounts in cents.
    pub fn total_debit(&self) -> u64 {
        self.batches.iter().map(Batch::total_debit).sum()
    }

    /// Credit amounts in cents.
    pub fn total_credit(&self) -> u64 {
        self.batches.iter().map(Batch::total_credit).sum()
    }

    /// Lines before padding: file header, batches, file control.
    pub fn record_count(&self) -> usize {
        2 + self.batches.iter().map(Batch::record_count).sum::<usize>()
    }

    /// Blocks of ten lines once padded.
    pub fn block_count(&self) -> u64 {
        self.record_count().div_ceil(BLOCKING_FACTOR) as u64
    }

    /// Every entry with the batch it is in, in file order (what the portal lists).
    pub fn entries(&self) -> impl Iterator<Item = (&Batch, &Entry)> {
        self.batches.iter().flat_map(|batch| batch.entries.iter().map(move |entry| (batch, entry)))
    }

    /// Every return and notification of change with its entry, in file order: what to match
    /// to the entries originated (by [`ReturnOrNoc::original_entry_trace`]).
    pub fn returns(&self) -> impl Iterator<Item = (&Entry, &ReturnOrNoc)> {
        self.entries().flat_map(|(_, entry)| entry.return_or_noc.iter().map(move |r| (entry, r)))
    }
}

fn entry_hash<'a>(entries: impl Iterator<Item = &'a Entry>) -> u64 {
    // Each identification is below 10^8, so summing modulo 10^10 as we go cannot overflow.
    entries.fold(0, |sum, e| (sum + u64::from(e.detail.receiving_dfi)) % ENTRY_HASH_MODULUS)
}
