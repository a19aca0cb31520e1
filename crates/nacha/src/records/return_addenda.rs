//! Record type 7 with addenda type code 99 (a return) or 98 (a notification of change): what
//! the RDFI sends back about an entry it received, naming that entry by its trace number.

use super::{Sec, TraceNumber, TransactionCode};
use crate::codes::{change_code, return_reason};
use crate::error::ProblemKind;
use crate::field::{FieldError, LineBuf, RecordReader};

/// The two layouts (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const ADDENDA_TYPE_CODE: Field = Field::new("Addenda Type Code", 2, 2);
    pub(crate) const RETURN_REASON_CODE: Field = Field::new("Return Reason Code", 4, 3);
    pub(crate) const CHANGE_CODE: Field = Field::new("Change Code", 4, 3);
    pub(crate) const ORIGINAL_TRACE: Field = Field::new("Original Entry Trace Number", 7, 15);
    pub(crate) const DATE_OF_DEATH: Field = Field::new("Date of Death", 22, 6);
    pub(crate) const RESERVED_22: Field = Field::new("Reserved", 22, 6);
    pub(crate) const ORIGINAL_RDFI: Field = Field::new("Original Receiving DFI Identification", 28, 8);
    pub(crate) const ADDENDA_INFORMATION: Field = Field::new("Addenda Information", 36, 44);
    pub(crate) const CORRECTED_DATA: Field = Field::new("Corrected Data", 36, 29);
    pub(crate) const RESERVED_65: Field = Field::new("Reserved", 65, 15);
    pub(crate) const TRACE_NUMBER: Field = Field::new("Trace Number", 80, 15);

    #[cfg(test)]
    pub(crate) const RETURN: [Field; 8] = [
        crate::field::RECORD_TYPE,
        ADDENDA_TYPE_CODE,
        RETURN_REASON_CODE,
        ORIGINAL_TRACE,
        DATE_OF_DEATH,
        ORIGINAL_RDFI,
        ADDENDA_INFORMATION,
        TRACE_NUMBER,
    ];
    #[cfg(test)]
    pub(crate) const CHANGE: [Field; 9] = [
        crate::field::RECORD_TYPE,
        ADDENDA_TYPE_CODE,
        CHANGE_CODE,
        ORIGINAL_TRACE,
        RESERVED_22,
        ORIGINAL_RDFI,
        CORRECTED_DATA,
        RESERVED_65,
        TRACE_NUMBER,
    ];
}

use fields::*;

/// Addenda type 99: the RDFI returns the entry. The return entry itself carries the
/// original's amount and account, with transaction code 21, 26, 31 or 36.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnAddenda {
    /// Positions 4–6: one of [`RETURN_REASON_CODES`](crate::RETURN_REASON_CODES) ("R01").
    pub return_reason_code: String,
    /// Positions 7–21: the trace number of the entry returned (ours, when we originated it).
    pub original_entry_trace: TraceNumber,
    /// Positions 22–27: YYMMDD for R14 and R15, blank otherwise (kept as written).
    pub date_of_death: String,
    /// Positions 28–35: the receiving DFI identification of the entry returned.
    pub original_receiving_dfi: u32,
    /// Positions 36–79: free text from the RDFI.
    pub addenda_information: String,
    /// Positions 80–94: the return entry's own trace number.
    pub trace_number: TraceNumber,
}

/// Addenda type 98: a notification of change (NOC), in a COR batch: the entry was posted,
/// but the originator must correct its data (see [`NocAddenda::correction`]) before the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NocAddenda {
    /// Positions 4–6: one of [`CHANGE_CODES`](crate::CHANGE_CODES) ("C01").
    pub change_code: String,
    /// Positions 7–21: the trace number of the entry to correct.
    pub original_entry_trace: TraceNumber,
    /// Positions 28–35: the receiving DFI identification of the entry to correct.
    pub original_receiving_dfi: u32,
    /// Positions 36–64: the correct value(s), laid out as the change code says.
    pub corrected_data: String,
    /// Positions 80–94: the notification entry's own trace number.
    pub trace_number: TraceNumber,
}

/// The corrected values of a notification of change, as its change code lays them out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Correction {
    /// The correct nine-digit routing number (C02, C03, C07).
    pub routing_number: Option<String>,
    /// The correct DFI account number (C01, C03, C06, C07).
    pub account_number: Option<String>,
    /// The correct transaction code (C05, C06, C07).
    pub transaction_code: Option<TransactionCode>,
    /// The correct individual name or receiving company name (C04).
    pub individual_name: Option<String>,
    /// The correct individual identification number (C09).
    pub individual_id: Option<String>,
}

impl NocAddenda {
    /// The corrected data read per change code: C01 account (1–17); C02 routing (1–9); C03
    /// routing (1–9) then account (13–29); C04 name (1–22); C05 transaction code (1–2); C06
    /// account (1–17) then transaction code (21–22); C07 routing (1–9), account (10–26),
    /// transaction code (27–28); C09 identification number (1–22). Empty for other codes.
    pub fn correction(&self) -> Correction {
        let data = self.corrected_data.as_str();
        let part = |from: usize, len: usize| -> Option<String> {
            let text = data.get(from - 1..(from - 1 + len).min(data.len()))?.trim();
            (!text.is_empty()).then(|| text.to_string())
        };
        let code = |from: usize| part(from, 2).and_then(|c| c.parse().ok()).and_then(TransactionCode::from_code);
        let mut c = Correction::default();
        match self.change_code.as_str() {
            "C01" => c.account_number = part(1, 17),
            "C02" => c.routing_number = part(1, 9),
            "C03" => (c.routing_number, c.account_number) = (part(1, 9), part(13, 17)),
            "C04" => c.individual_name = part(1, 22),
            "C05" => c.transaction_code = code(1),
            "C06" => (c.account_number, c.transaction_code) = (part(1, 17), code(21)),
            "C07" => (c.routing_number, c.account_number, c.transaction_code) = (part(1, 9), part(10, 17), code(27)),
            "C09" => c.individual_id = part(1, 22),
            _ => {}
        }
        c
    }
}

