//! A side drawer (modal dialog): it takes focus when it opens, keeps Tab inside, closes on
//! Escape, the close button or a click on the backdrop, and gives focus back to whatever had
//! it before (the table row that opened it).

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

/// Render it only while open; `on_close` should make the parent stop rendering it.
#[component]
pub fn Drawer(
    /// The dialog's heading (its accessible name).
    #[prop(into)]
    title: String,
    /// A DOM id for the heading, unique on the page.
    #[prop(into)]
    id: String,
    on_close: Callback<()>,
    children: Children,
) -> impl IntoView {
    let panel = NodeRef::<leptos::html::Div>::new();
    let close_button = NodeRef::<leptos::html::Button>::new();
    // Whoever had focus gets it back when the drawer goes away.
    let previous = SendWrapper::new(document().active_element());
    on_cleanup(move || {
        if let Some(el) = previous.take().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            if el.is_connected() {
                let _ = el.focus();
            }
        }
    });
    Effect::new(move |_| {
        if let Some(b) = close_button.get() {
            let _ = b.focus();
        }
    });

    let on_keydown = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "Escape" => {
            ev.prevent_default();
            ev.stop_propagation();
            on_close.run(());
        }
        "Tab" => trap_tab(&ev, panel.get()),
        _ => {}
    };
    let heading_id = format!("{id}-title");
    let labelled_by = heading_id.clone();
    let body_labelled_by = heading_id.clone();
    let t = crate::i18n::components::text();

    view! {
        <div class="drawer-backdrop" on:click=move |_| on_close.run(())></div>
        <div
            class="drawer"
            role="dialog"
            aria-modal="true"
            aria-labelledby=labelled_by
            node_ref=panel
            on:keydown=on_keydown
        >
            <div class="drawer-head">
                <h2 id=heading_id>{title}</h2>
                <button
                    type="button"
                    class="icon-button drawer-close"
                    aria-label=t.close
                    title=t.close_esc
                    node_ref=close_button
                    on:click=move |_| on_close.run(())
                >
                    "×"
                </button>
            </div>
            // Focusable so its content scrolls by keyboard too (axe: scrollable-region-focusable).
            <div class="drawer-body" tabindex="0" role="region" aria-labelledby=body_labelled_by>{children()}</div>
        </div>
    }
}

/// Keeps Tab and Shift+Tab cycling through the drawer's focusable elements.
fn trap_tab(ev: &web_sys::KeyboardEvent, panel: Option<web_sys::HtmlDivElement>) {
    let Some(panel) = panel else { return };
    let Ok(list) =
        panel.query_selector_all("button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])")
    else {
        return;
    };
    let (Some(first), Some(last)) = (list.get(0), list.get(list.length().saturating_sub(1))) else { return };
    let active = document().active_element().map(JsCast::unchecked_into::<web_sys::Node>);
    let at = |n: &web_sys::Node| active.as_ref() == Some(n);
    let target = if ev.shift_key() && (at(&first) || !panel.contains(active.as_ref())) {
        Some(last)
    } else if !ev.shift_key() && (at(&last) || !panel.contains(active.as_ref())) {
        Some(first)
    } else {
        None
    };
    if let Some(t) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
        ev.prevent_default();
        let _ = t.focus();
    }
}
