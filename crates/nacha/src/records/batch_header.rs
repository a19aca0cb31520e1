//! Record type 5, the batch header: the originator, the kind of entries and when they settle.

use super::{read_service_class, Sec, ServiceClass};
use crate::date::Date;
use crate::error::ProblemKind;
use crate::field::{FieldError, LineBuf, RecordReader};

/// The batch header's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const SERVICE_CLASS_CODE: Field = Field::new("Service Class Code", 2, 3);
    pub(crate) const COMPANY_NAME: Field = Field::new("Company Name", 5, 16);
    pub(crate) const COMPANY_DISCRETIONARY_DATA: Field = Field::new("Company Discretionary Data", 21, 20);
    pub(crate) const COMPANY_IDENTIFICATION: Field = Field::new("Company Identification", 41, 10);
    pub(crate) const STANDARD_ENTRY_CLASS: Field = Field::new("Standard Entry Class Code", 51, 3);
    pub(crate) const COMPANY_ENTRY_DESCRIPTION: Field = Field::new("Company Entry Description", 54, 10);
    pub(crate) const COMPANY_DESCRIPTIVE_DATE: Field = Field::new("Company Descriptive Date", 64, 6);
    pub(crate) const EFFECTIVE_ENTRY_DATE: Field = Field::new("Effective Entry Date", 70, 6);
    pub(crate) const SETTLEMENT_DATE: Field = Field::new("Settlement Date", 76, 3);
    pub(crate) const ORIGINATOR_STATUS_CODE: Field = Field::new("Originator Status Code", 79, 1);
    pub(crate) const ORIGINATING_DFI: Field = Field::new("Originating DFI Identification", 80, 8);
    pub(crate) const BATCH_NUMBER: Field = Field::new("Batch Number", 88, 7);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 13] = [
        crate::field::RECORD_TYPE,
        SERVICE_CLASS_CODE,
        COMPANY_NAME,
        COMPANY_DISCRETIONARY_DATA,
        COMPANY_IDENTIFICATION,
        STANDARD_ENTRY_CLASS,
        COMPANY_ENTRY_DESCRIPTION,
        COMPANY_DESCRIPTIVE_DATE,
        EFFECTIVE_ENTRY_DATE,
        SETTLEMENT_DATE,
        ORIGINATOR_STATUS_CODE,
        ORIGINATING_DFI,
        BATCH_NUMBER,
    ];
}

use fields::*;

/// Record type 5.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchHeader {
    /// Positions 2–4.
    pub service_class: ServiceClass,
    /// Positions 5–20: the originator, as the receiver's statement will show it.
    pub company_name: String,
    /// Positions 21–40: for the originator's use; optional.
    pub company_discretionary_data: String,
    /// Positions 41–50: the originator's identifier at the ODFI (often "1" and its tax ID).
    pub company_identification: String,
    /// Positions 51–53.
    pub sec: Sec,
    /// Positions 54–63: shown to the receiver, e.g. "DEPOSIT".
    pub company_entry_description: String,
    /// Positions 64–69: a date for the receiver to read, free-form (e.g. "SEP 25"); optional.
    pub company_descriptive_date: String,
    /// Positions 70–75: the day the originator wants the entries to settle.
    pub effective_entry_date: Date,
    /// Positions 76–78: the settlement day (Julian) that the ACH operator fills in; blank in
    /// files an originator creates.
    pub settlement_date: String,
    /// Position 79: 1 for an ODFI that is not a federal government agency (2 for one, 0 for
    /// an ACH operator).
    pub originator_status_code: u8,
    /// Positions 80–87: the first eight digits of the ODFI's routing number.
    pub originating_dfi: u32,
    /// Positions 88–94: ascending within the file.
    pub batch_number: u32,
}

impl BatchHeader {
    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('5');
        line.num(SERVICE_CLASS_CODE, self.service_class.code().into())?;
        line.text(COMPANY_NAME, &self.company_name)?;
        line.text(COMPANY_DISCRETIONARY_DATA, &self.company_discretionary_data)?;
        line.text(COMPANY_IDENTIFICATION, &self.company_identification)?;
        line.text(STANDARD_ENTRY_CLASS, self.sec.code())?;
        line.text(COMPANY_ENTRY_DESCRIPTION, &self.company_entry_description)?;
        line.text(COMPANY_DESCRIPTIVE_DATE, &self.company_descriptive_date)?;
        line.text(EFFECTIVE_ENTRY_DATE, &self.effective_entry_date.to_string())?;
        line.text(SETTLEMENT_DATE, &self.settlement_date)?;
        line.num(ORIGINATOR_STATUS_CODE, self.originator_status_code.into())?;
        line.num(ORIGINATING_DFI, self.originating_dfi.into())?;
        line.num(BATCH_NUMBER, self.batch_number.into())?;
        Ok(line.finish())
    }

    pub(crate) fn read(r: &mut RecordReader<'_>) -> BatchHeader {
        let service_class = read_service_class(r, SERVICE_CLASS_CODE);
        let company_name = r.required(COMPANY_NAME);
        let company_discretionary_data = r.text(COMPANY_DISCRETIONARY_DATA);
        let company_identification = r.required(COMPANY_IDENTIFICATION);
        let sec_raw = r.raw(STANDARD_ENTRY_CLASS);
        let sec = Sec::from_code(sec_raw).unwrap_or_else(|| {
            let message = format!("must be CCD, PPD or COR (the classes this reader supports), found {sec_raw:?}");
            r.fail(STANDARD_ENTRY_CLASS, ProblemKind::InvalidCode, message);
            Sec::Ccd
        });
        let company_entry_description = r.required(COMPANY_ENTRY_DESCRIPTION);
        let company_descriptive_date = r.text(COMPANY_DESCRIPTIVE_DATE);
        let effective_entry_date = r.date(EFFECTIVE_ENTRY_DATE);
        let settlement_date = r.text(SETTLEMENT_DATE);
        let julian_day = settlement_date.parse::<u16>().ok().filter(|_| settlement_date.len() == 3);
        if !settlement_date.is_empty() && !julian_day.is_some_and(|day| (1..=366).contains(&day)) {
            let message = format!("must be blank or a day of the year 001–366, found {settlement_date:?}");
            r.report(SETTLEMENT_DATE, ProblemKind::InvalidDate, message);
        }
        let status = r.raw(ORIGINATOR_STATUS_CODE);
        let originator_status_code = match status {
            "0" | "1" | "2" => status.parse().unwrap_or(1),
            _ => {
                let message = format!("must be 0, 1 or 2, found {status:?}");
                r.fail(ORIGINATOR_STATUS_CODE, ProblemKind::InvalidCode, message);
                1
            }
        };
        BatchHeader {
            service_class,
            company_name,
            company_discretionary_data,
            company_identification,
            sec,
            company_entry_description,
            company_descriptive_date,
            effective_entry_date,
            settlement_date,
            originator_status_code,
            originating_dfi: r.number(ORIGINATING_DFI) as u32,
            batch_number: r.number(BATCH_NUMBER) as u32,
        }
    }
}
