//! The Outbox: every message with its state and attempts, newest first; filtered by state
//! (checkboxes), by text (a recipient, the subject, an id) and by the UTC day it was created
//! (from, to: both inclusive), paged; all of them in the URL. The text and the days apply when
//! the form is submitted: a date typed digit by digit is a valid day at every keystroke.
//! While a shown message is still on its way (queued, scheduled, sending, deferred) the page
//! asks again every few seconds. A row opens the message (message.rs).

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::{MessageState, OutboxMessage};
use moneydesk_model::Page;

use super::message::MessageView;
use super::use_go;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::session::use_auth;

/// How often the list asks again while messages are on their way.
const REFRESH: Duration = Duration::from_secs(2);

#[derive(Clone, Debug, PartialEq)]
struct Place {
    states: Vec<MessageState>,
    q: String,
    /// `YYYY-MM-DD`, or empty: no bound.
    created_from: String,
    created_to: String,
    page: u32,
    message: Option<String>,
}

impl Place {
    fn pairs(&self) -> Vec<(String, String)> {
        let mut p = vec![("tab".to_string(), "outbox".to_string())];
        p.extend(self.states.iter().map(|s| ("state".to_string(), s.as_str().to_string())));
        p.push(("q".into(), self.q.clone()));
        for (k, v) in [("createdFrom", &self.created_from), ("createdTo", &self.created_to)] {
            if !v.is_empty() {
                p.push((k.into(), v.clone()));
            }
        }
        if self.page > 1 {
            p.push(("page".into(), self.page.to_string()));
        }
        if let Some(m) = &self.message {
            p.push(("message".into(), m.clone()));
        }
        p
    }
}

#[component]
pub fn Outbox() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let place = Memo::new(move |_| {
        query.with(|q| Place {
            states: q.get_all("state").unwrap_or_default().iter().filter_map(|s| s.parse().ok()).collect(),
            q: q.get_str("q").unwrap_or_default().to_string(),
            created_from: q.get_str("createdFrom").unwrap_or_default().to_string(),
            created_to: q.get_str("createdTo").unwrap_or_default().to_string(),
            page: q.get_str("page").and_then(|p| p.parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
            message: q.get_str("message").filter(|m| !m.is_empty()).map(str::to_string),
        })
    });
    let list = Answer::<Page<OutboxMessage>>::new();
    let tick = RwSignal::new(0u32);
    Effect::new(move |_| {
        let p = place.get();
        tick.track();
        let mut filters: Vec<(String, String)> =
            p.states.iter().map(|s| ("state".to_string(), s.as_str().to_string())).collect();
        if !p.q.is_empty() {
            filters.push(("q".into(), p.q.clone()));
        }
        for (k, v) in [("createdFrom", p.created_from), ("createdTo", p.created_to)] {
            if !v.is_empty() {
                filters.push((k.into(), v));
            }
        }
        filters.push(("page".into(), p.page.to_string()));
        filters.push(("size".into(), "25".into()));
        list.load(api::messages(&auth.client(), &filters));
    });
    // Asks again while anything shown may still change.
    Effect::new(move |_| {
        let moving = list.with(|l| matches!(l, Some(Ok(p)) if p.content.iter().any(|m| !m.state.is_final())));
        if moving {
            set_timeout(
                move || {
                    tick.try_update(|t| *t += 1);
                },
                REFRESH,
            );
        }
    });
    let with = move |f: &dyn Fn(&mut Place)| {
        let mut p = place.get_untracked();
        f(&mut p);
        go.run(p.pairs());
    };
    let search = RwSignal::new(String::new());
    let (from, until) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    Effect::new(move |_| {
        place.with(|p| {
            search.set(p.q.clone());
            from.set(p.created_from.clone());
            until.set(p.created_to.clone());
        })
    });

    view! {
        <div class="email-outbox">
            <form class="email-filters" role="search" on:submit=move |ev| {
                ev.prevent_default();
                let (q, f, t) = (search.get_untracked(), from.get_untracked(), until.get_untracked());
                with(&|p| { p.q = q.clone(); p.created_from = f.clone(); p.created_to = t.clone(); p.page = 1; });
            }>
                <fieldset>
                    <legend>"State"</legend>
                    {MessageState::ALL.into_iter().map(|s| {
                        let (id, for_id) = (format!("email-state-{}", s.as_str()), format!("email-state-{}", s.as_str()));
                        view! {
                            <label for=for_id>
                                <input type="checkbox" id=id prop:checked=move || place.with(|p| p.states.contains(&s))
                                    on:change=move |_| with(&|p| {
                                        if let Some(i) = p.states.iter().position(|x| *x == s) { p.states.remove(i); } else { p.states.push(s); }
                                        p.page = 1;
                                    })/>
                                {format!(" {}", s.label())}
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                <label for="email-search">"Search"</label>
                <input id="email-search" type="search" placeholder="Recipient, subject or id" prop:value=move || search.get()
                    on:input=move |ev| search.set(event_target_value(&ev))/>
                <label for="email-created-from">"Created from"</label>
                <input id="email-created-from" type="date" prop:value=move || from.get()
                    on:input=move |ev| from.set(event_target_value(&ev))/>
                <label for="email-created-to"><span class="sr-only">"Created "</span>"to"</label>
                <input id="email-created-to" type="date" prop:value=move || until.get()
                    on:input=move |ev| until.set(event_target_value(&ev))/>
                <button type="submit" class="button">"Search"</button>
            </form>
            {move || place.get().message.map(|id| view! {
                <MessageView id=id close=Callback::new(move |()| with(&|p| p.message = None))/>
            })}
            {move || list.with(|l| match l {
                None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| tick.update(|t| *t += 1))/> }.into_any(),
                Some(Ok(page)) if page.content.is_empty() => view! { <p class="muted" id="email-outbox-empty">"No messages."</p> }.into_any(),
                Some(Ok(page)) => {
                    let (number, total, last) = (page.number + 1, page.total_elements, page.last);
                    view! {
                        <table class="table email-table" id="email-outbox-table">
                            <caption class="sr-only">"Outbox"</caption>
                            <thead><tr>
                                <th scope="col">"Created"</th><th scope="col">"To"</th><th scope="col">"Subject"</th>
                                <th scope="col">"State"</th><th scope="col">"Attempts"</th><th scope="col">"Last reply"</th>
                            </tr></thead>
                            <tbody>
                                {page.content.iter().map(|m| {
                                    let id = m.id.clone();
                                    let state = m.state;
                                    view! {
                                        <tr data-id=m.id.clone()>
                                            <td>{m.created_at.replace('T', " ").trim_end_matches('Z').to_string()}</td>
                                            <td>{m.to.join(", ")}</td>
                                            <td><button type="button" class="link-button email-open" on:click=move |_| {
                                                let id = id.clone();
                                                with(&|p| p.message = Some(id.clone()));
                                            }>{if m.subject.is_empty() { "(no subject)".to_string() } else { m.subject.clone() }}</button></td>
                                            <td><span class=format!("badge state-{}", state.as_str())>{state.label()}</span></td>
                                            <td>{m.attempts}</td>
                                            <td class="muted">{m.last_reply.clone().unwrap_or_default()}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                        <nav class="pager" aria-label="Pages">
                            <button type="button" class="button" disabled=number <= 1 on:click=move |_| with(&|p| p.page -= 1)>"Previous"</button>
                            <span>{format!("Page {number} · {total} messages")}</span>
                            <button type="button" class="button" disabled=last on:click=move |_| with(&|p| p.page += 1)>"Next"</button>
                        </nav>
                    }.into_any()
                }
            })}
        </div>
    }
}
