//! The list shortcuts, for the page's first table: `/` its search (the first filter), `j`/`k`
//! the next/previous row, `x` ticks the row (tables with bulk actions), `Enter` opens the row
//! (events.rs, on the focused row), `?` the list of them. None of them while typing in a
//! field, with a modifier held, or inside a dialog (a drawer, this list).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

use super::ctx::Ctx;
use super::{events, windowing};
use crate::i18n::components::text;

/// Whether keys typed at `el` are text (a shortcut would steal them).
fn typing(el: &Element) -> bool {
    match el.tag_name().as_str() {
        "SELECT" | "TEXTAREA" => true,
        "INPUT" => {
            let kind = el.get_attribute("type").unwrap_or_default().to_ascii_lowercase();
            !matches!(kind.as_str(), "checkbox" | "radio" | "button" | "submit" | "reset" | "range" | "color" | "file")
        }
        _ => el.dyn_ref::<HtmlElement>().is_some_and(|h| h.is_content_editable()),
    }
}

/// The focused row of this table, if focus is in one: its index on the page and element.
fn focused_row(ctx: Ctx) -> Option<(usize, Element)> {
    let active = document().active_element()?;
    let tr = active.closest(&format!("#{}-table tbody tr[data-row]", ctx.id)).ok().flatten()?;
    Some((tr.get_attribute("data-row")?.parse().ok()?, tr))
}

fn focus_row(ctx: Ctx, i: usize) {
    if let Some(tr) = windowing::row(ctx, i) {
        events::make_tab_stop(ctx, &tr);
        let _ = tr.focus();
    }
}

fn on_key(ctx: Ctx, help: RwSignal<bool>, ev: &KeyboardEvent) {
    if ev.default_prevented() || ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.is_composing() {
        return;
    }
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
    if typing(&el) || el.closest("[role=dialog], dialog").ok().flatten().is_some() {
        return;
    }
    // The page's table is its first; the others leave the keys to it.
    let first = document().query_selector(".data-table-wrap").ok().flatten();
    if first.is_none_or(|t| t.id() != ctx.id) {
        return;
    }
    match ev.key().as_str() {
        "/" => {
            let filter = document()
                .query_selector(&format!("#{} [data-filter]", ctx.id))
                .ok()
                .flatten()
                .and_then(|f| f.dyn_into::<HtmlElement>().ok());
            let Some(filter) = filter else { return };
            ev.prevent_default();
            let _ = filter.focus();
        }
        key @ ("j" | "k") => {
            let rows = ctx.win.with_value(|w| w.rows);
            if rows == 0 {
                return;
            }
            ev.prevent_default();
            let next = match (focused_row(ctx), key) {
                (Some((i, _)), "j") => (i + 1).min(rows - 1),
                (Some((i, _)), _) => i.saturating_sub(1),
                // From outside the rows: the row Tab would land on.
                (None, _) => ctx.win.with_value(|w| w.tab_stop).min(rows - 1),
            };
            focus_row(ctx, next);
        }
        "x" if ctx.selectable() => {
            if let Some((_, tr)) = focused_row(ctx) {
                ev.prevent_default();
                events::select_row(ctx, &tr, false);
            }
        }
        "?" => {
            ev.prevent_default();
            help.set(true);
        }
        _ => {}
    }
}

/// Listens on the document while the table is mounted.
pub(super) fn listen(ctx: Ctx, help: RwSignal<bool>) {
    let on = Closure::<dyn Fn(KeyboardEvent)>::new(move |ev: KeyboardEvent| on_key(ctx, help, &ev));
    let _ = document().add_event_listener_with_callback("keydown", on.as_ref().unchecked_ref());
    let on = send_wrapper::SendWrapper::new(on);
    on_cleanup(move || {
        let _ = document().remove_event_listener_with_callback("keydown", (*on).as_ref().unchecked_ref());
    });
}

/// The `?` list: a modal `<dialog>` (Escape closes it, focus goes back where it was).
#[component]
pub(super) fn Shortcuts(ctx: Ctx, open: RwSignal<bool>) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let title = format!("{}-shortcuts-title", ctx.id);
    let labelled_by = title.clone();
    Effect::new(move |_| {
        if let Some(d) = dialog.get().filter(|_| open.get()) {
            let show =
                js_sys::Reflect::get(&d, &"showModal".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            if let Some(show) = show {
                let _ = show.call0(&d);
            }
        }
    });
    let close = move || {
        if let Some(d) = dialog.get_untracked() {
            let _ = js_sys::Reflect::get(&d, &"close".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .map(|f| f.call0(&d));
        }
    };
    // The keys and what each does, as the `?` list shows them.
    let t = text();
    let rows = t
        .table
        .shortcuts
        .iter()
        .map(|(k, what)| view! { <div><dt><kbd>{*k}</kbd></dt><dd>{*what}</dd></div> })
        .collect_view();
    view! {
        <dialog class="shortcuts-dialog" node_ref=dialog aria-labelledby=labelled_by
            on:close=move |_| open.set(false)>
            <h2 id=title>{t.table.shortcuts_title}</h2>
            <dl class="shortcuts">{rows}</dl>
            <button type="button" class="button" data-testid="shortcuts-close" on:click=move |_| close()>{t.close}</button>
        </dialog>
    }
}
