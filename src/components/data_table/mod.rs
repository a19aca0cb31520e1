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
//!     fetcher noun=("account", "accounts") title_key="accountName"/> }
//! ```
//!
//! `Fetcher::get(path)` does the same for a path answered as `Envelope<Page<_>>`. Each filter's
//! `param` is the API's query parameter; a column's key is the record's JSON field (and its
//! sort field unless `sort_by` names another). The view is the URL (`page`, `size`, `sort`,
//! the filters, and `cols`, the columns shown when a link names them; else the device's choice):
//! Back and Forward move through it, a link reproduces it. Records are JSON
//! objects; `Format` says how a cell shows (money and dates formatted, badges for statuses,
//! `Label` for a vocabulary's labels). The CSV export fetches every page of the current view.
//!
//! With `bulk=BULK bulk_run` (bulk.rs says how) the rows get a selection box and the table a
//! bulk bar: click, shift-click, the page, "all N matching" (sent as the filter); each run's
//! answer shows on its rows and in a summary (bulk_bar.rs). Every table takes the list
//! shortcuts (`/`, `j`/`k`, `x`, `Enter`, `?`: keys.rs).
//!
//! # Inside
//!
//! Leptos owns the state (signals, the fetch effect, the error view and the drawer: load.rs,
//! panels.rs); the controls and rows are built with DOM calls (build.rs, dom.rs), updated by
//! effects (sync.rs, set up in load.rs) and handled by delegated events (events.rs): that keeps
//! the table's share of the wasm small and a 500-row page fast (104 ms to a painted 500-row
//! page against react-admin's 697 ms). The parts depend one way: `ctx.rs` (the shared state)
//! and `action.rs` (the controls' names) at the bottom, then `column`, `state`, `csv`,
//! `export`, `bulk` (which `ctx` names too), `dom`, `build`, `windowing`, `sync`, `events`,
//! `keys`, `bulk_bar`, `load`, `panels`; this file assembles them and nothing imports it back.

pub mod action;
mod build;
pub mod bulk;
mod bulk_bar;
pub mod column;
pub mod csv;
mod ctx;
mod dom;
mod events;
pub mod export;
mod keys;
mod load;
mod panels;
pub mod state;
mod sync;
mod windowing;

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use serde_json::Value;

pub use self::bulk::{BulkAction, BulkCall, BulkFuture, BulkRunner};
use self::bulk_bar::BulkBar;
pub(crate) use self::bulk_bar::BulkSummary;
pub use self::column::{Column, FilterDef, FilterKind, Format};
pub(crate) use self::ctx::{columns_key, Ctx};
use self::keys::Shortcuts;
use self::panels::{RecordDrawer, TableError};
use self::state::{chosen_columns, decode, merge_query, COLS};
pub use self::state::{Fetcher, PageFuture, TableQuery, TableState, PAGE_SIZES};
use crate::components::selection::Selection;
use crate::components::toasts::Toasts;
use crate::config::AppConfig;
pub use moneydesk_model::collections::SortDir;

/// The columns chosen earlier on this device, else the columns not hidden by default.
fn stored_columns(id: &str, columns: &'static [Column]) -> Vec<&'static str> {
    let stored = window().local_storage().ok().flatten().and_then(|s| s.get_item(&columns_key(id)).ok().flatten());
    stored
        .and_then(|list| chosen_columns(&list, columns))
        .unwrap_or_else(|| columns.iter().filter(|c| !c.hidden).map(|c| c.key).collect())
}

/// The columns a link names (`cols=`; None: it names none), the device's choice, and the
/// columns shown: the link's, else the device's.
#[allow(clippy::type_complexity)]
fn column_choice(
    search: Memo<String>,
    id: &'static str,
    columns: &'static [Column],
) -> (Memo<Option<Vec<&'static str>>>, RwSignal<Vec<&'static str>>, Memo<Vec<&'static str>>) {
    let chosen = Memo::new(move |_| {
        search
            .with(|s| decode(s).into_iter().rev().find(|(k, _)| k == COLS))
            .and_then(|(_, list)| chosen_columns(&list, columns))
    });
    let stored = RwSignal::new(stored_columns(id, columns));
    let visible = Memo::new(move |_| chosen.get().unwrap_or_else(|| stored.get()));
    (chosen, stored, visible)
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
    /// What the records are, (one, many) (`("account", "accounts")`), for the totals and
    /// messages ("1 account", "2 accounts"); "record"/"records" (in the portal's language) when
    /// not given.
    #[prop(optional)]
    noun: Option<(&'static str, &'static str)>,
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
    /// Bulk actions on selected rows (a checkbox column and a bulk bar); `bulk_run` sends them.
    #[prop(optional)]
    bulk: Option<&'static [BulkAction]>,
    #[prop(optional)] bulk_run: Option<BulkRunner>,
) -> impl IntoView {
    let (view, go, search) = url_state(columns, filters);
    let (chosen, stored, visible) = column_choice(search, id, columns);

    let words = &crate::i18n::components::text().table;
    let ctx = Ctx {
        id,
        nouns: noun.unwrap_or(words.records),
        columns,
        filters,
        view,
        shown: RwSignal::new(None),
        loading: RwSignal::new(false),
        error: RwSignal::new(None),
        chosen,
        stored,
        visible,
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
        bulk: if bulk_run.is_some() { bulk.unwrap_or_default() } else { &[] },
        bulk_run: StoredValue::new(bulk_run),
        selection: RwSignal::new(Selection::default()),
        ran: RwSignal::new(None),
        refetch: RwSignal::new(0),
    };
    windowing::listen(ctx);
    let help = RwSignal::new(false);
    keys::listen(ctx, help);
    bulk_bar::follow_view(ctx);
    let retry = ctx.refetch;
    let idle = move || require_filter && view.with(|v| v.filters.is_empty());

    load::fetch(ctx, fetcher, reload, retry, idle);
    let (top, main) = (NodeRef::<leptos::html::Div>::new(), NodeRef::<leptos::html::Div>::new());
    let idle_message = idle_message.unwrap_or_else(|| words.idle.into());
    load::render(ctx, top, main, caption, idle_message, idle);

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
            <BulkBar ctx/>
            <TableError ctx retry/>
            <div node_ref=main></div>
            <RecordDrawer ctx title_key detail/>
            <Shortcuts ctx open=help/>
        </section>
    }
}

#[cfg(test)]
mod tests;

type Go = Arc<dyn Fn(TableState, Option<Vec<&'static str>>, bool) + Send + Sync>;

/// The table's state as the URL holds it; `go` navigates to another (the page's own query
/// parameters kept, `cols` when the column choice changes, `replace` for typing); the query.
fn url_state(columns: &'static [Column], filters: &'static [FilterDef]) -> (Memo<TableState>, Go, Memo<String>) {
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
    let go: Go = Arc::new(move |next: TableState, cols: Option<Vec<&'static str>>, replace: bool| {
        let path = location.pathname.get_untracked();
        let path = config.relative(&path);
        let query = merge_query(&decode(&location.search.get_untracked()), &owned, &next, cols.as_deref());
        let url = if query.is_empty() { path.to_string() } else { format!("{path}?{query}") };
        navigate(&url, NavigateOptions { replace, scroll: false, ..Default::default() });
    });
    (view, go, location.search)
}
