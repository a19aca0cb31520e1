//! How a found record matched the text (which field, exact, prefix or contains), judged again
//! on the row: the SQL of a stage ORs several fields, the answer names the one that matched
//! best. Also the few words hits are written in.

use moneydesk_model::search::{query_value, MatchKind, SearchHit};

/// The text, lower-cased once, compared with a record's fields.
pub struct Matcher {
    q: String,
}

impl Matcher {
    pub fn new(text: &str) -> Matcher {
        Matcher { q: text.to_lowercase() }
    }

    /// How `value` holds the text, if it does (case-insensitive).
    pub fn text(&self, value: &str) -> Option<MatchKind> {
        let v = value.to_lowercase();
        if v == self.q {
            Some(MatchKind::Exact)
        } else if v.starts_with(&self.q) {
            Some(MatchKind::Prefix)
        } else if v.contains(&self.q) {
            Some(MatchKind::Contains)
        } else {
            None
        }
    }
}

/// The best of a record's field matches (exact before prefix before contains; the first
/// field listed among equals).
pub fn best(fields: impl IntoIterator<Item = (&'static str, Option<MatchKind>)>) -> Option<(MatchKind, &'static str)> {
    fields.into_iter().filter_map(|(f, m)| Some((m?, f))).min_by_key(|(m, _)| *m)
}

/// A hit; the hits of a group are then ordered by how they matched (stable: the stages'
/// newest-first order within each kind).
pub fn hit(
    id: String,
    title: String,
    detail: Option<String>,
    (matched, field): (MatchKind, &str),
    open: String,
) -> SearchHit {
    SearchHit { id, title, detail, matched, field: field.to_string(), open }
}

pub fn ranked(mut hits: Vec<SearchHit>) -> Vec<SearchHit> {
    hits.sort_by_key(|h| h.matched);
    hits
}

/// `path?k=v&...`, values encoded.
pub fn open(path: &str, pairs: &[(&str, &str)]) -> String {
    let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", query_value(v))).collect();
    if query.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// Cents as the API writes amounts (`1234.50`).
pub fn decimal(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Cents for people (`$1,234.50`).
pub fn dollars(cents: i64) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_field_names_the_match() {
        let m = Matcher::new("ACME");
        assert_eq!(m.text("acme"), Some(MatchKind::Exact));
        assert_eq!(m.text("Acme Corp"), Some(MatchKind::Prefix));
        assert_eq!(m.text("The Acme"), Some(MatchKind::Contains));
        assert_eq!(m.text("Zenith"), None);
        let b = best([("name", m.text("The Acme")), ("id", m.text("acme")), ("number", None)]);
        assert_eq!(b, Some((MatchKind::Exact, "id")));
    }

    #[test]
    fn amounts_and_links_are_written_plainly() {
        assert_eq!(dollars(123_456_789), "$1,234,567.89");
        assert_eq!(dollars(5), "$0.05");
        assert_eq!(decimal(12_050), "120.50");
        assert_eq!(open("/email", &[("tab", "outbox"), ("q", "a b")]), "/email?tab=outbox&q=a%20b");
    }
}
