//! Bulk actions and the list shortcuts, in Chromium with the fake fetcher of `tests.rs` and a
//! runner that records each call and answers odd ids done, even ids refused.

use moneydesk_model::bulk::{BulkItem, BulkResult};

use super::super::bulk::{BulkAction, BulkCall, BulkRunner};
use super::*;

const BULK: &[BulkAction] = &[
    BulkAction::new("confirm", "Confirm", "confirmed").confirm("Confirm the selected things?"),
    BulkAction::new("reject", "Reject", "rejected").reason(),
];

/// Records every call; the ids answered are the call's ids, or (a filter) the 42 records the
/// filter's `name` keeps.
fn runner(calls: Arc<Mutex<Vec<BulkCall>>>) -> BulkRunner {
    BulkRunner::new(move |call| {
        calls.lock().unwrap().push(call.clone());
        let ids: Vec<String> = match (&call.select.ids, &call.select.filter) {
            (Some(ids), _) => ids.clone(),
            (None, Some(f)) => (1..=42)
                .filter(|i| f.get("name").is_none_or(|n| format!("Item {i:02}").contains(n.as_str())))
                .map(|i| i.to_string())
                .collect(),
            (None, None) => Vec::new(),
        };
        let items = ids
            .into_iter()
            .map(|id| {
                if id.parse::<u32>().unwrap() % 2 == 1 {
                    BulkItem::done(id)
                } else {
                    BulkItem::refused(id, "invalid_state", "Already confirmed.")
                }
            })
            .collect();
        Box::pin(std::future::ready(Ok(Some(BulkResult::new(call.action, items)))))
    })
}

fn click(root: &web_sys::Element, selector: &str, shift: bool) {
    let el = root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}"));
    let dispatch = js_sys::Function::new_with_args(
        "el, shift",
        "el.dispatchEvent(new MouseEvent('click', { shiftKey: shift, bubbles: true, cancelable: true }))",
    );
    dispatch.call2(&wasm_bindgen::JsValue::NULL, &el, &shift.into()).unwrap();
}

fn checked(root: &web_sys::Element) -> Vec<String> {
    let list = root.query_selector_all("tbody tr[data-id]").unwrap();
    (0..list.length())
        .map(|i| list.get(i).unwrap().unchecked_into::<web_sys::Element>())
        .filter(|tr| {
            let b: web_sys::HtmlInputElement =
                tr.query_selector("input[data-select]").unwrap().unwrap().unchecked_into();
            b.checked()
        })
        .map(|tr| tr.get_attribute("data-id").unwrap())
        .collect()
}

fn active() -> web_sys::Element {
    web_sys::window().unwrap().document().unwrap().active_element().unwrap()
}

/// A key pressed where focus is (bubbling to the document, as typed).
fn press(k: &str) {
    key(&active(), k);
}

#[wasm_bindgen_test]
async fn rows_are_selected_by_click_range_page_and_filter_and_a_run_shows_every_outcome() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/things?name=Item")).unwrap();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let fetcher = fake(Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(false)));
    let bulk_run = runner(calls.clone());
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! {
                <Router>
                    <DataTable id="picked" caption="Things" noun=("thing", "things") columns=COLS filters=FILTERS fetcher
                        bulk=BULK bulk_run/>
                </Router>
            }
        })
    });
    text_containing(&root, ".table-total", "1–10 of 42 things").await;
    let bar = find(&root, "[data-testid=bulk-bar]").await;
    assert!(bar.hidden(), "no bar until a row is selected");

    // A click ticks a row (and opens no drawer); a shift-click ticks the range from it.
    click(&root, "tr[data-id='2'] input[data-select]", false);
    wait_until("row 2 is ticked", || checked(&root) == ["2"]).await;
    text_containing(&root, ".bulk-count", "1 of 42 things selected.").await;
    assert!(!bar.hidden());
    assert!(root.query_selector(".drawer").unwrap().is_none());
    click(&root, "tr[data-id='5'] input[data-select]", true);
    wait_until("rows 2 to 5 are ticked", || checked(&root) == ["2", "3", "4", "5"]).await;
    assert!(find(&root, "tr[data-id='3']").await.class_list().contains("selected"));
    let page_box: web_sys::HtmlInputElement = find(&root, "th input[data-select-page]").await.unchecked_into();
    assert!(page_box.indeterminate() && !page_box.checked(), "part of the page");

    // The header box ticks the page; then "all 42 matching" is offered and sends the filter.
    click(&root, "th input[data-select-page]", false);
    wait_until("the page is ticked", || checked(&root).len() == 10).await;
    assert!(page_box.checked() && !page_box.indeterminate());
    let all = find(&root, "[data-bulk=all]").await;
    assert!(!all.hidden());
    assert_eq!(all.text_content().unwrap(), "Select all 42 matching");
    all.click();
    text_containing(&root, ".bulk-count", "All 42 things matching the filter are selected.").await;

    // Reject asks for a reason; a blank one is refused before anything is sent (an empty one
    // the browser's own check of the required field stops).
    find(&root, "[data-bulk-action=reject]").await.click();
    let reason: web_sys::HtmlInputElement = find(&root, "#picked-bulk-reason").await.unchecked_into();
    reason.set_value("   ");
    fire(&reason, "input");
    find(&root, "[data-bulk=reasoned]").await.click();
    text_containing(&root, ".bulk-error", "Give a reason").await;
    assert!(calls.lock().unwrap().is_empty());
    reason.set_value("Duplicate scan");
    fire(&reason, "input");
    find(&root, "[data-bulk=reasoned]").await.click();

    // One call: the filter, not ids; the summary counts both outcomes and lists the refused.
    let summary = text_containing(&root, "[data-testid=bulk-summary] p", "21 rejected, 21 refused.").await;
    assert!(!summary.is_empty());
    {
        let calls = calls.lock().unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!((calls[0].action, calls[0].reason.as_deref()), ("reject", Some("Duplicate scan")));
        assert_eq!(calls[0].select.ids, None);
        assert_eq!(calls[0].select.filter, Some([("name".to_string(), "Item".to_string())].into_iter().collect()));
        assert!(calls[0].key.starts_with("portal-bulk-"));
    }
    assert!(bar.hidden(), "the selection is cleared after the run");
    let list = find(&root, ".bulk-refused").await;
    assert!(list.hidden());
    find(&root, "[data-bulk=show-refused]").await.click();
    wait_until("the refused are listed", || !list.hidden()).await;
    assert!(list.text_content().unwrap().contains("2: Already confirmed."));
    // Each row shows its outcome.
    text_containing(&root, "tr[data-id='1'] .bulk-outcome", "Done").await;
    text_containing(&root, "tr[data-id='2'] .bulk-outcome", "Refused: Already confirmed.").await;
    find(&root, "th.bulk-outcome-cell").await;

    // Confirm asks its question; No sends nothing; Yes sends the ids ticked.
    click(&root, "tr[data-id='7'] input[data-select]", false);
    click(&root, "tr[data-id='8'] td.select", false);
    wait_until("rows 7 and 8 are ticked", || checked(&root) == ["7", "8"]).await;
    text_containing(&root, ".bulk-count", "2 of 42 things selected.").await;
    find(&root, "[data-bulk-action=confirm]").await.click();
    text_containing(&root, ".bulk-confirm p", "Confirm the selected things? It applies to 2 things.").await;
    find(&root, "[data-bulk=no]").await.click();
    wait_until("the question goes", || root.query_selector(".bulk-confirm").unwrap().is_none()).await;
    find(&root, "[data-bulk-action=confirm]").await.click();
    find(&root, "[data-bulk=yes]").await.click();
    text_containing(&root, "[data-testid=bulk-summary] p", "1 confirmed, 1 refused.").await;
    assert_eq!(calls.lock().unwrap()[1].select.ids, Some(vec!["7".to_string(), "8".to_string()]));

    // Another filter clears the selection.
    click(&root, "tr[data-id='1'] input[data-select]", false);
    wait_until("row 1 is ticked", || checked(&root) == ["1"]).await;
    wait_until("the bar shows", || !bar.hidden()).await;
    choose(&root, "#picked-filter-status", "Active").await;
    wait_until("the selection is cleared", || bar.hidden()).await;

    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}

