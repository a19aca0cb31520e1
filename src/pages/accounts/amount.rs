//! An amount as the account's drawer shows it, in its balances, holds and entries alike.

use leptos::prelude::*;
use moneydesk_model::Money;

use crate::format::format_amount;

/// An amount as a cell's text: sign, `$`, grouped digits; a negative one marked.
pub fn amount_cell(m: &Money) -> impl IntoView {
    let negative = m.decimal().is_sign_negative() && !m.decimal().is_zero();
    view! { <span class="amount" class:negative=negative>{format_amount(m)}</span> }
}
