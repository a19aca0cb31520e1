//! The table mounted in Chromium with a fake fetcher: rows, paging through the URL, sort,
//! page size, filters, the drawer with the keyboard, the empty and error states.
//! The windowing of long pages is in `tests/windowing.rs`.

use std::sync::{Arc, Mutex};

use leptos::prelude::*;
use leptos_router::components::Router;
use moneydesk_model::{Page, PageRequest, Sort};
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use super::*;
use crate::api::ApiError;
use crate::test_util::{container, find, text_containing, wait_until};

mod bulk;
mod spanish;
mod windowing;

const STATUSES: &[(&str, &str)] = &[("Active", "Active"), ("Closed", "Closed")];
const COLS: &[Column] = &[
    Column::new("id", "Id", Format::Mono).sortable(),
    Column::new("name", "Name", Format::Text).sortable(),
    Column::new("status", "Status", Format::Badge),
    Column::new("value", "Value", Format::Money),
    Column::new("secret", "Secret", Format::Text).hidden(),
];
const FILTERS: &[FilterDef] =
    &[FilterDef::text("name", "Name", "contains"), FilterDef::select("status", "Status", STATUSES)];

/// 42 records; `name` filters by "contains", `sort=name,desc` reverses; `fail` makes the
/// next call fail once.
fn fake(calls: Arc<Mutex<Vec<TableQuery>>>, fail: Arc<Mutex<bool>>) -> Fetcher {
    Fetcher::new(move |q| {
        calls.lock().unwrap().push(q.clone());
        let failing = std::mem::take(&mut *fail.lock().unwrap());
        let mut all: Vec<Value> = (1..=42)
            .map(|i| json!({"id": i, "name": format!("Item {i:02}"), "status": if i % 2 == 0 {"Active"} else {"Closed"}, "value": format!("{i}000.5"), "secret": "s", "extra": {"nested": true}}))
            .filter(|r| q.filter("name").is_none_or(|n| r["name"].as_str().unwrap().contains(n)))
            .collect();
        if q.sort.as_ref().is_some_and(|(_, d)| *d == SortDir::Desc) {
            all.reverse();
        }
        let req = PageRequest { index: q.page - 1, size: q.size };
        let content: Vec<Value> = all.iter().skip(req.offset() as usize).take(q.size as usize).cloned().collect();
        let page = Page::build(req, all.len() as u64, content, Sort::UNSORTED);
        let result =
            if failing { Err(ApiError::Network { url: "/things".into(), message: "down".into() }) } else { Ok(page) };
        Box::pin(std::future::ready(result))
    })
}

fn search() -> String {
    web_sys::window().unwrap().location().search().unwrap()
}

async fn rows(root: &web_sys::Element) -> Vec<String> {
    let list = root.query_selector_all("tbody tr[data-id]").unwrap();
    (0..list.length())
        .map(|i| list.get(i).unwrap().unchecked_into::<web_sys::Element>().get_attribute("data-id").unwrap())
        .collect()
}

async fn choose(root: &web_sys::Element, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = find(root, selector).await.unchecked_into();
    select.set_value(value);
    fire(&select, "change");
}

/// A bubbling event, as the browser sends for user input.
fn fire(el: &web_sys::Element, kind: &str) {
    let dispatch = js_sys::Function::new_with_args("el, kind", "el.dispatchEvent(new Event(kind, { bubbles: true }))");
    dispatch.call2(&wasm_bindgen::JsValue::NULL, el, &kind.into()).unwrap();
}

fn key(el: &web_sys::Element, key: &str) {
    let dispatch = js_sys::Function::new_with_args(
        "el, key",
        "el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))",
    );
    dispatch.call2(&wasm_bindgen::JsValue::NULL, el, &key.into()).unwrap();
}

