//! What the paginated collections (accounts, permissions) share: `sort=field,asc|desc`,
//! query errors that name their parameter, splitting a query into paging, sort and filters,
//! and [`LocalDateTime`], the API's zone-less ISO 8601 timestamp with fractional seconds.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::page::{PageRequest, PageRequestError};

/// A bad query parameter: `param` is the parameter's name as the client wrote it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct QueryError {
    pub param: String,
    pub message: String,
}

impl QueryError {
    pub fn new(param: impl Into<String>, message: impl Into<String>) -> Self {
        QueryError { param: param.into(), message: message.into() }
    }

    /// The query parameter the error is about (for the error body's field list).
    pub fn param(&self) -> &str {
        &self.param
    }
}

impl From<PageRequestError> for QueryError {
    fn from(e: PageRequestError) -> Self {
        QueryError::new(e.param(), e.to_string())
    }
}

/// A collection's sortable fields, by their API names.
pub trait SortField: Copy + Eq + 'static {
    const ALL: &'static [Self];
    fn as_str(self) -> &'static str;

    fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.as_str() == s)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortDir {
    #[default]
    Asc,
    Desc,
}

impl SortDir {
    pub fn as_str(self) -> &'static str {
        match self {
            SortDir::Asc => "asc",
            SortDir::Desc => "desc",
        }
    }
}

/// `sort=field,asc|desc` (direction optional, ascending by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SortSpec<F> {
    pub field: F,
    pub dir: SortDir,
}

impl<F: SortField> SortSpec<F> {
    pub fn asc(field: F) -> Self {
        SortSpec { field, dir: SortDir::Asc }
    }

    pub fn desc(field: F) -> Self {
        SortSpec { field, dir: SortDir::Desc }
    }

    pub fn parse(value: &str) -> Result<Self, QueryError> {
        let (name, dir) = match value.split_once(',') {
            Some((n, d)) => (n.trim(), Some(d.trim())),
            None => (value.trim(), None),
        };
        let field = F::parse(name).ok_or_else(|| {
            let known: Vec<&str> = F::ALL.iter().map(|f| f.as_str()).collect();
            QueryError::new("sort", format!("unknown sort field {name:?}; sortable fields: {}", known.join(", ")))
        })?;
        let dir = match dir.map(|d| d.to_ascii_lowercase()) {
            None => SortDir::Asc,
            Some(d) if d == "asc" => SortDir::Asc,
            Some(d) if d == "desc" => SortDir::Desc,
            Some(d) => return Err(QueryError::new("sort", format!("sort direction must be asc or desc, got {d:?}"))),
        };
        Ok(SortSpec { field, dir })
    }

    /// The parameter's value, `field,dir`.
    pub fn to_param(&self) -> String {
        format!("{},{}", self.field.as_str(), self.dir.as_str())
    }
}

/// A query split into its paging, its sort and its filters (each filter given at most once,
/// empty values dropped). Any parameter that is not paging, `sort` or one of `filters` is a 400.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryParts<F> {
    pub page: PageRequest,
    pub sort: Option<SortSpec<F>>,
    pub filters: Vec<(&'static str, String)>,
}

impl<F: SortField> QueryParts<F> {
    pub fn split<I, K, V>(pairs: I, filters: &[&'static str]) -> Result<Self, QueryError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let pairs: Vec<(String, String)> =
            pairs.into_iter().map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string())).collect();
        let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
        let mut sort = None;
        let mut found: Vec<(&'static str, String)> = Vec::new();
        for (k, v) in &pairs {
            match k.as_str() {
                "page" | "size" | "per" | "limit" => {}
                "sort" => {
                    if v.trim().is_empty() {
                        continue;
                    }
                    if sort.is_some() {
                        return Err(QueryError::new("sort", "give one sort parameter (sort=field,asc|desc)"));
                    }
                    sort = Some(SortSpec::parse(v)?);
                }
                name => {
                    let Some(known) = filters.iter().copied().find(|f| *f == name) else {
                        let mut all = vec!["page", "size", "per", "limit", "sort"];
                        all.extend_from_slice(filters);
                        return Err(QueryError::new(
                            name,
                            format!("unknown query parameter {name:?}; known: {}", all.join(", ")),
                        ));
                    };
                    if found.iter().any(|(f, _)| *f == known) {
                        return Err(QueryError::new(known, format!("give {known} once")));
                    }
                    let v = v.trim();
                    if !v.is_empty() {
                        found.push((known, v.to_string()));
                    }
                }
            }
        }
        Ok(QueryParts { page, sort, filters: found })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.filters.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }
}

