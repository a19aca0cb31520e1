//! The table mounted in Chromium with a fake fetcher: rows, paging through the URL, sort,
//! page size, filters, the drawer with the keyboard, the empty and error states.

use std::sync::{Arc, Mutex};

use leptos::prelude::*;
use leptos_router::components::Router;
use moneydesk_model::{Page, PageRequest, Sort};
use serde_json::{json, Value};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use super::*;
use crate::test_util::{container, find, text_containing, wait_until};

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
                <DataTable id="things" caption="Things" noun="things" columns=COLS filters=FILTERS fetcher title_key="name"/>
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

// Windowing: which rows a long page renders.

use super::windowing::{around, range, spacers, OVERSCAN, WINDOW_MIN};

#[wasm_bindgen_test]
fn the_window_covers_the_viewport_and_its_overscan() {
    // 500 rows of 40 px; a 400 px viewport 2,000 px into the body shows rows 50..60.
    assert_eq!(range(500, 40.0, 2000.0, 400.0, 10), (40, 70));
    // At the top, at the end, and a viewport ending inside a row.
    assert_eq!(range(500, 40.0, 0.0, 400.0, 10), (0, 20));
    assert_eq!(range(500, 40.0, 19_600.0, 400.0, 10), (480, 500));
    assert_eq!(range(500, 40.0, 30.0, 415.0, 10), (0, 22));
    // The table still below the viewport (its body 300 px down): its first rows, the ones the
    // viewport shows. Far below: the first `overscan` rows only.
    assert_eq!(range(500, 40.0, -300.0, 400.0, 10), (0, 13));
    assert_eq!(range(500, 40.0, -5000.0, 400.0, 10), (0, 10));
    // Scrolled past the table: its last rows.
    assert_eq!(range(500, 40.0, 50_000.0, 400.0, 10), (490, 500));
    // Fewer rows than the window; no rows; a nonsense height falls back to the estimate.
    assert_eq!(range(5, 40.0, 0.0, 400.0, 10), (0, 5));
    assert_eq!(range(0, 40.0, 0.0, 400.0, 10), (0, 0));
    let (start, end) = range(500, f64::NAN, 1000.0, 400.0, 0);
    assert!(start < end && end <= 500);
    // Every window is non-empty and inside the page.
    for top in (-2000..25_000).step_by(97) {
        let (start, end) = range(500, 37.5, top as f64, 700.0, OVERSCAN);
        assert!(start < end && end <= 500, "{top}: {start}..{end}");
        assert!(end - start <= 700 / 37 + 2 + 2 * OVERSCAN, "{top}: {start}..{end}");
    }
}

#[wasm_bindgen_test]
fn the_spacers_stand_for_the_rows_not_rendered() {
    assert_eq!(spacers(500, (40, 70), 40.0), (1600.0, 17_200.0));
    assert_eq!(spacers(500, (0, 500), 40.0), (0.0, 0.0));
    // Spacers and rendered rows add up to the whole page wherever the window is.
    for start in [0, 1, 250, 470] {
        let (before, after) = spacers(500, (start, start + 30), 36.0);
        assert_eq!(before + 30.0 * 36.0 + after, 500.0 * 36.0);
    }
}

#[wasm_bindgen_test]
fn a_window_around_a_row_keeps_its_length_and_holds_the_row() {
    assert_eq!(around(500, 250, 40), (230, 270));
    assert_eq!(around(500, 0, 40), (0, 40));
    assert_eq!(around(500, 499, 40), (460, 500));
    assert_eq!(around(10, 5, 40), (0, 10));
    assert_eq!(around(500, 7, 0), (7, 8));
    for i in 0..500 {
        let (start, end) = around(500, i, 33);
        assert!((start..end).contains(&i) && end - start == 33, "{i}: {start}..{end}");
    }
}

fn many(n: usize) -> Fetcher {
    Fetcher::new(move |q| {
        let all: Vec<Value> = (0..n)
            .map(|i| json!({"id": i, "name": format!("Item {i:03}"), "status": "Active", "value": "1.00"}))
            .collect();
        let req = PageRequest { index: q.page - 1, size: q.size };
        let content = all.iter().skip(req.offset() as usize).take(q.size as usize).cloned().collect();
        Box::pin(std::future::ready(Ok(Page::build(req, n as u64, content, Sort::UNSORTED))))
    })
}

