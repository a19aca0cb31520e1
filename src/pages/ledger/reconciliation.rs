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
use crate::i18n::fill;
use crate::i18n::ledger::text;
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
    let t = text();
    view! {
        <div class="reconciliation">
            <label class="recon-day">
                {t.business_day}
                <input type="date" id="recon-date" prop:value=move || day().unwrap_or_default()
                    on:change=move |ev| go.run(vec![("view", "reconciliation".into()), ("date", event_target_value(&ev))])/>
            </label>
            {move || report.with(|r| match r {
                None => EitherOf3::A(view! { <p class="muted">{t.reading_day}</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(r)) => EitherOf3::C(view! { <Report r=r.clone()/> }),
            })}
        </div>
    }
}

#[component]
fn Report(r: ReconciliationReport) -> impl IntoView {
    let t = text();
    let (closed, badge) = if r.clearing_closed {
        (t.clearing_closed, "badge badge-closed")
    } else {
        (t.clearing_open, "badge badge-open")
    };
    let balanced = (!r.books_balanced).then(|| view! { <p class="notice">{t.unbalanced}</p> });
    let c = &t.line_columns;
    view! {
        <p class="recon-status" data-testid="clearing-status" data-closed=r.clearing_closed.to_string()>
            <span class=badge>{closed}</span>
        </p>
        {balanced}
        <div class="table-scroll" tabindex="0" role="region" aria-label=t.per_account>
            <table class="data-table ledger-table" data-testid="recon-lines">
                <caption>{fill(t.books_on, &[&format_date(&r.date).unwrap_or_else(|| r.date.clone())])}</caption>
                <thead>
                    <tr>
                        <th scope="col">{c[0]}</th>
                        <th scope="col" class="num">{c[1]}</th>
                        <th scope="col" class="num">{c[2]}</th>
                        <th scope="col" class="num">{c[3]}</th>
                        <th scope="col" class="num">{c[4]}</th>
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
    let t = text();
    if items.is_empty() {
        return Either::Left(view! { <p class="muted">{t.nothing_open}</p> });
    }
    let c = &t.open_columns;
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
            <caption>{t.what_keeps_open}</caption>
            <thead>
                <tr>
                    <th scope="col">{c[0]}</th>
                    <th scope="col">{c[1]}</th>
                    <th scope="col" class="num">{c[2]}</th>
                    <th scope="col">{c[3]}</th>
                    <th scope="col">{c[4]}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