/// The addenda a returned or corrected entry carries: type 99 or type 98.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReturnOrNoc {
    /// Addenda type 99.
    Return(ReturnAddenda),
    /// Addenda type 98.
    Noc(NocAddenda),
}

impl ReturnOrNoc {
    /// The trace number of the entry returned or to correct: what to match it to.
    pub fn original_entry_trace(&self) -> TraceNumber {
        match self {
            ReturnOrNoc::Return(a) => a.original_entry_trace,
            ReturnOrNoc::Noc(a) => a.original_entry_trace,
        }
    }

    /// The addenda's own trace number (its entry's).
    pub fn trace_number(&self) -> TraceNumber {
        match self {
            ReturnOrNoc::Return(a) => a.trace_number,
            ReturnOrNoc::Noc(a) => a.trace_number,
        }
    }

    pub(crate) fn set_trace_number(&mut self, trace: TraceNumber) {
        match self {
            ReturnOrNoc::Return(a) => a.trace_number = trace,
            ReturnOrNoc::Noc(a) => a.trace_number = trace,
        }
    }

    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('7');
        match self {
            ReturnOrNoc::Return(a) => {
                line.text(ADDENDA_TYPE_CODE, "99")?;
                line.text(RETURN_REASON_CODE, &a.return_reason_code)?;
                trace(&mut line, ORIGINAL_TRACE, a.original_entry_trace)?;
                line.text(DATE_OF_DEATH, &a.date_of_death)?;
                line.num(ORIGINAL_RDFI, a.original_receiving_dfi.into())?;
                line.text(ADDENDA_INFORMATION, &a.addenda_information)?;
                trace(&mut line, TRACE_NUMBER, a.trace_number)?;
            }
            ReturnOrNoc::Noc(a) => {
                line.text(ADDENDA_TYPE_CODE, "98")?;
                line.text(CHANGE_CODE, &a.change_code)?;
                trace(&mut line, ORIGINAL_TRACE, a.original_entry_trace)?;
                line.text(RESERVED_22, "")?;
                line.num(ORIGINAL_RDFI, a.original_receiving_dfi.into())?;
                line.text(CORRECTED_DATA, &a.corrected_data)?;
                line.text(RESERVED_65, "")?;
                trace(&mut line, TRACE_NUMBER, a.trace_number)?;
            }
        }
        Ok(line.finish())
    }

    /// Reads a type 98 or 99 (the caller has looked at the addenda type code).
    pub(crate) fn read(r: &mut RecordReader<'_>, sec: Sec) -> ReturnOrNoc {
        if r.raw(ADDENDA_TYPE_CODE) == "98" {
            if sec != Sec::Cor {
                let message =
                    format!("a notification of change (98) in a {} batch; they come in COR batches", sec.code());
                r.report(ADDENDA_TYPE_CODE, ProblemKind::NotAllowed, message);
            }
            let code = r.raw(CHANGE_CODE).to_string();
            if change_code(&code).is_none() {
                r.fail(CHANGE_CODE, ProblemKind::InvalidCode, format!("{code:?} is not a change code (C01 to C14)"));
            }
            let original_entry_trace = read_trace(r, ORIGINAL_TRACE);
            r.reserved(RESERVED_22);
            let original_receiving_dfi = r.number(ORIGINAL_RDFI) as u32;
            let corrected_data = r.required(CORRECTED_DATA);
            r.reserved(RESERVED_65);
            let trace_number = read_trace(r, TRACE_NUMBER);
            return ReturnOrNoc::Noc(NocAddenda {
                change_code: code,
                original_entry_trace,
                original_receiving_dfi,
                corrected_data,
                trace_number,
            });
        }
        if sec == Sec::Cor {
            r.report(ADDENDA_TYPE_CODE, ProblemKind::NotAllowed, "a return (99) in a COR batch".to_string());
        }
        let return_reason_code = r.raw(RETURN_REASON_CODE).to_string();
        if return_reason(&return_reason_code).is_none() {
            let message = format!("{return_reason_code:?} is not a return reason code (R01 to R85)");
            r.fail(RETURN_REASON_CODE, ProblemKind::InvalidCode, message);
        }
        ReturnOrNoc::Return(ReturnAddenda {
            return_reason_code,
            original_entry_trace: read_trace(r, ORIGINAL_TRACE),
            date_of_death: r.text(DATE_OF_DEATH),
            original_receiving_dfi: r.number(ORIGINAL_RDFI) as u32,
            addenda_information: r.text(ADDENDA_INFORMATION),
            trace_number: read_trace(r, TRACE_NUMBER),
        })
    }
}

fn trace(line: &mut LineBuf, f: crate::field::Field, t: TraceNumber) -> Result<(), FieldError> {
    line.num(f.with_len(8), t.odfi.into())?;
    line.num(f.tail(7), t.sequence.into())
}

fn read_trace(r: &mut RecordReader<'_>, f: crate::field::Field) -> TraceNumber {
    let n = r.number(f);
    TraceNumber { odfi: (n / 10_000_000) as u32, sequence: (n % 10_000_000) as u32 }
}
