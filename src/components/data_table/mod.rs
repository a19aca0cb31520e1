//! One data table for every paged collection (accounts, permissions, routing search,
//! deposits): columns and filters are data (`&'static [Column]`, `&'static [FilterDef]`), rows
//! are the API's JSON records, and the view (page, size, sort, filters) lives in the URL.
//!
//! # Plugging a collection in
//!
//! A page declares its columns and filters as constants and hands the table a fetcher:
//!
//! ```ignore
//! pub const COLUMNS: &[Column] = &[
//!     Column::new("accountName", "Name", Format::Text).sortable(),      // sorts by its key
//!     Column::new("accountStatus", "Status", Format::Badge).sortable(),
//!     Column::new("tin", "TIN", Format::Mono).hidden(),                 // in the chooser, drawer, CSV
//! ];
//! pub const FILTERS: &[FilterDef] = &[
//!     FilterDef::text("name", "Name", "contains…"),                     // applied as typing pauses
//!     FilterDef::select("accountStatus", "Status", AccountStatus::OPTIONS),
//!     FilterDef::date("createTimeFrom", "Created from"),
//! ];
//! let fetcher = Fetcher::new(move |q| Box::pin(api::accounts::page(&auth.client(), q)));
//! view! { <DataTable id="accounts" caption="Accounts" columns=COLUMNS filters=FILTERS
//!     fetcher noun="accounts" title_key="accountName"/> }
//! ```
//!
//! `Fetcher::get(path)` does the same for a path answered as `Envelope<Page<_>>`. Each filter's
//! `param` is the API's query parameter; a column's key is the record's JSON field (and its
//! sort field unless `sort_by` names another). The view is the URL (`page`, `size`, `sort`,
//! the filters): Back and Forward move through it, a link reproduces it. Records are JSON
//! objects; `Format` says how a cell shows (money and dates formatted, badges for statuses,
//! `Label` for a vocabulary's labels). The CSV export fetches every page of the current view.
//!
//! # Inside
//!
//! Leptos owns the state (signals, the fetch effect, the error view and the drawer); the
//! controls and rows are built with DOM calls (build.rs, dom.rs), updated by effects
//! (sync.rs) and handled by delegated events (events.rs): that keeps the table's share of the
//! wasm small and a 500-row page fast (104 ms to a painted 500-row page against react-admin's
//! 697 ms). The parts depend one way: `ctx.rs` (the shared state) and `action.rs` (the
//! controls' names) at the bottom, then `column`, `state`, `csv`, `export`, `dom`, `build`,
//! `windowing`, `sync`, `events`; this file assembles them and nothing imports it back.

pub mod action;
mod build;
pub mod column;
pub mod csv;
mod ctx;
mod dom;
mod events;
pub mod export;
pub mod state;
mod sync;
mod windowing;

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use serde_json::Value;

use self::action::Action;
pub use self::column::{Column, FilterDef, FilterKind, Format};
pub(crate) use self::ctx::{columns_key, Ctx, Loaded};
use self::state::{decode, merge_query};
pub use self::state::{Fetcher, PageFuture, TableQuery, TableState, PAGE_SIZES};
use crate::api::ApiError;
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::Toasts;
use crate::config::AppConfig;
pub use moneydesk_model::collections::SortDir;

/// The columns chosen earlier on this device, else the columns not hidden by default.
fn stored_columns(id: &str, columns: &'static [Column]) -> Vec<&'static str> {
    let stored = window().local_storage().ok().flatten().and_then(|s| s.get_item(&columns_key(id)).ok().flatten());
    let chosen: Vec<&'static str> = match stored {
        Some(list) => columns.iter().filter(|c| list.split(',').any(|k| k == c.key)).map(|c| c.key).collect(),
        None => Vec::new(),
    };
    if chosen.is_empty() {
        columns.iter().filter(|c| !c.hidden).map(|c| c.key).collect()
    } else {
        chosen
    }
}

