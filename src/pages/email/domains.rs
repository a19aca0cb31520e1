//! Domains: register a sending domain, the records to install (each with a copy button),
//! verify with each record's status, and the activation state. The open domain lives in the
//! URL (`?tab=domains&domain=…`). Activation is an administrator's (the server answers 403
//! otherwise, shown as such).

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::domains::{DomainState, RecordCheck, RecordStatus, SendingDomain};

use super::use_go;
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::i18n::{email::text as words, fill, vocab::say};
use crate::session::use_auth;

fn state_badge(s: DomainState) -> impl IntoView {
    let class = format!("badge domain-{}", s.as_str());
    view! { <span class=class>{say(s.label())}</span> }
}

/// A DKIM key as its zone file line: `host TXT "value"`.
fn zone_line(host: &str, value: &str) -> String {
    format!("{host} TXT \"{value}\"")
}

/// A record status's badge class (`badge record-found`).
fn record_class(s: RecordStatus) -> String {
    format!("badge record-{}", s.as_str())
}

/// Copies `text`; says so in `said` (or why it could not).
pub(super) fn copy(text: String, said: RwSignal<Option<String>>) {
    let clipboard = window().navigator().clipboard();
    let promise = clipboard.write_text(&text);
    leptos::task::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await;
        said.set(Some(match done {
            Ok(_) => fill(words().domains.copied, &[&text]),
            Err(_) => words().domains.copy_refused.to_string(),
        }));
    });
}

