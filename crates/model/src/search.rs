//! One search across everything (extension, issue 45): `GET SEARCH?q=&limit=` answers, per
//! group the token's scopes open, the records the text names, ranked (exact id or number, then
//! prefix, then contains), each with where the portal opens it (a list path and the query that
//! opens its drawer). What the text looks like ([`QueryShape`]) decides which fields are asked.
//!
//! ```
//! use moneydesk_model::search::{Query, QueryShape};
//!
//! assert_eq!(Query::parse("011000015").unwrap().shape, QueryShape::RoutingNumber);
//! assert_eq!(Query::parse("$1,250.50").unwrap().cents, Some(125_050));
//! assert_eq!(Query::parse("ana@example.com").unwrap().shape, QueryShape::Email);
//! assert_eq!(Query::parse("1042").unwrap().shape, QueryShape::Number);
//! assert_eq!(Query::parse("  Acme  ").unwrap().text, "Acme");
//! assert!(Query::parse(" ").is_err());
//! ```

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// Results per group when `limit` is not given.
pub const DEFAULT_LIMIT: u32 = 5;
/// The most results per group one request may ask for.
pub const MAX_LIMIT: u32 = 20;
/// The shortest and longest text searched (in characters, trimmed; a number may be one digit).
pub const MIN_CHARS: usize = 2;
pub const MAX_CHARS: usize = 100;

vocabulary!(
    /// A group the search reaches, in the order the answer lists them.
    pub enum SearchGroup {
        Deposits = "deposits" / "Deposits",
        Accounts = "accounts" / "Accounts",
        Routing = "routing" / "Routing directory",
        Vault = "vault" / "Vault files",
        Email = "email" / "Email outbox",
        Tokens = "tokens" / "Tokens",
    }
);

vocabulary!(
    /// What the text looks like, which decides the fields each group compares it with.
    pub enum QueryShape {
        /// Nine digits whose ABA check digit is right.
        RoutingNumber = "routingNumber" / "Routing number",
        /// Money: a decimal with one or two places, or a `$` before it (`12.50`, `$1,200`).
        Amount = "amount" / "Amount",
        /// Has an `@`: an address or a part of one.
        Email = "email" / "Email address",
        /// Only digits: an id, a check or account number (and whole dollars).
        Number = "number" / "Number",
        /// Anything else: names, subjects, file names.
        Text = "text" / "Text",
    }
);

vocabulary!(
    /// How a record matched: the answer is ranked by it (exact first).
    #[derive(PartialOrd, Ord)]
    pub enum MatchKind {
        /// The whole id, number or name.
        Exact = "exact" / "Exact",
        /// The start of it.
        Prefix = "prefix" / "Starts with",
        /// Somewhere inside it.
        Contains = "contains" / "Contains",
    }
);

/// A search text checked and read: its shape and, for money, its cents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// Trimmed.
    pub text: String,
    pub shape: QueryShape,
    /// The amount in cents: an `Amount`, or a `Number` read as whole dollars.
    pub cents: Option<i64>,
}

/// Why a search text is refused (a `400` naming `q`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("q is required: give at least {MIN_CHARS} characters to search for")]
    TooShort,
    #[error("q is too long: at most {MAX_CHARS} characters")]
    TooLong,
    #[error("q must not contain control characters")]
    Control,
}

impl Query {
    pub fn parse(raw: &str) -> Result<Query, QueryError> {
        let text = raw.trim();
        let n = text.chars().count();
        // A number is an id at any length (deposit 7); other text needs two characters.
        if n < MIN_CHARS && !(n == 1 && text.bytes().all(|b| b.is_ascii_digit())) {
            return Err(QueryError::TooShort);
        }
        if n > MAX_CHARS {
            return Err(QueryError::TooLong);
        }
        if text.chars().any(char::is_control) {
            return Err(QueryError::Control);
        }
        let digits = text.bytes().all(|b| b.is_ascii_digit());
        let (shape, cents) = if text.contains('@') {
            (QueryShape::Email, None)
        } else if digits && crate::routing::RoutingNumber::parse(text).is_ok() {
            (QueryShape::RoutingNumber, None)
        } else if digits {
            (QueryShape::Number, text.parse::<i64>().ok().and_then(|d| d.checked_mul(100)))
        } else if let Some(c) = amount_cents(text) {
            (QueryShape::Amount, Some(c))
        } else {
            (QueryShape::Text, None)
        };
        Ok(Query { text: text.to_string(), shape, cents })
    }

    /// The digits of a number-like text (`Number`, `RoutingNumber`), for numeric ids.
    pub fn number(&self) -> Option<i64> {
        matches!(self.shape, QueryShape::Number | QueryShape::RoutingNumber).then(|| self.text.parse().ok()).flatten()
    }
}

