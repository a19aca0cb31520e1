//! Search the directory (extension): name, prefix, state, city, ZIP and which directory, in
//! the shared data table (paging, URL state, drawer, CSV). Filters are checked before sending.

use leptos::prelude::*;
use moneydesk_model::routing::ROUTING_SEARCH;
use moneydesk_model::FieldError;

use crate::api::ApiError;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format, TableQuery};
use crate::i18n::routing::{en, es, text, Routing};
use crate::i18n::{fill, pick};
use crate::session::use_auth;

/// The results' columns in a language's words (`c`: the labels, in this order).
const fn columns(c: &'static [&'static str; 8]) -> [Column; 8] {
    [
        Column::new("routingNumber", c[0], Format::Mono),
        Column::new("customerName", c[1], Format::Text),
        Column::new("customerCity", c[2], Format::Text),
        Column::new("customerState", c[3], Format::Text),
        Column::new("customerZip", c[4], Format::Mono),
        Column::new("inAch", c[5], Format::Bool),
        Column::new("inWire", c[6], Format::Bool),
        Column::new("score", c[7], Format::Number).hidden(),
    ]
}

const fn filters(t: &'static Routing) -> [FilterDef; 6] {
    let (l, p) = (&t.filters, &t.placeholders);
    [
        FilterDef::text("name", l[0], p[0]),
        FilterDef::text("prefix", l[1], p[1]),
        FilterDef::select("state", l[2], t.states),
        FilterDef::text("city", l[3], p[2]),
        FilterDef::text("zip", l[4], p[3]),
        FilterDef::select("directory", l[5], t.directory_options),
    ]
}

const COLUMNS: &[Column] = &columns(&en::TEXT.columns);
const COLUMNS_ES: &[Column] = &columns(&es::TEXT.columns);
const FILTERS: &[FilterDef] = &filters(&en::TEXT);
const FILTERS_ES: &[FilterDef] = &filters(&es::TEXT);

/// What is wrong with the search's filters, field by field, before anything is sent.
pub fn check_filters(filters: &[(String, String)]) -> Vec<FieldError> {
    let t = text();
    let mut errors = Vec::new();
    let get = |k: &str| filters.iter().find(|(p, _)| p == k).map(|(_, v)| v.trim()).filter(|v| !v.is_empty());
    if ["name", "prefix", "state", "city", "zip"].iter().all(|k| get(k).is_none()) {
        errors.push(FieldError::new("name", t.give_one));
    }
    if let Some(p) = get("prefix") {
        if !(2..=8).contains(&p.len()) || !p.bytes().all(|b| b.is_ascii_digit()) {
            errors.push(FieldError::new("prefix", fill(t.bad_prefix, &[&format!("{p:?}")])));
        }
    }
    if let Some(z) = get("zip") {
        let digits =
            |s: &str, n: std::ops::RangeInclusive<usize>| n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
        let ok = match z.split_once('-') {
            Some((five, four)) => digits(five, 5..=5) && digits(four, 4..=4),
            None => digits(z, 1..=5),
        };
        if !ok {
            errors.push(FieldError::new("zip", fill(t.bad_zip, &[&format!("{z:?}")])));
        }
    }
    errors
}

#[component]
pub fn SearchTab() -> impl IntoView {
    let auth = use_auth();
    let fetcher = Fetcher::new(move |q: &TableQuery| {
        let errors = check_filters(&q.filters);
        if errors.is_empty() {
            Box::pin(crate::api::page::get_page(&auth.client(), ROUTING_SEARCH, q))
        } else {
            // Said in one line, since nothing was sent: "prefix must be 2 to 8 digits, got \"0\"".
            let message = errors.iter().map(|e| format!("{} {}", e.field, e.problem)).collect::<Vec<_>>().join("; ");
            Box::pin(async move { Err(ApiError::Validation { message, fields: Vec::new() }) })
        }
    });
    let t = text();
    let (columns, filters) = *pick(&(COLUMNS, FILTERS), &(COLUMNS_ES, FILTERS_ES));
    view! {
        <p class="hint routing-search-hint">{t.search_hint}</p>
        <DataTable
            id="routing-search"
            caption=t.search_caption
            columns=columns
            filters=filters
            fetcher=fetcher
            row_key="routingNumber"
            title_key="customerName"
            require_filter=true
            idle_message=t.search_idle
        />
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn f(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[wasm_bindgen_test]
    fn filters_are_checked_before_sending() {
        assert!(check_filters(&f(&[("name", "first national")])).is_empty());
        assert!(check_filters(&f(&[("prefix", "0110"), ("zip", "02110-1234")])).is_empty());
        assert_eq!(check_filters(&f(&[("directory", "ach")]))[0].field, "name");
        let e = check_filters(&f(&[("prefix", "0"), ("zip", "1234567")]));
        assert_eq!(e.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["prefix", "zip"]);
        assert!(e[0].problem.contains("2 to 8 digits"));
    }
}
