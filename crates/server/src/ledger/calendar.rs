//! Business days of the Federal Reserve, the clock of funds availability.
//!
//! Regulation CC counts holds in *business days* (12 CFR 229.2(g)): Monday to Friday except
//! the Federal Reserve Banks' holidays. The rules below are the Fed's current ones; an
//! operator can close the bank on an extra day or open it on a holiday through
//! [`Calendar::with_holidays`] and [`Calendar::with_business_days`].

use std::collections::BTreeSet;

use chrono::{Datelike, NaiveDate, Weekday};

/// Name reported by [`Calendar::is_holiday`] for a day an operator closed the bank.
pub const CONFIGURED_HOLIDAY: &str = "Bank holiday";

/// Holidays on a fixed date: (month, day, name, first year observed).
const FIXED_HOLIDAYS: [(u32, u32, &str, i32); 5] = [
    (1, 1, "New Year's Day", i32::MIN),
    (6, 19, "Juneteenth National Independence Day", 2022),
    (7, 4, "Independence Day", i32::MIN),
    (11, 11, "Veterans Day", i32::MIN),
    (12, 25, "Christmas Day", i32::MIN),
];

/// Holidays on the n-th weekday of a month: (month, weekday, n, name).
const NTH_WEEKDAY_HOLIDAYS: [(u32, Weekday, u32, &str); 5] = [
    (1, Weekday::Mon, 3, "Birthday of Martin Luther King, Jr."),
    (2, Weekday::Mon, 3, "Washington's Birthday"),
    (9, Weekday::Mon, 1, "Labor Day"),
    (10, Weekday::Mon, 2, "Columbus Day"),
    (11, Weekday::Thu, 4, "Thanksgiving Day"),
];

/// The Federal Reserve's business-day calendar plus the operator's exceptions, so that every
/// hold is computed against the days the bank is actually open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Calendar {
    extra_holidays: BTreeSet<NaiveDate>,
    extra_business_days: BTreeSet<NaiveDate>,
}

impl Calendar {
    /// The Fed's calendar without exceptions: the default for a bank that follows it.
    pub fn federal_reserve() -> Self {
        Self::default()
    }

    /// Closes the bank on `days` as well (e.g. a storm closure); overrides an earlier
    /// [`with_business_days`](Self::with_business_days) for the same day.
    pub fn with_holidays(mut self, days: impl IntoIterator<Item = NaiveDate>) -> Self {
        for day in days {
            self.extra_business_days.remove(&day);
            self.extra_holidays.insert(day);
        }
        self
    }

    /// Opens the bank on `days` although the rules close it (a holiday or a weekend day);
    /// overrides an earlier [`with_holidays`](Self::with_holidays) for the same day.
    pub fn with_business_days(mut self, days: impl IntoIterator<Item = NaiveDate>) -> Self {
        for day in days {
            self.extra_holidays.remove(&day);
            self.extra_business_days.insert(day);
        }
        self
    }

    /// The name of the holiday that closes the bank on `d`, for display and audit: the
    /// holiday's own date, or the Monday on which a Sunday holiday is observed. A holiday on a
    /// Saturday is named on the Saturday only (the Fed stays open the Friday before). `None`
    /// for a day the operator opened.
    pub fn is_holiday(&self, d: NaiveDate) -> Option<&'static str> {
        if self.extra_business_days.contains(&d) {
            return None;
        }
        rule_holiday(d).or_else(|| self.extra_holidays.contains(&d).then_some(CONFIGURED_HOLIDAY))
    }

    /// Whether `d` counts as a business day for availability: Monday to Friday, not a
    /// holiday, or opened by the operator.
    pub fn is_business_day(&self, d: NaiveDate) -> bool {
        if self.extra_business_days.contains(&d) {
            return true;
        }
        !matches!(d.weekday(), Weekday::Sat | Weekday::Sun)
            && !self.extra_holidays.contains(&d)
            && rule_holiday(d).is_none()
    }

    /// The first business day strictly after `d`: "the next business day" of Regulation CC.
    pub fn next_business_day(&self, d: NaiveDate) -> NaiveDate {
        let mut day = d;
        loop {
            day = day.succ_opt().expect("date within chrono's range");
            if self.is_business_day(day) {
                return day;
            }
        }
    }

    /// The `n`-th business day after `d` (`d` itself for `n == 0`): "funds available on the
    /// second business day" is `add_business_days(banking_day, 2)`.
    pub fn add_business_days(&self, d: NaiveDate, n: u32) -> NaiveDate {
        (0..n).fold(d, |day, _| self.next_business_day(day))
    }

    /// How many business days lie in `(from, to]`, so that
    /// `add_business_days(from, business_days_between(from, to)) == to` for a business day
    /// `to`; 0 when `to <= from`.
    pub fn business_days_between(&self, from: NaiveDate, to: NaiveDate) -> u32 {
        from.iter_days().skip(1).take_while(|day| *day <= to).filter(|day| self.is_business_day(*day)).count() as u32
    }
}

