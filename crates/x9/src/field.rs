//! Fixed-width fields: decoding them from a record, encoding them into one, and the checks of
//! their content that the reader and the writer share (so that what the writer refuses is
//! exactly what the reader reports).
//!
//! Justification and fill follow the standard: numeric fields are right-justified and
//! zero-filled, alphabetic and alphanumeric fields left-justified and blank-filled, MICR
//! fields (on-us, auxiliary on-us) right-justified and blank-filled, and an unused
//! conditional field is all blanks.

use crate::error::{Problem, RecordNumber, Severity};

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

/// The character classes of the standard's field types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A: letters and blank.
    Alpha,
    /// AN: letters, digits and blank.
    AlphaNum,
    /// ANS: any printable character (the standard's character set is printable ASCII).
    AlphaNumSpecial,
    /// NBSM: digits, blank, and the MICR symbols the standard writes as '-' (dash),
    /// '/' (on-us) and '*' (a character that could not be read).
    MicrField,
}

/// The characters the standard allows in text fields: printable ASCII.
pub fn is_allowed_char(c: char) -> bool {
    (' '..='~').contains(&c)
}

fn kind_allows(kind: Kind, c: char) -> bool {
    match kind {
        Kind::Alpha => c.is_ascii_alphabetic() || c == ' ',
        Kind::AlphaNum => c.is_ascii_alphanumeric() || c == ' ',
        Kind::AlphaNumSpecial => is_allowed_char(c),
        Kind::MicrField => c.is_ascii_digit() || matches!(c, ' ' | '-' | '/' | '*'),
    }
}

/// Width and character class of a text field.
pub(crate) fn text(s: &mut Sink, field: &'static str, value: &str, width: usize, kind: Kind) {
    let n = value.chars().count();
    if n > width {
        s.error(field, format!("\"{value}\" is {n} characters long; the field holds {width}"));
    }
    if let Some(c) = value.chars().find(|&c| !kind_allows(kind, c)) {
        let what = match kind {
            Kind::Alpha => "letters and blanks",
            Kind::AlphaNum => "letters, digits and blanks",
            Kind::AlphaNumSpecial => "printable characters",
            Kind::MicrField => "digits, blanks and the MICR symbols - / *",
        };
        s.error(field, format!("{c:?} in \"{value}\" is not allowed (only {what})"));
    }
}

/// A numeric field given as text that must fill its width (or be blank if not `required`).
pub(crate) fn digits(s: &mut Sink, field: &'static str, value: &str, width: usize, required: bool) -> bool {
    if value.is_empty() {
        if required {
            s.error(field, "is blank but mandatory");
        }
        return false;
    }
    if value.len() != width || !value.bytes().all(|b| b.is_ascii_digit()) {
        s.error(field, format!("\"{value}\" is not {width} digits"));
        return false;
    }
    true
}

/// Numeric-blank: blank, or up to `width` digits (written zero-filled).
pub(crate) fn numeric_blank(s: &mut Sink, field: &'static str, value: &str, width: usize) {
    if value.is_empty() {
        return;
    }
    if value.chars().count() > width || !value.bytes().all(|b| b.is_ascii_digit()) {
        s.error(field, format!("\"{value}\" is neither blank nor a number of at most {width} digits"));
    }
}

/// A count or amount that must fit its field.
pub(crate) fn fits(s: &mut Sink, field: &'static str, value: u64, width: usize) {
    if value.to_string().len() > width {
        s.error(field, format!("{value} does not fit in {width} digits"));
    }
}

pub(crate) fn opt_fits(s: &mut Sink, field: &'static str, value: Option<u64>, width: usize) {
    if let Some(v) = value {
        fits(s, field, v, width);
    }
}

/// The ABA check digit of the first eight digits of a routing number (weights 3, 7, 1).
pub fn aba_check_digit(first8: &str) -> Option<u8> {
    let b = first8.as_bytes();
    if b.len() != 8 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    const W: [u32; 8] = [3, 7, 1, 3, 7, 1, 3, 7];
    let sum: u32 = b.iter().zip(W).map(|(&d, w)| u32::from(d - b'0') * w).sum();
    Some(((10 - sum % 10) % 10) as u8)
}

