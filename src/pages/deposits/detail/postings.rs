//! What a deposit posted to the books, in its drawer: each transaction (kind, time, who) with
//! its entries on their sides, and its hold's tranches with their release days. Read again
//! when the deposit moves (the drawer's answer changes).

use leptos::either::{Either, EitherOf3};
use leptos::prelude::*;
use moneydesk_model::ledger::{Hold, LedgerTransaction};

use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::format::{format_amount, format_date, format_date_time};
use crate::i18n::deposits::text;
use crate::i18n::vocab::say;
use crate::session::use_auth;
use moneydesk_model::ledger::DepositPostings;

/// `held` → "On hold"; the others as the API says them.
fn hold_state(state: &str) -> &str {
    let s = &text().detail.hold_states;
    match state {
        "held" => s[0],
        "released" => s[1],
        "cancelled" => s[2],
        other => other,
    }
}

#[component]
pub fn Postings(id: i64, #[prop(into)] version: Signal<u32>) -> impl IntoView {
    let auth = use_auth();
    let postings = Answer::<DepositPostings>::new();
    Effect::new(move |_| {
        version.track();
        postings.load(api::ledger::deposit_postings(&auth.client(), id));
    });
    let t = &text().detail;
    view! {
        <section class="deposit-postings" data-testid="deposit-postings" aria-label=t.postings>
            <h3>{t.postings}</h3>
            {move || postings.with(|p| match p {
                None => EitherOf3::A(view! { <p class="muted">{t.reading_postings}</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(p)) => EitherOf3::C(view! {
                    <Transactions list=p.transactions.clone()/>
                    <Holds list=p.holds.clone()/>
                }),
            })}
        </section>
    }
}

#[component]
fn Transactions(list: Vec<LedgerTransaction>) -> impl IntoView {
    if list.is_empty() {
        return Either::Left(view! { <p class="muted">{text().detail.nothing_posted}</p> });
    }
    Either::Right(list.into_iter().map(|t| view! { <Transaction t/> }).collect_view())
}

#[component]
fn Transaction(t: LedgerTransaction) -> impl IntoView {
    let when = format_date_time(&t.posted_at).unwrap_or_else(|| t.posted_at.clone());
    let rows = t
        .entries
        .into_iter()
        .map(|e| {
            let amount = format_amount(&e.amount);
            let (debit, credit) = match e.direction {
                moneydesk_model::ledger::Direction::Debit => (amount, String::new()),
                moneydesk_model::ledger::Direction::Credit => (String::new(), amount),
            };
            view! {
                <tr>
                    <td class="mono">{e.ledger_account}</td>
                    <td class="num">{debit}</td>
                    <td class="num">{credit}</td>
                </tr>
            }
        })
        .collect_view();
    let c = &text().detail.entry_columns;
    view! {
        <div class="posting" data-kind=t.kind.as_str()>
            <p class="posting-head">
                <strong>{say(t.kind.label())}</strong>
                " "
                <time datetime=t.posted_at.clone()>{when}</time>
                " · "
                {t.actor}
                {t.memo.map(|m| String::from(" · ") + &m)}
            </p>
            <table class="posting-entries">
                <thead>
                    <tr>
                        <th scope="col">{c[0]}</th>
                        <th scope="col" class="num">{c[1]}</th>
                        <th scope="col" class="num">{c[2]}</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn Holds(list: Vec<Hold>) -> impl IntoView {
    if list.is_empty() {
        return None;
    }
    let t = &text().detail;
    let items = list
        .into_iter()
        .map(|h| {
            let day = format_date(&h.release_on).unwrap_or_else(|| h.release_on.clone());
            view! {
                <li data-state=h.state.clone()>
                    {format_amount(&h.amount)} {t.released_on} <time datetime=h.release_on.clone()>{day}</time>
                    " — " {hold_state(&h.state).to_string()}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <h4>{t.hold}</h4>
        <ul class="deposit-holds" data-testid="deposit-holds">{items}</ul>
    })
}
