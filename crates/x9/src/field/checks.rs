//! The checks of field content that the reader and the writer share: character classes,
//! widths, routing numbers, dates, times and codes.

use super::Sink;

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
}
