//! Writes the table's state into the controls built by build.rs: one function per group of
//! signals, each run by an effect in mod.rs when its signals change.

use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use super::action::{Action, ATTR};
use super::build;
use super::ctx::Ctx;
use super::state::{TableState, PAGE_SIZES};
use crate::components::selection::Selection;
use crate::i18n::components::text;
use crate::i18n::fill;
use moneydesk_model::collections::SortDir;

/// The two containers the controls live in.
pub struct Dom {
    pub top: Element,
    pub main: Element,
}

impl Dom {
    pub fn find(&self, selector: &str) -> Option<Element> {
        self.top.query_selector(selector).ok().flatten().or_else(|| self.main.query_selector(selector).ok().flatten())
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        let mut out = Vec::new();
        for root in [&self.top, &self.main] {
            if let Ok(list) = root.query_selector_all(selector) {
                out.extend((0..list.length()).filter_map(|i| list.get(i)?.dyn_into().ok()));
            }
        }
        out
    }
}

fn hide(el: Option<Element>, hidden: bool) {
    if let Some(el) = el {
        let _ = el.toggle_attribute_with_force("hidden", hidden);
    }
}

fn disable(el: Option<Element>, disabled: bool) {
    if let Some(el) = el {
        let _ = el.toggle_attribute_with_force("disabled", disabled);
    }
}

fn set_text(el: Option<Element>, text: &str) {
    if let Some(el) = el {
        if el.text_content().as_deref() != Some(text) {
            el.set_text_content(Some(text));
        }
    }
}

