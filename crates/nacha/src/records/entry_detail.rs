//! Record type 6, the entry detail: one debit or credit to one account.

use super::{Sec, TraceNumber, TransactionCode};
use crate::error::ProblemKind;
use crate::field::{FieldError, LineBuf, RecordReader};

/// The entry detail's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const TRANSACTION_CODE: Field = Field::new("Transaction Code", 2, 2);
    pub(crate) const RECEIVING_DFI: Field = Field::new("Receiving DFI Identification", 4, 8);
    pub(crate) const CHECK_DIGIT: Field = Field::new("Check Digit", 12, 1);
    pub(crate) const DFI_ACCOUNT_NUMBER: Field = Field::new("DFI Account Number", 13, 17);
    pub(crate) const AMOUNT: Field = Field::new("Amount", 30, 10);
    pub(crate) const INDIVIDUAL_ID: Field = Field::new("Individual Identification Number", 40, 15);
    pub(crate) const INDIVIDUAL_NAME: Field = Field::new("Individual Name", 55, 22);
    pub(crate) const DISCRETIONARY_DATA: Field = Field::new("Discretionary Data", 77, 2);
    pub(crate) const ADDENDA_RECORD_INDICATOR: Field = Field::new("Addenda Record Indicator", 79, 1);
    pub(crate) const TRACE_NUMBER: Field = Field::new("Trace Number", 80, 15);

    // CCD calls the same positions by other names; problems use the batch's names.
    pub(crate) const IDENTIFICATION_NUMBER: Field = Field::new("Identification Number", 40, 15);
    pub(crate) const RECEIVING_COMPANY_NAME: Field = Field::new("Receiving Company Name", 55, 22);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 11] = [
        crate::field::RECORD_TYPE,
        TRANSACTION_CODE,
        RECEIVING_DFI,
        CHECK_DIGIT,
        DFI_ACCOUNT_NUMBER,
        AMOUNT,
        INDIVIDUAL_ID,
        INDIVIDUAL_NAME,
        DISCRETIONARY_DATA,
        ADDENDA_RECORD_INDICATOR,
        TRACE_NUMBER,
    ];
}

use fields::*;

/// Record type 6.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryDetail {
    /// Positions 2–3.
    pub transaction_code: TransactionCode,
    /// Positions 4–11: the first eight digits of the receiver's bank's routing number.
    pub receiving_dfi: u32,
    /// Position 12: the routing number's ninth digit.
    pub check_digit: u8,
    /// Positions 13–29: the receiver's account number, left-justified.
    pub dfi_account_number: String,
    /// Positions 30–39: in cents (at most 9 999 999 999, i.e. $99,999,999.99).
    pub amount: u64,
    /// Positions 40–54: PPD "Individual Identification Number", CCD "Identification Number"
    /// (the originator's reference for the receiver); optional.
    pub individual_id: String,
    /// Positions 55–76: PPD "Individual Name", CCD "Receiving Company Name".
    pub individual_name: String,
    /// Positions 77–78: for the ODFI's use; optional.
    pub discretionary_data: String,
    /// Position 79: whether an addenda record follows.
    pub addenda_record_indicator: bool,
    /// Positions 80–94.
    pub trace_number: TraceNumber,
}

impl EntryDetail {
    /// The receiver's routing number as nine digits (whether or not its check digit is right).
    pub fn routing_number(&self) -> String {
        format!("{:08}{}", self.receiving_dfi, self.check_digit)
    }

    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('6');
        line.num(TRANSACTION_CODE, self.transaction_code.code().into())?;
        line.num(RECEIVING_DFI, self.receiving_dfi.into())?;
        line.num(CHECK_DIGIT, self.check_digit.into())?;
        line.text(DFI_ACCOUNT_NUMBER, &self.dfi_account_number)?;
        line.num(AMOUNT, self.amount)?;
        line.text(INDIVIDUAL_ID, &self.individual_id)?;
        line.text(INDIVIDUAL_NAME, &self.individual_name)?;
        line.text(DISCRETIONARY_DATA, &self.discretionary_data)?;
        line.num(ADDENDA_RECORD_INDICATOR, self.addenda_record_indicator.into())?;
        line.num(TRACE_NUMBER.with_len(8), self.trace_number.odfi.into())?;
        line.num(TRACE_NUMBER.tail(7), self.trace_number.sequence.into())?;
        Ok(line.finish())
    }

    /// `sec` is the batch's: it names the fields in problems.
    pub(crate) fn read(r: &mut RecordReader<'_>, sec: Sec) -> EntryDetail {
        let (id_field, name_field) = names_for(sec);
        let transaction_code = read_transaction_code(r);
        let receiving_dfi = r.number(RECEIVING_DFI) as u32;
        let check_digit = r.number(CHECK_DIGIT) as u8;
        let dfi_account_number = r.required(DFI_ACCOUNT_NUMBER);
        let amount = r.number(AMOUNT);
        let individual_id = r.text(id_field);
        let individual_name = r.required(name_field);
        let discretionary_data = r.text(DISCRETIONARY_DATA);
        let addenda_record_indicator = match r.raw(ADDENDA_RECORD_INDICATOR) {
            "0" => false,
            "1" => true,
            other => {
                let message = format!("must be 0 or 1, found {other:?}");
                r.fail(ADDENDA_RECORD_INDICATOR, ProblemKind::InvalidCode, message);
                false
            }
        };
        let trace = r.number(TRACE_NUMBER);
        EntryDetail {
            transaction_code,
            receiving_dfi,
            check_digit,
            dfi_account_number,
            amount,
            individual_id,
            individual_name,
            discretionary_data,
            addenda_record_indicator,
            trace_number: TraceNumber { odfi: (trace / 10_000_000) as u32, sequence: (trace % 10_000_000) as u32 },
        }
    }
}

/// The names CCD and PPD give positions 40–54 and 55–76.
pub(crate) fn names_for(sec: Sec) -> (crate::field::Field, crate::field::Field) {
    match sec {
        Sec::Ccd | Sec::Cor => (IDENTIFICATION_NUMBER, RECEIVING_COMPANY_NAME),
        Sec::Ppd => (INDIVIDUAL_ID, INDIVIDUAL_NAME),
    }
}

fn read_transaction_code(r: &mut RecordReader<'_>) -> TransactionCode {
    let raw = r.raw(TRANSACTION_CODE);
    let code = raw.parse::<u8>().ok().filter(|_| raw.bytes().all(|b| b.is_ascii_digit()));
    match code.and_then(TransactionCode::from_code) {
        Some(code) => code,
        None => {
            let message = format!("must be one of 21, 22, 23, 26, 27, 28, 31, 32, 33, 36, 37, 38; found {raw:?}");
            r.fail(TRANSACTION_CODE, ProblemKind::InvalidCode, message);
            // A placeholder; checks that depend on the direction skip this entry.
            TransactionCode::CheckingDebit
        }
    }
}
