//! The Fees page: choose ACH or wire and the transfer type, type an amount, and see each fee
//! type's fee and the total to pay, quoted by the server as you type (debounced, stale answers
//! discarded); the transfer type's whole schedule with the amount's tier highlighted; and the
//! chart of fee against amount. Rail, transfer type and amount live in the URL.

use std::time::Duration;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use moneydesk_model::fees::{describe_range, FeeEntry, FeeSchedule, FeeTier, Rail, ScheduleVersion, TransferType};
use rust_decimal::Decimal;

use crate::api::request::Answer;
use crate::api::{fees as api, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::session::use_auth;

mod amount;
mod chart;

use amount::{dollars, tidy};
use chart::FeeChart;

/// How long typing must pause before a quote is asked for.
const DEBOUNCE: Duration = Duration::from_millis(250);

/// The page's URL state: `/fees?rail=wire&type=DOMESTIC_WIRE&amount=1250.00`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Choice {
    transfer_type: TransferType,
    amount: Option<String>,
}

fn choice_from(rail: Option<&str>, t: Option<&str>, amount: Option<&str>) -> Choice {
    let rail = rail.and_then(Rail::parse).unwrap_or(Rail::Ach);
    let transfer_type =
        t.and_then(TransferType::parse).filter(|t| t.rail() == rail).unwrap_or(rail.transfer_types()[0]);
    let amount = amount.map(tidy).and_then(|t| t.amount);
    Choice { transfer_type, amount }
}

fn href(c: &Choice) -> String {
    let rail = c.transfer_type.rail();
    let mut q = format!("/fees?rail={}&type={}", rail, c.transfer_type);
    if let Some(a) = &c.amount {
        q.push_str(&format!("&amount={a}"));
    }
    q
}

/// The quote panel's state.
#[derive(Clone, Debug, PartialEq)]
enum Quote {
    /// No amount yet.
    Idle,
    Asking,
    Fees {
        amount: String,
        entries: Vec<FeeEntry>,
    },
    Failed(ApiError),
}

#[component]
pub fn FeesPage() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let navigate = use_navigate();
    let choice =
        Memo::new(move |_| query.with(|q| choice_from(q.get_str("rail"), q.get_str("type"), q.get_str("amount"))));
    let go = move |c: Choice, replace: bool| {
        navigate(&href(&c), NavigateOptions { replace, scroll: false, ..Default::default() });
    };
    let go = StoredValue::new(go);

    // The field's text; the URL holds the parsed amount only.
    let typed = RwSignal::new(choice.get_untracked().amount.map(|a| tidy(&a).display).unwrap_or_default());
    let refused = RwSignal::new(None::<&'static str>);

    // The schedule in force, for the table and the chart.
    let versions = Answer::<Vec<ScheduleVersion>>::new();
    versions.load(api::versions(&auth.client()));
    let schedule = Memo::new(move |_| {
        versions.with(|v| match v {
            Some(Ok(list)) => list.iter().find(|v| v.in_force).map(|v| v.schedule.clone()),
            _ => None,
        })
    });

    // Quotes: each input bumps the sequence; only the latest answer is shown.
    let quote = RwSignal::new(Quote::Idle);
    let seq = StoredValue::new(0u64);
    let ask = move |c: Choice, delay: Duration| {
        let n = seq.with_value(|s| s + 1);
        seq.set_value(n);
        let Some(amount) = c.amount.clone() else {
            quote.set(Quote::Idle);
            return;
        };
        quote.set(Quote::Asking);
        let client = auth.client();
        set_timeout(
            move || {
                if seq.get_value() != n {
                    return; // typed on: a newer quote is on its way
                }
                leptos::task::spawn_local(async move {
                    let r = api::quote(&client, c.transfer_type, &amount).await;
                    if seq.try_get_value() != Some(n) || matches!(r, Err(ApiError::Aborted)) {
                        return; // stale
                    }
                    quote.try_set(match r {
                        Ok(entries) => Quote::Fees { amount, entries },
                        Err(e) => Quote::Failed(e),
                    });
                });
            },
            delay,
        );
    };
    Effect::new(move |_| ask(choice.get(), DEBOUNCE));
    // Over the rate limit: ask again once the server says it may.
    Effect::new(move |_| {
        if let Quote::Failed(ApiError::TooManyRequests { retry_after, .. }) = quote.get() {
            ask(choice.get_untracked(), Duration::from_secs(retry_after.unwrap_or(1).into()));
        }
    });

    let on_rail = move |rail: Rail| {
        let c = choice.get_untracked();
        if c.transfer_type.rail() != rail {
            go.with_value(|g| g(Choice { transfer_type: rail.transfer_types()[0], amount: c.amount }, false));
        }
    };
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
        // Typing replaces the history entry; the field shows the tidied text.
        let c = choice.get_untracked();
        if t.amount != c.amount {
            go.with_value(|g| g(Choice { amount: t.amount, ..c }, true));
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
                    {rail.label()}
                </button>
            }
        })
        .collect_view();
    let type_options = move || {
        let c = choice.get();
        c.transfer_type
            .rail()
            .transfer_types()
            .iter()
            .map(|t| view! { <option value=t.as_str() selected=*t == c.transfer_type>{t.label()}</option> })
            .collect_view()
    };
    let parsed = move || match choice.get().amount {
        Some(a) => format!("Quoting {}", dollars(&a)),
        None if typed.with(|t| t.is_empty()) => "Type an amount in US dollars to quote its fees.".into(),
        None => "Enter an amount above zero.".into(),
    };

    view! {
        <section class="fees-page">
            <h1>"Fee schedules"</h1>
            <div class="fee-tabs" role="tablist" aria-label="Rail">{rail_tabs}</div>
            <form class="fee-form" on:submit=|ev| ev.prevent_default()>
                <label for="fee-transfer-type">"Transfer type"</label>
                <select id="fee-transfer-type" on:change=on_type>{type_options}</select>
                <label for="fee-amount">"Amount (USD)"</label>
                <input id="fee-amount" type="text" inputmode="decimal" autocomplete="off" placeholder="e.g. 1,250.00"
                    aria-describedby="fee-amount-parsed fee-amount-refused"
                    prop:value=move || typed.get() on:input=on_amount/>
                <p id="fee-amount-parsed" class="hint" data-testid="fee-amount-parsed">{parsed}</p>
                <p id="fee-amount-refused" class="hint error" role="status">{move || refused.get()}</p>
            </form>
            <QuotePanel quote=quote.into()/>
            {move || match versions.state.get() {
                None => view! { <Loading/> }.into_any(),
                Some(Err(error)) => view! { <ApiErrorView error/> }.into_any(),
                Some(Ok(_)) => match schedule.get() {
                    None => view! { <p>"No fee schedule is in force yet."</p> }.into_any(),
                    Some(s) => view! { <ScheduleView schedule=s choice=choice.into()/> }.into_any(),
                },
            }}
        </section>
    }
}

