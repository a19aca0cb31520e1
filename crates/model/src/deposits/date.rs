//! Calendar dates as the deposit fields write them (`YYYY-MM-DD`), with the day arithmetic the
//! rules need (a check older than 180 days is stale). No time zone: which day "today" is, is the
//! server's business time zone's decision (CONTRACT.md point 14), handed in by the caller.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The months as dates written for people name them (`Nov 4, 2026`), January first.
pub const MONTH_ABBREVIATIONS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// A proleptic Gregorian date from year 1 to 9999.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

impl Date {
    /// `YYYY-MM-DD`, a real day of the calendar.
    ///
    /// ```
    /// use moneydesk_model::deposits::Date;
    /// let d = Date::parse("2024-02-29").unwrap();
    /// assert_eq!(d.to_string(), "2024-02-29");
    /// assert!(Date::parse("2023-02-29").is_err());
    /// assert!(Date::parse("2024-2-9").is_err());
    /// assert_eq!(Date::parse("2026-03-01").unwrap().days_since(Date::parse("2026-01-30").unwrap()), 30);
    /// ```
    pub fn parse(s: &str) -> Result<Date, String> {
        let b = s.as_bytes();
        let shape = b.len() == 10
            && b.iter().enumerate().all(|(i, c)| if i == 4 || i == 7 { *c == b'-' } else { c.is_ascii_digit() });
        if !shape {
            return Err(format!("{s:?} is not a date like 2026-11-24 (YYYY-MM-DD)"));
        }
        let n = |r: std::ops::Range<usize>| s[r].parse::<u16>().unwrap_or(0);
        let (year, month, day) = (n(0..4), n(5..7), n(8..10));
        Date::new(year, month as u8, day as u8).ok_or_else(|| format!("{s} is not a day of the calendar"))
    }

    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let ok = (1..=9999).contains(&year) && (1..=12).contains(&month) && day >= 1 && day <= days_in(year, month);
        ok.then_some(Date { year, month, day })
    }

    pub fn year(self) -> u16 {
        self.year
    }

    pub fn month(self) -> u8 {
        self.month
    }

    pub fn day(self) -> u8 {
        self.day
    }

    /// The month's three letters.
    ///
    /// ```
    /// use moneydesk_model::deposits::Date;
    /// assert_eq!(Date::parse("2026-11-04").unwrap().month_abbreviation(), "Nov");
    /// ```
    pub fn month_abbreviation(self) -> &'static str {
        MONTH_ABBREVIATIONS[usize::from(self.month - 1)]
    }

    /// Days since 1970-01-01 (negative before).
    pub fn epoch_days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01.
    pub fn from_epoch_days(days: i64) -> Option<Date> {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date::new(u16::try_from(year).ok()?, month as u8, day as u8)
    }

    /// Whole days from `earlier` to `self`.
    pub fn days_since(self, earlier: Date) -> i64 {
        self.epoch_days() - earlier.epoch_days()
    }
}

fn days_in(year: u16, month: u8) -> u8 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Date::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Date {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
            .examples([serde_json::json!("2026-11-24")])
            .into()
    }
}
#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Date {}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn known_days_count_from_the_epoch() {
        assert_eq!(Date::parse("1970-01-01").unwrap().epoch_days(), 0);
        assert_eq!(Date::parse("2000-03-01").unwrap().epoch_days(), 11_017);
        assert_eq!(Date::parse("1969-12-31").unwrap().epoch_days(), -1);
        for bad in ["2026-13-01", "2026-00-10", "2026-04-31", "0000-01-01", "2026/01/01", " 2026-01-01"] {
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn days_and_dates_round_trip(days in -719_162i64..2_932_896) {
            let d = Date::from_epoch_days(days).unwrap();
            prop_assert_eq!(d.epoch_days(), days);
            prop_assert_eq!(Date::parse(&d.to_string()).unwrap(), d);
        }
    }
}
