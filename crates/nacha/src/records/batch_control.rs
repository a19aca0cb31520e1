//! Record type 8, the batch control: what the batch should add up to, repeated from its header
//! so a receiver can check that nothing was lost or changed.

use super::{read_service_class, ServiceClass};
use crate::field::{FieldError, LineBuf, RecordReader};

/// The batch control's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const SERVICE_CLASS_CODE: Field = Field::new("Service Class Code", 2, 3);
    pub(crate) const ENTRY_ADDENDA_COUNT: Field = Field::new("Entry/Addenda Count", 5, 6);
    pub(crate) const ENTRY_HASH: Field = Field::new("Entry Hash", 11, 10);
    pub(crate) const TOTAL_DEBIT: Field = Field::new("Total Debit Entry Dollar Amount", 21, 12);
    pub(crate) const TOTAL_CREDIT: Field = Field::new("Total Credit Entry Dollar Amount", 33, 12);
    pub(crate) const COMPANY_IDENTIFICATION: Field = Field::new("Company Identification", 45, 10);
    pub(crate) const MESSAGE_AUTHENTICATION_CODE: Field = Field::new("Message Authentication Code", 55, 19);
    pub(crate) const RESERVED: Field = Field::new("Reserved", 74, 6);
    pub(crate) const ORIGINATING_DFI: Field = Field::new("Originating DFI Identification", 80, 8);
    pub(crate) const BATCH_NUMBER: Field = Field::new("Batch Number", 88, 7);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 11] = [
        crate::field::RECORD_TYPE,
        SERVICE_CLASS_CODE,
        ENTRY_ADDENDA_COUNT,
        ENTRY_HASH,
        TOTAL_DEBIT,
        TOTAL_CREDIT,
        COMPANY_IDENTIFICATION,
        MESSAGE_AUTHENTICATION_CODE,
        RESERVED,
        ORIGINATING_DFI,
        BATCH_NUMBER,
    ];
}

use fields::*;

/// Record type 8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchControl {
    /// Positions 2–4: as in the batch header.
    pub service_class: ServiceClass,
    /// Positions 5–10: entry detail and addenda records in the batch.
    pub entry_addenda_count: u32,
    /// Positions 11–20: the sum of the entries' receiving DFI identifications, last ten digits.
    pub entry_hash: u64,
    /// Positions 21–32: debit amounts in cents.
    pub total_debit: u64,
    /// Positions 33–44: credit amounts in cents.
    pub total_credit: u64,
    /// Positions 45–54: as in the batch header.
    pub company_identification: String,
    /// Positions 55–73: optional.
    pub message_authentication_code: String,
    /// Positions 80–87: as in the batch header.
    pub originating_dfi: u32,
    /// Positions 88–94: as in the batch header.
    pub batch_number: u32,
}

impl BatchControl {
    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('8');
        line.num(SERVICE_CLASS_CODE, self.service_class.code().into())?;
        line.num(ENTRY_ADDENDA_COUNT, self.entry_addenda_count.into())?;
        line.num(ENTRY_HASH, self.entry_hash)?;
        line.num(TOTAL_DEBIT, self.total_debit)?;
        line.num(TOTAL_CREDIT, self.total_credit)?;
        line.text(COMPANY_IDENTIFICATION, &self.company_identification)?;
        line.text(MESSAGE_AUTHENTICATION_CODE, &self.message_authentication_code)?;
        line.text(RESERVED, "")?;
        line.num(ORIGINATING_DFI, self.originating_dfi.into())?;
        line.num(BATCH_NUMBER, self.batch_number.into())?;
        Ok(line.finish())
    }

    pub(crate) fn read(r: &mut RecordReader<'_>) -> BatchControl {
        let service_class = read_service_class(r, SERVICE_CLASS_CODE);
        let entry_addenda_count = r.number(ENTRY_ADDENDA_COUNT) as u32;
        let entry_hash = r.number(ENTRY_HASH);
        let total_debit = r.number(TOTAL_DEBIT);
        let total_credit = r.number(TOTAL_CREDIT);
        let company_identification = r.text(COMPANY_IDENTIFICATION);
        let message_authentication_code = r.text(MESSAGE_AUTHENTICATION_CODE);
        r.reserved(RESERVED);
        BatchControl {
            service_class,
            entry_addenda_count,
            entry_hash,
            total_debit,
            total_credit,
            company_identification,
            message_authentication_code,
            originating_dfi: r.number(ORIGINATING_DFI) as u32,
            batch_number: r.number(BATCH_NUMBER) as u32,
        }
    }
}