fn rendered(root: &web_sys::Element) -> Vec<usize> {
    let list = root.query_selector_all("tbody tr[data-row]").unwrap();
    (0..list.length())
        .map(|i| {
            list.get(i)
                .unwrap()
                .unchecked_into::<web_sys::Element>()
                .get_attribute("data-row")
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect()
}

fn active_row() -> Option<String> {
    web_sys::window().unwrap().document().unwrap().active_element()?.get_attribute("data-row")
}

#[wasm_bindgen_test]
async fn a_long_page_renders_a_window_that_follows_scrolling_and_the_keyboard() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/many?size=500")).unwrap();
    // The table's real style sheet: one line a row, spacers without padding.
    let doc = window.document().unwrap();
    let style = doc.create_element("style").unwrap();
    style.set_text_content(Some(include_str!("../../../style/table.css")));
    doc.head().unwrap().append_child(&style).unwrap();
    let root = container();
    root.set_class_name("moneydesk");
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="many" caption="Many" columns=COLS fetcher=many(1200)/></Router> }
        })
    });
    text_containing(&root, ".table-total", "1–500 of 1,200").await;
    let table = find(&root, "table#many-table").await;
    wait_until("the table counts its rows", || table.get_attribute("aria-rowcount").is_some()).await;
    assert_eq!(table.get_attribute("aria-rowcount").as_deref(), Some("501"), "the header row and 500 rows");
    assert!(table.class_list().contains("windowed"));
    let shown = rendered(&root);
    assert!(shown.len() < 100 && shown[0] == 0, "a window from the first row: {shown:?}");
    assert!(shown.windows(2).all(|w| w[1] == w[0] + 1), "contiguous: {shown:?}");
    assert_eq!(find(&root, "tr[data-row='3']").await.get_attribute("aria-rowindex").as_deref(), Some("5"));
    assert_eq!(root.query_selector_all("tbody tr[tabindex='0']").unwrap().length(), 1);
    // The spacers keep the body as tall as 500 rows.
    let body_height = |root: &web_sys::Element| {
        root.query_selector("tbody").unwrap().unwrap().unchecked_into::<web_sys::HtmlElement>().offset_height()
    };
    let top = js_sys::Function::new_with_args("el", "return el.getBoundingClientRect().top + scrollY");
    let top =
        move |el: web_sys::HtmlElement| top.call1(&wasm_bindgen::JsValue::NULL, &el.into()).unwrap().as_f64().unwrap();
    let pitch = top(find(&root, "tr[data-row='2']").await) - top(find(&root, "tr[data-row='1']").await);
    let full = body_height(&root);
    assert!((full as f64 - 500.0 * pitch).abs() <= 0.01 * full as f64, "{full} px for 500 rows {pitch} px apart");

    // Scrolling to the middle of the table moves the window there.
    window.scroll_to_with_x_and_y(0.0, top(find(&root, "tbody").await) + 250.0 * pitch);
    wait_until("the window moves to row 250", || {
        let shown = rendered(&root);
        shown.contains(&250) && !shown.contains(&0)
    })
    .await;
    let shown = rendered(&root);
    assert!(shown.windows(2).all(|w| w[1] == w[0] + 1), "contiguous: {shown:?}");
    assert!((body_height(&root) - full).abs() <= 2, "the body keeps its height");
    assert_eq!(root.query_selector_all("tbody tr[tabindex='0']").unwrap().length(), 1, "one tab stop");

    // End, Home and the arrows reach rows outside the window and focus them.
    let row = find(&root, "tr[data-row='250']").await;
    row.focus().unwrap();
    key(&row, "End");
    assert_eq!(active_row().as_deref(), Some("499"));
    let last = find(&root, "tr[data-row='499']").await;
    assert_eq!(last.get_attribute("aria-rowindex").as_deref(), Some("501"));
    assert_eq!(last.tab_index(), 0, "the focused row is the tab stop");
    wait_until("the window reaches the last row", || rendered(&root).contains(&499)).await;
    key(&last, "ArrowUp");
    assert_eq!(active_row().as_deref(), Some("498"));
    let here = find(&root, "tr[data-row='498']").await;
    key(&here, "Home");
    assert_eq!(active_row().as_deref(), Some("0"));
    wait_until("the window follows the focus up", || !rendered(&root).contains(&499)).await;
    let first = find(&root, "tr[data-row='0']").await;
    key(&first, "ArrowDown");
    assert_eq!(active_row().as_deref(), Some("1"));

    // Enter opens the drawer on the record of that row.
    let second = find(&root, "tr[data-row='1']").await;
    key(&second, "Enter");
    let drawer = find(&root, ".drawer[role=dialog]").await;
    assert!(drawer.text_content().unwrap().contains("Item 001"));
    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
    window.scroll_to_with_x_and_y(0.0, 0.0);
    style.remove();
}

#[wasm_bindgen_test]
async fn a_short_page_renders_every_row() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("/few?size={WINDOW_MIN}"))).unwrap();
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! { <Router><DataTable id="few" caption="Few" columns=COLS fetcher=many(300)/></Router> }
        })
    });
    text_containing(&root, ".table-total", "of 300").await;
    wait_until("the first window is rendered", || rendered(&root) == (0..WINDOW_MIN).collect::<Vec<_>>()).await;
    assert!(root.query_selector("tr.spacer").unwrap().is_none());
    let table = find(&root, "table#few-table").await;
    assert!(!table.class_list().contains("windowed"));
    assert_eq!(table.get_attribute("aria-rowcount"), Some((WINDOW_MIN + 1).to_string()));
    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}
