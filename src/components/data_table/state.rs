//! The table's view as URL query state (page, size, sort, filters), the API query it turns
//! into, and the fetcher a page plugs in.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use moneydesk_model::collections::{CollectionQuery, SortDir};
use moneydesk_model::page::{DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
use moneydesk_model::Page;
use serde_json::Value;

use super::column::{Column, FilterDef};
use crate::api::ApiError;

pub const PAGE_SIZES: [u32; 5] = [10, 25, 50, 100, 500];
pub const DEFAULT_SIZE: u32 = DEFAULT_PAGE_SIZE;
pub const MAX_SIZE: u32 = MAX_PAGE_SIZE;

/// What the table shows, as kept in the URL: `page` is 1-based like the API's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableState {
    pub page: u64,
    pub size: u32,
    /// The API's sort field and direction.
    pub sort: Option<(String, SortDir)>,
    /// Non-empty filter values, in the order of the table's filters.
    pub filters: Vec<(String, String)>,
}

impl Default for TableState {
    fn default() -> Self {
        TableState { page: 1, size: DEFAULT_SIZE, sort: None, filters: Vec::new() }
    }
}

/// One request for a page: what the fetcher gets (the model's type, which the api layer takes).
pub type TableQuery = CollectionQuery;

impl TableState {
    /// Reads the table's keys through `get` (the URL query); anything unusable falls back to
    /// the default (a hand-edited `page=abc` shows page 1), a sort on a field no column
    /// offers is dropped, sizes are clamped to 1..=500.
    pub fn from_params(get: impl Fn(&str) -> Option<String>, columns: &[Column], filters: &[FilterDef]) -> Self {
        let page = get("page").and_then(|p| p.trim().parse::<u64>().ok()).filter(|p| *p > 0).unwrap_or(1);
        let size = get("size")
            .and_then(|s| s.trim().parse::<u32>().ok())
            .filter(|s| *s > 0)
            .map_or(DEFAULT_SIZE, |s| s.min(MAX_SIZE));
        let sort = get("sort").and_then(|s| {
            let (field, dir) = s.split_once(',').unwrap_or((s.as_str(), "asc"));
            let dir = match dir.trim().to_ascii_lowercase().as_str() {
                "desc" => SortDir::Desc,
                _ => SortDir::Asc,
            };
            let field = field.trim();
            columns.iter().find_map(|c| c.sort.filter(|f| *f == field)).map(|f| (f.to_string(), dir))
        });
        let filters = filters
            .iter()
            .filter_map(|f| get(f.param).map(|v| (f.param.to_string(), v.trim().to_string())))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        TableState { page, size, sort, filters }
    }

    /// The URL's pairs for this state, defaults left out.
    pub fn url_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.page != 1 {
            out.push(("page".into(), self.page.to_string()));
        }
        if self.size != DEFAULT_SIZE {
            out.push(("size".into(), self.size.to_string()));
        }
        if let Some((field, dir)) = &self.sort {
            out.push(("sort".into(), format!("{field},{}", dir.as_str())));
        }
        out.extend(self.filters.iter().cloned());
        out
    }

    /// The API's request for this view.
    pub fn query(&self) -> CollectionQuery {
        CollectionQuery { page: self.page, size: self.size, sort: self.sort.clone(), filters: self.filters.clone() }
    }

    /// The API's query: `page` (1-based), `size`, `sort=field,dir`, and the filters.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.query().pairs()
    }

    pub fn filter(&self, param: &str) -> Option<&str> {
        self.filters.iter().find(|(k, _)| k == param).map(|(_, v)| v.as_str())
    }

    /// The same view with one filter set (or cleared when `value` is blank), back on page 1.
    pub fn with_filter(&self, param: &str, value: &str, order: &[FilterDef]) -> TableState {
        let value = value.trim();
        let filters = order
            .iter()
            .filter_map(|f| {
                if f.param == param {
                    (!value.is_empty()).then(|| (param.to_string(), value.to_string()))
                } else {
                    self.filter(f.param).map(|v| (f.param.to_string(), v.to_string()))
                }
            })
            .collect();
        TableState { page: 1, filters, ..self.clone() }
    }

    /// Clicking a column's header: ascending, then descending, then unsorted; back on page 1.
    pub fn toggled_sort(&self, field: &str) -> TableState {
        let mut next = self.clone();
        next.page = 1;
        next.sort = match &self.sort {
            Some((f, SortDir::Asc)) if f == field => Some((field.to_string(), SortDir::Desc)),
            Some((f, SortDir::Desc)) if f == field => None,
            _ => Some((field.to_string(), SortDir::Asc)),
        };
        next
    }

    /// A new page size, on the page that holds the first row shown now.
    pub fn with_size(&self, size: u32) -> TableState {
        let size = size.clamp(1, MAX_SIZE);
        let first_row = (self.page - 1) * self.size as u64;
        TableState { page: first_row / size as u64 + 1, size, ..self.clone() }
    }

    pub fn with_page(&self, page: u64) -> TableState {
        TableState { page: page.max(1), ..self.clone() }
    }
}

