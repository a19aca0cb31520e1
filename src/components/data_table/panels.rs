//! The parts of the table Leptos draws: the error in place of the rows, and a record's drawer.

use leptos::prelude::*;
use serde_json::Value;

use super::action::Action;
use super::ctx::Ctx;
use super::{column, dom, events, windowing};
use crate::components::drawer::Drawer;
use crate::components::error_view::ApiErrorView;
use crate::i18n::components::text;

/// Why the page could not be fetched, with Retry (bumps `retry`) and, when filtered, Clear.
#[component]
pub(super) fn TableError(ctx: Ctx, retry: RwSignal<u32>) -> impl IntoView {
    move || {
        let error = ctx.error.get()?;
        let retry = Callback::new(move |()| retry.update(|n| *n += 1));
        let filtered = ctx.view.with_untracked(|v| !v.filters.is_empty());
        Some(view! {
            <div class="table-state table-error" data-testid="table-error">
                <ApiErrorView error retry/>
                <button type="button" class="button" data-action=Action::Clear.as_str() hidden=!filtered>
                    {text().table.clear_filters}
                </button>
            </div>
        })
    }
}

/// The open record's fields (and `detail`'s more), headed by its `title_key` field.
#[component]
pub(super) fn RecordDrawer(
    ctx: Ctx,
    title_key: Option<&'static str>,
    detail: Option<fn(Value) -> AnyView>,
) -> impl IntoView {
    let Ctx { id, nouns, columns, row_key, .. } = ctx;
    move || {
        let i = ctx.open.get()?;
        let record = ctx.shown.with(|s| s.as_ref().and_then(|l| l.page.content.get(i).cloned()))?;
        let title = title_key
            .and_then(|k| record.get(k))
            .map(column::raw_text)
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("{} {}", nouns.0, column::raw_text(&record[row_key])));
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
    }
}