/// The Fed holiday observed on `d` under the fixed rules, if any.
fn rule_holiday(d: NaiveDate) -> Option<&'static str> {
    let year = d.year();
    for (month, day, name, since) in FIXED_HOLIDAYS {
        let Some(holiday) = NaiveDate::from_ymd_opt(year, month, day).filter(|_| year >= since) else {
            continue;
        };
        // Sunday → observed Monday; Saturday → not moved (the Fed is open on Friday).
        if d == holiday || (holiday.weekday() == Weekday::Sun && holiday.succ_opt() == Some(d)) {
            return Some(name);
        }
    }
    let nth = (d.day() - 1) / 7 + 1;
    for (month, weekday, n, name) in NTH_WEEKDAY_HOLIDAYS {
        if d.month() == month && d.weekday() == weekday && nth == n {
            return Some(name);
        }
    }
    // Memorial Day: the last Monday of May (no Monday follows within May).
    if d.month() == 5 && d.weekday() == Weekday::Mon && d.day() + 7 > 31 {
        return Some("Memorial Day");
    }
    None
}

/// Parses a configured list of days (`YYYY-MM-DD`, separated by commas and/or whitespace), so
/// an operator can list closures or openings in one setting; the error names the bad item.
pub fn parse_days(text: &str) -> Result<Vec<NaiveDate>, String> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .map(|item| {
            // The length check rejects unpadded forms such as 2026-1-5 that chrono would accept.
            NaiveDate::parse_from_str(item, "%Y-%m-%d")
                .ok()
                .filter(|_| item.len() == 10)
                .ok_or_else(|| format!("invalid day {item:?}: expected YYYY-MM-DD"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    /// Weekday holidays of `year` (the days the Fed is closed besides weekends).
    fn weekday_holidays(cal: &Calendar, year: i32) -> Vec<(NaiveDate, &'static str)> {
        day(&format!("{year}-01-01"))
            .iter_days()
            .take_while(|d| d.year() == year)
            .filter(|d| !matches!(d.weekday(), Weekday::Sat | Weekday::Sun))
            .filter_map(|d| cal.is_holiday(d).map(|name| (d, name)))
            .collect()
    }

    #[test]
    fn weekday_facts_behind_the_2026_and_2027_lists() {
        assert_eq!(day("2026-07-04").weekday(), Weekday::Sat);
        assert_eq!(day("2027-06-19").weekday(), Weekday::Sat);
        assert_eq!(day("2027-07-04").weekday(), Weekday::Sun);
        assert_eq!(day("2027-12-25").weekday(), Weekday::Sat);
        assert_eq!(day("2026-11-26").weekday(), Weekday::Thu);
    }

    #[test]
    fn federal_reserve_holidays_2026() {
        let cal = Calendar::federal_reserve();
        let expected = [
            ("2026-01-01", "New Year's Day"),
            ("2026-01-19", "Birthday of Martin Luther King, Jr."),
            ("2026-02-16", "Washington's Birthday"),
            ("2026-05-25", "Memorial Day"),
            ("2026-06-19", "Juneteenth National Independence Day"),
            ("2026-09-07", "Labor Day"),
            ("2026-10-12", "Columbus Day"),
            ("2026-11-11", "Veterans Day"),
            ("2026-11-26", "Thanksgiving Day"),
            ("2026-12-25", "Christmas Day"),
        ];
        let expected: Vec<_> = expected.iter().map(|(d, n)| (day(d), *n)).collect();
        assert_eq!(weekday_holidays(&cal, 2026), expected);
        // Independence Day on Saturday: named, but Friday July 3 stays a business day.
        assert_eq!(cal.is_holiday(day("2026-07-04")), Some("Independence Day"));
        assert!(cal.is_business_day(day("2026-07-03")));
    }

    #[test]
    fn federal_reserve_holidays_2027() {
        let cal = Calendar::federal_reserve();
        let expected = [
            ("2027-01-01", "New Year's Day"),
            ("2027-01-18", "Birthday of Martin Luther King, Jr."),
            ("2027-02-15", "Washington's Birthday"),
            ("2027-05-31", "Memorial Day"),
            ("2027-07-05", "Independence Day"),
            ("2027-09-06", "Labor Day"),
            ("2027-10-11", "Columbus Day"),
            ("2027-11-11", "Veterans Day"),
            ("2027-11-25", "Thanksgiving Day"),
        ];
        let expected: Vec<_> = expected.iter().map(|(d, n)| (day(d), *n)).collect();
        assert_eq!(weekday_holidays(&cal, 2027), expected);
        // Saturday holidays are not moved to Friday.
        assert!(cal.is_business_day(day("2027-06-18")));
        assert!(cal.is_business_day(day("2027-12-24")));
    }

    #[test]
    fn juneteenth_starts_in_2022() {
        let cal = Calendar::federal_reserve();
        assert_eq!(cal.is_holiday(day("2021-06-18")), None);
        assert!(cal.is_business_day(day("2021-06-18")));
        assert_eq!(cal.is_holiday(day("2023-06-19")), Some("Juneteenth National Independence Day"));
    }

    #[test]
    fn business_day_arithmetic_skips_weekends_and_holidays() {
        let cal = Calendar::federal_reserve();
        // Wednesday before Thanksgiving → Friday.
        assert_eq!(cal.next_business_day(day("2026-11-25")), day("2026-11-27"));
        // Friday before a Monday holiday (Independence Day 2027 observed) → Tuesday.
        assert_eq!(cal.next_business_day(day("2027-07-02")), day("2027-07-06"));
        assert_eq!(cal.add_business_days(day("2026-11-25"), 0), day("2026-11-25"));
        assert_eq!(cal.add_business_days(day("2026-11-25"), 2), day("2026-11-30"));
        assert_eq!(cal.business_days_between(day("2026-11-25"), day("2026-11-30")), 2);
        assert_eq!(cal.business_days_between(day("2026-11-30"), day("2026-11-25")), 0);
        // Christmas 2027 on Saturday, New Year 2028 on Saturday: Dec 24 and Dec 31 are open.
        assert_eq!(cal.business_days_between(day("2027-12-23"), day("2028-01-03")), 7);
    }

    #[test]
    fn operator_exceptions_override_the_rules() {
        let cal = Calendar::federal_reserve()
            .with_holidays([day("2026-03-10"), day("2026-11-27")])
            .with_business_days([day("2026-10-12"), day("2026-11-27")]);
        assert_eq!(cal.is_holiday(day("2026-03-10")), Some(CONFIGURED_HOLIDAY));
        assert!(!cal.is_business_day(day("2026-03-10")));
        // Opened on Columbus Day; the later opening of Nov 27 wins over its closure.
        assert_eq!(cal.is_holiday(day("2026-10-12")), None);
        assert!(cal.is_business_day(day("2026-10-12")));
        assert!(cal.is_business_day(day("2026-11-27")));
        assert_eq!(cal.next_business_day(day("2026-03-09")), day("2026-03-11"));
    }

    #[test]
    fn parse_days_accepts_commas_and_whitespace() {
        assert_eq!(
            parse_days(" 2026-03-10,2026-11-27\n 2027-01-04 ,"),
            Ok(vec![day("2026-03-10"), day("2026-11-27"), day("2027-01-04")])
        );
        assert_eq!(parse_days(""), Ok(vec![]));
        let err = parse_days("2026-03-10, 2026-02-30").unwrap_err();
        assert!(err.contains("\"2026-02-30\""), "{err}");
        assert!(parse_days("2026-1-5").unwrap_err().contains("2026-1-5"));
        assert!(parse_days("10/03/2026").is_err());
    }
}
