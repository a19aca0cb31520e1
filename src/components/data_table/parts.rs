//! The table's pieces: the table itself (rows, keyboard), filters, pager, column chooser,
//! CSV export control, the empty and error states, and the drawer's field list.

use leptos::either::Either;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use super::column::{Column, FilterKind};
use super::dom;
use super::export::{self, Job, Outcome, Progress};
use super::state::{Fetcher, TableState, PAGE_SIZES};
use super::{Ctx, SortDir};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{ToastKind, Toasts};

/// `2400` → `2,400`.
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "11–20 of 2,400 accounts".
pub fn range_text(ctx: Ctx) -> Option<String> {
    ctx.shown.with(|s| {
        let p = &s.as_ref()?.page;
        Some(if p.content.is_empty() {
            format!("0 of {} {}", group(p.total_elements), ctx.noun)
        } else {
            let from = p.pageable.offset + 1;
            let to = p.pageable.offset + p.content.len() as u64;
            format!("{}–{} of {} {}", group(from), group(to), group(p.total_elements), ctx.noun)
        })
    })
}

/// What the live region announces after each change.
pub fn status_text(ctx: Ctx) -> String {
    if ctx.loading.get() {
        return format!("Loading {}…", ctx.noun);
    }
    if let Some(e) = ctx.error.with(|e| e.as_ref().map(|e| e.to_string())) {
        return e;
    }
    let page = ctx.shown.with(|s| s.as_ref().map(|l| (l.view.page, l.page.total_pages.max(1))));
    match (page, range_text(ctx)) {
        (Some((p, n)), Some(range)) => format!("Page {p} of {n}: {range}."),
        _ => String::new(),
    }
}

// ---------------------------------------------------------------------------------------
// The table

pub fn table(ctx: Ctx, caption: String) -> impl IntoView {
    let sort_text = move || {
        ctx.view.with(|v| {
            let (field, dir) = v.sort.as_ref()?;
            let col = ctx.columns.iter().find(|c| c.sort == Some(field.as_str()))?;
            let dir = if *dir == SortDir::Asc { "ascending" } else { "descending" };
            Some(format!(", sorted by {} {dir}", col.label))
        })
    };
    let hint_id = format!("{}-hint", ctx.id);
    let caption_id = format!("{}-caption", ctx.id);
    let (region_label, described_by) = (caption_id.clone(), hint_id.clone());
    // Rows are built with DOM calls (see dom.rs) whenever the page or the columns change.
    let tbody = NodeRef::<leptos::html::Tbody>::new();
    Effect::new(move |_| {
        let Some(tb) = tbody.get() else { return };
        let cols = ctx.visible_columns();
        ctx.shown.with(|s| match s {
            None => dom::fill_skeleton(&tb, ctx.view.with_untracked(|v| v.size).min(10), cols.len()),
            Some(loaded) => dom::fill_rows(&tb, &loaded.page.content, &cols, ctx.row_key),
        });
    });
    view! {
        <p class="sr-only" id=hint_id>
            "Use the arrow keys to move between rows and Enter to see every field of a row."
        </p>
        <div class="table-scroll" role="region" aria-labelledby=region_label tabindex="0">
            <table
                id=format!("{}-table", ctx.id)
                class="data-table"
                class:is-loading=move || ctx.loading.get() && ctx.shown.with(Option::is_some)
                aria-busy=move || ctx.loading.get().to_string()
                aria-describedby=described_by
            >
                <caption class="sr-only" id=caption_id>{caption} {sort_text}</caption>
                <thead>
                    <tr>{move || ctx.visible_columns().into_iter().map(|c| header(ctx, c)).collect_view()}</tr>
                </thead>
                <tbody
                    node_ref=tbody
                    on:click=move |ev| {
                        if let Some(i) = row_of(ev.target()).and_then(|tr| row_index(&tr)) {
                            ctx.open.set(Some(i));
                        }
                    }
                    on:keydown=move |ev| row_keys(ctx, ev)
                    on:focusin=move |ev| {
                        if let Some(tr) = row_of(ev.target()) {
                            make_tab_stop(&tr);
                        }
                    }
                ></tbody>
            </table>
        </div>
    }
}