#[component]
fn QuotePanel(quote: Signal<Quote>) -> impl IntoView {
    move || match quote.get() {
        Quote::Idle => None,
        Quote::Asking => Some(view! { <p class="quote asking" aria-live="polite">"Quoting…"</p> }.into_any()),
        Quote::Failed(ApiError::TooManyRequests { retry_after, .. }) => Some(
            view! {
                <p class="quote error" role="alert" data-testid="fee-rate-limited">
                    {format!("Too many quotes at once. Quoting again in {} s.", retry_after.unwrap_or(1))}
                </p>
            }
            .into_any(),
        ),
        Quote::Failed(error) => Some(view! { <ApiErrorView error/> }.into_any()),
        Quote::Fees { amount, entries } => {
            let base = amount.parse::<Decimal>().unwrap_or_default();
            let rows = entries
                .into_iter()
                .map(|e| {
                    let total = (base + e.fee_amount.decimal()).round_dp(2);
                    view! {
                        <tr data-fee-type=e.fee_type.clone()>
                            <th scope="row">{e.fee_type.clone()}</th>
                            <td class="money" data-testid="fee-amount">{dollars(&e.fee_amount.to_string())}</td>
                            <td class="money">{dollars(&total.to_string())}</td>
                            <td>{e.description}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(
                view! {
                    <table class="quote" data-testid="fee-quote" aria-live="polite">
                        <caption>{format!("Fees for {}", dollars(&amount))}</caption>
                        <thead><tr><th scope="col">"Fee type"</th><th scope="col">"Fee"</th><th scope="col">"Total to pay"</th><th scope="col">"Tier"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }
                .into_any(),
            )
        }
    }
}

#[component]
fn ScheduleView(schedule: FeeSchedule, choice: Signal<Choice>) -> impl IntoView {
    let schedule = StoredValue::new(schedule);
    let amount = Signal::derive(move || choice.with(|c| c.amount.clone()));
    let table = move || {
        let c = choice.get();
        let a = c.amount.as_deref().and_then(|a| a.parse::<Decimal>().ok());
        let rows = schedule.with_value(|s| {
            s.tiers_for(c.transfer_type)
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
        });
        view! {
            <table class="schedule" data-testid="fee-schedule">
                <caption>{format!("{} schedule", c.transfer_type.label())}</caption>
                <thead><tr><th scope="col">"Fee type"</th><th scope="col">"Amounts"</th><th scope="col">"Fee"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
    };
    // The chart is drawn again only when the transfer type changes; the marker follows the amount.
    let transfer_type = Memo::new(move |_| choice.with(|c| c.transfer_type));
    let chart = move || {
        let t = transfer_type.get();
        let series = schedule.with_value(|s| {
            s.fee_types(t)
                .into_iter()
                .map(|f| (f.to_string(), s.tiers_for(t).filter(|x| x.fee_type == f).cloned().collect::<Vec<FeeTier>>()))
                .collect::<Vec<_>>()
        });
        view! { <FeeChart series amount/> }
    };
    view! {
        <div class="fee-schedule-view">
            {chart}
            {table}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_url_names_rail_type_and_amount_and_nonsense_falls_back() {
        let c = choice_from(Some("wire"), Some("INTERNATIONAL_WIRE"), Some("1250.5"));
        assert_eq!(c, Choice { transfer_type: TransferType::InternationalWire, amount: Some("1250.5".into()) });
        assert_eq!(href(&c), "/fees?rail=wire&type=INTERNATIONAL_WIRE&amount=1250.5");
        assert_eq!(choice_from(Some("wire"), Some("EFT"), None).transfer_type, TransferType::DomesticWire);
        assert_eq!(choice_from(None, None, Some("abc")), Choice { transfer_type: TransferType::Eft, amount: None });
    }
}
