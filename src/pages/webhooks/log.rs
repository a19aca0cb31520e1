//! An endpoint's delivery log, newest attempt first, paged (`&page=` in the URL): per attempt
//! its time, the event (type, id), the attempt's number, status, the receiver's response code,
//! the latency and the first 4 KB of its answer (expandable); each row's event can be replayed,
//! and so can every event of a time range.

use leptos::either::EitherOf4;
use leptos::prelude::*;
use moneydesk_model::webhooks::{WebhookAttempt, WebhookReplay, WebhookReplayed};
use moneydesk_model::Page;

use super::state::{queued_text, replay_one, replay_range, LOG_SIZE};
use super::traffic::{keep, Traffic};
use super::WebhooksCtx;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date_time;
use crate::i18n::fill;
use crate::i18n::webhooks::text;
use crate::session::use_auth;

#[component]
pub fn DeliveryLog(ctx: WebhooksCtx, traffic: Traffic) -> impl IntoView {
    let auth = use_auth();
    let page = Memo::new(move |_| ctx.place.with(|p| p.page));
    let log = Answer::<Page<WebhookAttempt>>::new();
    // Another page clears the table; a refresh of the same page keeps it until the answer.
    Effect::new(move |shown: Option<u64>| {
        traffic.tick.track();
        let p = page.get();
        let request = api::webhooks::deliveries(&auth.client(), &traffic.id.get_value(), p, LOG_SIZE);
        match shown == Some(p) {
            true => keep(log, request),
            false => log.load(request),
        }
        p
    });
    let (busy, said) = (RwSignal::new(false), RwSignal::new(None::<Result<String, ApiError>>));
    // Queues a replay, says what it queued (or the refusal) and watches the log.
    let owner = Owner::current();
    let replay = Callback::new(move |r: WebhookReplay| {
        submit(
            busy,
            &owner,
            || api::webhooks::replay(&auth.client(), &traffic.id.get_value(), &r),
            move |done: Result<WebhookReplayed, ApiError>| {
                said.set(Some(done.map(|q| queued_text(q.queued))));
                traffic.sent();
            },
        );
    });
    let pages = move || log.with(|l| l.as_ref().and_then(|l| l.as_ref().ok()).map_or(1, |p| p.total_pages.max(1)));
    let t = text();
    view! {
        <section class="webhook-log" data-testid="webhook-log" aria-labelledby="webhook-log-title">
            <div class="webhooks-head">
                <h3 id="webhook-log-title">{t.delivery_log}</h3>
                <button type="button" class="button" id="webhook-log-refresh" on:click=move |_| traffic.tick.update(|n| *n += 1)>{t.refresh}</button>
            </div>
            <ReplayRange busy replay/>
            <div aria-live="polite" id="webhook-replayed">
                {move || said.get().map(|r| match r {
                    Ok(text) => view! { <p class="muted">{text}</p> }.into_any(),
                    Err(e) => view! { <ApiErrorView error=e/> }.into_any(),
                })}
            </div>
            {move || log.with(|l| match l {
                None => EitherOf4::A(view! { <p class="muted" role="status">{t.reading_log}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(p)) if p.content.is_empty() => EitherOf4::C(view! {
                    <p class="muted" id="webhook-log-empty">{t.no_log}</p>
                }),
                Some(Ok(p)) => EitherOf4::D(view! { <LogTable rows=p.content.clone() busy replay/> }),
            })}
            <div class="pager">
                <button type="button" class="button" disabled=move || page.get() <= 1 on:click=move |_| ctx.to_page(page.get() - 1)>{t.newer}</button>
                <span>{move || fill(t.page_of, &[&page.get().to_string(), &pages().to_string()])}</span>
                <button type="button" class="button" disabled=move || page.get() >= pages() on:click=move |_| ctx.to_page(page.get() + 1)>{t.older}</button>
            </div>
        </section>
    }
}

#[component]
fn LogTable(rows: Vec<WebhookAttempt>, busy: RwSignal<bool>, replay: Callback<WebhookReplay>) -> impl IntoView {
    let t = text();
    let rows = rows
        .into_iter()
        .map(|a| {
            let when = format_date_time(&a.at).unwrap_or_else(|| a.at.clone());
            let event = a.event_id.clone();
            let code = a.response_code.map(|c| c.to_string()).unwrap_or_else(|| "—".into());
            let latency = a.latency_ms.map(|ms| format!("{ms} ms")).unwrap_or_else(|| "—".into());
            let response = a.response.clone().filter(|r| !r.is_empty());
            let badge = format!("badge badge-{}", a.status);
            view! {
                <tr data-event=a.event_id.clone() data-attempt=a.attempt data-status=a.status.clone()>
                    <td><time datetime=a.at.clone()>{when}</time></td>
                    <td><code>{a.event_type.clone()}</code></td>
                    <td class="mono">{a.event_id.clone()}</td>
                    <td class="num">{a.attempt}</td>
                    <td><span class=badge>{a.status.clone()}</span>
                        {a.result.clone().map(|r| view! { <div class="muted webhook-result">{r}</div> })}</td>
                    <td class="num">{code}</td>
                    <td class="num">{latency}</td>
                    <td class="webhook-response">{match response {
                        Some(r) => view! { <details><summary>{t.response}</summary><pre>{r}</pre></details> }.into_any(),
                        None => view! { <span class="muted">"—"</span> }.into_any(),
                    }}</td>
                    <td><button type="button" class="button webhook-replay" aria-label=fill(t.replay_event, &[&a.event_id])
                        disabled=move || busy.get() on:click=move |_| replay.run(replay_one(&event))>{t.replay}</button></td>
                </tr>
            }
        })
        .collect_view();
    let c = &t.log_columns;
    view! {
        <div class="webhook-log-scroll" tabindex="0" role="region" aria-label=t.log_table>
            <table class="data-table webhook-log-table" id="webhook-log">
                <caption class="sr-only">{t.log_caption}</caption>
                <thead><tr>
                    <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                    <th scope="col" class="num">{c[3]}</th><th scope="col">{c[4]}</th><th scope="col" class="num">{c[5]}</th>
                    <th scope="col" class="num">{c[6]}</th><th scope="col">{c[7]}</th><th scope="col"><span class="sr-only">{t.replay}</span></th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// A time's text from a `datetime-local` field (the browser's zone) as RFC 3339 UTC.
fn utc(local: &str) -> String {
    let d = js_sys::Date::new(&local.into());
    if d.get_time().is_nan() {
        return local.to_string(); // the server names what is wrong with it
    }
    String::from(d.to_iso_string())
}

/// Every event of a time range (of the types the endpoint takes) delivered again.
#[component]
fn ReplayRange(busy: RwSignal<bool>, replay: Callback<WebhookReplay>) -> impl IntoView {
    let (from, to) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (f, t) = (from.get_untracked(), to.get_untracked());
        if replay_range(&f, &t).is_some() {
            replay.run(WebhookReplay { event_id: None, from: Some(utc(&f)), to: Some(utc(&t)) });
        }
    };
    let t = text();
    view! {
        <form class="webhook-range" id="webhook-range" on:submit=send>
            <fieldset>
                <legend>{t.replay_range}</legend>
                <label for="webhook-range-from">{t.from}</label>
                <input type="datetime-local" id="webhook-range-from" required prop:value=move || from.get() on:input=move |ev| from.set(event_target_value(&ev))/>
                <label for="webhook-range-to">{t.to}</label>
                <input type="datetime-local" id="webhook-range-to" required prop:value=move || to.get() on:input=move |ev| to.set(event_target_value(&ev))/>
                <button type="submit" class="button" id="webhook-range-submit"
                    disabled=move || busy.get() || replay_range(&from.get(), &to.get()).is_none()>{t.replay_the_range}</button>
            </fieldset>
        </form>
    }
}
