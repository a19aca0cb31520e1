//! Saved views (extension): a data table's view (its filters, sort, page size and columns, as
//! the URL query the table owns) saved by name, per user, on the server, so that it follows the
//! user to another browser. A view opens at its page's path plus its query, which is also its
//! link.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The most characters of a view's name.
pub const MAX_NAME_CHARS: usize = 80;
/// The most characters of a table's id.
pub const MAX_TABLE_CHARS: usize = 64;
/// The most characters of a view's query.
pub const MAX_QUERY_CHARS: usize = 2000;
/// The most views a user keeps per table: a new name beyond it is refused (422, `too_many_views`).
pub const MAX_VIEWS_PER_TABLE: usize = 100;
/// The `reason` of the 422 past [`MAX_VIEWS_PER_TABLE`].
pub const TOO_MANY_VIEWS: &str = "too_many_views";

/// A saved view as the API answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SavedView {
    pub id: i64,
    /// The data table's id (`accounts`, `deposits`, …).
    pub table: String,
    pub name: String,
    /// The URL query the table owns, without `?` (`accountStatus=Active&sort=accountName,asc`);
    /// empty: the table's default view.
    pub query: String,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC: when it was last saved.
    pub updated_at: String,
}

/// What a save sends: the view's query (the table and the name are the path's).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SavedViewBody {
    /// At most 2000 visible ASCII characters, no `#` (one leading `?` is dropped); may be empty.
    #[cfg_attr(feature = "openapi", schema(pattern = "^\\??[!-\"$-~]{0,2000}$"))]
    pub query: String,
}

/// A view's name: trimmed, 1 to 80 characters, no control characters.
///
/// ```
/// use moneydesk_model::views::ViewName;
/// let name: ViewName = "  Active, newest first ".parse().unwrap();
/// assert_eq!(name.as_str(), "Active, newest first");
/// assert!("   ".parse::<ViewName>().is_err());
/// assert!("tab\there".parse::<ViewName>().is_err());
/// assert!("x".repeat(81).parse::<ViewName>().is_err());
/// assert!("Relevés été".parse::<ViewName>().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ViewName(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewNameError {
    #[error("name is empty")]
    Empty,
    #[error("name is {0} characters long; at most 80 are allowed")]
    TooLong(usize),
    #[error("name has a control character ({0:?})")]
    Control(char),
}

impl FromStr for ViewName {
    type Err = ViewNameError;
    fn from_str(s: &str) -> Result<ViewName, ViewNameError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ViewNameError::Empty);
        }
        let n = s.chars().count();
        if n > MAX_NAME_CHARS {
            return Err(ViewNameError::TooLong(n));
        }
        if let Some(c) = s.chars().find(|c| c.is_control()) {
            return Err(ViewNameError::Control(c));
        }
        Ok(ViewName(s.to_string()))
    }
}

/// A data table's id as the portal names its tables: a lowercase letter, then lowercase
/// letters, digits and `-`, at most 64 characters.
///
/// ```
/// use moneydesk_model::views::TableId;
/// assert_eq!("routing-search".parse::<TableId>().unwrap().as_str(), "routing-search");
/// assert!("Accounts".parse::<TableId>().is_err());
/// assert!("1st".parse::<TableId>().is_err());
/// assert!("".parse::<TableId>().is_err());
/// assert!("a/b".parse::<TableId>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableIdError {
    #[error("table is empty")]
    Empty,
    #[error("table is {0} characters long; at most 64 are allowed")]
    TooLong(usize),
    #[error("table must start with a lowercase letter and hold only lowercase letters, digits and '-'")]
    Shape,
}

impl FromStr for TableId {
    type Err = TableIdError;
    fn from_str(s: &str) -> Result<TableId, TableIdError> {
        if s.is_empty() {
            return Err(TableIdError::Empty);
        }
        if s.len() > MAX_TABLE_CHARS {
            return Err(TableIdError::TooLong(s.chars().count()));
        }
        let first = s.as_bytes()[0];
        if !first.is_ascii_lowercase() || !s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(TableIdError::Shape);
        }
        Ok(TableId(s.to_string()))
    }
}

