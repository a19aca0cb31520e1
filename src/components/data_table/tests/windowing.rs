//! Windowing: which rows a long page renders, and the table following the scroll and the
//! keyboard through a window of its rows.

use super::super::windowing::{around, range, spacers, OVERSCAN, WINDOW_MIN};
use super::*;

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
    style.set_text_content(Some(include_str!("../../../../style/table.css")));
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
