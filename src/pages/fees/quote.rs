//! The quote: asked for as the choice changes (debounced, only the latest answer shown, asked
//! again when the server says so after a rate limit), and its panel, each fee type's fee and
//! the total to pay, and whether a waiver or the payer's own schedule priced it.

use std::time::Duration;

use leptos::prelude::*;
use moneydesk_model::fees::{FeeEntry, FeePricing};
use moneydesk_model::Money;
use rust_decimal::Decimal;

use super::amount::dollars;
use super::choice::Choice;
use crate::api::{fees as api, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::i18n::fees::text;
use crate::i18n::fill;
use crate::session::Auth;

/// The quote panel's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Quote {
    /// No amount yet.
    Idle,
    Asking,
    Fees {
        amount: String,
        entries: Vec<FeeEntry>,
        /// Set when a waiver or the payer's own schedule priced it.
        pricing: Option<FeePricing>,
    },
    Failed(ApiError),
}

/// The quote shown, and the sequence that makes an older answer stale; `Copy`.
#[derive(Clone, Copy)]
pub struct Quotes {
    pub quote: RwSignal<Quote>,
    seq: StoredValue<u64>,
}

impl Quotes {
    pub fn new() -> Self {
        Quotes { quote: RwSignal::new(Quote::Idle), seq: StoredValue::new(0) }
    }

    /// Asks for the quote of `c` after `delay`: each call bumps the sequence; only the latest
    /// answer is shown.
    pub fn ask(self, auth: Auth, c: Choice, delay: Duration) {
        let Quotes { quote, seq } = self;
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
                    let r = api::quote_for(&client, c.transfer_type, &amount, c.payer.as_deref()).await;
                    if seq.try_get_value() != Some(n) || matches!(r, Err(ApiError::Aborted)) {
                        return; // stale
                    }
                    quote.try_set(match r {
                        Ok(answer) => Quote::Fees { amount, entries: answer.data, pricing: answer.pricing },
                        Err(e) => Quote::Failed(e),
                    });
                });
            },
            delay,
        );
    }
}

/// The amount and a fee, to pay together: `$1,252.00`.
pub fn total(amount: &str, fee: Money) -> String {
    let base = amount.parse::<Decimal>().unwrap_or_default();
    dollars(&(base + fee.decimal()).round_dp(2).to_string())
}

#[component]
pub fn QuotePanel(quote: Signal<Quote>) -> impl IntoView {
    let t = text();
    move || match quote.get() {
        Quote::Idle => None,
        Quote::Asking => Some(view! { <p class="quote asking" aria-live="polite">{t.quoting_now}</p> }.into_any()),
        Quote::Failed(ApiError::TooManyRequests { retry_after, .. }) => Some(
            view! {
                <p class="quote error" role="alert" data-testid="fee-rate-limited">
                    {fill(t.rate_limited, &[&retry_after.unwrap_or(1).to_string()])}
                </p>
            }
            .into_any(),
        ),
        Quote::Failed(error) => Some(view! { <ApiErrorView error/> }.into_any()),
        Quote::Fees { amount, entries, pricing } => {
            let rows = entries
                .into_iter()
                .map(|e| {
                    view! {
                        <tr data-fee-type=e.fee_type.clone()>
                            <th scope="row">{e.fee_type.clone()}</th>
                            <td class="money" data-testid="fee-amount">{dollars(&e.fee_amount.to_string())}</td>
                            <td class="money">{total(&amount, e.fee_amount)}</td>
                            <td>{e.description}</td>
                        </tr>
                    }
                })
                .collect_view();
            let note =
                pricing.as_ref().map(|p| view! { <p class="hint" data-testid="fee-pricing">{pricing_note(p)}</p> });
            Some(
                view! {
                    <table class="quote" data-testid="fee-quote" aria-live="polite">
                        <caption>{fill(t.fees_for, &[&dollars(&amount)])}</caption>
                        <thead><tr><th scope="col">{t.quote_columns[0]}</th><th scope="col">{t.quote_columns[1]}</th><th scope="col">{t.quote_columns[2]}</th><th scope="col">{t.quote_columns[3]}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                    {note}
                }
                .into_any(),
            )
        }
    }
}

/// What priced the quote, in words: `Fees waived for payer city-food-bank: Non-profit.`
pub fn pricing_note(p: &FeePricing) -> String {
    let t = text();
    let who = match p.field.as_str() {
        "payeeId" => t.payee,
        "payeeBankId" => t.payee_bank,
        _ => t.payer,
    };
    match p.basis.as_str() {
        "waiver" => {
            let reason = p.reason.as_deref().map_or_else(String::new, |r| format!(": {r}"));
            fill(t.waived_note, &[who, &p.id, &reason])
        }
        _ => fill(t.payer_schedule_note, &[who, &p.id]),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_total_is_the_amount_and_the_fee_in_cents() {
        assert_eq!(total("1250", Money::parse("2.00").unwrap()), "$1,252.00");
        assert_eq!(total("0.5", Money::parse("0.25").unwrap()), "$0.75");
    }

    #[wasm_bindgen_test]
    fn the_note_says_which_waiver_or_schedule_priced_the_quote() {
        let p = |basis: &str, field: &str, reason: Option<&str>| FeePricing {
            basis: basis.into(),
            field: field.into(),
            id: "x-1".into(),
            reason: reason.map(str::to_string),
        };
        assert_eq!(pricing_note(&p("waiver", "payerId", Some("Non-profit"))), "Fees waived for payer x-1: Non-profit.");
        assert_eq!(pricing_note(&p("waiver", "payeeBankId", None)), "Fees waived for the payee's bank x-1.");
        assert_eq!(pricing_note(&p("payer_schedule", "payerId", None)), "Priced by payer x-1's own fee schedule.");
    }
}