/// A view's query: the URL query without its `?` (one leading `?` is dropped), at most 2000
/// visible ASCII characters (what a URL carries once percent-encoded), no `#`.
///
/// ```
/// use moneydesk_model::views::ViewQuery;
/// let q: ViewQuery = "?accountStatus=Active&sort=accountName,asc".parse().unwrap();
/// assert_eq!(q.as_str(), "accountStatus=Active&sort=accountName,asc");
/// assert_eq!("".parse::<ViewQuery>().unwrap().as_str(), "");
/// // The columns shown travel in the query too (`cols=`, the portal's table writes them).
/// assert!("sort=accountName,asc&cols=accountName,accountStatus,tin".parse::<ViewQuery>().is_ok());
/// assert!("name=a b".parse::<ViewQuery>().is_err(), "a space is written %20 or +");
/// assert!("a=1#top".parse::<ViewQuery>().is_err());
/// assert!("name=été".parse::<ViewQuery>().is_err(), "percent-encoded: name=%C3%A9t%C3%A9");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewQuery(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewQueryError {
    #[error("query is {0} characters long; at most 2000 are allowed")]
    TooLong(usize),
    #[error("query has {0:?}; write it percent-encoded, without '#'")]
    Character(char),
}

impl FromStr for ViewQuery {
    type Err = ViewQueryError;
    fn from_str(s: &str) -> Result<ViewQuery, ViewQueryError> {
        let s = s.strip_prefix('?').unwrap_or(s);
        if let Some(c) = s.chars().find(|c| !c.is_ascii_graphic() || *c == '#') {
            return Err(ViewQueryError::Character(c));
        }
        if s.len() > MAX_QUERY_CHARS {
            return Err(ViewQueryError::TooLong(s.len()));
        }
        Ok(ViewQuery(s.to_string()))
    }
}

macro_rules! text_newtype {
    ($($t:ident),*) => {$(
        impl $t {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    )*};
}

text_newtype!(ViewName, TableId, ViewQuery);

/// The link a view opens: the page's path with the view's query.
///
/// ```
/// use moneydesk_model::views::view_link;
/// assert_eq!(view_link("/accounts", "accountStatus=Active"), "/accounts?accountStatus=Active");
/// assert_eq!(view_link("/accounts", ""), "/accounts");
/// ```
pub fn view_link(page_path: &str, query: &str) -> String {
    if query.is_empty() {
        page_path.to_string()
    } else {
        format!("{page_path}?{query}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_view_is_camel_case_on_the_wire() {
        let v = SavedView {
            id: 7,
            table: "accounts".into(),
            name: "Active".into(),
            query: "accountStatus=Active".into(),
            created_at: "2026-11-28T21:00:00Z".into(),
            updated_at: "2026-11-28T21:00:00Z".into(),
        };
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["createdAt"], "2026-11-28T21:00:00Z");
        assert_eq!(json["updatedAt"], "2026-11-28T21:00:00Z");
        assert_eq!(serde_json::from_value::<SavedView>(json).unwrap(), v);
    }

    #[test]
    fn limits_are_counted_in_characters_at_the_edges() {
        assert!("é".repeat(80).parse::<ViewName>().is_ok());
        assert_eq!("é".repeat(81).parse::<ViewName>(), Err(ViewNameError::TooLong(81)));
        assert!("a".repeat(64).parse::<TableId>().is_ok());
        assert_eq!("a".repeat(65).parse::<TableId>(), Err(TableIdError::TooLong(65)));
        assert!(format!("?{}", "a".repeat(2000)).parse::<ViewQuery>().is_ok());
        assert_eq!("a".repeat(2001).parse::<ViewQuery>(), Err(ViewQueryError::TooLong(2001)));
    }
}