#[component]
pub fn Domains() -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let query = use_query_map();
    let go = use_go();
    let open = Memo::new(move |_| query.with(|q| q.get_str("domain").unwrap_or_default().to_string()));
    let list = Answer::<Vec<SendingDomain>>::new();
    let reload = RwSignal::new(0u32);
    Effect::new(move |_| {
        reload.track();
        list.load(api::domains(&auth.client()));
    });
    let name = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let (all_words, t) = (words(), &words().domains);
    let register = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let d = name.get_untracked().trim().to_string();
        if d.is_empty() {
            problem.set(Some(t.type_domain.into()));
            return;
        }
        submit(
            busy,
            &owner,
            || api::register_domain(&auth.client(), &d),
            move |r: Result<SendingDomain, ApiError>| match r {
                Ok(d) => {
                    problem.set(None);
                    name.set(String::new());
                    reload.update(|n| *n += 1);
                    go.run(vec![("tab".into(), "domains".into()), ("domain".into(), d.domain)]);
                }
                Err(e) => problem.set(Some(e.to_string())),
            },
        );
    };
    view! {
        <div class="email-domains">
            <form class="email-domain-new" on:submit=register novalidate>
                <label for="domain-name">{t.register_label}</label>
                <div class="email-verify-row">
                    <input id="domain-name" type="text" autocomplete="off" spellcheck="false" placeholder=t.example
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/>
                    <button type="submit" class="primary" disabled=move || busy.get()>{t.register}</button>
                </div>
                <p class="field-error" role="alert">{move || problem.get()}</p>
            </form>
            {move || list.with(|l| match l {
                None => view! { <p class="muted" role="status">{all_words.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(all)) if all.is_empty() => view! { <p class="muted" id="domains-empty">{t.none}</p> }.into_any(),
                Some(Ok(all)) => view! {
                    <table class="email-table" id="domains-table">
                        <caption class="sr-only">{t.caption}</caption>
                        <thead><tr><th scope="col">{t.columns[0]}</th><th scope="col">{t.columns[1]}</th><th scope="col">{t.columns[2]}</th></tr></thead>
                        <tbody>
                            {all.iter().map(|d| {
                                let target = d.domain.clone();
                                view! {
                                    <tr>
                                        <td><button type="button" class="link-button domain-open" on:click=move |_| go.run(vec![("tab".into(), "domains".into()), ("domain".into(), target.clone())])>{d.domain.clone()}</button></td>
                                        <td>{state_badge(d.state)}</td>
                                        <td>{d.checked_at.clone().unwrap_or_else(|| t.never.into())}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            })}
            {move || {
                let d = open.get();
                (!d.is_empty()).then(|| view! { <DomainView domain=d on_change=Callback::new(move |_| reload.update(|n| *n += 1))/> })
            }}
        </div>
    }
}

#[component]
fn DomainView(domain: String, on_change: Callback<()>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let answer = Answer::<SendingDomain>::new();
    answer.load(api::domain(&auth.client(), &domain));
    let busy = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let (all_words, t) = (words(), &words().domains);
    let c = &t.record_columns;
    let act = Callback::new(move |activate: bool| {
        let Some(Ok(d)) = answer.with(|a| a.clone()) else { return };
        let name = d.domain.clone();
        submit(
            busy,
            &owner,
            || -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<SendingDomain, ApiError>>>> {
                if activate {
                    Box::pin(api::activate_domain(&auth.client(), &name))
                } else {
                    Box::pin(api::verify_domain(&auth.client(), &name))
                }
            },
            move |r: Result<SendingDomain, ApiError>| match r {
                Ok(d) => {
                    said.set(Some(match (activate, d.state) {
                        (true, _) => t.activated.to_string(),
                        (false, DomainState::Pending) => t.pending.to_string(),
                        (false, _) => t.in_place.to_string(),
                    }));
                    answer.set(Ok(d));
                    on_change.run(());
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    view! {
        <section class="email-domain" id="domain" aria-labelledby="domain-title">
            {move || answer.with(|a| match a {
                None => view! { <p class="muted" role="status">{all_words.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(d)) => {
                    let checks: Vec<Option<RecordCheck>> = d.records.iter().enumerate().map(|(i, _)| d.last_check.as_ref().and_then(|c| c.get(i).cloned())).collect();
                    view! {
                        <h2 id="domain-title">{d.domain.clone()}" "{state_badge(d.state)}</h2>
                        <p class="muted">{t.install}</p>
                        <table class="email-table" id="domain-records">
                            <caption class="sr-only">{t.records_caption}</caption>
                            <thead><tr>
                                <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th><th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                            </tr></thead>
                            <tbody>
                                {d.records.iter().zip(checks).map(|(r, c)| {
                                    let (host, value) = (r.host.clone(), r.value.clone());
                                    let status = c.as_ref().map(|c| c.status);
                                    let found = c.map(|c| c.found.join(", ")).filter(|f| !f.is_empty());
                                    view! {
                                        <tr data-purpose=r.purpose.as_str()>
                                            <th scope="row">{say(r.purpose.label())}{(!r.required).then_some(t.advice)}</th>
                                            <td>{r.kind.as_str()}</td>
                                            <td class="mono"><span>{host.clone()}</span>" "
                                                <button type="button" class="link-button" aria-label=fill(t.copy_host, &[&host]) on:click=move |_| copy(host.clone(), said)>{t.copy}</button></td>
                                            <td class="mono"><span>{value.clone()}</span>" "
                                                <button type="button" class="link-button" aria-label=fill(t.copy_value, &[&value]) on:click=move |_| copy(value.clone(), said)>{t.copy}</button></td>
                                            <td>
                                                {match status {
                                                    None => view! { <span class="muted">{t.not_checked}</span> }.into_any(),
                                                    Some(s) => view! { <span class=record_class(s)>{say(s.label())}</span> }.into_any(),
                                                }}
                                                {found.filter(|_| status != Some(RecordStatus::Found)).map(|f| view! { <div class="muted">{t.found}{f}</div> })}
                                            </td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                        <details class="email-service-records">
                            <summary>{t.service_records}</summary>
                            <ul>{d.service_records.iter().map(|r| view! { <li class="mono">{zone_line(&r.host, &r.value)}</li> }).collect_view()}</ul>
                        </details>
                    }.into_any()
                }
            })}
            <div class="email-verify-row">
                <button type="button" class="primary" id="domain-verify" disabled=move || busy.get() on:click=move |_| act.run(false)>{t.verify}</button>
                <Show when=move || answer.with(|a| matches!(a, Some(Ok(d)) if d.state == DomainState::Verified))>
                    <button type="button" class="secondary" id="domain-activate" disabled=move || busy.get() on:click=move |_| act.run(true)>{t.activate}</button>
                </Show>
            </div>
            <p role="status" id="domain-said">{move || said.get()}</p>
        </section>
    }
}
