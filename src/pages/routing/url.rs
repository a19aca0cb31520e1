//! The page's state in its URL (`/routing?tab=search&name=...`), so reload, back/forward and
//! a shared link restore the view. Keys are written in one fixed order; empty values are left out.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

pub const PATH: &str = "/routing";

/// Every key the page reads, in the order it writes them.
/// (The search table writes its own keys and keeps these; this list keeps the table's.)
pub const KEYS: [&str; 11] =
    ["tab", "number", "name", "prefix", "state", "city", "zip", "directory", "page", "size", "sort"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Lookup,
    Search,
    Bulk,
}

impl Tab {
    pub const ALL: [Tab; 3] = [Tab::Lookup, Tab::Search, Tab::Bulk];

    pub fn parse(s: Option<&str>) -> Tab {
        match s {
            Some("search") => Tab::Search,
            Some("bulk") => Tab::Bulk,
            _ => Tab::Lookup,
        }
    }

    /// The URL value; the default tab is left out of the URL.
    pub fn key(self) -> &'static str {
        match self {
            Tab::Lookup => "lookup",
            Tab::Search => "search",
            Tab::Bulk => "bulk",
        }
    }

    pub fn label(self) -> &'static str {
        let [lookup, search, bulk] = crate::i18n::routing::text().tabs;
        match self {
            Tab::Lookup => lookup,
            Tab::Search => search,
            Tab::Bulk => bulk,
        }
    }
}

/// The page's query with `changes` applied (`None` removes a key), as `?a=1&b=2` (or "").
pub fn query_with(current: &[(String, String)], changes: &[(&str, Option<String>)]) -> String {
    let value = |key: &str| -> Option<String> {
        match changes.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => v.clone(),
            None => current.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
        }
    };
    let parts: Vec<String> = KEYS
        .iter()
        .filter_map(|k| {
            let v = value(k)?;
            let v = v.trim();
            if v.is_empty() || (*k == "tab" && v == Tab::Lookup.key()) {
                return None;
            }
            Some(format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

fn pairs(map: &ParamsMap) -> Vec<(String, String)> {
    KEYS.iter().filter_map(|k| map.get(k).map(|v| (k.to_string(), v))).collect()
}

/// Reads and writes the page's URL state.
#[derive(Clone, Copy)]
pub struct UrlState {
    pub query: Memo<ParamsMap>,
    navigate: StoredValue<Box<dyn Fn(&str, NavigateOptions) + Send + Sync>>,
}

impl UrlState {
    pub fn new() -> Self {
        let navigate = use_navigate();
        UrlState { query: use_query_map(), navigate: StoredValue::new(Box::new(navigate)) }
    }

    /// A query value (tracked), "" when absent.
    pub fn get(&self, key: &str) -> String {
        self.query.with(|q| q.get(key)).unwrap_or_default()
    }

    pub fn get_untracked(&self, key: &str) -> String {
        self.query.with_untracked(|q| q.get(key)).unwrap_or_default()
    }

    pub fn tab(&self) -> Tab {
        self.query.with(|q| Tab::parse(q.get_str("tab")))
    }

    /// The page's path with `changes` applied to the current query.
    pub fn href(&self, changes: &[(&str, Option<String>)]) -> String {
        let current = self.query.with_untracked(pairs);
        format!("{PATH}{}", query_with(&current, changes))
    }

    /// Goes there: a new history entry, or `replace` the current one (typing).
    pub fn set(&self, changes: &[(&str, Option<String>)], replace: bool) {
        let href = self.href(changes);
        self.navigate.with_value(|n| n(&href, NavigateOptions { replace, scroll: false, ..Default::default() }));
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn cur(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[wasm_bindgen_test]
    fn queries_round_trip_in_a_fixed_order() {
        let now = cur(&[("name", "first & main"), ("tab", "search"), ("page", "2")]);
        assert_eq!(query_with(&now, &[]), "?tab=search&name=first%20%26%20main&page=2");
        assert_eq!(
            query_with(&now, &[("page", None), ("state", Some("NY".into()))]),
            "?tab=search&name=first%20%26%20main&state=NY"
        );
        assert_eq!(query_with(&now, &[("tab", Some("lookup".into()))]), "?name=first%20%26%20main&page=2");
        assert_eq!(query_with(&[], &[("number", Some(" ".into()))]), "");
        assert_eq!(query_with(&[], &[("number", Some("011000015".into()))]), "?number=011000015");
        assert_eq!(Tab::parse(Some("bulk")), Tab::Bulk);
        assert_eq!(Tab::parse(Some("nonsense")), Tab::Lookup);
        assert_eq!(Tab::parse(None), Tab::Lookup);
    }
}
