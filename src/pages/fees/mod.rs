//! The Fees page: choose ACH or wire and the transfer type, type an amount (and, optionally, the
//! payer), and see each fee type's fee and the total to pay, quoted by the server as you type
//! (debounced, stale answers discarded), saying when a waiver or the payer's own schedule priced
//! it; the transfer type's schedule for that payer with the amount's tier highlighted; and the
//! chart of fee against amount. Rail, transfer type, amount and payer live in the URL
//! (choice.rs); the quote and its panel are quote.rs.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::fees::{
    describe_range, Basis, FeeParties, FeeSchedule, FeeTier, Rail, ScheduleVersion, TransferType,
};
use rust_decimal::Decimal;

use crate::api::request::Answer;
use crate::api::{fees as api, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::i18n::fees::text;
use crate::i18n::fill;
use crate::i18n::vocab::say;
use crate::session::use_auth;

mod amount;
mod chart;
mod choice;
mod quote;

use amount::tidy;
use chart::FeeChart;
use choice::{choice_from, href, parsed, payer_of, Choice};
use quote::{Quote, QuotePanel, Quotes};

/// How long typing must pause before a quote is asked for.
const DEBOUNCE: Duration = Duration::from_millis(250);

#[component]
pub fn FeesPage() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let navigate = use_navigate();
    let choice = Memo::new(move |_| {
        query.with(|q| choice_from(q.get_str("rail"), q.get_str("type"), q.get_str("amount"), q.get_str("payer")))
    });
    let go = move |c: Choice, replace: bool| {
        navigate(&href(&c), NavigateOptions { replace, scroll: false, ..Default::default() });
    };
    let go = StoredValue::new(go);

    // The schedule in force, for the table and the chart.
    let versions = Answer::<Vec<ScheduleVersion>>::new();
    versions.load(api::versions(&auth.client()));
    let schedule = Memo::new(move |_| {
        versions.with(|v| match v {
            Some(Ok(list)) => list.iter().find(|v| v.in_force).map(|v| v.schedule.clone()),
            _ => None,
        })
    });

    let quotes = Quotes::new();
    let quote = quotes.quote;
    Effect::new(move |_| quotes.ask(auth, choice.get(), DEBOUNCE));
    // Over the rate limit: ask again once the server says it may.
    Effect::new(move |_| {
        if let Quote::Failed(ApiError::TooManyRequests { retry_after, .. }) = quote.get() {
            quotes.ask(auth, choice.get_untracked(), Duration::from_secs(retry_after.unwrap_or(1).into()));
        }
    });

    let on_rail = move |rail: Rail| {
        if let Some(c) = choice.get_untracked().with_rail(rail) {
            go.with_value(|g| g(c, false));
        }
    };
    let rail_tabs = Rail::ALL
        .into_iter()
        .map(|rail| {
            let selected = move || choice.with(|c| c.transfer_type.rail() == rail);
            view! {
                <button type="button" role="tab" id=format!("fees-rail-{rail}") class="fee-tab"
                    aria-selected=move || selected().to_string()
                    on:click=move |_| on_rail(rail)>
                    {say(rail.label())}
                </button>
            }
        })
        .collect_view();

    let t = text();
    view! {
        <section class="fees-page">
            <h1>{t.heading}</h1>
            <div class="fee-tabs" role="tablist" aria-label=t.rail>{rail_tabs}</div>
            <ChoiceForm choice go/>
            <QuotePanel quote=quote.into()/>
            {move || match versions.state.get() {
                None => view! { <Loading/> }.into_any(),
                Some(Err(error)) => view! { <ApiErrorView error/> }.into_any(),
                Some(Ok(_)) => match schedule.get() {
                    None => view! { <p>{t.none_in_force}</p> }.into_any(),
                    Some(s) => view! { <ScheduleView schedule=s choice=choice.into()/> }.into_any(),
                },
            }}
        </section>
    }
}