/// The URL key of the columns shown (`cols=accountName,tin`): beside the view's keys, so that a
/// link (and a saved view) shows the same columns; it asks nothing of the API.
pub const COLS: &str = "cols";

/// The columns a `cols=` list names, in the table's order (unknown keys dropped); `None` when
/// it names none the table has (then the device's choice applies).
pub fn chosen_columns(list: &str, columns: &[Column]) -> Option<Vec<&'static str>> {
    let keys: Vec<&'static str> =
        columns.iter().filter(|c| list.split(',').any(|k| k.trim() == c.key)).map(|c| c.key).collect();
    (!keys.is_empty()).then_some(keys)
}

/// The URL's pair for a column choice.
pub fn columns_pair(keys: Option<&[&str]>) -> Option<(String, String)> {
    keys.map(|k| (COLS.to_string(), k.join(",")))
}

/// The query string after the table's view changed: every key the table does not own stays
/// as it was (in order); the table's keys come from `state`, then the columns from `cols`.
pub fn merge_query(current: &[(String, String)], owned: &[&str], state: &TableState, cols: Option<&[&str]>) -> String {
    let kept = current.iter().filter(|(k, _)| !owned.contains(&k.as_str()) && k != COLS).cloned();
    let all: Vec<(String, String)> = kept.chain(state.url_pairs()).chain(columns_pair(cols)).collect();
    encode(&all)
}

/// `a=1&b=x%20y` from pairs (values and keys percent-encoded).
pub fn encode(pairs: &[(String, String)]) -> String {
    let mut out = String::new();
    for (k, v) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        push_encoded(&mut out, k);
        out.push('=');
        push_encoded(&mut out, v);
    }
    out
}

fn push_encoded(out: &mut String, s: &str) {
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' | b':' => out.push(b as char),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
}

/// Parses `?a=1&b=x+y%21` into pairs (for the round trip in tests and for reading the URL).
pub fn decode(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (unescape(k), unescape(v))
        })
        .collect()
}

fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a fetcher's call returns: the API's page of JSON records.
pub type PageFuture = Pin<Box<dyn Future<Output = Result<Page<Value>, ApiError>>>>;

/// How a table gets a page. Called inside a reactive owner: the api client aborts the request
/// when that owner is cleaned up (the query changed, the export was cancelled, the page left).
#[derive(Clone)]
pub struct Fetcher(Arc<dyn Fn(&TableQuery) -> PageFuture + Send + Sync>);

impl Fetcher {
    pub fn new(f: impl Fn(&TableQuery) -> PageFuture + Send + Sync + 'static) -> Fetcher {
        Fetcher(Arc::new(f))
    }

    /// GET `path` with the table's query; the answer is `Envelope<Page<_>>`. Takes the signed-in
    /// client from context, so call it inside a component.
    pub fn get(path: &'static str) -> Fetcher {
        let auth = crate::session::use_auth();
        Fetcher::new(move |q| Box::pin(crate::api::page::get_page(&auth.client(), path, q)))
    }

    pub fn fetch(&self, view: &TableState) -> PageFuture {
        (self.0)(&view.query())
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::components::data_table::column::Format;

    const COLS: &[Column] = &[
        Column::new("accountName", "Name", Format::Text).sortable(),
        Column::new("createTime", "Created", Format::DateTime).sortable(),
        Column::new("tin", "TIN", Format::Mono),
    ];
    const FILTERS: &[FilterDef] = &[FilterDef::text("name", "Name", ""), FilterDef::date("createTimeFrom", "From")];

    fn parse(q: &str) -> TableState {
        let pairs = decode(q);
        TableState::from_params(|k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()), COLS, FILTERS)
    }