fn header(ctx: Ctx, c: &'static Column) -> impl IntoView {
    let state = move || {
        ctx.view.with(|v| match (&v.sort, c.sort) {
            (Some((f, d)), Some(mine)) if f == mine => Some(*d),
            _ => None,
        })
    };
    match c.sort {
        None => Either::Left(view! { <th scope="col" data-key=c.key class=c.cell_class()>{c.label}</th> }),
        Some(field) => Either::Right(view! {
            <th
                scope="col"
                data-key=c.key
                class=c.cell_class()
                aria-sort=move || match state() {
                    Some(SortDir::Asc) => "ascending",
                    Some(SortDir::Desc) => "descending",
                    None => "none",
                }
            >
                <button
                    type="button"
                    class="sort"
                    title=move || match state() {
                        Some(SortDir::Asc) => format!("Sorted by {} ascending; click for descending", c.label),
                        Some(SortDir::Desc) => format!("Sorted by {} descending; click to unsort", c.label),
                        None => format!("Sort by {}", c.label),
                    }
                    on:click=move |_| ctx.go(ctx.view.get_untracked().toggled_sort(field), false)
                >
                    {c.label}
                    <span class="sort-icon" aria-hidden="true">
                        {move || match state() {
                            Some(SortDir::Asc) => "▲",
                            Some(SortDir::Desc) => "▼",
                            None => "↕",
                        }}
                    </span>
                </button>
            </th>
        }),
    }
}

fn row_of(target: Option<web_sys::EventTarget>) -> Option<web_sys::HtmlElement> {
    let el: web_sys::Element = target?.dyn_into().ok()?;
    el.closest("tr[data-row]").ok()??.dyn_into().ok()
}

fn row_index(tr: &web_sys::HtmlElement) -> Option<usize> {
    tr.get_attribute("data-row")?.parse().ok()
}

/// Roving tab stop: the focused row is the one Tab comes back to.
fn make_tab_stop(tr: &web_sys::HtmlElement) {
    if tr.tab_index() == 0 {
        return;
    }
    if let Some(Ok(list)) = tr.parent_element().map(|b| b.query_selector_all("tr[tabindex='0']")) {
        for i in 0..list.length() {
            if let Some(old) = list.get(i).and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) {
                old.set_tab_index(-1);
            }
        }
    }
    tr.set_tab_index(0);
}

fn row_keys(ctx: Ctx, ev: web_sys::KeyboardEvent) {
    let Some(tr) = row_of(ev.target()) else { return };
    let body = tr.parent_element();
    let target = match ev.key().as_str() {
        "ArrowDown" => tr.next_element_sibling(),
        "ArrowUp" => tr.previous_element_sibling(),
        "Home" => body.and_then(|b| b.first_element_child()),
        "End" => body.and_then(|b| b.last_element_child()),
        "Enter" | " " => {
            ev.prevent_default();
            ctx.open.set(row_index(&tr));
            return;
        }
        _ => return,
    };
    ev.prevent_default();
    if let Some(next) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) {
        make_tab_stop(&next);
        let _ = next.focus();
    }
}

// ---------------------------------------------------------------------------------------
// States

pub fn error_state(ctx: Ctx) -> impl IntoView {
    let retry = Callback::new(move |()| ctx.retry.update(|n| *n += 1));
    let has_filters = move || ctx.view.with(|v| !v.filters.is_empty());
    view! {
        <div class="table-state table-error" data-testid="table-error">
            {move || ctx.error.get().map(|error| view! { <ApiErrorView error retry/> })}
            <button type="button" class="button" hidden=move || !has_filters() on:click=move |_| clear_filters(ctx)>
                "Clear filters"
            </button>
        </div>
    }
}

pub fn empty_state(ctx: Ctx) -> impl IntoView {
    let past_end = move || {
        ctx.shown.with(|s| s.as_ref().filter(|l| l.page.total_elements > 0).map(|l| (l.view.page, l.page.total_pages)))
    };
    view! {
        <div class="table-state table-empty" data-testid="table-empty" role="status">
            {move || match past_end() {
                Some((page, last)) => view! {
                    <p>{format!("Page {page} is past the end: there are {last} pages.")}</p>
                    <button type="button" class="button" on:click=move |_| ctx.go(ctx.view.get_untracked().with_page(last), false)>
                        "Go to the last page"
                    </button>
                }
                .into_any(),
                None => {
                    let filtered = ctx.view.with(|v| !v.filters.is_empty());
                    view! {
                        <p>
                            {if filtered {
                                format!("No {} match these filters.", ctx.noun)
                            } else {
                                format!("There are no {} yet.", ctx.noun)
                            }}
                        </p>
                        <button type="button" class="button" hidden=!filtered on:click=move |_| clear_filters(ctx)>
                            "Clear filters"
                        </button>
                    }
                    .into_any()
                }
            }}
        </div>
    }
}

