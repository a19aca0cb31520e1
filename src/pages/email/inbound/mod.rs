//! Inbound: per domain the URL its mail is posted to (changeable), the MX record to publish,
//! the signing secret (revealed on demand, rotatable): route.rs; the messages received, newest
//! first, filtered by domain; a message opens with its delivery attempts (inbound_message.rs).
//! The domain filter and the message open live in the URL (`?tab=inbound&domain=…&inbound=…`,
//! place.rs). While a shown message is still being delivered the list asks again every few
//! seconds. Messages are selected (a click, a shift-click range, the page, or all of the
//! domain's) to be redelivered in one request; each row shows its outcome.

mod place;
mod route;

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::inbound::{InboundMessage, InboundRoute};

use self::place::{in_flight, new_route, pairs, subject, title};
use self::route::RouteRow;
use super::inbound_message::InboundView;
use super::parts::{inbound_badge, when};
use super::use_go;
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::data_table::{BulkAction, BulkRunner};
use crate::components::error_view::ApiErrorView;
use crate::components::list_bulk::{outcome, ListBulk, ListBulkBar, PageCheck, RowCheck};
use crate::components::selection::Selection;
use crate::format::bytes;
use crate::i18n::email::{en, es, text, Inbound as Words};
use crate::i18n::{fill, pick};
use crate::session::use_auth;

/// How often the list asks again while messages are being delivered.
const REFRESH: Duration = Duration::from_secs(2);

/// The most messages the list shows (the server's default page): fewer, and it shows all.
const SHOWN: usize = 50;

/// The bulk action on selected messages (each on its own; the answer says which).
const fn actions(t: &'static Words) -> [BulkAction; 1] {
    [BulkAction::new("redeliver", t.redeliver.0, t.redeliver.1).confirm(t.redeliver_question)]
}
const ACTIONS: &[BulkAction] = &actions(&en::TEXT.inbound);
const ACTIONS_ES: &[BulkAction] = &actions(&es::TEXT.inbound);

/// The tab's state; `Copy`, handed to each of its parts.
#[derive(Clone, Copy)]
struct InboundPage {
    /// The domain filtered on (empty: all), as the URL says.
    domain: Memo<String>,
    go: Callback<Vec<(String, String)>>,
    /// Bumped to ask for the messages again.
    tick: RwSignal<u32>,
    /// A route or a message changed: both lists are asked for again.
    changed: Callback<()>,
    /// The messages selected and the last bulk action's answer.
    bulk: ListBulk,
}

impl InboundPage {
    /// Moves to the messages of `domain`, `open` shown.
    fn place(self, domain: String, open: Option<String>) {
        self.go.run(pairs(domain, open));
    }
}

#[component]
pub fn Inbound() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let domain = Memo::new(move |_| query.with(|q| q.get_str("domain").unwrap_or_default().to_string()));
    let open = Memo::new(move |_| query.with(|q| q.get_str("inbound").filter(|m| !m.is_empty()).map(str::to_string)));
    let (reload, tick) = (RwSignal::new(0u32), RwSignal::new(0u32));
    let page = InboundPage {
        domain,
        go: use_go(),
        tick,
        changed: Callback::new(move |()| {
            reload.update(|n| *n += 1);
            tick.update(|t| *t += 1);
        }),
        bulk: ListBulk::new(),
    };
    // Another domain: the selection meant the old one's messages.
    Effect::new(move |_| {
        domain.track();
        page.bulk.selection.update(Selection::clear);
    });

    let routes = Answer::<Vec<InboundRoute>>::new();
    Effect::new(move |_| {
        reload.track();
        routes.load(api::inbound_routes(&auth.client()));
    });
    let messages = Answer::<Vec<InboundMessage>>::new();
    Effect::new(move |_| {
        let d = domain.get();
        tick.track();
        messages.load(api::inbound_messages(&auth.client(), &d));
    });
    Effect::new(move |_| {
        let moving = messages.with(|l| matches!(l, Some(Ok(l)) if l.iter().any(|m| in_flight(m.state))));
        if moving {
            set_timeout(
                move || {
                    tick.try_update(|t| *t += 1);
                },
                REFRESH,
            );
        }
    });

    let t = &text().inbound;
    view! {
        <div class="email-inbound">
            <NewRoute reload/>
            <Routes page routes/>
            <section class="email-inbound-messages" aria-labelledby="inbound-messages-title">
                <div class="email-verify-row">
                    <h2 id="inbound-messages-title">{move || title(&domain.get())}</h2>
                    <Show when=move || !domain.get().is_empty()>
                        <button type="button" class="link-button" id="inbound-all" on:click=move |_| page.place(String::new(), None)>{t.all_domains}</button>
                    </Show>
                    <button type="button" class="secondary" id="inbound-refresh" on:click=move |_| tick.update(|n| *n += 1)>{t.refresh}</button>
                </div>
                {move || open.get().map(|id| view! {
                    <InboundView id=id on_change=page.changed close=Callback::new(move |()| page.place(domain.get_untracked(), None))/>
                })}
                <Bulk page messages/>
                <Messages page messages/>
            </section>
        </div>
    }
}

