//! The Outbox: every message with its state and attempts, newest first; filtered by state
//! (checkboxes), by text (a recipient, the subject, an id) and by the UTC day it was created
//! (from, to: both inclusive), paged; all of them in the URL (place.rs). The text and the days
//! apply when the form is submitted: a date typed digit by digit is a valid day at every
//! keystroke. While a shown message is still on its way (queued, scheduled, sending, deferred)
//! the page asks again every few seconds. A row opens the message (message.rs). Messages
//! are selected (a click, a shift-click range, the page, or all matching the filter) to be
//! resent or cancelled in one request; each row shows its outcome, a summary counts them. A
//! scheduled message shows its send time and its batch's pause, resume and cancel (schedule.rs).

mod place;
mod schedule;

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::{MessageState, OutboxMessage};
use moneydesk_model::Page;

use self::place::{created, subject, Place};
use super::message::MessageView;
use super::parts::state_class;
use super::use_go;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::data_table::{BulkAction, BulkRunner};
use crate::components::error_view::ApiErrorView;
use crate::components::list_bulk::{outcome, ListBulk, ListBulkBar, PageCheck, RowCheck};
use crate::components::selection::Selection;
use crate::format::group;
use crate::i18n::email::{en, es, text, Outbox as Words};
use crate::i18n::{fill, pick, vocab::say};
use crate::session::use_auth;

/// How often the list asks again while messages are on their way.
const REFRESH: Duration = Duration::from_secs(2);

/// The bulk actions on selected messages (each message on its own; the answer says which).
const fn actions(t: &'static Words) -> [BulkAction; 2] {
    [
        BulkAction::new("resend", t.resend.0, t.resend.1).confirm(t.resend_question),
        BulkAction::new("cancel", t.cancel.0, t.cancel.1).confirm(t.cancel_question),
    ]
}
const ACTIONS: &[BulkAction] = &actions(&en::TEXT.outbox);
const ACTIONS_ES: &[BulkAction] = &actions(&es::TEXT.outbox);

/// The page's state; `Copy`, handed to each of its parts.
#[derive(Clone, Copy)]
struct Outboxes {
    place: Memo<Place>,
    go: Callback<Vec<(String, String)>>,
    /// Bumped to ask for the list again.
    tick: RwSignal<u32>,
    /// The text and the days as typed, until the form is submitted.
    search: RwSignal<String>,
    /// The messages selected and the last bulk action's answer.
    bulk: ListBulk,
    from: RwSignal<String>,
    until: RwSignal<String>,
}

impl Outboxes {
    /// Moves to the place `f` makes of this one.
    fn with(self, f: &dyn Fn(&mut Place)) {
        let mut p = self.place.get_untracked();
        f(&mut p);
        self.go.run(p.pairs());
    }
}

#[component]
pub fn Outbox() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let place = Memo::new(move |_| query.with(Place::from_query));
    let list = Answer::<Page<OutboxMessage>>::new();
    let tick = RwSignal::new(0u32);
    Effect::new(move |_| {
        let filters = place.with(Place::filters);
        tick.track();
        list.load(api::messages(&auth.client(), &filters));
    });
    // Asks again while anything shown may still change.
    Effect::new(move |_| {
        let moving =
            list.with(|l| matches!(l, Some(Ok(p)) if p.content.iter().any(|m| !m.state.is_final() && !m.paused)));
        if moving {
            set_timeout(
                move || {
                    tick.try_update(|t| *t += 1);
                },
                REFRESH,
            );
        }
    });
    let page = Outboxes {
        place,
        go,
        tick,
        search: RwSignal::new(String::new()),
        bulk: ListBulk::new(),
        from: RwSignal::new(String::new()),
        until: RwSignal::new(String::new()),
    };
    follow_place(place, page.bulk);
    let Outboxes { search, from, until, .. } = page;
    Effect::new(move |_| {
        place.with(|p| {
            search.set(p.q.clone());
            from.set(p.created_from.clone());
            until.set(p.created_to.clone());
        })
    });

    view! {
        <div class="email-outbox">
            <Filters page/>
            {move || place.get().message.map(|id| view! {
                <MessageView id=id close=Callback::new(move |()| page.with(&|p| p.message = None))/>
            })}
            <Bulk page list/>
            <Messages page list/>
        </div>
    }
}

/// Another filter clears the selection (it meant the old filter's messages); another page
/// keeps it but not the shift-click anchor (an index on the old page).
fn follow_place(place: Memo<Place>, bulk: ListBulk) {
    Effect::new(move |prev: Option<(Vec<(String, String)>, u32)>| {
        let now = place.with(|p| (p.bulk_filters(), p.page));
        match &prev {
            Some((f, _)) if *f != now.0 => bulk.selection.update(Selection::clear),
            Some((_, n)) if *n != now.1 => bulk.selection.update(Selection::new_page),
            _ => {}
        }
        now
    });
}