fn clear_filters(ctx: Ctx) {
    let v = ctx.view.get_untracked();
    ctx.go(TableState { page: 1, filters: Vec::new(), ..v }, false);
}

// ---------------------------------------------------------------------------------------
// Filters

pub fn filter_form(ctx: Ctx) -> impl IntoView {
    let pending = StoredValue::new(None::<TimeoutHandle>);
    // Typing: the first pause pushes a history entry, later pauses replace it.
    let typing = StoredValue::new(false);
    let apply = move |param: &'static str, value: String, replace: bool| {
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let next = ctx.view.get_untracked().with_filter(param, &value, ctx.filters);
        ctx.go(next, replace);
    };
    let controls = ctx
        .filters
        .iter()
        .map(|f| {
            let param = f.param;
            let fid = format!("{}-filter-{}", ctx.id, param);
            let value = move || ctx.view.with(|v| v.filter(param).unwrap_or_default().to_string());
            // Text and date filters share one <input>; only text waits for typing to pause.
            let control = match f.kind {
                FilterKind::Select(options) => Either::Left(view! {
                    <select id=fid.clone() prop:value=value on:change=move |ev| apply(param, event_target_value(&ev), false)>
                        <option value="">"Any"</option>
                        {options.iter().map(|(v, label)| view! { <option value=*v>{*label}</option> }).collect_view()}
                    </select>
                }),
                kind => {
                    let (kind, placeholder) = match kind {
                        FilterKind::Text { placeholder } => ("search", placeholder),
                        _ => ("date", ""),
                    };
                    let is_text = kind == "search";
                    Either::Right(view! {
                        <input
                            type=kind
                            id=fid.clone()
                            placeholder=placeholder
                            autocomplete="off"
                            prop:value=value
                            on:input=move |ev| {
                                if !is_text {
                                    return;
                                }
                                let text = event_target_value(&ev);
                                if let Some(h) = pending.get_value() {
                                    h.clear();
                                }
                                let handle = set_timeout_with_handle(
                                    move || {
                                        let replace = typing.get_value();
                                        typing.set_value(true);
                                        apply(param, text, replace);
                                    },
                                    std::time::Duration::from_millis(400),
                                );
                                pending.set_value(handle.ok());
                            }
                            on:change=move |ev| {
                                let replace = typing.get_value();
                                typing.set_value(false);
                                apply(param, event_target_value(&ev), replace);
                            }
                        />
                    })
                }
            };
            view! {
                <div class="filter">
                    <label for=fid>{f.label}</label>
                    {control}
                </div>
            }
        })
        .collect_view();
    let none = ctx.filters.is_empty();
    view! {
        <form
            class="table-filters"
            role="search"
            aria-label=format!("Filter {}", ctx.noun)
            hidden=none
            on:submit=move |ev| ev.prevent_default()
        >
            {controls}
            <button
                type="button"
                class="button clear-filters"
                disabled=move || ctx.view.with(|v| v.filters.is_empty())
                on:click=move |_| clear_filters(ctx)
            >
                "Clear"
            </button>
        </form>
    }
}

// ---------------------------------------------------------------------------------------
// Pager

