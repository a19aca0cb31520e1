//! Deliverability: each sending domain's figures over a window (default the server's, the last
//! 30 days) — accepted, delivered, hard and soft bounces, complaints, the rates, and the limits
//! the mailbox providers hold bulk senders to, flagged — and the latest bounces and complaints,
//! each linking to its message. The window lives in the URL (`?tab=deliverability&from=…&to=…`).

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::bounces::{Deliverability as Figures, DomainDeliverability};

use super::bounce_table::BounceTable;
use super::use_go;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::format::group;
use crate::i18n::{email::text, fill, vocab::say};
use crate::session::use_auth;

#[component]
pub fn Deliverability() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let window = Memo::new(move |_| {
        query.with(|q| {
            (q.get_str("from").unwrap_or_default().to_string(), q.get_str("to").unwrap_or_default().to_string())
        })
    });
    let figures = Answer::<Figures>::new();
    Effect::new(move |_| {
        let (from, to) = window.get();
        figures.load(api::deliverability(&auth.client(), &from, &to));
    });
    let (from, to) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    Effect::new(move |_| {
        let (f, t) = window.get();
        from.set(f);
        to.set(t);
    });
    let show = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        go.run(vec![
            ("tab".into(), "deliverability".into()),
            ("from".into(), from.get_untracked()),
            ("to".into(), to.get_untracked()),
        ]);
    };
    let (all, t) = (text(), &text().deliverability);
    view! {
        <div class="email-deliverability">
            <form class="deliverability-window" on:submit=show>
                <label>{t.from}" "<input type="date" id="deliverability-from" prop:value=move || from.get() on:input=move |e| from.set(event_target_value(&e))/></label>
                <label>{t.to}" "<input type="date" id="deliverability-to" prop:value=move || to.get() on:input=move |e| to.set(event_target_value(&e))/></label>
                <button type="submit" class="button">{t.show}</button>
            </form>
            {move || figures.with(|f| match f {
                None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(f)) => view! {
                    <DomainTable domains=f.domains.clone()/>
                    {(f.unparseable_reports > 0).then(|| view! { <p class="muted" id="deliverability-unparseable">{fill(if f.unparseable_reports == 1 { t.unparseable.0 } else { t.unparseable.1 }, &[&group(f.unparseable_reports)])}</p> })}
                    <h2>{t.latest}</h2>
                    {if f.latest.is_empty() {
                        view! { <p class="muted" id="deliverability-no-bounces">{t.no_bounces}</p> }.into_any()
                    } else {
                        view! { <BounceTable bounces=f.latest.clone() links=true id="deliverability-latest"/> }.into_any()
                    }}
                }.into_any(),
            })}
        </div>
    }
}

/// `0.0213` → `2.13 %`.
fn percent(rate: rust_decimal::Decimal) -> String {
    format!("{} %", (rate * rust_decimal::Decimal::ONE_HUNDRED).round_dp(2))
}

#[component]
fn DomainTable(domains: Vec<DomainDeliverability>) -> impl IntoView {
    let t = &text().deliverability;
    if domains.is_empty() {
        return view! { <p class="muted" id="deliverability-none">{t.no_domains}</p> }.into_any();
    }
    let c = &t.columns;
    view! {
        <table class="table email-table" id="deliverability-domains">
            <caption class="sr-only">{t.domains_caption}</caption>
            <thead><tr>{c.iter().map(|h| view! { <th scope="col">{*h}</th> }).collect_view()}</tr></thead>
            <tbody>
                {domains.into_iter().map(|d| {
                    let flagged = !d.flags.is_empty();
                    view! {
                        <tr data-domain=d.domain.clone() class:deliverability-flagged=flagged>
                            <td>{d.domain.clone()}</td>
                            <td>{group(d.sent)}</td>
                            <td>{group(d.delivered)}</td>
                            <td>{group(d.hard_bounces)}</td>
                            <td>{group(d.soft_bounces)}</td>
                            <td>{group(d.complaints)}</td>
                            <td>{percent(d.bounce_rate)}</td>
                            <td>{percent(d.complaint_rate)}</td>
                            <td>{d.flags.iter().map(|f| view! { <span class="badge deliverability-flag">{say(f.label())}</span>" " }).collect_view()}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
    .into_any()
}
