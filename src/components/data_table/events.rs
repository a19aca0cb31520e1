//! Every control's events, handled once on the table's root (event delegation): clicks on
//! sort headers, pager buttons, actions and rows; filter, page-size and column changes;
//! typing in text filters; the jump-to-page form; keyboard moves between rows.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::action::Action;
use super::ctx::Ctx;
use super::export::{self, Job, Outcome, Progress};
use super::state::TableState;
use super::sync::{group, value};
use super::windowing;
use crate::components::toasts::ToastKind;
use crate::i18n::components::text;
use crate::i18n::fill;

fn target(ev: &web_sys::Event) -> Option<Element> {
    ev.target()?.dyn_into().ok()
}

fn closest(el: &Element, selector: &str) -> Option<Element> {
    el.closest(selector).ok().flatten()
}

fn attr(el: &Element, name: &str) -> String {
    el.get_attribute(name).unwrap_or_default()
}

fn clear_filters(ctx: Ctx) {
    let v = ctx.view.get_untracked();
    ctx.go(TableState { page: 1, filters: Vec::new(), ..v }, false);
}

fn to_page(ctx: Ctx, page: u64) {
    ctx.go(ctx.view.get_untracked().with_page(page), false);
}

fn last_page(ctx: Ctx) -> u64 {
    ctx.totals().map_or(1, |(_, n)| n.max(1))
}

/// A click on row `i`'s box (`range`: with Shift, from the last row clicked).
pub fn select_row(ctx: Ctx, tr: &Element, range: bool) {
    let Ok(i) = attr(tr, "data-row").parse::<usize>() else { return };
    if range {
        let ids = ctx.page_ids();
        ctx.selection.update(|s| s.range_to(i, &ids));
    } else {
        let id = attr(tr, "data-id");
        ctx.selection.update(|s| s.toggle(i, &id));
    }
}

/// The selection's boxes: a row's (Shift for a range), the page's in the header; a click
/// elsewhere in the box's cell is a click on the box.
fn click_select(ctx: Ctx, el: &Element, shift: bool) -> bool {
    if el.has_attribute("data-select") {
        if let Some(tr) = closest(el, "tbody tr[data-row]") {
            select_row(ctx, &tr, shift);
        }
    } else if el.has_attribute("data-select-page") {
        let on = js_sys::Reflect::get(el, &"checked".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false);
        let ids = ctx.page_ids();
        ctx.selection.update(|s| s.set_page(&ids, on));
    } else if closest(el, "td.select").is_some() {
        // Handled here, not by clicking the box: a click dispatched inside this handler
        // would not reach it again.
        if let Some(tr) = closest(el, "tbody tr[data-row]") {
            select_row(ctx, &tr, shift);
        }
    } else if closest(el, "th.select").is_some() {
        let ids = ctx.page_ids();
        ctx.selection.update(|s| {
            let all = s.page_state(&ids).0;
            s.set_page(&ids, !all);
        });
    } else {
        return false;
    }
    true
}

pub fn click(ctx: Ctx, ev: web_sys::MouseEvent) {
    let Some(el) = target(&ev) else { return };
    if ctx.selectable() && click_select(ctx, &el, ev.shift_key()) {
        return;
    }
    if let Some(b) = closest(&el, "button[data-sort]") {
        ctx.go(ctx.view.get_untracked().toggled_sort(&attr(&b, "data-sort")), false);
    } else if let Some(b) = closest(&el, "button[data-page]") {
        let page = ctx.view.with_untracked(|v| v.page);
        match attr(&b, "data-page").as_str() {
            "first" => to_page(ctx, 1),
            "prev" => to_page(ctx, page.saturating_sub(1)),
            "next" => to_page(ctx, page + 1),
            _ => to_page(ctx, last_page(ctx)),
        }
    } else if let Some(b) = closest(&el, "button[data-action]") {
        match Action::of(&b) {
            Some(Action::Clear) => clear_filters(ctx),
            Some(Action::LastPage) => to_page(ctx, last_page(ctx)),
            Some(Action::Export) => start_export(ctx),
            Some(Action::Cancel) => {
                if let Some(job) = ctx.job.get_value() {
                    job.cancel();
                }
            }
            Some(Action::Size | Action::Jump) | None => {}
        }
    } else if let Some(tr) = closest(&el, "tbody tr[data-row]") {
        ctx.open.set(attr(&tr, "data-row").parse().ok());
    }
}