pub fn pager(ctx: Ctx) -> impl IntoView {
    let pages = move || ctx.totals().map(|(_, n)| n.max(1));
    let page = move || ctx.view.with(|v| v.page);
    let to = move |p: u64| ctx.go(ctx.view.get_untracked().with_page(p), false);
    let at_first = move || page() <= 1;
    let at_last = move || pages().is_none_or(|n| page() >= n);
    let size_id = format!("{}-size", ctx.id);
    let jump_id = format!("{}-jump", ctx.id);
    let jump = NodeRef::<leptos::html::Input>::new();
    let on_jump = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(input) = jump.get() else { return };
        let wanted = input.value().trim().parse::<u64>().unwrap_or(1).max(1);
        to(pages().map_or(wanted, |n| wanted.min(n)));
    };
    view! {
        <nav class="pager" aria-label=format!("Pages of {}", ctx.noun)>
            <span class="table-total">{move || range_text(ctx)}</span>
            <span class="page-size">
                <label for=size_id.clone()>"Rows per page"</label>
                <select
                    id=size_id
                    prop:value=move || ctx.view.with(|v| v.size.to_string())
                    on:change=move |ev| {
                        if let Ok(size) = event_target_value(&ev).parse::<u32>() {
                            ctx.go(ctx.view.get_untracked().with_size(size), false);
                        }
                    }
                >
                    {PAGE_SIZES.iter().map(|s| view! { <option value=s.to_string()>{s.to_string()}</option> }).collect_view()}
                    {move || {
                        let size = ctx.view.with(|v| v.size);
                        (!PAGE_SIZES.contains(&size)).then(|| view! { <option value=size.to_string()>{size.to_string()}</option> })
                    }}
                </select>
            </span>
            <span class="pager-buttons">
                <button type="button" class="button" data-page="first" aria-label="First page" title="First page"
                    disabled=at_first on:click=move |_| to(1)>"«"</button>
                <button type="button" class="button" data-page="prev" aria-label="Previous page"
                    disabled=at_first on:click=move |_| to(page().saturating_sub(1))>"‹ Prev"</button>
                <form class="jump" on:submit=on_jump>
                    <label for=jump_id.clone()>"Page"</label>
                    <input
                        type="number"
                        id=jump_id
                        min="1"
                        max=move || pages().map(|n| n.to_string())
                        inputmode="numeric"
                        node_ref=jump
                        prop:value=move || page().to_string()
                    />
                    <span class="of">{move || pages().map(|n| format!("of {}", group(n)))}</span>
                    <button type="submit" class="button">"Go"</button>
                </form>
                <button type="button" class="button" data-page="next" aria-label="Next page"
                    disabled=at_last on:click=move |_| to(page() + 1)>"Next ›"</button>
                <button type="button" class="button" data-page="last" aria-label="Last page" title="Last page"
                    disabled=at_last on:click=move |_| to(pages().unwrap_or(1))>"»"</button>
            </span>
        </nav>
    }
}

// ---------------------------------------------------------------------------------------
// Column chooser

fn storage_key(id: &str) -> String {
    format!("moneydesk.table.{id}.columns")
}

/// The columns chosen earlier on this device, else the columns not hidden by default.
pub fn stored_columns(id: &str, columns: &'static [Column]) -> Vec<&'static str> {
    let defaults = || columns.iter().filter(|c| !c.hidden).map(|c| c.key).collect::<Vec<_>>();
    let stored = window().local_storage().ok().flatten().and_then(|s| s.get_item(&storage_key(id)).ok().flatten());
    let chosen: Vec<&'static str> = match stored {
        Some(list) => columns.iter().filter(|c| list.split(',').any(|k| k == c.key)).map(|c| c.key).collect(),
        None => Vec::new(),
    };
    if chosen.is_empty() {
        defaults()
    } else {
        chosen
    }
}

pub fn column_chooser(ctx: Ctx) -> impl IntoView {
    let toggle = move |key: &'static str, on: bool| {
        ctx.visible.update(|v| {
            if on && !v.contains(&key) {
                v.push(key);
            } else if !on && v.len() > 1 {
                v.retain(|k| *k != key);
            }
            // Keep the table's column order.
            *v = ctx.columns.iter().map(|c| c.key).filter(|k| v.contains(k)).collect();
        });
        let list = ctx.visible.with_untracked(|v| v.join(","));
        if let Some(s) = window().local_storage().ok().flatten() {
            let _ = s.set_item(&storage_key(ctx.id), &list);
        }
    };
    let boxes = ctx
        .columns
        .iter()
        .map(|c| {
            let key = c.key;
            let checked = move || ctx.visible.with(|v| v.contains(&key));
            let only = move || ctx.visible.with(|v| v.len() == 1 && v[0] == key);
            view! {
                <label class="check">
                    <input
                        type="checkbox"
                        value=key
                        prop:checked=checked
                        prop:disabled=only
                        on:change=move |ev| toggle(key, event_target_checked(&ev))
                    />
                    {c.label}
                </label>
            }
        })
        .collect_view();
    view! {
        <details class="column-chooser">
            <summary class="button">"Columns"</summary>
            <fieldset>
                <legend class="sr-only">"Columns to show"</legend>
                {boxes}
            </fieldset>
        </details>
    }
}

// ---------------------------------------------------------------------------------------
// CSV export

