//! The tables' time texts, RFC 3339 in UTC, so that text order is time order and SQL compares
//! them on either backend. Two precisions, each a column's for good (text order holds only
//! within one format): seconds for the records' own times (`created_at`, what the API answers),
//! milliseconds for the queues' due and claim times, where a second would let a retry or a
//! lease run early.

use chrono::{DateTime, SecondsFormat, Utc};

/// A record's time: `2026-11-28T21:00:00Z`.
///
/// ```
/// use chrono::TimeZone;
/// let t = chrono::Utc.with_ymd_and_hms(2026, 11, 28, 21, 0, 0).unwrap();
/// assert_eq!(moneydesk_server::storage::time::seconds(t), "2026-11-28T21:00:00Z");
/// ```
pub fn seconds(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Now, as a record's time ([`seconds`]).
pub fn now_text() -> String {
    seconds(Utc::now())
}

/// A queue's time: `2026-11-28T21:00:00.250Z`.
///
/// ```
/// use chrono::TimeZone;
/// let t = chrono::Utc.timestamp_millis_opt(1_795_899_600_250).unwrap();
/// assert_eq!(moneydesk_server::storage::time::millis(t), "2026-11-28T21:00:00.250Z");
/// ```
pub fn millis(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Either text (or any RFC 3339) back.
///
/// ```
/// use moneydesk_server::storage::time::{millis, parse};
/// let t = parse("2026-11-28T16:00:00.250-05:00").unwrap();
/// assert_eq!(millis(t), "2026-11-28T21:00:00.250Z");
/// assert!(parse("yesterday").is_none());
/// ```
pub fn parse(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s).ok().map(|t| t.with_timezone(&Utc))
}