/// The bar of the selected messages: resend, cancel; one request each run.
#[component]
fn Bulk(page: Outboxes, list: Answer<Page<OutboxMessage>>) -> impl IntoView {
    let auth = use_auth();
    let run = BulkRunner::new(move |call| {
        let sent = api::bulk_outbox(&auth.client(), call);
        Box::pin(async move { sent.await.map(Some) })
    });
    let total =
        Signal::derive(move || list.with(|l| l.as_ref().and_then(|l| l.as_ref().ok()).map(|p| p.total_elements)));
    let ids = Signal::derive(move || {
        list.with(|l| match l {
            Some(Ok(p)) => p.content.iter().map(|m| m.id.clone()).collect(),
            _ => Vec::new(),
        })
    });
    let filters = Signal::derive(move || page.place.with(Place::bulk_filters));
    let tick = page.tick;
    let actions = *pick(&ACTIONS, &ACTIONS_ES);
    view! {
        <ListBulkBar id="email-outbox" nouns=text().outbox.noun bulk=page.bulk actions total filters page_ids=ids run
            done=Callback::new(move |()| tick.update(|t| *t += 1))/>
    }
}

/// The states ticked (at once), the text and the days (on submit).
#[component]
fn Filters(page: Outboxes) -> impl IntoView {
    let Outboxes { place, search, from, until, .. } = page;
    let t = &text().outbox;
    view! {
        <form class="email-filters" role="search" on:submit=move |ev| {
            ev.prevent_default();
            let (q, f, t) = (search.get_untracked(), from.get_untracked(), until.get_untracked());
            page.with(&|p| { p.q = q.clone(); p.created_from = f.clone(); p.created_to = t.clone(); p.page = 1; });
        }>
            <fieldset>
                <legend>{t.state}</legend>
                {MessageState::ALL.into_iter().map(|s| {
                    let (id, for_id) = (format!("email-state-{}", s.as_str()), format!("email-state-{}", s.as_str()));
                    view! {
                        <label for=for_id>
                            <input type="checkbox" id=id prop:checked=move || place.with(|p| p.states.contains(&s))
                                on:change=move |_| page.with(&|p| p.toggle(s))/>
                            {format!(" {}", say(s.label()))}
                        </label>
                    }
                }).collect_view()}
            </fieldset>
            <label for="email-search">{t.search}</label>
            <input id="email-search" type="search" placeholder=t.search_hint prop:value=move || search.get()
                on:input=move |ev| search.set(event_target_value(&ev))/>
            <label for="email-created-from">{t.created_from}</label>
            <input id="email-created-from" type="date" prop:value=move || from.get()
                on:input=move |ev| from.set(event_target_value(&ev))/>
            <label for="email-created-to"><span class="sr-only">{t.created_to.0}</span>{t.created_to.1}</label>
            <input id="email-created-to" type="date" prop:value=move || until.get()
                on:input=move |ev| until.set(event_target_value(&ev))/>
            <button type="submit" class="button">{t.search}</button>
        </form>
    }
}

/// The page of messages, each opening on its subject, and the pager.
#[component]
fn Messages(page: Outboxes, list: Answer<Page<OutboxMessage>>) -> impl IntoView {
    let tick = page.tick;
    let (all, t) = (text(), &text().outbox);
    let c = &t.columns;
    move || {
        list.with(|l| match l {
            None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| tick.update(|t| *t += 1))/> }.into_any(),
            Some(Ok(shown)) if shown.content.is_empty() => view! { <p class="muted" id="email-outbox-empty">{t.none}</p> }.into_any(),
            Some(Ok(shown)) => {
                let (number, total, last) = (shown.number + 1, shown.total_elements, shown.last);
                let ids = StoredValue::new(shown.content.iter().map(|m| m.id.clone()).collect::<Vec<_>>());
                let bulk = page.bulk;
                view! {
                    <table class="table email-table" id="email-outbox-table">
                        <caption class="sr-only">{t.caption}</caption>
                        <thead><tr>
                            <th scope="col" class="bulk-check-cell"><PageCheck bulk page_ids=ids/></th>
                            <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                            <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th><th scope="col">{c[5]}</th>
                            <th scope="col">{text().schedule.column}</th><th scope="col">{c[6]}</th>
                        </tr></thead>
                        <tbody>
                            {shown.content.iter().enumerate().map(|(i, m)| {
                                let id = m.id.clone();
                                let state = m.state;
                                let label = fill(t.select, &[&m.to.join(", ")]);
                                let badge = state_class(state);
                                view! {
                                    <tr data-id=m.id.clone()>
                                        <td class="bulk-check-cell"><RowCheck bulk index=i id=m.id.clone() page_ids=ids label/></td>
                                        <td>{created(&m.created_at)}</td>
                                        <td>{m.to.join(", ")}</td>
                                        <td><button type="button" class="link-button email-open" on:click=move |_| {
                                            let id = id.clone();
                                            page.with(&|p| p.message = Some(id.clone()));
                                        }>{subject(&m.subject)}</button></td>
                                        <td><span class=badge>{say(state.label())}</span></td>
                                        <td>{m.attempts}</td>
                                        <td class="muted">{m.last_reply.clone().unwrap_or_default()}</td>
                                        <td><schedule::ScheduleCell message=m.clone() tick/></td>
                                        <td>{outcome(bulk, m.id.clone())}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <nav class="pager" aria-label=t.pages>
                        <button type="button" class="button" disabled=number <= 1 on:click=move |_| page.with(&|p| p.page -= 1)>{all.previous}</button>
                        <span>{fill(t.page_total, &[&number.to_string(), &group(total)])}</span>
                        <button type="button" class="button" disabled=last on:click=move |_| page.with(&|p| p.page += 1)>{all.next}</button>
                    </nav>
                }.into_any()
            }
        })
    }
}
