//! Row windowing for long pages: a page of more than `WINDOW_MIN` rows renders only the rows
//! in and near the viewport, between two spacer rows that keep the table (and the scrollbar)
//! as tall as all its rows. Scrolling moves the window once a frame, adding and removing rows
//! at its edges (rows still in the window stay, with their focus); the keyboard moves past the
//! window's edge by moving the window first. The table keeps its semantics: `aria-rowcount`
//! on the table, `aria-rowindex` on every rendered row (see `dom::rows_html`).
//!
//! Every row of a windowed table is one line high (style/table.css), so one measured row
//! height places every row: row `i` starts `i × row_h` below the top of the body.

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::column::Column;
use super::ctx::Ctx;
use super::dom::{rows_html, Marks};

/// Pages with more rows than this are windowed; shorter ones render every row.
pub const WINDOW_MIN: usize = 100;
/// Rows rendered beyond each edge of the viewport.
pub const OVERSCAN: usize = 6;
pub use super::ctx::{Win, ROW_HEIGHT};

/// The rows to render, `start..end`, when the viewport runs from `top` px below the top of
/// the table's body for `height` px: the rows it shows plus `overscan` on each side. A table
/// below the viewport renders its first rows, one above it its last rows.
pub fn range(rows: usize, row_h: f64, top: f64, height: f64, overscan: usize) -> (usize, usize) {
    if rows == 0 {
        return (0, 0);
    }
    let h = if row_h >= 1.0 { row_h } else { ROW_HEIGHT };
    // `as usize` saturates (and maps NaN to 0).
    let first = (top.max(0.0) / h).floor() as usize;
    let last = ((top + height.max(0.0)).max(0.0) / h).ceil() as usize;
    let end = last.saturating_add(overscan).clamp(overscan.clamp(1, rows), rows);
    let start = first.saturating_sub(overscan).min(end.saturating_sub(overscan.max(1)));
    (start, end)
}

/// The heights (px) of the spacers standing for the rows before and after `start..end`.
pub fn spacers(rows: usize, (start, end): (usize, usize), row_h: f64) -> (f64, f64) {
    (start as f64 * row_h, rows.saturating_sub(end) as f64 * row_h)
}

/// A window of `len` rows with row `index` in its middle (where the keyboard went).
pub fn around(rows: usize, index: usize, len: usize) -> (usize, usize) {
    let len = len.max(1);
    let start = index.saturating_sub(len / 2).min(rows.saturating_sub(len));
    (start, (start + len).min(rows))
}

// Bindings web-sys has behind features the portal does not enable.
#[wasm_bindgen]
extern "C" {
    type El;
    type Rect;
    #[wasm_bindgen(method, js_name = getBoundingClientRect)]
    fn bounding(this: &El) -> Rect;
    #[wasm_bindgen(method, getter)]
    fn top(this: &Rect) -> f64;
    #[wasm_bindgen(method, getter)]
    fn bottom(this: &Rect) -> f64;
    #[wasm_bindgen(method, js_name = focus)]
    fn focus_with(this: &El, options: &js_sys::Object);
}

fn rect(el: &Element) -> Rect {
    el.unchecked_ref::<El>().bounding()
}

/// Focus without scrolling.
fn focus_in_place(el: &Element) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"preventScroll".into(), &JsValue::TRUE);
    el.unchecked_ref::<El>().focus_with(&options);
}

fn tbody(ctx: Ctx) -> Option<Element> {
    document().get_element_by_id(&format!("{}-table", ctx.id))?.query_selector("tbody").ok().flatten()
}

/// Where the viewport is, from the top of the body: (top, height) in px.
fn viewport(tbody: &Element) -> (f64, f64) {
    let height = window().inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(800.0);
    (-rect(tbody).top(), height)
}

