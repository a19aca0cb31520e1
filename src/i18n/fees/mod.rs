//! The Fees page's words: the choice, the quote, the schedule and its chart (`src/pages/fees/`;
//! with the page, in its chunk). Fee types, tiers and transfer types are the schedule's and the
//! model's own names.

pub mod en;
pub mod es;

use super::pick;

pub struct Fees {
    pub heading: &'static str,
    pub rail: &'static str,
    pub none_in_force: &'static str,
    pub transfer_type: &'static str,
    pub amount_usd: &'static str,
    pub amount_hint: &'static str,
    pub payer_id: &'static str,
    pub payer_hint: &'static str,
    pub payer_note: &'static str,
    /// `{}` the transfer type, `{}` whose schedule (`of_payer`, `waived_for`, or nothing).
    pub schedule_caption: &'static str,
    /// `{}` the payer.
    pub of_payer: &'static str,
    /// `{}` the payer.
    pub waived_for: &'static str,
    /// The schedule table's headers: fee type, amounts, fee.
    pub schedule_columns: [&'static str; 3],
    // The quote (quote.rs).
    pub quoting_now: &'static str,
    /// `{}` seconds.
    pub rate_limited: &'static str,
    /// `{}` the amount.
    pub fees_for: &'static str,
    /// The quote table's headers: fee type, fee, total to pay, tier.
    pub quote_columns: [&'static str; 4],
    /// Who a pricing names: `payeeId`, `payeeBankId`, otherwise the payer.
    pub payee: &'static str,
    pub payee_bank: &'static str,
    pub payer: &'static str,
    /// `{}` who, `{}` its id, `{}` `: reason` or nothing.
    pub waived_note: &'static str,
    /// `{}` who, `{}` its id.
    pub payer_schedule_note: &'static str,
    // The amount typed (amount.rs, choice.rs).
    pub two_decimals: &'static str,
    pub fifteen_digits: &'static str,
    pub digits_only: &'static str,
    /// `{}` the amount.
    pub quoting: &'static str,
    pub type_an_amount: &'static str,
    pub above_zero: &'static str,
    // The chart (chart.rs).
    pub chart_caption: &'static str,
    /// `{}` the edge's amount, `{}` what changes there.
    pub edge_from: &'static str,
}

pub fn text() -> &'static Fees {
    pick(&en::TEXT, &es::TEXT)
}