/// The transfer type and the amount; typing replaces the history entry (`go` moves to a
/// choice, replacing it or not), and the field shows the tidied text.
#[component]
fn ChoiceForm<F>(choice: Memo<Choice>, go: StoredValue<F>) -> impl IntoView
where
    F: Fn(Choice, bool) + Send + Sync + 'static,
{
    // The field's text; the URL holds the parsed amount only.
    let typed = RwSignal::new(choice.get_untracked().amount.map(|a| tidy(&a).display).unwrap_or_default());
    let refused = RwSignal::new(None::<&'static str>);
    let on_type = move |ev| {
        let c = choice.get_untracked();
        if let Some(t) = TransferType::parse(&event_target_value(&ev)) {
            go.with_value(|g| g(Choice { transfer_type: t, ..c }, false));
        }
    };
    let on_amount = move |ev| {
        let t = tidy(&event_target_value(&ev));
        typed.set(t.display.clone());
        refused.set(t.refused);
        if let Some(c) = choice.get_untracked().with_amount(t.amount) {
            go.with_value(|g| g(c, true));
        }
    };
    let type_options = move || {
        let c = choice.get();
        c.transfer_type
            .rail()
            .transfer_types()
            .iter()
            .map(|t| view! { <option value=t.as_str() selected=*t == c.transfer_type>{say(t.label())}</option> })
            .collect_view()
    };
    let typed_payer = RwSignal::new(choice.get_untracked().payer.unwrap_or_default());
    let on_payer = move |ev| {
        typed_payer.set(event_target_value(&ev));
        if let Some(c) = choice.get_untracked().with_payer(payer_of(&typed_payer.get_untracked())) {
            go.with_value(|g| g(c, true));
        }
    };
    let parsed = move || {
        let amount = choice.get().amount;
        parsed(amount.as_deref(), amount.is_none() && typed.with(|t| t.is_empty()))
    };
    let t = text();
    view! {
        <form class="fee-form" on:submit=|ev| ev.prevent_default()>
            <label for="fee-transfer-type">{t.transfer_type}</label>
            <select id="fee-transfer-type" on:change=on_type>{type_options}</select>
            <label for="fee-amount">{t.amount_usd}</label>
            <input id="fee-amount" type="text" inputmode="decimal" autocomplete="off" placeholder=t.amount_hint
                aria-describedby="fee-amount-parsed fee-amount-refused"
                prop:value=move || typed.get() on:input=on_amount/>
            <p id="fee-amount-parsed" class="hint" data-testid="fee-amount-parsed">{parsed}</p>
            <p id="fee-amount-refused" class="hint error" role="status">{move || refused.get()}</p>
            <label for="fee-payer">{t.payer_id}</label>
            <input id="fee-payer" type="text" autocomplete="off" maxlength="64" placeholder=t.payer_hint
                aria-describedby="fee-payer-hint"
                prop:value=move || typed_payer.get() on:input=on_payer/>
            <p id="fee-payer-hint" class="hint">{t.payer_note}</p>
        </form>
    }
}

#[component]
fn ScheduleView(schedule: FeeSchedule, choice: Signal<Choice>) -> impl IntoView {
    let schedule = StoredValue::new(schedule);
    let amount = Signal::derive(move || choice.with(|c| c.amount.clone()));
    let words = text();
    let table = move || {
        let c = choice.get();
        let a = c.amount.as_deref().and_then(|a| a.parse::<Decimal>().ok());
        let (whose, tiers) = schedule.with_value(|s| priced_tiers(s, &c));
        let rows = {
            tiers
                .into_iter()
                .map(|t| {
                    let current = a.is_some_and(|a| t.contains(a));
                    view! {
                        <tr class:current=current aria-current=current.then_some("true") data-testid="fee-tier">
                            <th scope="row">{t.fee_type.clone()}</th>
                            <td>{describe_range(t.from, t.to)}</td>
                            <td>{t.formula()}</td>
                        </tr>
                    }
                })
                .collect_view()
        };
        view! {
            <table class="schedule" data-testid="fee-schedule">
                <caption>{fill(words.schedule_caption, &[say(c.transfer_type.label()), &whose])}</caption>
                <thead><tr><th scope="col">{words.schedule_columns[0]}</th><th scope="col">{words.schedule_columns[1]}</th><th scope="col">{words.schedule_columns[2]}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    };
    // The chart is drawn again only when the transfer type or the payer changes; the marker
    // follows the amount.
    let priced = Memo::new(move |_| choice.with(|c| Choice { amount: None, ..c.clone() }));
    let chart = move || {
        let (_, tiers) = schedule.with_value(|s| priced_tiers(s, &priced.get()));
        let mut series: Vec<(String, Vec<FeeTier>)> = Vec::new();
        for t in tiers {
            match series.iter_mut().find(|(f, _)| *f == t.fee_type) {
                Some((_, list)) => list.push(t),
                None => series.push((t.fee_type.clone(), vec![t])),
            }
        }
        view! { <FeeChart series amount/> }
    };
    view! {
        <div class="fee-schedule-view">
            {chart}
            {table}
        </div>
    }
}

/// The tiers that price the choice's transfer type for its payer, and whose they are (for the
/// caption): the payer's own schedule, a waiver (the schedule's tiers, not charged), or the
/// schedule's.
fn priced_tiers(s: &FeeSchedule, c: &Choice) -> (String, Vec<FeeTier>) {
    let parties = FeeParties { payer_id: c.payer.as_deref(), ..Default::default() };
    let basis = s.basis(&parties, c.transfer_type);
    let whose = match (&basis, &c.payer) {
        (Basis::PayerSchedule(_), Some(p)) => fill(text().of_payer, &[p]),
        (Basis::Waiver(_), Some(p)) => fill(text().waived_for, &[p]),
        _ => String::new(),
    };
    (whose, s.tiers_on(&basis, c.transfer_type).into_iter().cloned().collect())
}