    #[wasm_bindgen_test]
    fn url_state_round_trips() {
        let s = parse("?page=3&size=50&sort=createTime,desc&name=Harbor+Point%20%26+Co&createTimeFrom=2024-01-01");
        assert_eq!(s.page, 3);
        assert_eq!(s.size, 50);
        assert_eq!(s.sort, Some(("createTime".into(), SortDir::Desc)));
        assert_eq!(s.filter("name"), Some("Harbor Point & Co"));
        let url = merge_query(&[], &["page", "size", "sort", "name", "createTimeFrom"], &s, None);
        assert_eq!(url, "page=3&size=50&sort=createTime,desc&name=Harbor%20Point%20%26%20Co&createTimeFrom=2024-01-01");
        assert_eq!(parse(&url), s, "what the table writes it reads back");
        assert_eq!(encode(&TableState::default().url_pairs()), "", "defaults stay out of the URL");
        assert_eq!(parse(""), TableState::default());
    }

    #[wasm_bindgen_test]
    fn a_column_list_keeps_the_tables_order_and_known_keys() {
        assert_eq!(chosen_columns("tin, accountName,nope", COLS), Some(vec!["accountName", "tin"]));
        assert_eq!(chosen_columns("nope", COLS), None, "none known: the device's choice");
        assert_eq!(chosen_columns("", COLS), None);
        assert_eq!(columns_pair(Some(&["accountName", "tin"])), Some(("cols".into(), "accountName,tin".into())));
    }

    #[wasm_bindgen_test]
    fn odd_urls_fall_back_to_something_sensible() {
        let s = parse("page=abc&size=100000&sort=tin,desc&name=&other=1");
        assert_eq!((s.page, s.size, s.sort.clone()), (1, 500, None), "tin is not sortable");
        assert!(s.filters.is_empty());
        assert_eq!(parse("page=0&size=0").with_page(0), TableState::default());
        assert_eq!(parse("sort=accountName").sort, Some(("accountName".into(), SortDir::Asc)));
        assert_eq!(decode("a=%zz&b=%E2%82%AC"), vec![("a".into(), "%zz".into()), ("b".into(), "€".into())]);
    }

    #[wasm_bindgen_test]
    fn changes_keep_foreign_keys_and_reset_the_page() {
        let s = parse("page=4&size=25&sort=accountName,asc");
        let sorted = s.toggled_sort("accountName");
        assert_eq!((sorted.page, sorted.sort.clone()), (1, Some(("accountName".into(), SortDir::Desc))));
        assert_eq!(sorted.toggled_sort("accountName").sort, None);
        assert_eq!(s.toggled_sort("createTime").sort, Some(("createTime".into(), SortDir::Asc)));
        // Rows 76-100 shown; at 10 a page, row 76 is on page 8; at 100, page 1.
        assert_eq!(s.with_size(10).page, 8);
        assert_eq!(s.with_size(100).page, 1);
        let f = s.with_filter("createTimeFrom", "2024-01-01", FILTERS).with_filter("name", " dental ", FILTERS);
        assert_eq!(f.page, 1);
        assert_eq!(f.filters, vec![("name".into(), "dental".into()), ("createTimeFrom".into(), "2024-01-01".into())]);
        assert!(f.with_filter("name", "  ", FILTERS).filter("name").is_none());
        let current = decode("tab=search&page=4&number=021000021");
        let q = merge_query(&current, &["page", "size", "sort", "name", "createTimeFrom"], &f, None);
        assert_eq!(q, "tab=search&number=021000021&size=25&sort=accountName,asc&name=dental&createTimeFrom=2024-01-01");
        let with_cols =
            merge_query(&decode("cols=tin&tab=x"), &["page"], &TableState::default(), Some(&["tin", "accountName"]));
        assert_eq!(with_cols, "tab=x&cols=tin,accountName", "the columns go last, once");
        assert_eq!(
            f.pairs(),
            [
                ("page", "1"),
                ("size", "25"),
                ("sort", "accountName,asc"),
                ("name", "dental"),
                ("createTimeFrom", "2024-01-01")
            ]
            .map(|(a, b)| (a.to_string(), b.to_string()))
        );
    }
}
