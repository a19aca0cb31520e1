//! Fixed-width fields: decoding them from a record, encoding them into one, and the checks of
//! their content that the reader and the writer share (so that what the writer refuses is
//! exactly what the reader reports).
//!
//! Justification and fill follow the standard: numeric fields are right-justified and
//! zero-filled, alphabetic and alphanumeric fields left-justified and blank-filled, MICR
//! fields (on-us, auxiliary on-us) right-justified and blank-filled, and an unused
//! conditional field is all blanks.

use crate::error::{Problem, RecordNumber, Severity};

mod checks;

pub use checks::{aba_check_digit, is_allowed_char, is_valid_date, is_valid_routing_number};
pub(crate) use checks::{
    check_digit, code, code2, date, digits, fits, numeric_blank, opt_fits, routing, text, time, Kind,
};

/// Collects the problems of one record, naming its number and type.
pub(crate) struct Sink<'a> {
    pub record: RecordNumber,
    pub record_type: &'a str,
    pub problems: &'a mut Vec<Problem>,
}

impl Sink<'_> {
    /// A sink for the same record, borrowing this one's list.
    pub fn reborrow(&mut self) -> Sink<'_> {
        Sink { record: self.record, record_type: self.record_type, problems: self.problems }
    }

    pub fn error(&mut self, field: &'static str, message: impl Into<String>) {
        self.push(Severity::Error, Some(field), message);
    }

    pub fn record_error(&mut self, message: impl Into<String>) {
        self.push(Severity::Error, None, message);
    }

    pub fn note(&mut self, field: Option<&'static str>, message: impl Into<String>) {
        self.push(Severity::Note, field, message);
    }

    fn push(&mut self, severity: Severity, field: Option<&'static str>, message: impl Into<String>) {
        self.problems.push(Problem::new(severity, self.record, self.record_type, field, message));
    }
}

/// Reads the fields of a record in order. The record's text has been translated to Latin-1
/// and padded with blanks to at least its fixed length, so a short record reads as blanks
/// (its length was reported already).
pub(crate) struct Dec<'a, 's> {
    text: &'a [u8],
    pos: usize,
    pub sink: Sink<'s>,
}

pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == b' ')
}

impl<'a, 's> Dec<'a, 's> {
    /// Starts after the two record type characters.
    pub fn new(text: &'a [u8], sink: Sink<'s>) -> Self {
        Dec { text, pos: 2, sink }
    }

    fn take(&mut self, width: usize) -> &'a [u8] {
        let start = self.pos.min(self.text.len());
        let end = (self.pos + width).min(self.text.len());
        self.pos += width;
        &self.text[start..end]
    }

    /// A mandatory numeric field (count, amount): all digits.
    pub fn num(&mut self, field: &'static str, width: usize) -> u64 {
        let raw = self.take(width);
        match parse_digits(raw) {
            Some(v) if raw.len() == width => v,
            _ => {
                self.sink.error(field, format!("\"{}\" is not a {width}-digit number", latin1(raw)));
                0
            }
        }
    }

    /// A conditional numeric field: all blanks when absent.
    pub fn opt_num(&mut self, field: &'static str, width: usize) -> Option<u64> {
        let raw = self.take(width);
        if is_blank(raw) {
            return None;
        }
        let v = parse_digits(raw);
        if v.is_none() {
            self.sink.error(field, format!("\"{}\" is neither a number nor blank", latin1(raw)));
        }
        v
    }

    /// A left-justified field; the trailing blank fill is dropped.
    pub fn left(&mut self, width: usize) -> String {
        latin1(self.take(width)).trim_end_matches(' ').to_owned()
    }

    /// A right-justified, blank-filled field; the leading fill is dropped.
    pub fn right(&mut self, width: usize) -> String {
        latin1(self.take(width)).trim_start_matches(' ').to_owned()
    }

    /// A field kept as it is (routing numbers, dates, numeric-blank fields): "" when blank,
    /// so that an absent conditional field and a present one differ.
    pub fn exact(&mut self, width: usize) -> String {
        let raw = self.take(width);
        if is_blank(raw) {
            String::new()
        } else {
            latin1(raw)
        }
    }

    pub fn ch(&mut self) -> char {
        self.take(1).first().map_or(' ', |&b| char::from(b))
    }

    /// A reserved field: the standard wants it blank; anything else is only a note.
    pub fn reserved(&mut self, width: usize) {
        let raw = self.take(width);
        if !is_blank(raw) {
            self.sink.note(Some("Reserved"), format!("reserved field holds \"{}\"", latin1(raw)));
        }
    }
}

fn parse_digits(raw: &[u8]) -> Option<u64> {
    if raw.is_empty() || raw.len() > 19 || !raw.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(raw.iter().fold(0u64, |v, &d| v * 10 + u64::from(d - b'0')))
}

/// Writes the fields of a record in order, as Latin-1 text (translated afterwards).
pub(crate) struct Enc<'a> {
    pub buf: &'a mut Vec<u8>,
}

fn latin1_byte(c: char) -> u8 {
    // The checks refuse anything else before a record is encoded.
    u8::try_from(u32::from(c)).unwrap_or(b'?')
}

impl Enc<'_> {
    pub fn raw(&mut self, s: &str) {
        self.buf.extend(s.chars().map(latin1_byte));
    }

    pub fn num(&mut self, v: u64, width: usize) {
        let digits = v.to_string();
        // Too wide cannot happen once checked; keep the low digits rather than shift the record.
        let digits = &digits[digits.len().saturating_sub(width)..];
        self.blank_of(b'0', width - digits.len());
        self.raw(digits);
    }

    pub fn opt_num(&mut self, v: Option<u64>, width: usize) {
        match v {
            Some(v) => self.num(v, width),
            None => self.blank(width),
        }
    }

    pub fn left(&mut self, s: &str, width: usize) {
        let n = s.chars().take(width).count();
        self.buf.extend(s.chars().take(width).map(latin1_byte));
        self.blank(width - n);
    }

    pub fn right(&mut self, s: &str, width: usize) {
        let n = s.chars().count();
        self.blank(width.saturating_sub(n));
        self.buf.extend(s.chars().skip(n.saturating_sub(width)).map(latin1_byte));
    }

    /// Numeric-blank: blanks when empty, otherwise right-justified and zero-filled.
    pub fn zero_fill(&mut self, s: &str, width: usize) {
        if s.is_empty() {
            self.blank(width);
        } else {
            let n = s.chars().count();
            self.blank_of(b'0', width.saturating_sub(n));
            self.buf.extend(s.chars().skip(n.saturating_sub(width)).map(latin1_byte));
        }
    }

    pub fn ch(&mut self, c: char) {
        self.buf.push(latin1_byte(c));
    }

    pub fn blank(&mut self, width: usize) {
        self.blank_of(b' ', width);
    }

    fn blank_of(&mut self, b: u8, width: usize) {
        self.buf.extend(std::iter::repeat_n(b, width));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_justified_and_filled_by_type() {
        let mut buf = Vec::new();
        let mut e = Enc { buf: &mut buf };
        e.num(42, 5);
        e.left("AB", 4);
        e.right("1/", 4);
        e.zero_fill("7", 3);
        e.zero_fill("", 2);
        assert_eq!(buf, b"00042AB    1/007  ");
    }
}
