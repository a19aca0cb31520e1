//! Search the directory (extension): name, prefix, state, city, ZIP and which directory, in
//! the shared data table (paging, URL state, drawer, CSV). Filters are checked before sending.

use leptos::prelude::*;
use moneydesk_model::routing::ROUTING_SEARCH;
use moneydesk_model::FieldError;

use crate::api::ApiError;
use crate::components::data_table::{Column, DataTable, Fetcher, FilterDef, Format, TableQuery};
use crate::session::use_auth;

const COLUMNS: &[Column] = &[
    Column::new("routingNumber", "Routing number", Format::Mono),
    Column::new("customerName", "Institution", Format::Text),
    Column::new("customerCity", "City", Format::Text),
    Column::new("customerState", "State", Format::Text),
    Column::new("customerZip", "ZIP", Format::Mono),
    Column::new("inAch", "In ACH", Format::Bool),
    Column::new("inWire", "In wire", Format::Bool),
    Column::new("score", "Name match", Format::Number).hidden(),
];

const STATES: &[(&str, &str)] = &[
    ("AL", "AL Alabama"),
    ("AK", "AK Alaska"),
    ("AS", "AS American Samoa"),
    ("AZ", "AZ Arizona"),
    ("AR", "AR Arkansas"),
    ("CA", "CA California"),
    ("CO", "CO Colorado"),
    ("CT", "CT Connecticut"),
    ("DE", "DE Delaware"),
    ("DC", "DC District of Columbia"),
    ("FL", "FL Florida"),
    ("GA", "GA Georgia"),
    ("GU", "GU Guam"),
    ("HI", "HI Hawaii"),
    ("ID", "ID Idaho"),
    ("IL", "IL Illinois"),
    ("IN", "IN Indiana"),
    ("IA", "IA Iowa"),
    ("KS", "KS Kansas"),
    ("KY", "KY Kentucky"),
    ("LA", "LA Louisiana"),
    ("ME", "ME Maine"),
    ("MD", "MD Maryland"),
    ("MA", "MA Massachusetts"),
    ("MI", "MI Michigan"),
    ("MN", "MN Minnesota"),
    ("MS", "MS Mississippi"),
    ("MO", "MO Missouri"),
    ("MT", "MT Montana"),
    ("NE", "NE Nebraska"),
    ("NV", "NV Nevada"),
    ("NH", "NH New Hampshire"),
    ("NJ", "NJ New Jersey"),
    ("NM", "NM New Mexico"),
    ("NY", "NY New York"),
    ("NC", "NC North Carolina"),
    ("ND", "ND North Dakota"),
    ("MP", "MP Northern Mariana Islands"),
    ("OH", "OH Ohio"),
    ("OK", "OK Oklahoma"),
    ("OR", "OR Oregon"),
    ("PA", "PA Pennsylvania"),
    ("PR", "PR Puerto Rico"),
    ("RI", "RI Rhode Island"),
    ("SC", "SC South Carolina"),
    ("SD", "SD South Dakota"),
    ("TN", "TN Tennessee"),
    ("TX", "TX Texas"),
    ("UT", "UT Utah"),
    ("VT", "VT Vermont"),
    ("VI", "VI Virgin Islands"),
    ("VA", "VA Virginia"),
    ("WA", "WA Washington"),
    ("WV", "WV West Virginia"),
    ("WI", "WI Wisconsin"),
    ("WY", "WY Wyoming"),
];

const DIRECTORIES: &[(&str, &str)] = &[("ach", "FedACH only"), ("wire", "Fedwire only")];

const FILTERS: &[FilterDef] = &[
    FilterDef::text("name", "Name", "e.g. first national bank"),
    FilterDef::text("prefix", "Number prefix", "2 to 8 digits"),
    FilterDef::select("state", "State", STATES),
    FilterDef::text("city", "City", "e.g. Boston"),
    FilterDef::text("zip", "ZIP", "e.g. 021 or 02110"),
    FilterDef::select("directory", "Directory", DIRECTORIES),
];

/// What is wrong with the search's filters, field by field, before anything is sent.
pub fn check_filters(filters: &[(String, String)]) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let get = |k: &str| filters.iter().find(|(p, _)| p == k).map(|(_, v)| v.trim()).filter(|v| !v.is_empty());
    if ["name", "prefix", "state", "city", "zip"].iter().all(|k| get(k).is_none()) {
        errors.push(FieldError::new("name", "give at least one of name, prefix, state, city or ZIP"));
    }
    if let Some(p) = get("prefix") {
        if !(2..=8).contains(&p.len()) || !p.bytes().all(|b| b.is_ascii_digit()) {
            errors.push(FieldError::new("prefix", format!("must be 2 to 8 digits, got {p:?}")));
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
            errors.push(FieldError::new("zip", format!("must be 1 to 5 digits or ZIP+4 like 12345-6789, got {z:?}")));
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
    view! {
        <p class="hint routing-search-hint">
            "Names are matched loosely (punctuation, “N.A.”, “&” and common abbreviations); "
            "combine any filters. Select a row for both directory records."
        </p>
        <DataTable
            id="routing-search"
            caption="Routing directory search results"
            columns=COLUMNS
            filters=FILTERS
            fetcher=fetcher
            row_key="routingNumber"
            title_key="customerName"
            require_filter=true
            idle_message="Search by name, routing number prefix, state, city or ZIP."
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
