//! Record type 9, the file control: what the whole file should add up to.

use crate::field::{FieldError, LineBuf, RecordReader};

/// The file control's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const BATCH_COUNT: Field = Field::new("Batch Count", 2, 6);
    pub(crate) const BLOCK_COUNT: Field = Field::new("Block Count", 8, 6);
    pub(crate) const ENTRY_ADDENDA_COUNT: Field = Field::new("Entry/Addenda Count", 14, 8);
    pub(crate) const ENTRY_HASH: Field = Field::new("Entry Hash", 22, 10);
    pub(crate) const TOTAL_DEBIT: Field = Field::new("Total Debit Entry Dollar Amount in File", 32, 12);
    pub(crate) const TOTAL_CREDIT: Field = Field::new("Total Credit Entry Dollar Amount in File", 44, 12);
    pub(crate) const RESERVED: Field = Field::new("Reserved", 56, 39);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 8] = [
        crate::field::RECORD_TYPE,
        BATCH_COUNT,
        BLOCK_COUNT,
        ENTRY_ADDENDA_COUNT,
        ENTRY_HASH,
        TOTAL_DEBIT,
        TOTAL_CREDIT,
        RESERVED,
    ];
}

use fields::*;

/// Record type 9.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileControl {
    /// Positions 2–7: batches in the file.
    pub batch_count: u32,
    /// Positions 8–13: blocks of ten records, the padding included.
    pub block_count: u32,
    /// Positions 14–21: entry detail and addenda records in the file.
    pub entry_addenda_count: u32,
    /// Positions 22–31: the sum of all entries' receiving DFI identifications, last ten digits.
    pub entry_hash: u64,
    /// Positions 32–43: debit amounts in cents.
    pub total_debit: u64,
    /// Positions 44–55: credit amounts in cents.
    pub total_credit: u64,
}

impl FileControl {
    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('9');
        line.num(BATCH_COUNT, self.batch_count.into())?;
        line.num(BLOCK_COUNT, self.block_count.into())?;
        line.num(ENTRY_ADDENDA_COUNT, self.entry_addenda_count.into())?;
        line.num(ENTRY_HASH, self.entry_hash)?;
        line.num(TOTAL_DEBIT, self.total_debit)?;
        line.num(TOTAL_CREDIT, self.total_credit)?;
        line.text(RESERVED, "")?;
        Ok(line.finish())
    }

    pub(crate) fn read(r: &mut RecordReader<'_>) -> FileControl {
        let control = FileControl {
            batch_count: r.number(BATCH_COUNT) as u32,
            block_count: r.number(BLOCK_COUNT) as u32,
            entry_addenda_count: r.number(ENTRY_ADDENDA_COUNT) as u32,
            entry_hash: r.number(ENTRY_HASH),
            total_debit: r.number(TOTAL_DEBIT),
            total_credit: r.number(TOTAL_CREDIT),
        };
        r.reserved(RESERVED);
        control
    }
}