#[wasm_bindgen_test]
async fn the_shortcuts_move_select_and_open_rows_but_never_while_typing() {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let start_url = window.location().href().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/things")).unwrap();
    let fetcher = fake(Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new(false)));
    let bulk_run = runner(Arc::new(Mutex::new(Vec::new())));
    let root = container();
    let owner = Owner::new();
    let handle = owner.with(|| {
        leptos::mount::mount_to(root.clone(), move || {
            view! {
                <Router>
                    <DataTable id="picked" caption="Things" noun=("thing", "things") columns=COLS filters=FILTERS fetcher
                        bulk=BULK bulk_run title_key="name"/>
                </Router>
            }
        })
    });
    text_containing(&root, ".table-total", "1–10 of 42 things").await;
    web_sys::window().unwrap().document().unwrap().body().unwrap().focus().unwrap();

    // j from nowhere: the first row; j, j, k: the second.
    press("j");
    assert_eq!(active().get_attribute("data-id").as_deref(), Some("1"));
    press("j");
    press("j");
    press("k");
    assert_eq!(active().get_attribute("data-id").as_deref(), Some("2"));
    // x ticks the focused row, x again unticks it.
    press("x");
    wait_until("x ticks row 2", || checked(&root) == ["2"]).await;
    press("x");
    wait_until("x unticks row 2", || checked(&root).is_empty()).await;
    press("x");
    // Enter opens the row's drawer; keys inside it are not shortcuts.
    press("Enter");
    let drawer = find(&root, ".drawer[role=dialog]").await;
    assert!(drawer.text_content().unwrap().contains("Item 02"));
    press("j");
    assert!(active().class_list().contains("drawer-close"), "j stays in the drawer");
    press("Escape");
    wait_until("the drawer closes", || root.query_selector(".drawer").unwrap().is_none()).await;

    // / goes to the search; typing there is text, not shortcuts.
    press("/");
    assert_eq!(active().id(), "picked-filter-name");
    press("j");
    press("x");
    press("?");
    assert_eq!(active().id(), "picked-filter-name", "focus stays in the field");
    assert_eq!(checked(&root), ["2"], "x typed in the field ticks nothing");
    let dialog = find(&root, "dialog.shortcuts-dialog").await;
    assert!(!dialog.has_attribute("open"), "? typed in the field opens nothing");

    // ? lists the shortcuts in a modal dialog; Close closes it.
    find(&root, "tr[data-id='3']").await.focus().unwrap();
    press("?");
    wait_until("the shortcuts dialog opens", || dialog.has_attribute("open")).await;
    let text = dialog.text_content().unwrap();
    for (k, what) in crate::i18n::components::text().table.shortcuts {
        assert!(text.contains(k) && text.contains(what), "{k}: {what} in {text}");
    }
    find(&root, "[data-testid=shortcuts-close]").await.click();
    wait_until("the shortcuts dialog closes", || !dialog.has_attribute("open")).await;

    drop(handle);
    owner.cleanup();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
}
