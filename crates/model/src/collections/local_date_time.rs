//! [`LocalDateTime`], the API's zone-less ISO 8601 timestamp with fractional seconds.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A time as the API writes it: ISO 8601 without a zone (UTC on this server), with
/// milliseconds: `2023-09-22T03:16:48.936`. Held as milliseconds since 1970-01-01T00:00:00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalDateTime(i64);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a date-time like 2023-09-22T03:16:48.936 (ISO 8601, no zone)")]
pub struct DateTimeError(pub String);

const MS_PER_DAY: i64 = 86_400_000;

impl LocalDateTime {
    pub fn from_millis(ms: i64) -> Self {
        LocalDateTime(ms)
    }

    pub fn millis(self) -> i64 {
        self.0
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.f…]]` (a space may stand for `T`; digits past the
    /// millisecond are dropped). A trailing `Z` or `±HH:MM` offset is converted to UTC.
    pub fn parse(s: &str) -> Result<Self, DateTimeError> {
        Self::parse_inner(s.trim()).ok_or_else(|| DateTimeError(s.to_string()))
    }

    /// As [`parse`](Self::parse), but a date alone (`YYYY-MM-DD`) is accepted too, meaning the
    /// start of that day; `end_of_day` turns it into the start of the next day (exclusive end).
    pub fn parse_bound(s: &str, end_of_day: bool) -> Result<Self, DateTimeError> {
        let t = s.trim();
        if t.len() == 10 {
            let day = parse_date(t).ok_or_else(|| DateTimeError(s.to_string()))?;
            return Ok(LocalDateTime((day + end_of_day as i64) * MS_PER_DAY));
        }
        Self::parse_inner(t).ok_or_else(|| DateTimeError(s.to_string()))
    }

    fn parse_inner(s: &str) -> Option<Self> {
        if s.len() < 16 || !s.is_char_boundary(10) {
            return None;
        }
        let day = parse_date(&s[..10])?;
        if !matches!(s.as_bytes()[10], b'T' | b't' | b' ') {
            return None;
        }
        let rest = &s[11..];
        // Split off a zone: Z, or +HH:MM / -HH:MM after the time.
        let (time, offset_min) = if let Some(t) = rest.strip_suffix(['Z', 'z']) {
            (t, 0)
        } else if rest.len() > 6 && matches!(rest.as_bytes()[rest.len() - 6], b'+' | b'-') {
            let (t, z) = rest.split_at(rest.len() - 6);
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let h = num(&z[1..3])?;
            let m = num(&z[4..6])?;
            if &z[3..4] != ":" || h > 23 || m > 59 {
                return None;
            }
            (t, sign * (h * 60 + m))
        } else {
            (rest, 0)
        };
        let (hms, frac) = match time.split_once('.') {
            Some((a, f)) => (a, Some(f)),
            None => (time, None),
        };
        let b = hms.as_bytes();
        let (h, m, sec) = match b.len() {
            5 if b[2] == b':' => (num(&hms[0..2])?, num(&hms[3..5])?, 0),
            8 if b[2] == b':' && b[5] == b':' => (num(&hms[0..2])?, num(&hms[3..5])?, num(&hms[6..8])?),
            _ => return None,
        };
        if h > 23 || m > 59 || sec > 59 {
            return None;
        }
        let ms = match frac {
            None => 0,
            Some(f) if !f.is_empty() && f.len() <= 9 && f.bytes().all(|c| c.is_ascii_digit()) => {
                let mut digits = f.as_bytes()[..f.len().min(3)].to_vec();
                digits.resize(3, b'0');
                num(std::str::from_utf8(&digits).ok()?)?
            }
            Some(_) => return None,
        };
        let local = day * MS_PER_DAY + ((h * 60 + m) * 60 + sec) * 1000 + ms;
        Some(LocalDateTime(local - offset_min * 60_000))
    }
}

fn num(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// `YYYY-MM-DD` → days since 1970-01-01, checking the day exists.
fn parse_date(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (y, m, d) = (num(&s[0..4])?, num(&s[5..7])?, num(&s[8..10])?);
    if y < 1 || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// Howard Hinnant's proleptic Gregorian day algorithms.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

impl fmt::Display for LocalDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let day = self.0.div_euclid(MS_PER_DAY);
        let ms = self.0.rem_euclid(MS_PER_DAY);
        let (y, mo, d) = civil_from_days(day);
        let (h, mi, s, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
        write!(f, "{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}")
    }
}

impl std::str::FromStr for LocalDateTime {
    type Err = DateTimeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        LocalDateTime::parse(s)
    }
}

impl Serialize for LocalDateTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for LocalDateTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        LocalDateTime::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for LocalDateTime {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::String))
            .description(Some("ISO 8601 date-time without a zone (UTC), with milliseconds."))
            .examples([serde_json::json!("2023-09-22T03:16:48.936")])
            .into()
    }
}
#[cfg(feature = "openapi")]
impl utoipa::ToSchema for LocalDateTime {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_round_trip_with_milliseconds() {
        let t = LocalDateTime::parse("2023-09-22T03:16:48.936").unwrap();
        assert_eq!(t.to_string(), "2023-09-22T03:16:48.936");
        assert_eq!(t.millis(), 1_695_352_608_936);
        assert_eq!(LocalDateTime::parse("2023-09-22 03:16").unwrap().to_string(), "2023-09-22T03:16:00.000");
        assert_eq!(LocalDateTime::parse("2023-09-22T03:16:48.9365Z").unwrap().to_string(), "2023-09-22T03:16:48.936");
        assert_eq!(LocalDateTime::parse("2023-09-22T05:16:48+02:00").unwrap().to_string(), "2023-09-22T03:16:48.000");
        assert_eq!(LocalDateTime::parse("2024-02-29T00:00:00").unwrap().to_string(), "2024-02-29T00:00:00.000");
        assert_eq!(LocalDateTime::from_millis(-1).to_string(), "1969-12-31T23:59:59.999");
        for bad in [
            "",
            "2023-02-29T00:00:00",
            "2023-09-22",
            "2023-09-22T24:00:00",
            "2023-9-22T03:16:48",
            "2023-09-22T03:16:48.",
            "x",
        ] {
            assert!(LocalDateTime::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_accept_dates() {
        let from = LocalDateTime::parse_bound("2024-01-31", false).unwrap();
        let to = LocalDateTime::parse_bound("2024-01-31", true).unwrap();
        assert_eq!(from.to_string(), "2024-01-31T00:00:00.000");
        assert_eq!(to.to_string(), "2024-02-01T00:00:00.000");
        assert!(LocalDateTime::parse_bound("2024-13-01", false).is_err());
    }
}
