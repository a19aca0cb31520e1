//! Bulk actions on lists that are not data tables (the outbox, inbound messages, the vault):
//! the row and page checkboxes over a [`Selection`], the bar (how many are selected, "select
//! all N matching", the actions, a question before running, the run) and the summary of the
//! answer (done and refused counted, the refused listed with why; each row's outcome badge
//! from [`outcome`]). Only the lazy pages that list these call it.

use std::sync::Arc;

use leptos::prelude::*;
use moneydesk_model::bulk::BulkSelect;

use super::data_table::bulk::{badge, new_key, BulkAction, BulkCall, BulkRunner, Ran};
use super::data_table::BulkSummary;
use super::selection::Selection;
use crate::api::ApiError;
use crate::format::group;
use crate::i18n::components::text;
use crate::i18n::fill;

/// A list's bulk state: what is selected, and the last run's answer.
#[derive(Clone, Copy)]
pub struct ListBulk {
    pub selection: RwSignal<Selection>,
    pub ran: RwSignal<Option<Arc<Ran>>>,
}

impl ListBulk {
    pub fn new() -> ListBulk {
        ListBulk { selection: RwSignal::new(Selection::default()), ran: RwSignal::new(None) }
    }

    /// The selection as a request names it: ids, or the list's filter when all matching.
    pub fn select(&self, filters: &[(String, String)]) -> BulkSelect {
        self.selection.with_untracked(|s| s.to_select(filters))
    }
}

impl Default for ListBulk {
    fn default() -> Self {
        ListBulk::new()
    }
}

/// A row's checkbox: a click ticks it, a shift-click ticks the range from the last row clicked.
#[component]
pub fn RowCheck(
    bulk: ListBulk,
    index: usize,
    id: String,
    page_ids: StoredValue<Vec<String>>,
    label: String,
) -> impl IntoView {
    let sel = bulk.selection;
    let ticked = {
        let id = id.clone();
        move || sel.with(|s| s.contains(&id))
    };
    view! {
        <input type="checkbox" class="bulk-check" aria-label=label prop:checked=ticked
            on:click=move |ev: web_sys::MouseEvent| {
                if ev.shift_key() {
                    page_ids.with_value(|ids| sel.update(|s| s.range_to(index, ids)));
                } else {
                    sel.update(|s| s.toggle(index, &id));
                }
            }/>
    }
}

/// The header's checkbox: every row of the page (indeterminate when some are).
#[component]
pub fn PageCheck(bulk: ListBulk, page_ids: StoredValue<Vec<String>>) -> impl IntoView {
    let sel = bulk.selection;
    let state = move || page_ids.with_value(|ids| sel.with(|s| s.page_state(ids)));
    view! {
        <input type="checkbox" class="bulk-check" aria-label=text().bulk.select_every_row
            prop:checked=move || state().0 prop:indeterminate=move || state().1
            on:change=move |ev| {
                let on = event_target_checked(&ev);
                page_ids.with_value(|ids| sel.update(|s| s.set_page(ids, on)));
            }/>
    }
}

/// The last run's outcome for a row: "Done" or "Refused: why" (nothing when it was not in it).
pub fn outcome(bulk: ListBulk, id: String) -> impl IntoView {
    move || {
        bulk.ran.with(|r| {
            let item = r.as_ref()?.item(&id)?;
            let (class, text) = badge(item);
            Some(view! { <span class=class data-outcome=item.outcome.as_str()>{text}</span> })
        })
    }
}

/// Where the bar is between a click on an action and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Idle,
    Confirm(BulkAction),
    Running(BulkAction),
}