/// True when `routing` is nine digits whose last is the ABA check digit of the first eight.
///
/// ```
/// assert!(moneydesk_x9::is_valid_routing_number("122000661"));
/// assert!(!moneydesk_x9::is_valid_routing_number("122000662"));
/// ```
pub fn is_valid_routing_number(routing: &str) -> bool {
    routing.len() == 9 && aba_check_digit(&routing[..8]).is_some_and(|d| routing.as_bytes()[8] == b'0' + d)
}

/// A nine-digit routing number with its check digit.
pub(crate) fn routing(s: &mut Sink, field: &'static str, value: &str, required: bool) {
    if digits(s, field, value, 9, required) {
        check_digit(s, field, &value[..8], &value[8..]);
    }
}

/// The check digit of an eight-digit routing number held apart from it (check detail).
pub(crate) fn check_digit(s: &mut Sink, field: &'static str, first8: &str, digit: &str) {
    if let Some(expected) = aba_check_digit(first8) {
        if digit.len() == 1 && digit.as_bytes()[0] != b'0' + expected {
            s.error(
                field,
                format!("routing number {first8}{digit} fails the ABA check: the check digit should be {expected}"),
            );
        }
    }
}

/// A calendar date written YYYYMMDD.
pub(crate) fn date(s: &mut Sink, field: &'static str, value: &str, required: bool) {
    if digits(s, field, value, 8, required) && !is_valid_date(value) {
        s.error(field, format!("\"{value}\" is not a date (YYYYMMDD)"));
    }
}

/// True when `value` is a real calendar date written YYYYMMDD.
pub fn is_valid_date(value: &str) -> bool {
    let b = value.as_bytes();
    if b.len() != 8 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let n = |r: std::ops::Range<usize>| value[r].parse::<u32>().unwrap_or(0);
    let (y, m, d) = (n(0..4), n(4..6), n(6..8));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    y >= 1900 && (1..=days).contains(&d)
}

/// A time of day written HHMM.
pub(crate) fn time(s: &mut Sink, field: &'static str, value: &str, required: bool) {
    if digits(s, field, value, 4, required) {
        let (h, m) = (value[..2].parse::<u32>().unwrap_or(99), value[2..].parse::<u32>().unwrap_or(99));
        if h > 23 || m > 59 {
            s.error(field, format!("\"{value}\" is not a time of day (HHMM)"));
        }
    }
}

/// A one-character code; `allowed` lists the valid characters (a blank among them when the
/// field may be absent).
pub(crate) fn code(s: &mut Sink, field: &'static str, value: char, allowed: &str) {
    if !allowed.contains(value) {
        s.error(field, format!("{value:?} is not a valid code (valid: {})", shown(allowed)));
    }
}

/// A two-character code.
pub(crate) fn code2(s: &mut Sink, field: &'static str, value: &str, allowed: &[&str]) {
    if !allowed.contains(&value) {
        s.error(field, format!("\"{value}\" is not a valid code (valid: {})", allowed.join(", ")));
    }
}

fn shown(allowed: &str) -> String {
    allowed.chars().map(|c| if c == ' ' { "blank".to_owned() } else { c.to_string() }).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_aba_check_digit_uses_weights_3_7_1() {
        assert_eq!(aba_check_digit("12200066"), Some(1));
        assert_eq!(aba_check_digit("06100014"), Some(6));
        assert!(is_valid_routing_number("026073150"));
        assert!(!is_valid_routing_number("02607315"));
    }

    #[test]
    fn dates_are_calendar_dates() {
        assert!(is_valid_date("20240229"));
        assert!(!is_valid_date("20230229"));
        assert!(!is_valid_date("20201301"));
        assert!(!is_valid_date("2020101"));
    }

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
