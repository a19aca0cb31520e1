//! An account in the table's drawer (with `ledger:read`): its balances now (posted, pending,
//! available, on hold), its holds with their release days, and its entries (entries.rs); with
//! `audit:read`, its Activity tab.

use leptos::either::{EitherOf3, EitherOf4};
use leptos::prelude::*;
use moneydesk_model::ledger::{Balances, Hold};
use moneydesk_model::{Money, Scope};
use serde_json::Value;

use super::amount::amount_cell;
use super::entries::Entries;
use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date;
use crate::i18n::account_books::text;
use crate::i18n::fill;
use crate::pages::activity::tab::{WithActivity, ACCOUNT};
use crate::session::use_auth;

/// The drawer's part for an account record of the table.
pub fn panel(record: Value) -> AnyView {
    let Some(id) = record.get("id").and_then(Value::as_str).map(str::to_string) else { return ().into_any() };
    let books = use_auth().can(Scope::LedgerRead).then(|| view! { <AccountBooks id=id.clone()/> });
    view! { <WithActivity target_type=ACCOUNT target_id=id>{books}</WithActivity> }.into_any()
}

#[component]
fn AccountBooks(id: String) -> impl IntoView {
    let auth = use_auth();
    let balances = Answer::<Balances>::new();
    let holds = Answer::<Vec<Hold>>::new();
    balances.load(api::ledger::balances(&auth.client(), &id));
    holds.load(api::ledger::holds(&auth.client(), &id));
    let t = text();
    view! {
        <div class="ledger-account" data-testid="account-books">
            <h3>{t.balances}</h3>
            {move || balances.with(|b| match b {
                None => EitherOf3::A(view! { <p class="muted">{t.reading_balances}</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(b)) => EitherOf3::C(view! { <BalanceList b=b.clone()/> }),
            })}
            <h3>{t.holds}</h3>
            {move || holds.with(|h| match h {
                None => EitherOf4::A(view! { <p class="muted">{t.reading_holds}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(h)) if h.is_empty() => EitherOf4::C(view! { <p class="muted">{t.no_holds}</p> }),
                Some(Ok(h)) => EitherOf4::D(view! { <HoldTable holds=h.clone()/> }),
            })}
            <Entries account=id/>
        </div>
    }
}

#[component]
fn BalanceList(b: Balances) -> impl IntoView {
    let t = text();
    let below = b.negative_available.then(|| {
        view! { <span class="below-zero" data-testid="below-zero">{t.below_zero}</span> }
    });
    let row = |key: &'static str, label: &'static str, m: &Money| {
        view! {
            <div class="balance" data-balance=key>
                <dt>{label}</dt>
                <dd>{amount_cell(m)}</dd>
            </div>
        }
    };
    view! {
        <dl class="balances" class:negative-available=b.negative_available>
            {row("posted", t.balance_labels[0], &b.posted)}
            {row("pending", t.balance_labels[1], &b.pending)}
            {row("available", t.balance_labels[2], &b.available)}
            {row("held", t.balance_labels[3], &b.held)}
        </dl>
        {below}
        <p class="muted small">{fill(t.as_of, &[&b.currency, &b.as_of])}</p>
    }
}

/// `held` → "On hold"; the others as the API says them.
pub fn hold_state(state: &str) -> &str {
    let states = &text().hold_states;
    match state {
        "held" => states[0],
        "released" => states[1],
        "cancelled" => states[2],
        other => other,
    }
}

#[component]
pub fn HoldTable(holds: Vec<Hold>) -> impl IntoView {
    let rows = holds
        .into_iter()
        .map(|h| {
            let day = format_date(&h.release_on).unwrap_or_else(|| h.release_on.clone());
            view! {
                <tr data-state=h.state.clone()>
                    <td class="mono">{h.deposit_id}</td>
                    <td class="num">{amount_cell(&h.amount)}</td>
                    <td><time datetime=h.release_on.clone()>{day}</time></td>
                    <td>{hold_state(&h.state).to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    let c = &text().hold_columns;
    view! {
        <table class="ledger-table holds" data-testid="holds">
            <thead>
                <tr>
                    <th scope="col">{c[0]}</th>
                    <th scope="col" class="num">{c[1]}</th>
                    <th scope="col">{c[2]}</th>
                    <th scope="col">{c[3]}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