/// The bar over a list. `total`: how many records match the list's filter (None: not known); `filters`: the list's filter params; `run` sends an action
/// (`open`, when given, takes the action instead: the page asks for more in a dialog);
/// `done` runs after an answer (the list loads again).
#[component]
pub fn ListBulkBar(
    id: &'static str,
    /// The records' noun, (one, many).
    nouns: (&'static str, &'static str),
    bulk: ListBulk,
    actions: &'static [BulkAction],
    #[prop(into)] total: Signal<Option<u64>>,
    #[prop(into)] filters: Signal<Vec<(String, String)>>,
    page_ids: Signal<Vec<String>>,
    #[prop(optional)] run: Option<BulkRunner>,
    #[prop(optional)] open: Option<Callback<BulkAction>>,
    #[prop(optional)] done: Option<Callback<()>>,
) -> impl IntoView {
    let sel = bulk.selection;
    let step = RwSignal::new(Step::Idle);
    let failed = RwSignal::new(None::<String>);
    // Kept while an answer never came: a retry of the same request sends the same key.
    let key = StoredValue::new(None::<(String, String)>);
    let t = &text().bulk;
    let of = move |n: u64| if n == 1 { nouns.0 } else { nouns.1 };
    let noun = nouns.1;
    let count_text = move || {
        let all = total.get();
        let n = all.map(|n| format!(" {}", group(n))).unwrap_or_default();
        sel.with(|s| match (s.all_matching, filters.with(Vec::is_empty)) {
            (true, true) => fill(t.all_selected, &[&n, all.map_or(noun, of)]),
            (true, false) => fill(t.all_matching, &[&n, all.map_or(noun, of)]),
            _ => fill(t.some, &[&group(s.ids.len() as u64), of(s.ids.len() as u64)]),
        })
    };
    // A count not known (a list read by cursor) still offers all matching, without a number.
    let offer_all = move || {
        let t = total.get();
        sel.with(|s| !s.all_matching && s.page_state(&page_ids.get()).0 && t.is_none_or(|t| t > s.ids.len() as u64))
    };
    let (run, owner) = (StoredValue::new(run), StoredValue::new(Owner::current()));
    let send = move |a: BulkAction| {
        let Some(runner) = run.get_value() else { return };
        let select = sel.with_untracked(|s| s.to_select(&filters.get_untracked()));
        let print = format!("{}|{select:?}", a.key);
        let k =
            key.with_value(|k| k.as_ref().filter(|(p, _)| *p == print).map(|(_, k)| k.clone())).unwrap_or_else(new_key);
        key.set_value(Some((print, k.clone())));
        failed.set(None);
        step.set(Step::Running(a));
        let call = BulkCall { action: a.key, reason: None, select, key: k };
        // In the list's owner: the request is aborted if the list goes away.
        let sent = owner.with_value(|o| o.as_ref().map(|o| o.with(|| runner.run(call.clone()))));
        let sent = sent.unwrap_or_else(|| runner.run(call));
        leptos::task::spawn_local(async move {
            let answer = sent.await;
            if matches!(answer, Err(ApiError::Aborted)) || step.try_set(Step::Idle).is_some() {
                return;
            }
            if !matches!(answer, Err(ApiError::Network { .. })) {
                key.set_value(None);
            }
            match answer {
                Ok(result) => {
                    if let Some(result) = result {
                        bulk.ran.set(Some(Arc::new(Ran::new(a, result))));
                    }
                    sel.update(Selection::clear);
                    if let Some(d) = done {
                        d.run(());
                    }
                }
                Err(e) => failed.set(Some(e.to_string())),
            }
        });
    };
    let start = move |a: BulkAction| {
        failed.set(None);
        match (open, a.confirm) {
            (Some(o), _) => o.run(a),
            (None, Some(_)) => step.set(Step::Confirm(a)),
            (None, None) => send(a),
        }
    };
    let empty = move || sel.with(Selection::is_empty);
    let running = move || matches!(step.get(), Step::Running(_));
    let buttons = actions
        .iter()
        .map(|a| {
            let a = *a;
            view! {
                <button type="button" class="button" data-bulk-action=a.key disabled=move || empty() || running()
                    on:click=move |_| start(a)>{a.label}</button>
            }
        })
        .collect_view();
    let prompt = move || question(id, step, count_text, send);
    view! {
        <div class="bulk-bar" id=format!("{id}-bulk-bar") data-testid="bulk-bar" role="region" aria-label=fill(t.selected_noun, &[noun])
            hidden=move || empty() && step.get() == Step::Idle && failed.with(Option::is_none)>
            <p class="bulk-count" aria-live="polite">{count_text}</p>
            <button type="button" class="button" data-bulk="all" hidden=move || !offer_all()
                on:click=move |_| sel.update(Selection::select_all_matching)>
                {move || match total.get() {
                    Some(n) => fill(t.select_all_n, &[&group(n)]),
                    None => t.select_all.to_string(),
                }}
            </button>
            <button type="button" class="button" data-bulk="clear" disabled=running on:click=move |_| sel.update(Selection::clear)>
                {t.clear_selection}
            </button>
            <div class="bulk-actions" role="group" aria-label=t.actions_label>{buttons}</div>
            {prompt}
            <p class="bulk-error" role="alert" hidden=move || failed.with(Option::is_none)>{move || failed.get()}</p>
        </div>
        <BulkSummary id ran=bulk.ran/>
    }
}

/// What the bar asks before an action with a question, or says while one runs.
fn question(
    id: &'static str,
    step: RwSignal<Step>,
    count_text: impl Fn() -> String + Copy + Send + Sync + 'static,
    send: impl Fn(BulkAction) + Copy + Send + Sync + 'static,
) -> Option<AnyView> {
    let t = &text().bulk;
    match step.get() {
        Step::Idle => None,
        Step::Confirm(a) => Some(
            view! {
                <div class="bulk-confirm" role="group" aria-labelledby=format!("{id}-bulk-question")>
                    <p id=format!("{id}-bulk-question")>{a.confirm.unwrap_or_default()} " " {move || count_text()}</p>
                    <button type="button" class="button primary" data-bulk="yes" on:click=move |_| send(a)>
                        {fill(t.yes_do, &[&a.label.to_lowercase()])}
                    </button>
                    <button type="button" class="button" data-bulk="no" on:click=move |_| step.set(Step::Idle)>
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
