//! What the paginated collections (accounts, permissions) share: `sort=field,asc|desc`,
//! query errors that name their parameter, splitting a query into paging, sort and filters,
//! and [`LocalDateTime`], the API's zone-less ISO 8601 timestamp with fractional seconds.

use crate::page::{PageRequest, PageRequestError};

mod local_date_time;

pub use local_date_time::{DateTimeError, LocalDateTime};

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
