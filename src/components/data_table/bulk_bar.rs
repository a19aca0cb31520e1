//! The bulk bar over a table with bulk actions: how many rows are selected, "select all N
//! matching", the actions (a reason asked first for those that need one, then the action's
//! question), the run, and the summary of its answer (done and refused counted, the refused
//! listed with why: a partial success never reads as a success).

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::bulk::{new_key, BulkAction, BulkCall, Ran};
use super::ctx::Ctx;
use super::state::TableState;
use crate::api::ApiError;
use crate::components::selection::Selection;
use crate::components::toasts::ToastKind;
use crate::format::group;
use crate::i18n::components::text;
use crate::i18n::fill;

/// Where the bar is between a click on an action and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Idle,
    /// Asking for the reason sent with the action.
    Reason(BulkAction),
    /// Asking the action's question.
    Confirm(BulkAction),
    Running(BulkAction),
}

/// Another filter clears the selection (its rows, or "all matching", meant the old filter);
/// another page keeps it but not the shift-click anchor (an index on the old page).
pub(super) fn follow_view(ctx: Ctx) {
    if !ctx.selectable() {
        return;
    }
    Effect::new(move |prev: Option<TableState>| {
        let v = ctx.view.get();
        if let Some(p) = prev {
            if p.filters != v.filters {
                ctx.selection.update(Selection::clear);
            } else if p != v {
                ctx.selection.update(Selection::new_page);
            }
        }
        v
    });
}