#[component]
pub fn DataTable(
    /// Unique on the page: DOM ids, the column choice's storage key, the CSV's file name.
    id: &'static str,
    /// The table's caption (read by screen readers).
    #[prop(into)]
    caption: String,
    columns: &'static [Column],
    #[prop(optional)] filters: &'static [FilterDef],
    fetcher: Fetcher,
    /// The field that identifies a record (`data-id` of its row).
    #[prop(default = "id")]
    row_key: &'static str,
    /// The field whose value heads the detail drawer.
    #[prop(optional)]
    title_key: Option<&'static str>,
    /// What the records are, plural ("accounts"), for the totals and messages.
    #[prop(default = "records")]
    noun: &'static str,
    /// More of a record under its fields in the drawer (a deposit's history and moves).
    #[prop(optional)]
    detail: Option<fn(Value) -> AnyView>,
    /// Fetches the current view again whenever it changes (a record changed elsewhere); an open
    /// drawer stays open on its record.
    #[prop(optional, into)]
    reload: Option<Signal<u32>>,
    /// Fetch nothing until some filter has a value (a search that needs criteria).
    #[prop(optional)]
    require_filter: bool,
    #[prop(optional, into)] idle_message: Option<String>,
) -> impl IntoView {
    let location = use_location();
    let navigate = use_navigate();
    let config = use_context::<AppConfig>().unwrap_or_default();
    let owned: Vec<&'static str> =
        ["page", "size", "sort"].into_iter().chain(filters.iter().map(|f| f.param)).collect();

    let view = Memo::new(move |_| {
        location.search.with(|s| {
            let pairs = decode(s);
            TableState::from_params(
                |k| pairs.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
                columns,
                filters,
            )
        })
    });
    let go: Arc<dyn Fn(TableState, bool) + Send + Sync> = Arc::new(move |next: TableState, replace: bool| {
        let path = location.pathname.get_untracked();
        let path = config.relative(&path);
        let query = merge_query(&decode(&location.search.get_untracked()), &owned, &next);
        let url = if query.is_empty() { path.to_string() } else { format!("{path}?{query}") };
        navigate(&url, NavigateOptions { replace, scroll: false, ..Default::default() });
    });

    let ctx = Ctx {
        id,
        noun,
        columns,
        filters,
        view,
        shown: RwSignal::new(None),
        loading: RwSignal::new(false),
        error: RwSignal::new(None),
        visible: RwSignal::new(stored_columns(id, columns)),
        open: RwSignal::new(None),
        progress: RwSignal::new(None),
        job: StoredValue::new(None),
        fetcher: StoredValue::new(fetcher.clone()),
        owner: StoredValue::new(Owner::current()),
        toasts: use_context::<Toasts>(),
        pending: StoredValue::new(None),
        typing: StoredValue::new(false),
        row_key,
        win: StoredValue::new(windowing::Win::default()),
        go: StoredValue::new(go),
    };
    windowing::listen(ctx);
    let retry = RwSignal::new(0u32);
    let idle = move || require_filter && view.with(|v| v.filters.is_empty());

    // Fetch whenever the view changes. The request starts inside this effect's owner, so the
    // api client aborts it when the effect runs again (a newer view) or the page goes away.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        retry.track();
        if let Some(r) = reload {
            r.track();
        }
        let v = view.get();
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
                    mark_data(id);
                    // A new view closes the drawer; the same view fetched again keeps it.
                    let same = ctx.shown.try_with_untracked(|s| s.as_ref().is_some_and(|l| l.view == v));
                    if same != Some(true) {
                        ctx.open.try_set(None);
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

    // The controls are built once both containers exist, then kept in step by one effect per
    // group of signals.
    let top = NodeRef::<leptos::html::Div>::new();
    let main = NodeRef::<leptos::html::Div>::new();
    let built = StoredValue::new(false);
    let idle_message = idle_message.unwrap_or_else(|| "Enter something to search for.".into());
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
    // Rows: rebuilt when the page or the visible columns change, as escaped HTML; a long page
    // only in the window the viewport needs (windowing.rs).
    let d = dom;
    Effect::new(move |_| {
        let Some(d) = d() else { return };
        let Some(tbody) = d.find("tbody") else { return };
        let cols = ctx.visible_columns();
        let shown = ctx.shown.with(|s| {
            s.as_ref().map(|l| {
                windowing::render(ctx, &tbody, &l.page.content, &cols);
                (l.page.content.len(), state::encode(&l.view.url_pairs()))
            })
        });
        match shown {
            Some((rows, shown)) => {
                // Which view the rows are (the URL's table keys), for tests and debugging.
                if let Some(table) = tbody.parent_element() {
                    let _ = table.set_attribute("data-shown", &shown);
                }
                measure_render(id, rows);
            }
            None => {
                windowing::clear(ctx, &tbody);
                dom::fill_skeleton(&tbody, ctx.view.with_untracked(|v| v.size).min(10), cols.len())
            }
        }
    });

    let error = move || {
        let error = ctx.error.get()?;
        let retry = Callback::new(move |()| retry.update(|n| *n += 1));
        let filtered = ctx.view.with_untracked(|v| !v.filters.is_empty());
        Some(view! {
            <div class="table-state table-error" data-testid="table-error">
                <ApiErrorView error retry/>
                <button type="button" class="button" data-action=Action::Clear.as_str() hidden=!filtered>
                    "Clear filters"
                </button>
            </div>
        })
    };
    let drawer = move || {
        let i = ctx.open.get()?;
        let record = ctx.shown.with(|s| s.as_ref().and_then(|l| l.page.content.get(i).cloned()))?;
        let title = title_key
            .and_then(|k| record.get(k))
            .map(column::raw_text)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("{} {}", noun, column::raw_text(&record[row_key])));
        let fields = NodeRef::<leptos::html::Dl>::new();
        let more = detail.map(|d| d(record.clone()));
        Effect::new(move |_| {
            if let Some(dl) = fields.get() {
                dl.set_text_content(None);
                dom::fill_fields(&dl, columns, &record);
            }
        });
        // The drawer gives focus back to the row that had it; if that row left the window
        // meanwhile (the page scrolled), it comes back.
        let on_close = Callback::new(move |()| {
            ctx.open.set(None);
            if !windowing::rendered(ctx, i) {
                if let Some(tr) = windowing::row(ctx, i) {
                    events::make_tab_stop(ctx, &tr);
                    let _ = tr.focus();
                }
            }
        });
        Some(view! {
            <Drawer title id=format!("{id}-drawer") on_close>
                {more}
                <dl class="record-fields" node_ref=fields></dl>
            </Drawer>
        })
    };

    view! {
        <section
            class="data-table-wrap"
            id=id
            on:click=move |ev| events::click(ctx, ev)
            on:change=move |ev| events::change(ctx, ev)
            on:input=move |ev| events::input(ctx, ev)
            on:submit=move |ev| events::submit(ctx, ev)
            on:keydown=move |ev| events::keydown(ctx, ev)
            on:focusin=move |ev| events::focusin(ctx, ev)
        >
            <div node_ref=top></div>
            {error}
            <div node_ref=main></div>
            {drawer}
        </section>
    }
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

#[cfg(test)]
mod tests;