#[wasm_bindgen_test]
async fn the_table_pages_sorts_filters_and_opens_rows() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/things?tab=x")).unwrap();

    let calls = Arc::new(Mutex::new(Vec::new()));
    let fail = Arc::new(Mutex::new(false));
    let fetcher = fake(calls.clone(), fail.clone());
    let root = container();
    // The router's window listeners go when its owner is cleaned up (at the end).
    let owner = Owner::new();
    let handle = owner.with(|| leptos::mount::mount_to(root.clone(), move || {
        view! {
            <Router>
                <DataTable id="things" caption="Things" noun=("thing", "things") columns=COLS filters=FILTERS fetcher title_key="name"/>
            </Router>
        }
    }));

    // First page: 10 rows, formatted cells, totals; the hidden column is not shown.
    text_containing(&root, ".table-total", "1–10 of 42 things").await;
    assert_eq!(rows(&root).await, (1..=10).map(|i| i.to_string()).collect::<Vec<_>>());
    assert_eq!(find(&root, "tr[data-id='3'] td[data-key=value]").await.text_content().unwrap(), "$3,000.50");
    assert!(
        find(&root, "tr[data-id='2'] td[data-key=status] .badge.badge-active").await.text_content().unwrap()
            == "Active"
    );
    assert!(root.query_selector("td[data-key=secret]").unwrap().is_none());
    assert!(find(&root, "table#things-table caption").await.text_content().unwrap().contains("Things"));

    // Next page: the URL says page 2, other keys stay.
    find(&root, ".pager button[data-page=next]").await.click();
    text_containing(&root, ".table-total", "11–20 of 42").await;
    assert_eq!(search(), "?tab=x&page=2");
    assert_eq!(calls.lock().unwrap().last().unwrap().page, 2);

    // Last page, then back to the first.
    find(&root, ".pager button[data-page=last]").await.click();
    text_containing(&root, ".table-total", "41–42 of 42").await;
    assert!(find(&root, ".pager button[data-page=next]")
        .await
        .unchecked_into::<web_sys::HtmlButtonElement>()
        .disabled());
    find(&root, ".pager button[data-page=first]").await.click();
    text_containing(&root, ".table-total", "1–10 of 42").await;

    // Sort by name, descending on the second click; aria-sort follows.
    find(&root, "th[data-key=name] button").await.click();
    let th = find(&root, "th[data-key=name]").await;
    wait_until("the name column sorts ascending", || th.get_attribute("aria-sort").as_deref() == Some("ascending"))
        .await;
    find(&root, "th[data-key=name] button").await.click();
    text_containing(&root, "tbody tr:first-child td[data-key=name]", "Item 42").await;
    assert_eq!(find(&root, "th[data-key=name]").await.get_attribute("aria-sort").as_deref(), Some("descending"));
    assert_eq!(search(), "?tab=x&sort=name,desc");
    assert_eq!(find(&root, "th[data-key=status]").await.get_attribute("aria-sort"), None, "not sortable");

    // Page size 25: the URL and the request follow.
    choose(&root, "#things-size", "25").await;
    text_containing(&root, ".table-total", "1–25 of 42").await;
    assert_eq!(calls.lock().unwrap().last().unwrap().size, 25);
    assert!(search().contains("size=25"));

    // The column chooser shows the hidden column.
    let secret: web_sys::HtmlInputElement = find(&root, ".column-chooser input[value=secret]").await.unchecked_into();
    secret.click();
    find(&root, "td[data-key=secret]").await;

    // Enter on a row opens the drawer with every field; Escape closes it and focus returns.
    let row = find(&root, "tbody tr[data-id='40']").await;
    row.focus().unwrap();
    key(&row, "Enter");
    let drawer = find(&root, ".drawer[role=dialog]").await;
    assert!(drawer.text_content().unwrap().contains("Item 40"));
    assert_eq!(find(&root, ".drawer dd[data-key=value]").await.text_content().unwrap(), "$40,000.50");
    find(&root, ".drawer dd[data-key=extra] dd[data-key=nested]").await;
    let active = || web_sys::window().unwrap().document().unwrap().active_element().unwrap();
    assert!(active().class_list().contains("drawer-close"), "the drawer takes focus");
    key(&active(), "Escape");
    wait_until("the drawer closes", || root.query_selector(".drawer").unwrap().is_none()).await;
    assert_eq!(active().get_attribute("data-id").as_deref(), Some("40"), "focus back on the row");

    // Arrow keys move between rows.
    key(&row, "ArrowDown");
    assert_eq!(active().get_attribute("data-id").as_deref(), Some("39"));

    // A filter with no match: the empty state; clearing it brings the rows back.
    choose(&root, "#things-filter-status", "Active").await;
    wait_until("the status filter is in the URL", || search().contains("status=Active")).await;
    let name: web_sys::HtmlInputElement = find(&root, "#things-filter-name").await.unchecked_into();
    // One match: the count takes the noun's singular.
    name.set_value("Item 07");
    fire(&name, "change");
    text_containing(&root, ".table-total", "1–1 of 1").await;
    assert_eq!(find(&root, ".table-total").await.text_content().unwrap(), "1–1 of 1 thing");
    name.set_value("nothing like this");
    fire(&name, "change");
    text_containing(&root, "[data-testid=table-empty]", "No things match these filters").await;
    assert_eq!(calls.lock().unwrap().last().unwrap().filter("name"), Some("nothing like this"));
    find(&root, "[data-testid=table-empty] button").await.click();
    text_containing(&root, ".table-total", "1–25 of 42").await;

    // The server fails: the error state; Retry recovers.
    *fail.lock().unwrap() = true;
    find(&root, ".pager button[data-page=next]").await.click();
    text_containing(&root, "[data-testid=table-error]", "Could not reach").await;
    find(&root, "[data-testid=table-error] button#retry").await.click();
    text_containing(&root, ".table-total", "26–42 of 42").await;

    // Back in history restores the earlier view.
    history.back().unwrap();
    text_containing(&root, ".table-total", "1–25 of 42").await;

    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}