/// `12.5`, `12.50`, `1,234.56`, `$100`, `$ 1,200.00` in cents; `None` for other text.
fn amount_cents(text: &str) -> Option<i64> {
    let dollar = text.starts_with('$');
    let body = text.trim_start_matches('$').trim_start();
    let (whole, frac) = match body.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (body, None),
    };
    if !dollar && frac.is_none() {
        return None;
    }
    let grouped = whole.contains(',');
    let plain: String = whole.chars().filter(|c| *c != ',').collect();
    let groups_ok = !grouped || {
        let mut parts = whole.split(',');
        let first = parts.next().unwrap_or_default();
        (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
    };
    if plain.is_empty() || plain.len() > 12 || !plain.bytes().all(|b| b.is_ascii_digit()) || !groups_ok {
        return None;
    }
    let cents = match frac {
        None => 0,
        Some(f) if (1..=2).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
            f.parse::<i64>().ok()? * if f.len() == 1 { 10 } else { 1 }
        }
        Some(_) => return None,
    };
    plain.parse::<i64>().ok()?.checked_mul(100)?.checked_add(cents)
}

/// One record found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchHit {
    /// The record's id as its group writes it (a vault file: its path).
    pub id: String,
    /// What the record is called in its list (a name, a check number and amount, a subject).
    pub title: String,
    /// A second line: more of the record to tell it from others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(rename = "match")]
    pub matched: MatchKind,
    /// The field the text matched, in the API's words (`checkNumber`, `accountName`, ...).
    pub field: String,
    /// Where the portal opens it: the list's path and the query that opens its drawer
    /// (`/deposits?amountMin=12.50&amountMax=12.50&open=7`).
    pub open: String,
}

/// One group's records, best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchGroupHits {
    pub group: SearchGroup,
    pub hits: Vec<SearchHit>,
    /// More records matched than `limit`: the list behind `open` of the group shows them.
    pub more: bool,
}

/// The answer: the groups the token's scopes open, in [`SearchGroup::ALL`]'s order, each
/// present even when it found nothing (so "nothing in deposits" is said, not guessed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SearchResult {
    /// The text searched, trimmed.
    pub q: String,
    pub shape: QueryShape,
    pub groups: Vec<SearchGroupHits>,
}

/// `?`-query values written for an `open` link: percent-encoded except unreserved characters.
pub fn query_value(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(q: &str) -> QueryShape {
        Query::parse(q).unwrap().shape
    }

    #[test]
    fn a_routing_number_needs_its_check_digit() {
        assert_eq!(shape("021000021"), QueryShape::RoutingNumber);
        assert_eq!(shape("021000022"), QueryShape::Number, "a wrong check digit is just a number");
        assert_eq!(shape("0210000"), QueryShape::Number);
    }

    #[test]
    fn money_is_read_in_cents_and_whole_numbers_as_dollars() {
        assert_eq!(Query::parse("12.5").unwrap().cents, Some(1250));
        assert_eq!(Query::parse("12.05").unwrap().cents, Some(1205));
        assert_eq!(Query::parse("$100").unwrap().cents, Some(10_000));
        assert_eq!(Query::parse("1,234.56").unwrap().cents, Some(123_456));
        assert_eq!(Query::parse("250").unwrap().cents, Some(25_000));
        assert_eq!(shape("1.234"), QueryShape::Text, "three places is not money");
        assert_eq!(shape("12,34.00"), QueryShape::Text, "misplaced grouping is not money");
        assert_eq!(shape("v1.2"), QueryShape::Text);
    }

    #[test]
    fn addresses_and_text() {
        assert_eq!(shape("ana@"), QueryShape::Email);
        assert_eq!(shape("invoice.pdf"), QueryShape::Text);
        assert_eq!(Query::parse("1042").unwrap().number(), Some(1042));
        assert_eq!(Query::parse("acme").unwrap().number(), None);
    }

    #[test]
    fn bad_text_is_refused_with_its_reason() {
        assert_eq!(Query::parse(""), Err(QueryError::TooShort));
        assert_eq!(Query::parse(" a "), Err(QueryError::TooShort));
        assert_eq!(Query::parse("7").unwrap().number(), Some(7), "one digit is an id");
        assert_eq!(Query::parse(&"x".repeat(101)), Err(QueryError::TooLong));
        assert_eq!(Query::parse("a\u{7}b"), Err(QueryError::Control));
        assert!(QueryError::TooShort.to_string().starts_with("q is required"));
    }

    #[test]
    fn match_kinds_rank_exact_first() {
        assert!(MatchKind::Exact < MatchKind::Prefix && MatchKind::Prefix < MatchKind::Contains);
        let hit = SearchHit {
            id: "7".into(),
            title: "Check 1042".into(),
            detail: None,
            matched: MatchKind::Exact,
            field: "checkNumber".into(),
            open: "/deposits?open=7".into(),
        };
        let json = serde_json::to_value(&hit).unwrap();
        assert_eq!(json["match"], "exact");
        assert_eq!(json.get("detail"), None);
        assert_eq!(query_value("a b/c"), "a%20b%2Fc");
    }
}