/// Rows `records` (from row `first`), with the selection's boxes and outcomes in a bulk table.
fn html(ctx: Ctx, records: &[Value], first: usize, columns: &[&'static Column], tab_stop: usize) -> String {
    if !ctx.selectable() {
        return rows_html(records, first, columns, ctx.row_key, tab_stop, None);
    }
    ctx.selection.with_untracked(|selection| {
        ctx.ran.with_untracked(|ran| {
            let marks = Marks { selection, ran: ran.as_deref() };
            rows_html(records, first, columns, ctx.row_key, tab_stop, Some(&marks))
        })
    })
}

/// The cells of a row: the visible columns', and the bulk table's box and outcome.
pub fn cells(ctx: Ctx, columns: usize) -> usize {
    let extra = if ctx.selectable() { 1 + usize::from(ctx.ran.with_untracked(Option::is_some)) } else { 0 };
    columns + extra
}

fn spacer_html(out: &mut String, columns: usize) {
    out.push_str("<tr class=\"spacer\" aria-hidden=\"true\"><td colspan=\"");
    out.push_str(&columns.max(1).to_string());
    out.push_str("\"></td></tr>");
}

/// Gives the spacers their heights (CSSOM: the CSP allows no style attributes); an empty one
/// is hidden.
fn size_spacers(tbody: &Element, w: &Win) {
    let (before, after) = spacers(w.rows, (w.start, w.end), w.row_h);
    for (tr, px) in [(tbody.first_element_child(), before), (tbody.last_element_child(), after)] {
        let Some(tr) = tr.filter(|t| t.class_name() == "spacer") else { continue };
        let _ = tr.toggle_attribute_with_force("hidden", px <= 0.0);
        if let Some(td) = tr.first_element_child().and_then(|td| td.dyn_into::<HtmlElement>().ok()) {
            // Whole pixels: formatting a float would bring its code into the wasm.
            let _ = td.style().set_property("height", &format!("{}px", px.round() as u64));
        }
    }
}

/// The rendered rows' height (px), when there are rows; reading it lays the table out.
fn row_height(tbody: &Element, w: &Win) -> Option<f64> {
    let first = tbody.first_element_child()?.next_element_sibling()?;
    let last = tbody.last_element_child()?.previous_element_sibling()?;
    if w.end <= w.start || !first.has_attribute("data-row") {
        return None;
    }
    let h = (rect(&last).bottom() - rect(&first).top()) / (w.end - w.start) as f64;
    (h >= 1.0).then_some(h)
}

/// Renders the shown page's rows into `tbody` (a new page, or other columns): every row of a
/// short page, else the window the viewport needs.
pub fn render(ctx: Ctx, tbody: &Element, records: &[Value], columns: &[&'static Column]) {
    let mut w = ctx.win.get_value();
    let rows = records.len();
    let windowed = rows > WINDOW_MIN;
    w.rows = rows;
    (w.start, w.end) = if windowed {
        // Where the viewport was when last seen (a scroll or a resize since then moved the
        // window and updated it): reading it now would lay out the page twice.
        let (top, height) = w.view.unwrap_or_else(|| viewport(tbody));
        range(rows, w.row_h, top, height, OVERSCAN)
    } else {
        (0, rows)
    };
    // Tab lands on the first row rendered (the first row of a short page).
    w.tab_stop = w.start;
    let html = if windowed {
        let mut out = String::new();
        spacer_html(&mut out, cells(ctx, columns.len()));
        out.push_str(&html(ctx, &records[w.start..w.end], w.start, columns, w.tab_stop));
        spacer_html(&mut out, cells(ctx, columns.len()));
        out
    } else {
        html(ctx, records, 0, columns, w.tab_stop)
    };
    tbody.set_inner_html(&html);
    if let Some(table) = tbody.parent_element() {
        let _ = table.set_attribute("aria-rowcount", &(rows + 1).to_string());
        let _ = table.class_list().toggle_with_force("windowed", windowed);
    }
    if windowed {
        size_spacers(tbody, &w);
    }
    ctx.win.set_value(w);
    // The next frame checks the window against the laid-out table (no layout forced here).
    schedule(ctx);
}

/// No rows (skeleton rows while the first page loads).
pub fn clear(ctx: Ctx, tbody: &Element) {
    ctx.win.update_value(|w| (w.rows, w.start, w.end) = (0, 0, 0));
    if let Some(table) = tbody.parent_element() {
        let _ = table.remove_attribute("aria-rowcount");
        let _ = table.class_list().remove_1("windowed");
    }
}

/// Moves the window to `start..end`: removes the rows leaving it and adds the rows entering
/// it, keeping the rows in both (and the focus on one of them).
fn move_to(ctx: Ctx, tbody: &Element, start: usize, end: usize) {
    let mut w = ctx.win.get_value();
    if (start, end) == (w.start, w.end) || w.rows <= WINDOW_MIN || end > w.rows {
        return;
    }
    let (Some(top), Some(bottom)) = (tbody.first_element_child(), tbody.last_element_child()) else { return };
    let columns = ctx.visible_columns();
    let html = |from: usize, to: usize| {
        ctx.shown.with_untracked(|s| {
            s.as_ref()
                .and_then(|l| l.page.content.get(from..to))
                .map(|records| html(ctx, records, from, &columns, w.tab_stop))
                .unwrap_or_default()
        })
    };
    // A focused row about to go: focus stays in the table (its scroll region), not lost.
    let active = document().active_element().filter(|a| a.parent_element().as_ref() == Some(tbody));
    let lost = active
        .and_then(|a| a.get_attribute("data-row")?.parse::<usize>().ok())
        .is_some_and(|i| !(start..end).contains(&i));
    if end <= w.start || start >= w.end {
        while let Some(tr) = top.next_element_sibling().filter(|t| t != &bottom) {
            tr.remove();
        }
        let _ = top.insert_adjacent_html("afterend", &html(start, end));
    } else {
        for _ in w.start..start {
            if let Some(tr) = top.next_element_sibling().filter(|t| t != &bottom) {
                tr.remove();
            }
        }
        for _ in end..w.end {
            if let Some(tr) = bottom.previous_element_sibling().filter(|t| t != &top) {
                tr.remove();
            }
        }
        if start < w.start {
            let _ = top.insert_adjacent_html("afterend", &html(start, w.start));
        }
        if end > w.end {
            let _ = bottom.insert_adjacent_html("beforebegin", &html(w.end, end));
        }
    }
    (w.start, w.end) = (start, end);
    if !(start..end).contains(&w.tab_stop) {
        w.tab_stop = start;
        if let Some(tr) = top.next_element_sibling().and_then(|t| t.dyn_into::<HtmlElement>().ok()) {
            tr.set_tab_index(0);
        }
    }
    size_spacers(tbody, &w);
    ctx.win.set_value(w);
    if lost {
        if let Some(region) = tbody.closest(".table-scroll").ok().flatten() {
            focus_in_place(&region);
        }
    }
}

/// Moves the window to where the viewport is now, with the rows' height as laid out.
pub fn update(ctx: Ctx) {
    let mut w = ctx.win.get_value();
    if w.rows <= WINDOW_MIN {
        return;
    }
    let Some(tbody) = tbody(ctx) else { return };
    let (top, height) = viewport(&tbody);
    w.view = Some((top, height));
    if let Some(h) = row_height(&tbody, &w).filter(|h| (h - w.row_h).abs() > 0.1) {
        w.row_h = h;
        size_spacers(&tbody, &w);
    }
    ctx.win.set_value(w);
    let (start, end) = range(w.rows, w.row_h, top, height, OVERSCAN);
    move_to(ctx, &tbody, start, end);
}

/// Updates the window in the next frame (at most once a frame however often it is asked).
pub fn schedule(ctx: Ctx) {
    let Some(w) = ctx.win.try_get_value() else { return };
    if w.frame || w.rows <= WINDOW_MIN {
        return;
    }
    ctx.win.update_value(|w| w.frame = true);
    request_animation_frame(move || {
        if ctx.win.try_update_value(|w| w.frame = false).is_some() {
            update(ctx);
        }
    });
}

/// Row `index` of the page, rendered first if it is outside the window.
pub fn row(ctx: Ctx, index: usize) -> Option<HtmlElement> {
    let tbody = tbody(ctx)?;
    let w = ctx.win.get_value();
    if index >= w.rows {
        return None;
    }
    if !(w.start..w.end).contains(&index) {
        let (start, end) = around(w.rows, index, w.end - w.start);
        move_to(ctx, &tbody, start, end);
    }
    tbody.query_selector(&format!("tr[data-row='{index}']")).ok().flatten()?.dyn_into().ok()
}

/// Whether row `index` is in the DOM now.
pub fn rendered(ctx: Ctx, index: usize) -> bool {
    ctx.win.with_value(|w| (w.start..w.end).contains(&index))
}

/// Scrolling anywhere (capture: a host page's scroll box too) or resizing moves the window;
/// the listeners go with the table.
pub fn listen(ctx: Ctx) {
    let on = Closure::<dyn Fn()>::new(move || schedule(ctx));
    let w = window();
    for kind in ["scroll", "resize"] {
        let _ = w.add_event_listener_with_callback_and_bool(kind, on.as_ref().unchecked_ref(), true);
    }
    let on = send_wrapper::SendWrapper::new(on);
    on_cleanup(move || {
        let w = window();
        for kind in ["scroll", "resize"] {
            let _ = w.remove_event_listener_with_callback_and_bool(kind, (*on).as_ref().unchecked_ref(), true);
        }
    });
}
