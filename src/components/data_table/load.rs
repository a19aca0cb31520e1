//! Fetching and drawing: the page of records fetched whenever the view changes, and the
//! controls and rows built once and kept in step with the state by effects (sync.rs,
//! windowing.rs), timed with the Performance API (read by scripts/bench-table).

use std::sync::Arc;

use leptos::prelude::*;

use super::ctx::{Ctx, Loaded};
use super::state::Fetcher;
use super::{build, dom, state, sync, windowing};
use crate::api::ApiError;

/// Fetches whenever the view changes (or `reload`, or `retry`); nothing while `idle`.
pub(super) fn fetch(
    ctx: Ctx,
    fetcher: Fetcher,
    reload: Option<Signal<u32>>,
    retry: RwSignal<u32>,
    idle: impl Fn() -> bool + Copy + 'static,
) {
    // Fetch whenever the view changes. The request starts inside this effect's owner, so the
    // api client aborts it when the effect runs again (a newer view) or the page goes away.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        retry.track();
        if let Some(r) = reload {
            r.track();
        }
        let v = ctx.view.get();
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        if idle() {
            ctx.shown.set(None);
            ctx.error.set(None);
            ctx.loading.set(false);
            return;
        }
        ctx.loading.set(true);
        let request = fetcher.fetch(&v);
        leptos::task::spawn_local(async move {
            let result = request.await;
            if generation.try_get_value() != Some(mine) || matches!(result, Err(ApiError::Aborted)) {
                return;
            }
            match result {
                Ok(page) => {
                    mark_data(ctx.id);
                    // A new view closes the drawer; the same view fetched again keeps it.
                    let same = ctx.shown.try_with_untracked(|s| s.as_ref().is_some_and(|l| l.view == v));
                    if same != Some(true) {
                        ctx.open.try_set(opened_by_link(ctx, &page.content));
                    }
                    ctx.error.try_set(None);
                    ctx.shown.try_set(Some(Loaded { view: v, page: Arc::new(page) }));
                    ctx.loading.try_set(false);
                }
                Err(e) => {
                    ctx.error.try_set(Some(e));
                    ctx.loading.try_set(false);
                }
            }
        });
    });
}

/// The row a link names to open (`open=<row key>`, as the shell's search answers link a record):
/// its drawer opens with a new view when the record is on the page the view shows.
fn opened_by_link(ctx: Ctx, rows: &[serde_json::Value]) -> Option<usize> {
    let search = window().location().search().ok()?;
    let key = state::decode(&search).into_iter().rev().find(|(k, _)| k == "open")?.1;
    rows.iter().position(|r| super::column::raw_text(&r[ctx.row_key]) == key)
}

/// The controls and rows, in `top` and `main` once both exist.
pub(super) fn render(
    ctx: Ctx,
    top: NodeRef<leptos::html::Div>,
    main: NodeRef<leptos::html::Div>,
    caption: String,
    idle_message: String,
    idle: impl Fn() -> bool + Copy + Send + Sync + 'static,
) {
    // The controls are built once both containers exist, then kept in step by one effect per
    // group of signals.
    let built = StoredValue::new(false);
    let dom = move || {
        let (top, main): (web_sys::Element, web_sys::Element) = (top.get()?.into(), main.get()?.into());
        if !built.get_value() {
            built.set_value(true);
            let doc = document();
            build::top(&doc, &top, ctx);
            build::main(&doc, &main, ctx, &caption, &idle_message);
        }
        Some(sync::Dom { top, main })
    };
    let dom = Arc::new(dom);
    let d = dom.clone();
    Effect::new(move |_| {
        if let Some(d) = d() {
            sync::columns(&d, ctx);
        }
    });
    let d = dom.clone();
    Effect::new(move |_| {
        if let Some(d) = d() {
            ctx.view.with(|v| sync::view(&d, ctx, v));
        }
    });
    let d = dom.clone();
    Effect::new(move |_| {
        if let Some(d) = d() {
            sync::status(&d, ctx, idle());
        }
    });
    let d = dom.clone();
    Effect::new(move |_| {
        if let Some(d) = d() {
            sync::export(&d, ctx);
        }
    });
    if ctx.selectable() {
        // The boxes follow the selection in place (rows are not rebuilt: focus stays).
        let d = dom.clone();
        Effect::new(move |_| {
            if let Some(d) = d() {
                ctx.shown.track();
                ctx.selection.with(|s| sync::selection(&d, ctx, s));
            }
        });
    }
    // Rows: rebuilt when the page or the visible columns change, as escaped HTML; a long page
    // only in the window the viewport needs (windowing.rs).
    let d = dom;
    Effect::new(move |_| {
        let Some(d) = d() else { return };
        let Some(tbody) = d.find("tbody") else { return };
        let cols = ctx.visible_columns();
        // A run's answer adds the outcome cell to every row.
        ctx.ran.track();
        let shown = ctx.shown.with(|s| {
            s.as_ref().map(|l| {
                windowing::render(ctx, &tbody, &l.page.content, &cols);
                let cols = state::columns_pair(ctx.chosen.get().as_deref());
                let pairs: Vec<_> = l.view.url_pairs().into_iter().chain(cols).collect();
                (l.page.content.len(), state::encode(&pairs))
            })
        });
        match shown {
            Some((rows, shown)) => {
                // Which view the rows are (the URL's table keys and columns), for tests and debugging.
                if let Some(table) = tbody.parent_element() {
                    let _ = table.set_attribute("data-shown", &shown);
                }
                measure_render(ctx.id, rows);
            }
            None => {
                windowing::clear(ctx, &tbody);
                dom::fill_skeleton(
                    &tbody,
                    ctx.view.with_untracked(|v| v.size).min(10),
                    windowing::cells(ctx, cols.len()),
                )
            }
        }
    });
}

// Render timing (Performance API), read by scripts/bench-table.

/// Marks the moment a page's records arrived, before the table renders them.
fn mark_data(id: &str) {
    if let Some(p) = window().performance() {
        let _ = p.mark(&format!("moneydesk-table:{id}:data"));
    }
}

/// In the next task (after this update) and a forced layout:
/// `performance.measure("moneydesk-table:<id>:render:<rows>")` from the data mark,
/// `moneydesk-table:<id>:build:<rows>` for the part until the rows were in the DOM, and
/// `moneydesk-table:<id>:frame:<rows>` until the next frame was rendered (a task queued by
/// the next animation frame runs after that frame's paint).
fn measure_render(id: &'static str, rows: usize) {
    let Some(p) = window().performance() else { return };
    let mark = format!("moneydesk-table:{id}:data");
    // Fails (and is skipped) when no page just arrived, e.g. a column was shown.
    if p.measure_with_start_mark(&format!("moneydesk-table:{id}:build:{rows}"), &mark).is_err() {
        return;
    }
    let (p2, mark2) = (p.clone(), mark.clone());
    set_timeout(
        move || {
            if let Some(body) = document().body() {
                let _ = body.offset_height();
            }
            let _ = p.measure_with_start_mark(&format!("moneydesk-table:{id}:render:{rows}"), &mark);
        },
        std::time::Duration::ZERO,
    );
    request_animation_frame(move || {
        set_timeout(
            move || {
                let _ = p2.measure_with_start_mark(&format!("moneydesk-table:{id}:frame:{rows}"), &mark2);
                p2.clear_marks_with_mark_name(&mark2);
            },
            std::time::Duration::ZERO,
        )
    });
}