/// A new route: the domain that receives mail and the URL each message is posted to.
#[component]
fn NewRoute(reload: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let new_domain = RwSignal::new(String::new());
    let new_url = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (d, u) = match new_domain.with_untracked(|d| new_url.with_untracked(|u| new_route(d, u))) {
            Ok(typed) => typed,
            Err(e) => return problem.set(Some(e)),
        };
        submit(
            busy,
            &owner,
            || api::create_inbound_route(&auth.client(), &d, &u),
            move |r: Result<InboundRoute, ApiError>| match r {
                Ok(_) => {
                    problem.set(None);
                    new_domain.set(String::new());
                    new_url.set(String::new());
                    reload.update(|n| *n += 1);
                }
                Err(e) => problem.set(Some(e.to_string())),
            },
        );
    };
    let t = &text().inbound;
    view! {
        <form class="email-inbound-new" on:submit=create novalidate>
            <fieldset>
                <legend>{t.new_legend}</legend>
                <label for="inbound-domain">{t.domain}</label>
                <input id="inbound-domain" type="text" autocomplete="off" spellcheck="false" placeholder=t.domain_example
                    prop:value=move || new_domain.get() on:input=move |ev| new_domain.set(event_target_value(&ev))/>
                <label for="inbound-url">{t.post_to}</label>
                <input id="inbound-url" type="url" autocomplete="off" spellcheck="false" placeholder=t.url_example
                    prop:value=move || new_url.get() on:input=move |ev| new_url.set(event_target_value(&ev))/>
                <button type="submit" class="primary" disabled=move || busy.get()>{t.add_route}</button>
            </fieldset>
            <p class="field-error" role="alert">{move || problem.get()}</p>
        </form>
    }
}

/// The routes, a row each (route.rs).
#[component]
fn Routes(page: InboundPage, routes: Answer<Vec<InboundRoute>>) -> impl IntoView {
    let (all_words, t) = (text(), &text().inbound);
    let c = &t.route_columns;
    move || {
        routes.with(|l| match l {
            None => view! { <p class="muted" role="status">{all_words.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(all)) if all.is_empty() => view! { <p class="muted" id="inbound-routes-empty">{t.no_routes}</p> }.into_any(),
            Some(Ok(all)) => view! {
                <table class="email-table" id="inbound-routes">
                    <caption class="sr-only">{t.routes_caption}</caption>
                    <thead><tr>
                        <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                        <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                    </tr></thead>
                    <tbody>
                        {all.iter().cloned().map(|r| view! { <RouteRow route=r on_change=page.changed show=Callback::new(move |d: String| page.place(d, None))/> }).collect_view()}
                    </tbody>
                </table>
            }.into_any(),
        })
    }
}

/// The bar of the selected messages: redeliver, in one request.
#[component]
fn Bulk(page: InboundPage, messages: Answer<Vec<InboundMessage>>) -> impl IntoView {
    let auth = use_auth();
    let run = BulkRunner::new(move |call| {
        let sent = api::bulk_inbound(&auth.client(), call);
        Box::pin(async move { sent.await.map(Some) })
    });
    let ids = Signal::derive(move || {
        messages.with(|l| match l {
            Some(Ok(all)) => all.iter().map(|m| m.id.clone()).collect(),
            _ => Vec::new(),
        })
    });
    // The list is read by cursor: its count is known only when it shows every message.
    let total = Signal::derive(move || ids.with(|i| (i.len() < SHOWN).then_some(i.len() as u64)));
    let domain = page.domain;
    let filters = Signal::derive(move || {
        let d = domain.get();
        if d.is_empty() {
            Vec::new()
        } else {
            vec![("domain".to_string(), d)]
        }
    });
    let tick = page.tick;
    let actions = *pick(&ACTIONS, &ACTIONS_ES);
    view! {
        <ListBulkBar id="inbound" nouns=text().outbox.noun bulk=page.bulk actions total filters page_ids=ids run
            done=Callback::new(move |()| tick.update(|t| *t += 1))/>
    }
}

/// The messages received, newest first, each opening on its subject.
#[component]
fn Messages(page: InboundPage, messages: Answer<Vec<InboundMessage>>) -> impl IntoView {
    let (domain, tick) = (page.domain, page.tick);
    let (all_words, t) = (text(), &text().inbound);
    let c = &t.columns;
    move || {
        messages.with(|l| match l {
            None => view! { <p class="muted" aria-busy="true">{all_words.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| tick.update(|t| *t += 1))/> }.into_any(),
            Some(Ok(all)) if all.is_empty() => view! { <p class="muted" id="inbound-empty">{t.none}</p> }.into_any(),
            Some(Ok(all)) => {
                let ids = StoredValue::new(all.iter().map(|m| m.id.clone()).collect::<Vec<_>>());
                let bulk = page.bulk;
                view! {
                <table class="email-table" id="inbound-messages">
                    <caption class="sr-only">{t.caption}</caption>
                    <thead><tr>
                        <th scope="col" class="bulk-check-cell"><PageCheck bulk page_ids=ids/></th>
                        <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th><th scope="col">{c[3]}</th>
                        <th scope="col">{c[4]}</th><th scope="col">{c[5]}</th><th scope="col">{c[6]}</th><th scope="col">{c[7]}</th>
                        <th scope="col">{c[8]}</th>
                    </tr></thead>
                    <tbody>
                        {all.iter().enumerate().map(|(i, m)| {
                            let id = m.id.clone();
                            let label = fill(t.select, &[&m.from]);
                            view! {
                                <tr data-id=m.id.clone()>
                                    <td class="bulk-check-cell"><RowCheck bulk index=i id=m.id.clone() page_ids=ids label/></td>
                                    <td>{when(&m.received_at)}</td>
                                    <td>{m.domain.clone()}</td>
                                    <td>{m.from.clone()}</td>
                                    <td><button type="button" class="link-button inbound-open" on:click=move |_| page.place(domain.get_untracked(), Some(id.clone()))>
                                        {subject(&m.subject)}</button></td>
                                    <td>{bytes(m.size)}</td>
                                    <td>{inbound_badge(m.state)}</td>
                                    <td>{m.attempts}</td>
                                    <td class="muted">{m.last_result.clone().unwrap_or_default()}</td>
                                    <td>{outcome(bulk, m.id.clone())}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            }.into_any()
            }
        })
    }
}
