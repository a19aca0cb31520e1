//! Record type 7 with addenda type code 05: up to 80 characters of payment information for the
//! entry before it (CCD and PPD allow one per entry).

use crate::error::ProblemKind;
use crate::field::{FieldError, LineBuf, RecordReader};

/// The addenda's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const ADDENDA_TYPE_CODE: Field = Field::new("Addenda Type Code", 2, 2);
    pub(crate) const PAYMENT_RELATED_INFORMATION: Field = Field::new("Payment Related Information", 4, 80);
    pub(crate) const ADDENDA_SEQUENCE_NUMBER: Field = Field::new("Addenda Sequence Number", 84, 4);
    pub(crate) const ENTRY_DETAIL_SEQUENCE_NUMBER: Field = Field::new("Entry Detail Sequence Number", 88, 7);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 5] = [
        crate::field::RECORD_TYPE,
        ADDENDA_TYPE_CODE,
        PAYMENT_RELATED_INFORMATION,
        ADDENDA_SEQUENCE_NUMBER,
        ENTRY_DETAIL_SEQUENCE_NUMBER,
    ];
}

use fields::*;

/// Record type 7, addenda type 05 (the only one CCD and PPD use). The type code is not stored:
/// the writer writes 05 and the reader checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addenda {
    /// Positions 4–83: free text for the receiver (an invoice number, a deposit reference).
    pub payment_related_information: String,
    /// Positions 84–87: 1 for the entry's first addenda, then ascending.
    pub sequence_number: u16,
    /// Positions 88–94: the last seven digits of the entry's trace number (its sequence).
    pub entry_detail_sequence_number: u32,
}

impl Addenda {
    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('7');
        line.text(ADDENDA_TYPE_CODE, "05")?;
        line.text(PAYMENT_RELATED_INFORMATION, &self.payment_related_information)?;
        line.num(ADDENDA_SEQUENCE_NUMBER, self.sequence_number.into())?;
        line.num(ENTRY_DETAIL_SEQUENCE_NUMBER, self.entry_detail_sequence_number.into())?;
        Ok(line.finish())
    }

    pub(crate) fn read(r: &mut RecordReader<'_>) -> Addenda {
        let type_code = r.raw(ADDENDA_TYPE_CODE);
        if type_code != "05" {
            let message = format!("must be \"05\" (CCD and PPD addenda), found {type_code:?}");
            r.report(ADDENDA_TYPE_CODE, ProblemKind::InvalidCode, message);
        }
        Addenda {
            payment_related_information: r.text(PAYMENT_RELATED_INFORMATION),
            sequence_number: r.number(ADDENDA_SEQUENCE_NUMBER) as u16,
            entry_detail_sequence_number: r.number(ENTRY_DETAIL_SEQUENCE_NUMBER) as u32,
        }
    }
}