/// Builds a query string from pairs, percent-encoding the values (empty values are left out).
pub fn encode_query(pairs: &[(&str, String)]) -> String {
    let mut out = String::new();
    for (k, v) in pairs {
        if v.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(k);
        out.push('=');
        for b in v.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' | b':' => {
                    out.push(b as char)
                }
                _ => out.push_str(&format!("%{b:02X}")),
            }
        }
    }
    out
}

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

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum F {
        Name,
        Time,
    }
    impl SortField for F {
        const ALL: &'static [F] = &[F::Name, F::Time];
        fn as_str(self) -> &'static str {
            match self {
                F::Name => "name",
                F::Time => "time",
            }
        }
    }

    #[test]
    fn sort_parses_and_names_the_parameter() {
        assert_eq!(SortSpec::<F>::parse("name").unwrap(), SortSpec::asc(F::Name));
        assert_eq!(SortSpec::<F>::parse("time,DESC").unwrap(), SortSpec::desc(F::Time));
        assert_eq!(SortSpec::<F>::parse("nope,asc").unwrap_err().param(), "sort");
        assert_eq!(SortSpec::<F>::parse("name,up").unwrap_err().param(), "sort");
        assert_eq!(SortSpec::desc(F::Time).to_param(), "time,desc");
    }

    #[test]
    fn split_rejects_unknown_and_repeated_parameters() {
        let q = QueryParts::<F>::split(
            [("page", "2"), ("sort", "name,desc"), ("status", "A"), ("q", "")],
            &["status", "q"],
        )
        .unwrap();
        assert_eq!(q.page.index, 1);
        assert_eq!(q.sort, Some(SortSpec::desc(F::Name)));
        assert_eq!(q.get("status"), Some("A"));
        assert_eq!(q.get("q"), None);
        let e = QueryParts::<F>::split([("colour", "red")], &["status"]).unwrap_err();
        assert_eq!(e.param(), "colour");
        let e = QueryParts::<F>::split([("status", "a"), ("status", "b")], &["status"]).unwrap_err();
        assert_eq!(e.param(), "status");
        assert_eq!(QueryParts::<F>::split([("size", "0")], &[]).unwrap_err().param(), "size");
        assert_eq!(QueryParts::<F>::split([("sort", "a"), ("sort", "b")], &[]).unwrap_err().param(), "sort");
    }

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

    #[test]
    fn encodes_values() {
        assert_eq!(
            encode_query(&[("name", "a b&c".into()), ("x", String::new()), ("sort", "id,asc".into())]),
            "name=a%20b%26c&sort=id,asc"
        );
    }
}

/// A client's request for one page of a collection: 1-based `page`, `size`, an optional
/// `sort=field,dir` and the filters, in the order given. The portal's table keeps one in the
/// URL and its API calls send it; the server reads the same keys (`PageRequest`, `SortSpec`).
///
/// ```
/// use moneydesk_model::collections::{CollectionQuery, SortDir};
/// let q = CollectionQuery { page: 2, size: 50, sort: Some(("name".into(), SortDir::Desc)),
///     filters: vec![("accountStatus".into(), "Active".into())] };
/// let pairs: Vec<String> = q.pairs().into_iter().map(|(k, v)| format!("{k}={v}")).collect();
/// assert_eq!(pairs, ["page=2", "size=50", "sort=name,desc", "accountStatus=Active"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionQuery {
    pub page: u64,
    pub size: u32,
    pub sort: Option<(String, SortDir)>,
    pub filters: Vec<(String, String)>,
}

impl Default for CollectionQuery {
    fn default() -> Self {
        CollectionQuery { page: 1, size: crate::page::DEFAULT_PAGE_SIZE, sort: None, filters: Vec::new() }
    }
}

impl CollectionQuery {
    /// A filter's value, when given.
    pub fn filter(&self, param: &str) -> Option<&str> {
        self.filters.iter().find(|(k, _)| k == param).map(|(_, v)| v.as_str())
    }

    /// The query string's pairs: `page`, `size`, `sort` when set, then the filters.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut out = vec![("page".to_string(), self.page.to_string()), ("size".to_string(), self.size.to_string())];
        if let Some((field, dir)) = &self.sort {
            out.push(("sort".into(), format!("{field},{}", dir.as_str())));
        }
        out.extend(self.filters.iter().cloned());
        out
    }
}
