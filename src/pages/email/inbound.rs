//! Inbound: per domain the URL its mail is posted to (changeable), the MX record to publish,
//! the signing secret (revealed on demand, rotatable); the messages received, newest first,
//! filtered by domain; a message opens with its delivery attempts (inbound_message.rs). The
//! domain filter and the message open live in the URL (`?tab=inbound&domain=…&inbound=…`).
//! While a shown message is still being delivered the list asks again every few seconds.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::inbound::{InboundMessage, InboundRoute, InboundSecret, InboundState};

use super::domains::copy;
use super::inbound_message::InboundView;
use super::{bytes, use_go};
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::session::use_auth;

/// How often the list asks again while messages are being delivered.
const REFRESH: Duration = Duration::from_secs(2);

pub fn state_badge(s: InboundState) -> impl IntoView {
    view! { <span class=format!("badge inbound-{}", s.as_str())>{s.label()}</span> }
}

/// `2026-11-25T10:00:00.123Z` → `2026-11-25 10:00:00`.
pub fn when(t: &str) -> String {
    t.replace('T', " ").trim_end_matches('Z').split('.').next().unwrap_or(t).to_string()
}

#[component]
pub fn Inbound() -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let query = use_query_map();
    let go = use_go();
    let domain = Memo::new(move |_| query.with(|q| q.get_str("domain").unwrap_or_default().to_string()));
    let open = Memo::new(move |_| query.with(|q| q.get_str("inbound").filter(|m| !m.is_empty()).map(str::to_string)));
    let place = move |domain: String, open: Option<String>| {
        let mut p = vec![("tab".to_string(), "inbound".to_string()), ("domain".into(), domain)];
        p.extend(open.map(|o| ("inbound".to_string(), o)));
        go.run(p);
    };

    let routes = Answer::<Vec<InboundRoute>>::new();
    let reload = RwSignal::new(0u32);
    Effect::new(move |_| {
        reload.track();
        routes.load(api::inbound_routes(&auth.client()));
    });
    let messages = Answer::<Vec<InboundMessage>>::new();
    let tick = RwSignal::new(0u32);
    Effect::new(move |_| {
        let d = domain.get();
        tick.track();
        messages.load(api::inbound_messages(&auth.client(), &d));
    });
    Effect::new(move |_| {
        let moving = messages.with(|l| matches!(l, Some(Ok(l)) if l.iter().any(|m| matches!(m.state, InboundState::Pending | InboundState::Delivering))));
        if moving {
            set_timeout(
                move || {
                    tick.try_update(|t| *t += 1);
                },
                REFRESH,
            );
        }
    });
    let changed = Callback::new(move |()| {
        reload.update(|n| *n += 1);
        tick.update(|t| *t += 1);
    });

    let new_domain = RwSignal::new(String::new());
    let new_url = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let create = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (d, u) = (new_domain.get_untracked().trim().to_string(), new_url.get_untracked().trim().to_string());
        if d.is_empty() || u.is_empty() {
            problem.set(Some(
                "Type the domain that receives mail (like in.bank.example) and the URL to post it to".into(),
            ));
            return;
        }
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

    view! {
        <div class="email-inbound">
            <form class="email-inbound-new" on:submit=create novalidate>
                <fieldset>
                    <legend>"Receive a domain's mail"</legend>
                    <label for="inbound-domain">"Domain"</label>
                    <input id="inbound-domain" type="text" autocomplete="off" spellcheck="false" placeholder="in.bank.example"
                        prop:value=move || new_domain.get() on:input=move |ev| new_domain.set(event_target_value(&ev))/>
                    <label for="inbound-url">"Post each message to"</label>
                    <input id="inbound-url" type="url" autocomplete="off" spellcheck="false" placeholder="https://hooks.bank.example/inbound"
                        prop:value=move || new_url.get() on:input=move |ev| new_url.set(event_target_value(&ev))/>
                    <button type="submit" class="primary" disabled=move || busy.get()>"Add route"</button>
                </fieldset>
                <p class="field-error" role="alert">{move || problem.get()}</p>
            </form>
            {move || routes.with(|l| match l {
                None => view! { <p class="muted" role="status">"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(all)) if all.is_empty() => view! { <p class="muted" id="inbound-routes-empty">"No inbound routes yet: mail to any domain is refused."</p> }.into_any(),
                Some(Ok(all)) => view! {
                    <table class="email-table" id="inbound-routes">
                        <caption class="sr-only">"Inbound routes"</caption>
                        <thead><tr>
                            <th scope="col">"Domain"</th><th scope="col">"Posts to"</th><th scope="col">"MX record to publish"</th>
                            <th scope="col">"Messages"</th><th scope="col">"Signing secret"</th>
                        </tr></thead>
                        <tbody>
                            {all.iter().cloned().map(|r| view! { <RouteRow route=r on_change=changed show=Callback::new(move |d: String| place(d, None))/> }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            })}
            <section class="email-inbound-messages" aria-labelledby="inbound-messages-title">
                <div class="email-verify-row">
                    <h2 id="inbound-messages-title">{move || match domain.get() {
                        d if d.is_empty() => "Messages received".to_string(),
                        d => format!("Messages received for {d}"),
                    }}</h2>
                    <Show when=move || !domain.get().is_empty()>
                        <button type="button" class="link-button" id="inbound-all" on:click=move |_| place(String::new(), None)>"All domains"</button>
                    </Show>
                    <button type="button" class="secondary" id="inbound-refresh" on:click=move |_| tick.update(|t| *t += 1)>"Refresh"</button>
                </div>
                {move || open.get().map(|id| view! {
                    <InboundView id=id on_change=changed close=Callback::new(move |()| place(domain.get_untracked(), None))/>
                })}
                {move || messages.with(|l| match l {
                    None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                    Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| tick.update(|t| *t += 1))/> }.into_any(),
                    Some(Ok(all)) if all.is_empty() => view! { <p class="muted" id="inbound-empty">"No messages received yet."</p> }.into_any(),
                    Some(Ok(all)) => view! {
                        <table class="email-table" id="inbound-messages">
                            <caption class="sr-only">"Messages received"</caption>
                            <thead><tr>
                                <th scope="col">"Received"</th><th scope="col">"Domain"</th><th scope="col">"From"</th><th scope="col">"Subject"</th>
                                <th scope="col">"Size"</th><th scope="col">"Delivery"</th><th scope="col">"Attempts"</th><th scope="col">"Last result"</th>
                            </tr></thead>
                            <tbody>
                                {all.iter().map(|m| {
                                    let id = m.id.clone();
                                    view! {
                                        <tr data-id=m.id.clone()>
                                            <td>{when(&m.received_at)}</td>
                                            <td>{m.domain.clone()}</td>
                                            <td>{m.from.clone()}</td>
                                            <td><button type="button" class="link-button inbound-open" on:click=move |_| place(domain.get_untracked(), Some(id.clone()))>
                                                {if m.subject.is_empty() { "(no subject)".to_string() } else { m.subject.clone() }}</button></td>
                                            <td>{bytes(m.size)}</td>
                                            <td>{state_badge(m.state)}</td>
                                            <td>{m.attempts}</td>
                                            <td class="muted">{m.last_result.clone().unwrap_or_default()}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any(),
                })}
            </section>
        </div>
    }
}

/// One route: its URL (changeable in place), the MX record, its counts, its secret.
#[component]
fn RouteRow(route: InboundRoute, on_change: Callback<()>, show: Callback<String>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let domain = StoredValue::new(route.domain.clone());
    let editing = RwSignal::new(false);
    let url = RwSignal::new(route.url.clone());
    let busy = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let secret = RwSignal::new(None::<InboundSecret>);
    let save = Callback::new(move |()| {
        let u = url.get_untracked().trim().to_string();
        submit(
            busy,
            &owner,
            || api::update_inbound_route(&auth.client(), &domain.get_value(), &u),
            move |r: Result<InboundRoute, ApiError>| match r {
                Ok(_) => {
                    editing.set(false);
                    said.set(None);
                    on_change.run(());
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    let secret_owner = Owner::current();
    let fetch = Callback::new(move |rotate: bool| {
        if rotate && !window().confirm_with_message("Replace the signing secret? Posts are signed with the new one at once: update your receiver right after.").unwrap_or(false) {
            return;
        }
        let d = domain.get_value();
        submit(
            busy,
            &secret_owner,
            || -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<InboundSecret, ApiError>>>> {
                if rotate {
                    Box::pin(api::rotate_inbound_secret(&auth.client(), &d))
                } else {
                    Box::pin(api::inbound_secret(&auth.client(), &d))
                }
            },
            move |r: Result<InboundSecret, ApiError>| match r {
                Ok(s) => {
                    said.set(rotate.then(|| "A new secret signs every post from now on".to_string()));
                    secret.set(Some(s));
                    if rotate {
                        on_change.run(());
                    }
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    let mx = format!("{} MX 10 {}", route.domain, route.mx_host);
    let mx_copy = mx.clone();
    let (received, failed) = (route.received, route.failed);
    let hint = route.secret_hint.clone();
    view! {
        <tr data-domain=route.domain.clone()>
            <th scope="row"><button type="button" class="link-button inbound-show" on:click=move |_| show.run(domain.get_value())>{route.domain.clone()}</button></th>
            <td>
                <Show when=move || editing.get() fallback=move || view! {
                    <span class="mono">{move || url.get()}</span>" "
                    <button type="button" class="link-button inbound-edit" on:click=move |_| editing.set(true)>"Change"</button>
                }>
                    <form class="email-verify-row" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); save.run(()) } novalidate>
                        <label class="sr-only" for=format!("inbound-url-{}", domain.get_value())>{format!("URL for {}", domain.get_value())}</label>
                        <input type="url" id=format!("inbound-url-{}", domain.get_value()) prop:value=move || url.get() on:input=move |ev| url.set(event_target_value(&ev))/>
                        <button type="submit" class="primary" disabled=move || busy.get()>"Save"</button>
                        <button type="button" class="secondary" on:click=move |_| editing.set(false)>"Cancel"</button>
                    </form>
                </Show>
            </td>
            <td class="mono"><span>{mx.clone()}</span>" "
                <button type="button" class="link-button" aria-label=format!("Copy the MX record {mx}") on:click=move |_| copy(mx_copy.clone(), said)>"Copy"</button></td>
            <td>{format!("{received} received")}{(failed > 0).then(|| view! { <div class="field-error">{format!("{failed} failed")}</div> })}</td>
            <td>
                {move || match secret.get() {
                    Some(s) => {
                        let text = s.secret.clone();
                        view! {
                            <span class="mono inbound-secret">{s.secret.clone()}</span>" "
                            <button type="button" class="link-button" aria-label="Copy the secret" on:click=move |_| copy(text.clone(), said)>"Copy"</button>" "
                            <button type="button" class="link-button" on:click=move |_| secret.set(None)>"Hide"</button>
                        }.into_any()
                    }
                    None => view! {
                        <span class="mono">{format!("…{hint}")}</span>" "
                        <button type="button" class="link-button inbound-reveal" disabled=move || busy.get() on:click=move |_| fetch.run(false)>"Reveal"</button>
                    }.into_any(),
                }}
                " "<button type="button" class="link-button inbound-rotate" disabled=move || busy.get() on:click=move |_| fetch.run(true)>"Rotate"</button>
                <div role="status" class="muted">{move || said.get()}</div>
            </td>
        </tr>
    }
}
