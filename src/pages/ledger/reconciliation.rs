//! Reconciliation: a business day (the URL's `date`, today by default) — each ledger
//! account's opening balance, debits, credits and closing balance, whether every clearing
//! account closed at zero, the items that keep one open, and the clearing accounts' last 30
//! days (clearing_chart.rs).

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::ledger::{OpenItem, ReconciliationLine, ReconciliationReport};

use super::clearing_chart::ClearingChart;
use super::use_go;
use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::format::{format_amount, format_date};
use crate::session::use_auth;

#[component]
pub fn Reconciliation() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let date = Memo::new(move |_| query.with(|q| q.get("date").filter(|d| !d.is_empty())));
    let report = Answer::<ReconciliationReport>::new();
    Effect::new(move |_| report.load(api::ledger::reconciliation(&auth.client(), date.get().as_deref())));
    // The day shown: the URL's, else the report's (the books' today).
    let day = move || {
        date.get().or_else(|| report.with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map(|r| r.date.clone())))
    };
    view! {
        <div class="reconciliation">
            <label class="recon-day">
                "Business day "
                <input type="date" id="recon-date" prop:value=move || day().unwrap_or_default()
                    on:change=move |ev| go.run(vec![("view", "reconciliation".into()), ("date", event_target_value(&ev))])/>
            </label>
            {move || report.with(|r| match r {
                None => EitherOf3::A(view! { <p class="muted">"Reading the day…"</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(r)) => EitherOf3::C(view! { <Report r=r.clone()/> }),
            })}
        </div>
    }
}

#[component]
fn Report(r: ReconciliationReport) -> impl IntoView {
    let closed = if r.clearing_closed { "Clearing closed at zero" } else { "Clearing is open" };
    let balanced =
        (!r.books_balanced).then(|| view! { <p class="notice">"The books do not balance: see the server's log."</p> });
    view! {
        <p class="recon-status" data-testid="clearing-status" data-closed=r.clearing_closed.to_string()>
            <span class=if r.clearing_closed { "badge badge-closed" } else { "badge badge-open" }>{closed}</span>
        </p>
        {balanced}
        <div class="table-scroll" tabindex="0" role="region" aria-label="The day per ledger account">
            <table class="data-table ledger-table" data-testid="recon-lines">
                <caption>{format!("The books on {}", format_date(&r.date).unwrap_or_else(|| r.date.clone()))}</caption>
                <thead>
                    <tr>
                        <th scope="col">"Ledger account"</th>
                        <th scope="col" class="num">"Opening"</th>
                        <th scope="col" class="num">"Debits"</th>
                        <th scope="col" class="num">"Credits"</th>
                        <th scope="col" class="num">"Closing"</th>
                    </tr>
                </thead>
                <tbody>{r.lines.into_iter().map(|l| view! { <Line l/> }).collect_view()}</tbody>
            </table>
        </div>
        <OpenItems items=r.open_items/>
        <ClearingChart days=r.clearing_history/>
    }
}

#[component]
fn Line(l: ReconciliationLine) -> impl IntoView {
    view! {
        <tr data-code=l.code.clone()>
            <th scope="row">{l.label} " " <span class="mono muted">{l.code.clone()}</span></th>
            <td class="num">{format_amount(&l.opening)}</td>
            <td class="num">{format_amount(&l.debits)}</td>
            <td class="num">{format_amount(&l.credits)}</td>
            <td class="num">{format_amount(&l.closing)}</td>
        </tr>
    }
}

#[component]
fn OpenItems(items: Vec<OpenItem>) -> impl IntoView {
    if items.is_empty() {
        return Either::Left(view! { <p class="muted">"No item keeps clearing open."</p> });
    }
    let day =
        |d: &Option<String>| d.as_deref().map(|d| format_date(d).unwrap_or_else(|| d.to_string())).unwrap_or_default();
    let rows = items
        .iter()
        .map(|i| {
            view! {
                <tr>
                    <td class="mono">{i.deposit_id}</td>
                    <td class="mono">{i.ledger_account.clone()}</td>
                    <td class="num">{format_amount(&i.amount)}</td>
                    <td>{day(&i.sent_on)}</td>
                    <td>{day(&i.settles_on)}</td>
                </tr>
            }
        })
        .collect_view();
    Either::Right(view! {
        <table class="data-table ledger-table" data-testid="open-items">
            <caption>"What keeps clearing open"</caption>
            <thead>
                <tr>
                    <th scope="col">"Deposit"</th>
                    <th scope="col">"Ledger account"</th>
                    <th scope="col" class="num">"Amount"</th>
                    <th scope="col">"Sent"</th>
                    <th scope="col">"Settles by"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