/// A form control's `value` property (inputs and selects alike).
pub fn value(el: &Element) -> String {
    js_sys::Reflect::get(el, &"value".into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
}

fn set_value(el: Option<Element>, v: &str) {
    // Only when it differs: rewriting a field being typed in would move the caret.
    if let Some(el) = el.filter(|el| value(el) != v) {
        let _ = js_sys::Reflect::set(&el, &"value".into(), &v.into());
    }
}

fn set_prop(el: &Element, name: &str, v: bool) {
    let _ = js_sys::Reflect::set(el, &name.into(), &JsValue::from_bool(v));
}

pub use crate::format::group;

/// The view from the URL: filter fields, page size, page number, sort indicators, caption.
pub fn view(d: &Dom, ctx: Ctx, v: &TableState) {
    for f in ctx.filters {
        set_value(d.find(&format!("[data-filter='{}']", f.param)), v.filter(f.param).unwrap_or_default());
    }
    disable(d.find(".clear-filters"), v.filters.is_empty());
    if let Some(select) = d.find(Action::Size.selector()) {
        let size = v.size.to_string();
        if !PAGE_SIZES.contains(&v.size)
            && select.query_selector(&format!("option[value='{size}']")).ok().flatten().is_none()
        {
            let doc = leptos::prelude::document();
            let _ = select.append_child(&build::el(&doc, "option", &[("value", &size)], &size));
        }
        set_value(Some(select), &size);
    }
    set_value(d.find(&format!("{} input", Action::Jump.selector())), &v.page.to_string());
    sort(d, ctx, v);
}

/// `aria-sort`, the arrow and the title of each sortable header; the caption says the sort.
pub fn sort(d: &Dom, ctx: Ctx, v: &TableState) {
    let t = &text().table;
    for button in d.all("th button[data-sort]") {
        let field = button.get_attribute("data-sort").unwrap_or_default();
        let label = ctx.columns.iter().find(|c| c.sort == Some(field.as_str())).map_or("", |c| c.label);
        let state = v.sort.as_ref().filter(|(f, _)| *f == field).map(|(_, d)| *d);
        let (aria, icon, title) = match state {
            Some(SortDir::Asc) => ("ascending", "▲", t.sorted_asc),
            Some(SortDir::Desc) => ("descending", "▼", t.sorted_desc),
            None => ("none", "↕", t.sort_by),
        };
        let title = fill(title, &[label]);
        if let Some(th) = button.parent_element() {
            let _ = th.set_attribute("aria-sort", aria);
        }
        let _ = button.set_attribute("title", &title);
        set_text(button.query_selector(".sort-icon").ok().flatten(), icon);
    }
    if let Some(caption) = d.find("caption") {
        let base = caption.get_attribute("data-caption").unwrap_or_default();
        let sorted = v.sort.as_ref().and_then(|(field, dir)| {
            let col = ctx.columns.iter().find(|c| c.sort == Some(field.as_str()))?;
            let dir = if *dir == SortDir::Asc { t.ascending } else { t.descending };
            Some(fill(t.sorted_caption, &[&base, col.label, dir]))
        });
        set_text(Some(caption), &sorted.unwrap_or(base));
    }
}

/// The visible columns: the header row and the chooser's boxes (the last box cannot go).
pub fn columns(d: &Dom, ctx: Ctx) {
    let visible = ctx.visible.get();
    // A run's answer adds the "Outcome" header.
    ctx.ran.track();
    if let Some(tr) = d.find("thead tr") {
        build::header(&leptos::prelude::document(), &tr, &ctx.visible_columns(), ctx);
    }
    if ctx.selectable() {
        ctx.selection.with_untracked(|s| selection(d, ctx, s));
    }
    for check in d.all("[data-column]") {
        let key = check.get_attribute("data-column").unwrap_or_default();
        let on = visible.iter().any(|k| *k == key);
        set_prop(&check, "checked", on);
        set_prop(&check, "disabled", on && visible.len() == 1);
    }
    ctx.view.with_untracked(|v| sort(d, ctx, v));
}

/// "11–20 of 2,400 accounts".
pub fn range_text(ctx: Ctx) -> Option<String> {
    let t = &text().table;
    ctx.shown.with(|s| {
        let p = &s.as_ref()?.page;
        Some(if p.content.is_empty() {
            fill(t.range_none, &[&group(p.total_elements), ctx.noun_of(p.total_elements)])
        } else {
            let from = p.pageable.offset + 1;
            let to = p.pageable.offset + p.content.len() as u64;
            fill(t.range, &[&group(from), &group(to), &group(p.total_elements), ctx.noun_of(p.total_elements)])
        })
    })
}

/// Loading, totals, the pager's buttons, which state shows (idle, empty, table), the live
/// region's sentence and whether there is anything to export.
pub fn status(d: &Dom, ctx: Ctx, idle: bool) {
    let t = &text().table;
    let loading = ctx.loading.get();
    let failed = ctx.error.with(Option::is_some);
    let page = ctx.view.with(|v| v.page);
    let filtered = ctx.view.with(|v| !v.filters.is_empty());
    let totals = ctx.totals();
    let pages = totals.map(|(_, n)| n.max(1));
    let shown_empty = ctx.shown.with(|s| s.as_ref().map(|l| l.page.content.is_empty()));

    if let Some(table) = d.find("table") {
        let _ = table.set_attribute("aria-busy", if loading { "true" } else { "false" });
        let _ = table.class_list().toggle_with_force("is-loading", loading && shown_empty.is_some());
    }
    let empty = !idle && !failed && shown_empty == Some(true);
    hide(d.find("[data-testid=table-idle]"), !idle);
    hide(d.find(".table-scroll"), idle || failed || empty);
    hide(d.find("[data-testid=table-empty]"), !empty);
    if empty {
        let past_end = totals.filter(|(t, _)| *t > 0).map(|(_, n)| n);
        let (message, button, action) = match past_end {
            Some(last) => (fill(t.past_end, &[&page.to_string(), &last.to_string()]), t.to_last_page, Action::LastPage),
            None if filtered => (fill(t.no_match, &[ctx.noun()]), t.clear_filters, Action::Clear),
            None => (fill(t.none_yet, &[ctx.noun()]), "", Action::Clear),
        };
        set_text(d.find("[data-testid=table-empty] p"), &message);
        if let Some(b) = d.find("[data-testid=table-empty] button") {
            set_text(Some(b.clone()), button);
            let _ = b.set_attribute(ATTR, action.as_str());
            hide(Some(b), button.is_empty());
        }
    }

    let range = range_text(ctx);
    set_text(d.find(".table-total"), range.as_deref().unwrap_or_default());
    let at_first = page <= 1;
    let at_last = pages.is_none_or(|n| page >= n);
    disable(d.find("[data-page=first]"), at_first);
    disable(d.find("[data-page=prev]"), at_first);
    disable(d.find("[data-page=next]"), at_last);
    disable(d.find("[data-page=last]"), at_last);
    if let Some(input) = d.find(&format!("{} input", Action::Jump.selector())) {
        let _ = input.set_attribute("max", &pages.unwrap_or(1).to_string());
    }
    set_text(d.find(".jump .of"), &pages.map(|n| fill(t.of_pages, &[&group(n)])).unwrap_or_default());
    disable(d.find(Action::Export.selector()), totals.is_none_or(|(t, _)| t == 0));

    let sentence = if loading {
        fill(t.loading, &[ctx.noun()])
    } else if let Some(e) = ctx.error.with(|e| e.as_ref().map(|e| e.to_string())) {
        e
    } else {
        match (pages, &range) {
            (Some(n), Some(range)) => fill(t.page_status, &[&page.to_string(), &n.to_string(), range]),
            _ => String::new(),
        }
    };
    set_text(d.find("[data-part=status]"), &sentence);
}

/// The export control: the button, or the progress bar with Cancel.
pub fn export(d: &Dom, ctx: Ctx) {
    let progress = ctx.progress.get();
    hide(d.find(Action::Export.selector()), progress.is_some());
    hide(d.find(".export-progress"), progress.is_none());
    if let Some(p) = progress {
        let said = fill(text().table.exporting, &[&group(p.done), &group(p.total)]);
        set_text(d.find(".export-progress label"), &said);
        if let Some(bar) = d.find(".export-progress progress") {
            let _ = bar.set_attribute("max", &p.total.max(1).to_string());
            let _ = bar.set_attribute("value", &p.done.to_string());
        }
    }
}

/// The rendered rows' boxes and the header's box (ticked, or indeterminate for a part of the
/// page) as the selection says.
pub fn selection(d: &Dom, ctx: Ctx, s: &Selection) {
    for tr in d.all("tbody tr[data-id]") {
        let id = tr.get_attribute("data-id").unwrap_or_default();
        let on = s.contains(&id);
        let _ = tr.class_list().toggle_with_force("selected", on);
        if let Some(check) = tr.query_selector("input[data-select]").ok().flatten() {
            set_prop(&check, "checked", on);
        }
    }
    if let Some(check) = d.find("input[data-select-page]") {
        // The whole page, not only its rendered window.
        let (all, some) = s.page_state(&ctx.page_ids());
        set_prop(&check, "checked", all);
        set_prop(&check, "indeterminate", some);
    }
}