/// Applies a filter's value: a new history entry, except while typing (see `input`).
fn apply_filter(ctx: Ctx, param: &str, value: &str, replace: bool) {
    if let Some(h) = ctx.pending.get_value() {
        h.clear();
    }
    let next = ctx.view.get_untracked().with_filter(param, value, ctx.filters);
    ctx.go(next, replace);
}

pub fn change(ctx: Ctx, ev: web_sys::Event) {
    let Some(el) = target(&ev) else { return };
    if el.has_attribute("data-filter") {
        // The end of typing (Enter or leaving the field): the next pause pushes again.
        let replace = ctx.typing.get_value();
        ctx.typing.set_value(false);
        apply_filter(ctx, &attr(&el, "data-filter"), &value(&el), replace);
    } else if Action::of(&el) == Some(Action::Size) {
        if let Ok(size) = value(&el).parse::<u32>() {
            ctx.go(ctx.view.get_untracked().with_size(size), false);
        }
    } else if el.has_attribute("data-column") {
        let key = attr(&el, "data-column");
        let on = js_sys::Reflect::get(&el, &"checked".into()).ok().and_then(|v| v.as_bool()).unwrap_or(true);
        let next: Vec<&'static str> = ctx.visible.with_untracked(|v| {
            let keep = |k: &str| if k == key { on } else { v.contains(&k) };
            ctx.columns.iter().map(|c| c.key).filter(|k| keep(k)).collect()
        });
        ctx.show_columns(next);
    }
}

/// Typing in a text filter applies it once typing pauses: the first pause pushes a history
/// entry, later ones replace it, so Back skips the half-typed words.
pub fn input(ctx: Ctx, ev: web_sys::Event) {
    let Some(el) = target(&ev) else { return };
    if !el.has_attribute("data-filter") || attr(&el, "type") != "search" {
        return;
    }
    let (param, text) = (attr(&el, "data-filter"), value(&el));
    if let Some(h) = ctx.pending.get_value() {
        h.clear();
    }
    let handle = set_timeout_with_handle(
        move || {
            let replace = ctx.typing.get_value();
            ctx.typing.set_value(true);
            apply_filter(ctx, &param, &text, replace);
        },
        Duration::from_millis(400),
    );
    ctx.pending.set_value(handle.ok());
}

pub fn submit(ctx: Ctx, ev: web_sys::SubmitEvent) {
    ev.prevent_default();
    let Some(form) = target(&ev) else { return };
    if Action::of(&form) == Some(Action::Jump) {
        let wanted = form.query_selector("input").ok().flatten().map(|i| value(&i)).unwrap_or_default();
        let wanted = wanted.trim().parse::<u64>().unwrap_or(1).max(1);
        to_page(ctx, wanted.min(last_page(ctx)));
    }
}

fn row(el: &Element) -> Option<HtmlElement> {
    closest(el, "tbody tr[data-row]")?.dyn_into().ok()
}

/// Roving tab stop: the focused row is the one Tab comes back to.
pub fn make_tab_stop(ctx: Ctx, tr: &HtmlElement) {
    if let Some(i) = tr.get_attribute("data-row").and_then(|r| r.parse().ok()) {
        ctx.win.update_value(|w| w.tab_stop = i);
    }
    if tr.tab_index() == 0 {
        return;
    }
    if let Some(Ok(list)) = tr.parent_element().map(|b| b.query_selector_all("tr[tabindex='0']")) {
        for i in 0..list.length() {
            if let Some(old) = list.get(i).and_then(|n| n.dyn_into::<HtmlElement>().ok()) {
                old.set_tab_index(-1);
            }
        }
    }
    tr.set_tab_index(0);
}

