//! The daily refresh time: `HH:MM Area/City` (default `06:30 America/New_York`: the Fed
//! publishes the directories by 6:00 a.m. Eastern), or `off`.

use std::fmt;

use anyhow::{bail, Context};
use chrono::{DateTime, Days, LocalResult, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub time: NaiveTime,
    pub tz: Tz,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule { time: NaiveTime::from_hms_opt(6, 30, 0).expect("valid time"), tz: chrono_tz::America::New_York }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.time.format("%H:%M"), self.tz.name())
    }
}

impl Schedule {
    /// `MONEYDESK_ROUTING_REFRESH`: `HH:MM` (New York time), `HH:MM Area/City`, or
    /// `off`/`none`/`never` (no scheduled refresh; the admin endpoint still works).
    pub fn parse_setting(v: &str) -> anyhow::Result<Option<Schedule>> {
        let v = v.trim();
        if matches!(v.to_ascii_lowercase().as_str(), "off" | "none" | "never" | "disabled" | "false") {
            return Ok(None);
        }
        let (time, zone) = match v.split_once(char::is_whitespace) {
            Some((t, z)) => (t, z.trim()),
            None => (v, "America/New_York"),
        };
        let time = NaiveTime::parse_from_str(time, "%H:%M").with_context(|| {
            format!("the time must be HH:MM (24-hour) followed by a time zone like America/New_York, or off; got {v:?}")
        })?;
        let tz: Tz = match zone.parse() {
            Ok(tz) => tz,
            Err(_) => bail!("unknown time zone {zone:?}; use an IANA name like America/New_York or UTC"),
        };
        Ok(Some(Schedule { time, tz }))
    }

    /// The first scheduled moment strictly after `now`. A time skipped by a DST change runs
    /// an hour later; a repeated one runs the first time.
    pub fn next_after(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        let mut day = now.with_timezone(&self.tz).date_naive();
        loop {
            let local = day.and_time(self.time);
            let at = match self.tz.from_local_datetime(&local) {
                LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t,
                LocalResult::None => match self.tz.from_local_datetime(&(local + chrono::Duration::hours(1))) {
                    LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t,
                    LocalResult::None => {
                        day = day + Days::new(1);
                        continue;
                    }
                },
            };
            let at = at.with_timezone(&Utc);
            if at > now {
                return at;
            }
            day = day + Days::new(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn parses_and_says_what_is_wrong() {
        assert_eq!(Schedule::parse_setting("06:30 America/New_York").unwrap(), Some(Schedule::default()));
        assert_eq!(Schedule::parse_setting("06:30").unwrap(), Some(Schedule::default()));
        assert_eq!(Schedule::parse_setting("off").unwrap(), None);
        assert_eq!(Schedule::parse_setting("23:05 UTC").unwrap().unwrap().to_string(), "23:05 UTC");
        assert!(format!("{:#}", Schedule::parse_setting("6.30").unwrap_err()).contains("HH:MM"));
        assert!(format!("{:#}", Schedule::parse_setting("06:30 Mars/Olympus").unwrap_err()).contains("time zone"));
    }

    #[test]
    fn next_run_follows_new_york_time() {
        let s = Schedule::default();
        // Winter: 06:30 EST = 11:30 UTC; summer: 06:30 EDT = 10:30 UTC.
        assert_eq!(s.next_after(utc("2025-01-15T02:00:00Z")), utc("2025-01-15T11:30:00Z"));
        assert_eq!(s.next_after(utc("2025-01-15T11:30:00Z")), utc("2025-01-16T11:30:00Z"));
        assert_eq!(s.next_after(utc("2025-07-01T12:00:00Z")), utc("2025-07-02T10:30:00Z"));
        // 02:30 does not exist on 2025-03-09 in New York: it runs at 03:30 EDT.
        let gap = Schedule::parse_setting("02:30").unwrap().unwrap();
        assert_eq!(gap.next_after(utc("2025-03-09T05:00:00Z")), utc("2025-03-09T07:30:00Z"));
    }
}
