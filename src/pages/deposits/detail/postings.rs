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
use crate::session::use_auth;
use moneydesk_model::ledger::DepositPostings;

/// `held` → "On hold"; the others as the API says them.
fn hold_state(state: &str) -> &str {
    match state {
        "held" => "On hold",
        "released" => "Released",
        "cancelled" => "Cancelled",
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
    view! {
        <section class="deposit-postings" data-testid="deposit-postings" aria-label="Postings">
            <h3>"Postings"</h3>
            {move || postings.with(|p| match p {
                None => EitherOf3::A(view! { <p class="muted">"Reading the postings…"</p> }),
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
        return Either::Left(
            view! { <p class="muted">"Nothing posted yet: a deposit posts when it is confirmed."</p> },
        );
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
    view! {
        <div class="posting" data-kind=t.kind.as_str()>
            <p class="posting-head">
                <strong>{t.kind.label()}</strong>
                " "
                <time datetime=t.posted_at.clone()>{when}</time>
                " · "
                {t.actor}
                {t.memo.map(|m| format!(" · {m}"))}
            </p>
            <table class="posting-entries">
                <thead>
                    <tr>
                        <th scope="col">"Ledger account"</th>
                        <th scope="col" class="num">"Debit"</th>
                        <th scope="col" class="num">"Credit"</th>
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
    let items = list
        .into_iter()
        .map(|h| {
            let day = format_date(&h.release_on).unwrap_or_else(|| h.release_on.clone());
            view! {
                <li data-state=h.state.clone()>
                    {format_amount(&h.amount)} " released on " <time datetime=h.release_on.clone()>{day}</time>
                    " — " {hold_state(&h.state).to_string()}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <h4>"Hold"</h4>
        <ul class="deposit-holds" data-testid="deposit-holds">{items}</ul>
    })
}