pub fn focusin(ctx: Ctx, ev: web_sys::FocusEvent) {
    if let Some(tr) = target(&ev).and_then(|el| row(&el)) {
        make_tab_stop(ctx, &tr);
    }
}

pub fn keydown(ctx: Ctx, ev: web_sys::KeyboardEvent) {
    let Some(el) = target(&ev) else { return };
    let key = ev.key();
    if key == "Escape" {
        // Escape closes the column chooser, leaving focus on its button.
        if let Some(details) = closest(&el, "details[open]") {
            let _ = details.remove_attribute("open");
            if let Some(s) = details.first_element_child().and_then(|s| s.dyn_into::<HtmlElement>().ok()) {
                let _ = s.focus();
            }
        }
        return;
    }
    let Some(tr) = row(&el) else { return };
    let Ok(i) = attr(&tr, "data-row").parse::<usize>() else { return };
    if el.tag_name() != "TR" && (key == "Enter" || key == " ") {
        return; // a row's box: Space ticks it
    }
    // By index on the page: the row may be outside a long page's window (windowing.rs).
    let rows = ctx.win.with_value(|w| w.rows);
    let next = match key.as_str() {
        "ArrowDown" => (i + 1).min(rows.saturating_sub(1)),
        "ArrowUp" => i.saturating_sub(1),
        "Home" => 0,
        "End" => rows.saturating_sub(1),
        "Enter" | " " => {
            ev.prevent_default();
            ctx.open.set(Some(i));
            return;
        }
        _ => return,
    };
    ev.prevent_default();
    if next != i {
        if let Some(next) = windowing::row(ctx, next) {
            make_tab_stop(ctx, &next);
            let _ = next.focus();
        }
    }
}

/// Exports the current filter and sort to CSV, page by page, with progress and Cancel.
fn start_export(ctx: Ctx) {
    if ctx.progress.with_untracked(Option::is_some) {
        return;
    }
    let job = ctx.owner.with_value(|o| o.as_ref().map(|o| o.with(Job::new))).unwrap_or_else(Job::new);
    ctx.job.set_value(Some(job.clone()));
    let total = ctx.totals().map_or(0, |(t, _)| t);
    ctx.progress.set(Some(Progress { done: 0, total }));
    let fetcher = ctx.fetcher.get_value();
    let view = ctx.view.get_untracked();
    let id = ctx.id;
    // Focus follows the control: Cancel while running, the Export button after.
    focus_later(id, "-export-cancel");
    leptos::task::spawn_local(async move {
        let outcome = export::run(job, fetcher, ctx.columns, view, move |p| {
            ctx.progress.try_set(Some(p));
        })
        .await;
        if ctx.progress.try_set(None).is_some() {
            return; // the table went away meanwhile
        }
        let t = &text().table;
        let (kind, message) = match outcome {
            Outcome::Done(chunks, n) => match crate::components::download::save(
                &chunks,
                &crate::components::download::dated_name(id, "csv"),
                crate::components::download::CSV,
            ) {
                Ok(()) => (ToastKind::Success, fill(t.exported, &[&group(n), ctx.noun_of(n)])),
                Err(e) => (ToastKind::Error, fill(t.not_saved, &[&format!("{e:?}")])),
            },
            Outcome::Cancelled => (ToastKind::Info, t.export_cancelled.to_string()),
            Outcome::Failed(e) => (ToastKind::Error, fill(t.export_failed, &[&e.to_string()])),
        };
        if let Some(t) = ctx.toasts {
            t.show(kind, message);
        }
        focus_later(id, "-export");
    });
}

/// After the next render, focuses `<table id><suffix>` if focus is on nothing in particular
/// or still on the export control being hidden.
fn focus_later(table: &'static str, suffix: &'static str) {
    request_animation_frame(move || {
        let doc = document();
        let control = format!("{table}-export");
        let free = doc.active_element().is_none_or(|a| a.tag_name() == "BODY" || a.id().starts_with(&control));
        let target = doc.get_element_by_id(&format!("{table}{suffix}")).and_then(|e| e.dyn_into::<HtmlElement>().ok());
        if let (true, Some(el)) = (free, target) {
            let _ = el.focus();
        }
    });
}