pub fn export_control(ctx: Ctx, fetcher: Fetcher) -> impl IntoView {
    let progress = RwSignal::new(None::<Progress>);
    let job = StoredValue::new(None::<Job>);
    let parent = Owner::current();
    let export_button = NodeRef::<leptos::html::Button>::new();
    let cancel_button = NodeRef::<leptos::html::Button>::new();
    let toasts = use_context::<Toasts>();
    let (id, noun) = (ctx.id, ctx.noun);

    let start = move |_| {
        let this = match &parent {
            Some(owner) => owner.with(Job::new),
            None => Job::new(),
        };
        job.set_value(Some(this.clone()));
        let total = ctx.totals().map_or(0, |(t, _)| t);
        progress.set(Some(Progress { done: 0, total }));
        if let Some(b) = cancel_button.get() {
            request_animation_frame(move || drop(b.focus()));
        }
        let fetcher = fetcher.clone();
        let view = ctx.view.get_untracked();
        leptos::task::spawn_local(async move {
            let outcome = export::run(this, fetcher, ctx.columns, view, move |p| {
                progress.try_set(Some(p));
            }).await;
            if progress.try_set(None).is_some() {
                // The page went away meanwhile: nothing to say.
                return;
            }
            let (kind, message) = match outcome {
                Outcome::Done(chunks, n) => match export::download(&chunks, &export::file_name(id)) {
                    Ok(()) => (ToastKind::Success, format!("Exported {} {noun} to CSV.", group(n))),
                    Err(e) => (ToastKind::Error, format!("Could not save the CSV file: {e:?}")),
                },
                Outcome::Cancelled => (ToastKind::Info, "CSV export cancelled.".to_string()),
                Outcome::Failed(e) => (ToastKind::Error, format!("CSV export failed: {e}")),
            };
            if let Some(t) = toasts {
                t.show(kind, message);
            }
            if let Some(b) = export_button.get_untracked() {
                let _ = b.focus();
            }
        });
    };
    let cancel = move |_| {
        if let Some(j) = job.get_value() {
            j.cancel();
        }
    };
    let running = move || progress.with(Option::is_some);
    let progress_id = format!("{id}-export-progress");
    view! {
        <button
            type="button"
            class="button"
            id=format!("{id}-export")
            node_ref=export_button
            hidden=running
            disabled=move || ctx.totals().is_none_or(|(t, _)| t == 0)
            on:click=start
        >
            "Export CSV"
        </button>
        <div class="export-progress" hidden=move || !running()>
            <label for=progress_id.clone()>
                {move || progress.get().map(|p| format!("Exporting {} of {}", group(p.done), group(p.total)))}
            </label>
            <progress
                id=progress_id
                max=move || progress.get().map_or(1, |p| p.total.max(1)).to_string()
                value=move || progress.get().map_or(0, |p| p.done).to_string()
            ></progress>
            <button type="button" class="button" id=format!("{id}-export-cancel") node_ref=cancel_button on:click=cancel>
                "Cancel"
            </button>
        </div>
    }
}

// ---------------------------------------------------------------------------------------
// Drawer contents

/// Every field of a record (see `dom::fill_fields`).
pub fn record_fields(columns: &'static [Column], record: Value) -> impl IntoView {
    let dl = NodeRef::<leptos::html::Dl>::new();
    Effect::new(move |_| {
        if let Some(d) = dl.get() {
            d.set_text_content(None);
            dom::fill_fields(&d, columns, &record);
        }
    });
    view! { <dl class="record-fields" node_ref=dl></dl> }
}

// ---------------------------------------------------------------------------------------
// Render timing (Performance API), read by scripts/bench-table

fn performance() -> Option<web_sys::Performance> {
    window().performance()
}

/// Marks the moment a page's records arrived, before the table renders them.
pub fn mark_data(id: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(&format!("moneydesk-table:{id}:data"));
    }
}

/// After the DOM update (the next task, once Leptos's effects ran) and a forced layout:
/// `performance.measure("moneydesk-table:<id>:render:<rows>")` from the data mark.
pub fn measure_render(id: &'static str, rows: usize) {
    set_timeout(
        move || {
            let Some(p) = performance() else { return };
            if let Some(body) = document().body() {
                let _ = body.offset_height();
            }
            let mark = format!("moneydesk-table:{id}:data");
            let _ = p.measure_with_start_mark(&format!("moneydesk-table:{id}:render:{rows}"), &mark);
            p.clear_marks_with_mark_name(&mark);
        },
        std::time::Duration::ZERO,
    );
}