#[wasm_bindgen_test]
async fn skeleton_rows_show_until_the_first_page_arrives() {
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            let never = Fetcher::new(|_| Box::pin(std::future::pending()));
            view! { <Router><DataTable id="slow" caption="Slow" columns=COLS fetcher=never/></Router> }
        })
    });
    find(&root, "tr.skeleton-row").await;
    assert_eq!(root.query_selector_all("tr.skeleton-row").unwrap().length(), 10);
    find(&root, "table[aria-busy=true]").await;
    drop(handle);
    owner.cleanup();
}

/// The keys of the header's columns.
fn headers(root: &web_sys::Element) -> Vec<String> {
    let list = root.query_selector_all("thead th[data-key]").unwrap();
    (0..list.length())
        .map(|i| list.get(i).unwrap().unchecked_into::<web_sys::Element>().get_attribute("data-key").unwrap())
        .collect()
}

#[wasm_bindgen_test]
async fn the_columns_a_link_names_are_shown_and_a_choice_goes_into_the_url_and_the_device() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    let storage = window.local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/things?tab=x&cols=secret,name,gone"))
        .unwrap();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let fetcher = fake(calls.clone(), Arc::new(Mutex::new(false)));
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="cols" caption="Things" columns=COLS fetcher/></Router> }
        })
    });

    // The link's columns, in the table's order (an unknown key dropped), the hidden one too.
    text_containing(&root, ".table-total", "1–10 of 42").await;
    assert_eq!(headers(&root), ["name", "secret"]);
    assert!(find(&root, "tr[data-id='1'] td[data-key=secret]").await.text_content().unwrap() == "s");

    // Ticking a box: the URL names the columns shown (replacing its entry), the device keeps
    // them, and no page is fetched again for it.
    let fetched = calls.lock().unwrap().len();
    let status = find(&root, "input[data-column=status]").await;
    status.click();
    wait_until("the status column", || headers(&root).len() == 3).await;
    assert_eq!(headers(&root), ["name", "status", "secret"]);
    assert_eq!(search(), "?tab=x&cols=name,status,secret");
    assert_eq!(storage.get_item(&columns_key("cols")).unwrap().as_deref(), Some("name,status,secret"));
    assert_eq!(calls.lock().unwrap().len(), fetched, "columns ask nothing of the API");
    assert_eq!(
        find(&root, "table#cols-table").await.get_attribute("data-shown").as_deref(),
        Some("cols=name,status,secret"),
        "the rows shown are the URL's view and columns"
    );
    drop(handle);
    owner.cleanup();

    // Without `cols=`: the device's choice.
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/things")).unwrap();
    let root = container();
    let owner = Owner::new();
    let fetcher = fake(calls, Arc::new(Mutex::new(false)));
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="cols" caption="Things" columns=COLS fetcher/></Router> }
        })
    });
    text_containing(&root, ".table-total", "1–10 of 42").await;
    assert_eq!(headers(&root), ["name", "status", "secret"]);
    drop(handle);
    owner.cleanup();
    storage.clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}
