//! Record type 1, the file header: who sends the file to whom, and when.

use crate::date::{Date, Time};
use crate::error::ProblemKind;
use crate::field::{FieldError, LineBuf, RecordReader};

/// The file header's layout (NACHA positions, 1-based).
pub(crate) mod fields {
    use crate::field::Field;

    pub(crate) const PRIORITY_CODE: Field = Field::new("Priority Code", 2, 2);
    pub(crate) const IMMEDIATE_DESTINATION: Field = Field::new("Immediate Destination", 4, 10);
    pub(crate) const IMMEDIATE_ORIGIN: Field = Field::new("Immediate Origin", 14, 10);
    pub(crate) const FILE_CREATION_DATE: Field = Field::new("File Creation Date", 24, 6);
    pub(crate) const FILE_CREATION_TIME: Field = Field::new("File Creation Time", 30, 4);
    pub(crate) const FILE_ID_MODIFIER: Field = Field::new("File ID Modifier", 34, 1);
    pub(crate) const RECORD_SIZE: Field = Field::new("Record Size", 35, 3);
    pub(crate) const BLOCKING_FACTOR: Field = Field::new("Blocking Factor", 38, 2);
    pub(crate) const FORMAT_CODE: Field = Field::new("Format Code", 40, 1);
    pub(crate) const IMMEDIATE_DESTINATION_NAME: Field = Field::new("Immediate Destination Name", 41, 23);
    pub(crate) const IMMEDIATE_ORIGIN_NAME: Field = Field::new("Immediate Origin Name", 64, 23);
    pub(crate) const REFERENCE_CODE: Field = Field::new("Reference Code", 87, 8);

    #[cfg(test)]
    pub(crate) const ALL: [Field; 13] = [
        crate::field::RECORD_TYPE,
        PRIORITY_CODE,
        IMMEDIATE_DESTINATION,
        IMMEDIATE_ORIGIN,
        FILE_CREATION_DATE,
        FILE_CREATION_TIME,
        FILE_ID_MODIFIER,
        RECORD_SIZE,
        BLOCKING_FACTOR,
        FORMAT_CODE,
        IMMEDIATE_DESTINATION_NAME,
        IMMEDIATE_ORIGIN_NAME,
        REFERENCE_CODE,
    ];
}

use fields::*;

/// Record type 1. The constant fields (priority code 01, record size 094, blocking factor 10,
/// format code 1) are not stored: the writer writes them and the reader checks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHeader {
    /// Positions 4–13, as in the file: normally a blank and the routing number of the bank or
    /// ACH operator receiving the file (" 231380104"); some banks assign a 10-digit number.
    pub immediate_destination: String,
    /// Positions 14–23, as in the file: a blank and the ODFI's routing number, or a 10-digit
    /// number the bank assigned (often "1" and the company's tax ID).
    pub immediate_origin: String,
    /// Positions 24–29.
    pub file_creation_date: Date,
    /// Positions 30–33; optional (blank).
    pub file_creation_time: Option<Time>,
    /// Position 34: A–Z or 0–9, telling apart files created on the same day for the same
    /// destination.
    pub file_id_modifier: char,
    /// Positions 41–63; optional.
    pub immediate_destination_name: String,
    /// Positions 64–86; optional.
    pub immediate_origin_name: String,
    /// Positions 87–94; optional, for the originator's own use.
    pub reference_code: String,
}

impl FileHeader {
    /// The routing number in the immediate destination, when it has the form of one (a blank
    /// and nine digits); its check digit is not verified here.
    pub fn destination_routing(&self) -> Option<&str> {
        routing_in_immediate(&self.immediate_destination)
    }

    /// The routing number in the immediate origin, when it has the form of one.
    pub fn origin_routing(&self) -> Option<&str> {
        routing_in_immediate(&self.immediate_origin)
    }

    pub(crate) fn write(&self) -> Result<String, FieldError> {
        let mut line = LineBuf::new('1');
        line.text(PRIORITY_CODE, "01")?;
        line.text(IMMEDIATE_DESTINATION, &self.immediate_destination)?;
        line.text(IMMEDIATE_ORIGIN, &self.immediate_origin)?;
        line.text(FILE_CREATION_DATE, &self.file_creation_date.to_string())?;
        line.text(FILE_CREATION_TIME, &self.file_creation_time.map(|t| t.to_string()).unwrap_or_default())?;
        line.text(FILE_ID_MODIFIER, self.file_id_modifier.encode_utf8(&mut [0; 4]))?;
        line.text(RECORD_SIZE, "094")?;
        line.text(BLOCKING_FACTOR, "10")?;
        line.text(FORMAT_CODE, "1")?;
        line.text(IMMEDIATE_DESTINATION_NAME, &self.immediate_destination_name)?;
        line.text(IMMEDIATE_ORIGIN_NAME, &self.immediate_origin_name)?;
        line.text(REFERENCE_CODE, &self.reference_code)?;
        Ok(line.finish())
    }

    pub(crate) fn read(r: &mut RecordReader<'_>) -> FileHeader {
        r.constant(PRIORITY_CODE, "01");
        let immediate_destination = immediate(r, IMMEDIATE_DESTINATION);
        let immediate_origin = immediate(r, IMMEDIATE_ORIGIN);
        let file_creation_date = r.date(FILE_CREATION_DATE);
        let file_creation_time = r.time(FILE_CREATION_TIME);
        let file_id_modifier = r.raw(FILE_ID_MODIFIER).chars().next().unwrap_or(' ');
        if !(file_id_modifier.is_ascii_uppercase() || file_id_modifier.is_ascii_digit()) {
            r.report(
                FILE_ID_MODIFIER,
                ProblemKind::InvalidCode,
                format!("must be an uppercase letter or a digit, found {file_id_modifier:?}"),
            );
        }
        r.constant(RECORD_SIZE, "094");
        r.constant(BLOCKING_FACTOR, "10");
        r.constant(FORMAT_CODE, "1");
        FileHeader {
            immediate_destination,
            immediate_origin,
            file_creation_date,
            file_creation_time,
            file_id_modifier,
            immediate_destination_name: r.text(IMMEDIATE_DESTINATION_NAME),
            immediate_origin_name: r.text(IMMEDIATE_ORIGIN_NAME),
            reference_code: r.text(REFERENCE_CODE),
        }
    }
}

/// The nine digits of "bTTTTAAAAC", the routing-number form of the immediate fields.
pub(crate) fn routing_in_immediate(field: &str) -> Option<&str> {
    let digits = field.strip_prefix(' ')?;
    (digits.len() == 9 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// Immediate destination or origin: a blank and nine digits, or ten digits. Kept as in the
/// file (trailing blanks aside) so that writing it back reproduces the field.
fn immediate(r: &mut RecordReader<'_>, f: crate::field::Field) -> String {
    let raw = r.raw(f);
    let ten_digits = raw.bytes().all(|b| b.is_ascii_digit());
    if routing_in_immediate(raw).is_none() && !ten_digits {
        r.fail(
            f,
            ProblemKind::NotNumeric,
            format!("must be a blank and a 9-digit routing number, or 10 digits; found {raw:?}"),
        );
    }
    raw.trim_end().to_string()
}
