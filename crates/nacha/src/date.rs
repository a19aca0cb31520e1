//! The dates and times NACHA records carry: YYMMDD and HHMM. Small validated types rather than
//! a calendar crate, since nothing here does date arithmetic.

use std::fmt;

/// Why a date or time was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    /// Not the six (date) or four (time) digits expected.
    #[error("expected {expected} digits, found {found:?}")]
    Format {
        /// "YYMMDD" or "HHMM".
        expected: &'static str,
        /// What was given.
        found: String,
    },
    /// Digits, but no such day or time.
    #[error("{0} is not a real date or time")]
    OutOfRange(String),
}

/// A calendar day in 2000–2099, written YYMMDD. Two-digit years are read as 20YY: ACH dates
/// are within days of today, and 2000–2099 makes "every fourth year is a leap year" exact.
///
/// ```
/// use moneydesk_nacha::Date;
/// let date = Date::parse("250228").unwrap();
/// assert_eq!((date.year(), date.month(), date.day()), (2025, 2, 28));
/// assert_eq!(date.to_string(), "250228");
/// assert!(Date::parse("250229").is_err()); // 2025 is not a leap year
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    yy: u8,
    month: u8,
    day: u8,
}

impl Date {
    /// What the reader puts in the model for a date it could not read (the problem says so).
    pub(crate) const PLACEHOLDER: Date = Date { yy: 0, month: 1, day: 1 };

    /// A date from a four-digit year (2000–2099), month and day.
    pub fn from_ymd(year: u16, month: u8, day: u8) -> Result<Date, DateError> {
        let bad = || DateError::OutOfRange(format!("{year:04}-{month:02}-{day:02}"));
        if !(2000..=2099).contains(&year) {
            return Err(bad());
        }
        let yy = (year - 2000) as u8;
        let days = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if yy.is_multiple_of(4) => 29,
            2 => 28,
            _ => return Err(bad()),
        };
        if day == 0 || day > days {
            return Err(bad());
        }
        Ok(Date { yy, month, day })
    }

    /// Parses YYMMDD.
    pub fn parse(s: &str) -> Result<Date, DateError> {
        let [yy, mm, dd] = two_digit_groups::<3>(s, "YYMMDD")?;
        Date::from_ymd(2000 + u16::from(yy), mm, dd).map_err(|_| DateError::OutOfRange(s.to_string()))
    }

    /// The four-digit year.
    pub fn year(&self) -> u16 {
        2000 + u16::from(self.yy)
    }

    /// 1–12.
    pub fn month(&self) -> u8 {
        self.month
    }

    /// 1–31.
    pub fn day(&self) -> u8 {
        self.day
    }
}

impl fmt::Display for Date {
    /// YYMMDD, as in the records.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}{:02}", self.yy, self.month, self.day)
    }
}

/// A time of day to the minute, written HHMM (24-hour).
///
/// ```
/// use moneydesk_nacha::Time;
/// assert_eq!(Time::parse("1305").unwrap().to_string(), "1305");
/// assert!(Time::parse("2460").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Time {
    hour: u8,
    minute: u8,
}

impl Time {
    /// A time from hour (0–23) and minute (0–59).
    pub fn new(hour: u8, minute: u8) -> Result<Time, DateError> {
        if hour > 23 || minute > 59 {
            return Err(DateError::OutOfRange(format!("{hour:02}:{minute:02}")));
        }
        Ok(Time { hour, minute })
    }

    /// Parses HHMM.
    pub fn parse(s: &str) -> Result<Time, DateError> {
        let [hour, minute] = two_digit_groups::<2>(s, "HHMM")?;
        Time::new(hour, minute).map_err(|_| DateError::OutOfRange(s.to_string()))
    }

    /// 0–23.
    pub fn hour(&self) -> u8 {
        self.hour
    }

    /// 0–59.
    pub fn minute(&self) -> u8 {
        self.minute
    }
}

impl fmt::Display for Time {
    /// HHMM, as in the file header.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.hour, self.minute)
    }
}

/// Splits exactly `2 * N` ASCII digits into N two-digit numbers.
fn two_digit_groups<const N: usize>(s: &str, expected: &'static str) -> Result<[u8; N], DateError> {
    let bytes = s.as_bytes();
    if bytes.len() != 2 * N || !bytes.iter().all(u8::is_ascii_digit) {
        return Err(DateError::Format { expected, found: s.to_string() });
    }
    let mut groups = [0; N];
    for (i, group) in groups.iter_mut().enumerate() {
        *group = (bytes[2 * i] - b'0') * 10 + (bytes[2 * i + 1] - b'0');
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_days_exist_only_in_leap_years() {
        assert!(Date::parse("240229").is_ok());
        assert!(Date::parse("000229").is_ok());
        assert!(Date::parse("230229").is_err());
    }

    #[test]
    fn month_and_day_limits_are_enforced() {
        for bad in ["251301", "250001", "250100", "250431", "25013", "25O101", "2501011"] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Date::parse("991231").unwrap().year(), 2099);
    }

    #[test]
    fn times_are_hhmm_on_a_24_hour_clock() {
        assert_eq!(Time::parse("0000").unwrap(), Time::new(0, 0).unwrap());
        assert!(Time::parse("2400").is_err());
        assert!(Time::parse("12:0").is_err());
    }
}
