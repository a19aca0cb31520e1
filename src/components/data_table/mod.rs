//! One data table for every paged collection (accounts, permissions, routing search,
//! deposits): columns and filters are data (`&'static [Column]`, `&'static [FilterDef]`), rows
//! are the API's JSON records, and the view (page, size, sort, filters) lives in the URL.
//! See /tmp/team/TABLE_API.md for how a page plugs it in.

pub mod column;
pub mod csv;
mod dom;
pub mod export;
mod parts;
pub mod state;

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use moneydesk_model::Page;
use serde_json::Value;

pub use self::column::{Column, FilterDef, FilterKind, Format};
pub use self::state::{Fetcher, PageFuture, TableQuery, TableState, PAGE_SIZES};
pub use moneydesk_model::collections::SortDir;
use self::state::{decode, merge_query};
use crate::api::ApiError;
use crate::components::drawer::Drawer;
use crate::config::AppConfig;

/// A page as received, with the view it was asked for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Loaded {
    pub view: TableState,
    pub page: Arc<Page<Value>>,
}

/// What the region under the filters shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `require_filter` and no filter yet.
    Idle,
    Error,
    /// No records match (or the page is past the end).
    Empty,
    /// Rows, or skeleton rows while the first page loads.
    Table,
}

/// Everything the table's parts share; `Copy` (signals and arena values).
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub id: &'static str,
    pub noun: &'static str,
    pub columns: &'static [Column],
    pub filters: &'static [FilterDef],
    pub row_key: &'static str,
    pub view: Memo<TableState>,
    pub shown: RwSignal<Option<Loaded>>,
    pub loading: RwSignal<bool>,
    pub error: RwSignal<Option<ApiError>>,
    pub retry: RwSignal<u32>,
    pub visible: RwSignal<Vec<&'static str>>,
    pub open: RwSignal<Option<usize>>,
    go: StoredValue<Arc<dyn Fn(TableState, bool) + Send + Sync>>,
}

impl Ctx {
    /// Shows `next` (through the URL): `replace` for in-between states (typing), else a new
    /// history entry so Back returns to the previous view.
    pub fn go(&self, next: TableState, replace: bool) {
        if next != self.view.get_untracked() {
            let go = self.go.get_value();
            go(next, replace);
        }
    }

    pub fn visible_columns(&self) -> Vec<&'static Column> {
        self.visible.with(|v| self.columns.iter().filter(|c| v.contains(&c.key)).collect())
    }

    /// The total of the last page received, and its number of pages.
    pub fn totals(&self) -> Option<(u64, u64)> {
        self.shown.with(|s| s.as_ref().map(|l| (l.page.total_elements, l.page.total_pages)))
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
    /// Fetch nothing until some filter has a value (a search that needs criteria).
    #[prop(optional)]
    require_filter: bool,
    #[prop(optional, into)] idle_message: Option<String>,
) -> impl IntoView {
    let location = use_location();
    let navigate = use_navigate();
    let config = use_context::<AppConfig>().unwrap_or_default();
    let owned: Vec<&'static str> = ["page", "size", "sort"].into_iter().chain(filters.iter().map(|f| f.param)).collect();

    let view = Memo::new(move |_| {
        location.search.with(|s| {
            let pairs = decode(s);
            TableState::from_params(|k| pairs.iter().rev().find(|(n, _)| n == k).map(|(_, v)| v.clone()), columns, filters)
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
        row_key,
        view,
        shown: RwSignal::new(None),
        loading: RwSignal::new(false),
        error: RwSignal::new(None),
        retry: RwSignal::new(0),
        visible: RwSignal::new(parts::stored_columns(id, columns)),
        open: RwSignal::new(None),
        go: StoredValue::new(go),
    };
    let idle = move || require_filter && view.with(|v| v.filters.is_empty());

    // Fetch whenever the view changes. The request starts inside this effect's owner, so the
    // api client aborts it when the effect runs again (a newer view) or the page goes away.
    let generation = StoredValue::new(0u64);
    let fetch = fetcher.clone();
    Effect::new(move |_| {
        ctx.retry.track();
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
        let request = fetch.fetch(&v);
        leptos::task::spawn_local(async move {
            let result = request.await;
            if generation.try_get_value() != Some(mine) || matches!(result, Err(ApiError::Aborted)) {
                return;
            }
            match result {
                Ok(page) => {
                    let rows = page.content.len();
                    parts::mark_data(id);
                    ctx.open.try_set(None);
                    ctx.error.try_set(None);
                    ctx.shown.try_set(Some(Loaded { view: v, page: Arc::new(page) }));
                    ctx.loading.try_set(false);
                    parts::measure_render(id, rows);
                }
                Err(e) => {
                    ctx.error.try_set(Some(e));
                    ctx.loading.try_set(false);
                }
            }
        });
    });

    let mode = Memo::new(move |_| {
        if idle() {
            Mode::Idle
        } else if ctx.error.with(Option::is_some) {
            Mode::Error
        } else if ctx.shown.with(|s| s.as_ref().is_some_and(|l| l.page.content.is_empty())) {
            Mode::Empty
        } else {
            Mode::Table
        }
    });
    let idle_message = idle_message.unwrap_or_else(|| "Enter something to search for.".into());
    let region = move || match mode.get() {
        Mode::Idle => view! { <p class="table-state" data-testid="table-idle">{idle_message.clone()}</p> }.into_any(),
        Mode::Error => parts::error_state(ctx).into_any(),
        Mode::Empty => parts::empty_state(ctx).into_any(),
        Mode::Table => parts::table(ctx, caption.clone()).into_any(),
    };

    let drawer = move || {
        let i = ctx.open.get()?;
        let record = ctx.shown.with(|s| s.as_ref().and_then(|l| l.page.content.get(i).cloned()))?;
        let title = title_key
            .and_then(|k| record.get(k))
            .map(column::raw_text)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("{} {}", noun, column::raw_text(&record[row_key])));
        let on_close = Callback::new(move |()| ctx.open.set(None));
        Some(view! {
            <Drawer title id=format!("{id}-drawer") on_close>
                {parts::record_fields(columns, record)}
            </Drawer>
        })
    };

    view! {
        <section class="data-table-wrap" id=id>
            <div class="table-toolbar">
                {parts::filter_form(ctx)}
                <div class="table-actions">
                    {parts::column_chooser(ctx)}
                    {parts::export_control(ctx, fetcher)}
                </div>
            </div>
            <p class="sr-only" aria-live="polite">{move || parts::status_text(ctx)}</p>
            {region}
            {parts::pager(ctx)}
            {drawer}
        </section>
    }
}

#[cfg(test)]
mod tests;