fn focus_id(id: String) {
    request_animation_frame(move || {
        if let Some(el) = document().get_element_by_id(&id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}

#[component]
pub(super) fn BulkBar(ctx: Ctx) -> impl IntoView {
    ctx.selectable().then(|| view! { <Controls ctx/> <BulkSummary id=ctx.id ran=ctx.ran/> })
}

/// The bar's own state, shared by its parts.
#[derive(Clone, Copy)]
struct Bar {
    step: RwSignal<Step>,
    reason: RwSignal<String>,
    failed: RwSignal<Option<String>>,
    /// The last request's Idempotency-Key, kept only while its answer never came (a retry of
    /// the same request sends the same key).
    key: StoredValue<Option<(String, String)>>,
}

fn total(ctx: Ctx) -> u64 {
    ctx.totals().map_or(0, |(t, _)| t)
}

/// Sends the action for the selection, then shows the answer (or why there is none).
fn send(ctx: Ctx, bar: Bar, a: BulkAction) {
    let Some(runner) = ctx.bulk_run.get_value() else { return };
    let filters = ctx.view.with_untracked(|v| v.filters.clone());
    let select = ctx.selection.with_untracked(|s| s.to_select(&filters));
    let why = a.needs_reason.then(|| bar.reason.get_untracked().trim().to_string());
    let print = format!("{}|{why:?}|{select:?}", a.key);
    let k = bar.key.with_value(|k| k.as_ref().filter(|(p, _)| *p == print).map(|(_, k)| k.clone()));
    let k = k.unwrap_or_else(new_key);
    bar.key.set_value(Some((print, k.clone())));
    bar.failed.set(None);
    bar.step.set(Step::Running(a));
    let call = BulkCall { action: a.key, reason: why, select, key: k };
    // In the table's owner: the request is aborted if the table goes away.
    let sent = ctx.owner.with_value(|o| o.as_ref().map(|o| o.with(|| runner.run(call.clone()))));
    let sent = sent.unwrap_or_else(|| runner.run(call));
    let id = ctx.id;
    leptos::task::spawn_local(async move {
        let answer = sent.await;
        if matches!(answer, Err(ApiError::Aborted)) || bar.step.try_set(Step::Idle).is_some() {
            return; // the table went away
        }
        if !matches!(answer, Err(ApiError::Network { .. })) {
            bar.key.set_value(None);
        }
        match answer {
            Ok(Some(result)) => {
                bar.reason.set(String::new());
                ctx.ran.set(Some(Arc::new(Ran::new(a, result))));
                ctx.selection.update(Selection::clear);
                ctx.refetch.update(|n| *n += 1);
                focus_id(format!("{id}-bulk-summary"));
            }
            Ok(None) => {
                if let Some(t) = ctx.toasts {
                    t.show(ToastKind::Success, fill(text().bulk.done_toast, &[a.label]));
                }
            }
            Err(e) => {
                bar.failed.set(Some(e.to_string()));
                focus_id(format!("{id}-bulk-error"));
            }
        }
    });
}

/// The next step after an action's button (`reasoned`: after its reason was given).
fn next(ctx: Ctx, bar: Bar, a: BulkAction, reasoned: bool) {
    bar.failed.set(None);
    if a.needs_reason && !reasoned {
        bar.step.set(Step::Reason(a));
        focus_id(format!("{}-bulk-reason", ctx.id));
    } else if a.confirm.is_some() {
        bar.step.set(Step::Confirm(a));
        focus_id(format!("{}-bulk-no", ctx.id));
    } else {
        send(ctx, bar, a);
    }
}

#[component]
fn Controls(ctx: Ctx) -> impl IntoView {
    let (Ctx { id, .. }, t, noun) = (ctx, &text().bulk, ctx.noun());
    let bar = Bar {
        step: RwSignal::new(Step::Idle),
        reason: RwSignal::new(String::new()),
        failed: RwSignal::new(None),
        key: StoredValue::new(None),
    };
    let empty = move || ctx.selection.with(Selection::is_empty);
    let running = move || matches!(bar.step.get(), Step::Running(_));
    let count_text = move || {
        let n = total(ctx);
        ctx.selection.with(|s| match (s.all_matching, ctx.view.with(|v| v.filters.is_empty())) {
            (true, true) => fill(t.all_selected, &[&format!(" {}", group(n)), ctx.noun_of(n)]),
            (true, false) => fill(t.all_matching, &[&format!(" {}", group(n)), ctx.noun_of(n)]),
            _ => fill(t.some_of, &[&group(s.count(n)), &group(n), ctx.noun_of(n)]),
        })
    };
    let offer_all = move || {
        ctx.shown.track();
        let t = total(ctx);
        ctx.selection.with(|s| !s.all_matching && s.page_state(&ctx.page_ids()).0 && t > s.ids.len() as u64)
    };
    let actions = ctx
        .bulk
        .iter()
        .map(|a| {
            let a = *a;
            view! {
                <button type="button" class="button" data-bulk-action=a.key
                    disabled=move || empty() || running() on:click=move |_| next(ctx, bar, a, false)>
                    {a.label}
                </button>
            }
        })
        .collect_view();

    view! {
        <div class="bulk-bar" data-testid="bulk-bar" role="region" aria-label=fill(t.selected_noun, &[noun])
            hidden=move || empty() && bar.step.get() == Step::Idle && bar.failed.with(Option::is_none)>
            <p class="bulk-count" aria-live="polite">{count_text}</p>
            <button type="button" class="button" data-bulk="all" hidden=move || !offer_all()
                on:click=move |_| ctx.selection.update(Selection::select_all_matching)>
                {move || fill(t.select_all_n, &[&group(total(ctx))])}
            </button>
            <button type="button" class="button" data-bulk="clear" disabled=running
                on:click=move |_| ctx.selection.update(Selection::clear)>
                {t.clear_selection}
            </button>
            <div class="bulk-actions" role="group" aria-label=t.actions_label>{actions}</div>
            <Prompt ctx bar/>
            <p class="bulk-error" id=format!("{id}-bulk-error") role="alert" tabindex="-1"
                hidden=move || bar.failed.with(Option::is_none)>
                {move || bar.failed.get()}
            </p>
        </div>
    }
}

/// Between the action's button and its answer: the reason asked, the question, the wait.
#[component]
fn Prompt(ctx: Ctx, bar: Bar) -> impl IntoView {
    let (Ctx { id, .. }, t, noun) = (ctx, &text().bulk, ctx.noun());
    let back = move |_| {
        bar.step.set(Step::Idle);
        bar.failed.set(None);
    };
    let reasoned = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        let Step::Reason(a) = bar.step.get_untracked() else { return };
        if bar.reason.with_untracked(|r| r.trim().is_empty()) {
            bar.failed.set(Some(t.reason_needed.into()));
        } else {
            next(ctx, bar, a, true);
        }
    };
    let applies = move || {
        let n = ctx.selection.with(|s| s.count(total(ctx)));
        fill(t.applies, &[&group(n), ctx.noun_of(n)])
    };
    move || match bar.step.get() {
        Step::Idle => None,
        Step::Reason(a) => Some(
            view! {
                <form class="bulk-reason" on:submit=reasoned>
                    <label for=format!("{id}-bulk-reason")>
                        {fill(t.reason_to, &[&a.label.to_lowercase(), noun])}
                    </label>
                    <input type="text" id=format!("{id}-bulk-reason") required autocomplete="off"
                        prop:value=move || bar.reason.get() on:input=move |ev| bar.reason.set(event_target_value(&ev))/>
                    <button type="submit" class="button primary" data-bulk="reasoned">{a.label}</button>
                    <button type="button" class="button" data-bulk="back" on:click=back>{t.back}</button>
                </form>
            }
            .into_any(),
        ),
        Step::Confirm(a) => Some(
            view! {
                <div class="bulk-confirm" role="group" aria-labelledby=format!("{id}-bulk-question")>
                    <p id=format!("{id}-bulk-question")>{a.confirm.unwrap_or_default()} " " {applies}</p>
                    <button type="button" class="button primary" data-bulk="yes" on:click=move |_| send(ctx, bar, a)>
                        {fill(t.yes_do, &[&a.label.to_lowercase()])}
                    </button>
                    <button type="button" class="button" id=format!("{id}-bulk-no") data-bulk="no" on:click=back>
                        {text().table.no}
                    </button>
                </div>
            }
            .into_any(),
        ),
        Step::Running(a) => {
            Some(view! { <p class="bulk-running" role="status">{fill(t.working, &[a.label])}</p> }.into_any())
        }
    }
}

/// The last run's answer: both counts, and the refused records with why (the first 200). The
/// table's bar and the lists that are not tables (`components/list_bulk.rs`) show the same one;
/// `{id}-bulk-summary` takes focus after a run.
#[component]
pub(crate) fn BulkSummary(id: &'static str, ran: RwSignal<Option<Arc<Ran>>>) -> impl IntoView {
    const LISTED: usize = 200;
    let open = RwSignal::new(false);
    let (t, dismiss) = (&text().bulk, text().dismiss);
    move || {
        let shown = ran.get()?;
        open.set(false);
        let list_id = format!("{id}-bulk-refused");
        let refused = shown.result.refused;
        let class = if refused > 0 { "bulk-summary has-refused" } else { "bulk-summary" };
        let more = (refused as usize).saturating_sub(LISTED);
        let items = shown
            .refused()
            .take(LISTED)
            .map(|i| {
                let why = i.problem.clone().or_else(|| i.reason.clone()).unwrap_or_default();
                view! { <li><span class="mono">{i.id.clone()}</span>": "{why}</li> }
            })
            .collect_view();
        Some(view! {
            <div class=class data-testid="bulk-summary" id=format!("{id}-bulk-summary") tabindex="-1">
                <p role="status">{shown.summary()}</p>
                <button type="button" class="button" data-bulk="show-refused" hidden=refused == 0
                    aria-expanded=move || open.get().to_string() aria-controls=list_id.clone()
                    on:click=move |_| open.update(|o| *o = !*o)>
                    {move || if open.get() { t.hide_refused } else { t.show_refused }}
                </button>
                <button type="button" class="button" data-bulk="dismiss" on:click=move |_| ran.set(None)>{dismiss}</button>
                <ul class="bulk-refused" id=list_id hidden=move || !open.get()>
                    {items}
                    {(more > 0).then(|| view! { <li>{fill(t.and_more, &[&group(more as u64)])}</li> })}
                </ul>
            </div>
        })
    }
}
