//! The check deposit's particulars beyond the check itself (the description's field table):
//! when it moves (`scheduleDate`), who pays and how (`payerType`, `paymentType`), the bank's
//! name (prefilled from the FedACH directory as the routing number is typed, still editable),
//! where the request comes from (`source`), and the fee: what will be charged is shown before
//! submitting — the fee schedule's standard fee for the amount (the fees API's quote), or the
//! fee set here by a token that may set fees (`fees:override` or `admin`).

use leptos::prelude::*;
use moneydesk_model::Scope;

use super::field::Field;
use crate::i18n::{deposits::text, fill};
use crate::session::use_auth;

/// The particulars' fields, each the request field of the same name.
#[derive(Clone, Copy)]
pub struct Particulars {
    pub schedule_date: RwSignal<String>,
    pub payer_type: RwSignal<String>,
    pub payment_type: RwSignal<String>,
    pub bank_name: RwSignal<String>,
    pub source: RwSignal<String>,
    pub fee: RwSignal<String>,
}

impl Particulars {
    pub fn blank() -> Particulars {
        Particulars {
            schedule_date: RwSignal::new(String::new()),
            payer_type: RwSignal::new(String::new()),
            payment_type: RwSignal::new(String::new()),
            bank_name: RwSignal::new(String::new()),
            source: RwSignal::new("portal".to_string()),
            fee: RwSignal::new(String::new()),
        }
    }

    /// Writes the directory's name into the bank name whenever the directory names a bank,
    /// unless the operator wrote another name there (what they typed wins).
    pub fn prefill_bank(self, directory: Signal<Option<Result<String, String>>>) {
        let prefilled = StoredValue::new(String::new());
        Effect::new(move |_| {
            if let Some(Ok(name)) = directory.get() {
                let typed = self.bank_name.get_untracked();
                if typed.trim().is_empty() || typed == prefilled.get_value() {
                    self.bank_name.set(name.clone());
                    prefilled.set_value(name);
                }
            }
        });
    }
}

/// The particulars' fieldset.
#[component]
pub fn ParticularsFields(p: Particulars) -> impl IntoView {
    let f = &text().form;
    // The datalists' options are the values the API is sent, not words of the page.
    view! {
        <fieldset>
            <legend>{f.particulars}</legend>
            <Field id="deposit-bank-name" label=f.bank_name api="bankName" value=p.bank_name hint=f.bank_name_hint/>
            <Field id="deposit-schedule-date" label=f.schedule_date api="scheduleDate" value=p.schedule_date kind="date"
                hint=f.schedule_hint/>
            <Field id="deposit-payer-type" label=f.payer_type api="payerType" value=p.payer_type list="deposit-payer-types"
                hint=f.payer_type_hint/>
            <datalist id="deposit-payer-types">
                <option value="Individual"></option>
                <option value="Business"></option>
                <option value="Trust"></option>
            </datalist>
            <Field id="deposit-payment-type" label=f.payment_type api="paymentType" value=p.payment_type list="deposit-payment-types"
                hint=f.payment_type_hint/>
            <datalist id="deposit-payment-types">
                <option value="Personal check"></option>
                <option value="Business check"></option>
                <option value="Cashier's check"></option>
                <option value="Money order"></option>
            </datalist>
            <Field id="deposit-source" label=f.source api="source" value=p.source hint=f.source_hint/>
        </fieldset>
    }
}

/// The fee that will be charged, said before submitting; with a fee field for a token that
/// may set fees.
#[component]
pub fn FeeToCharge(p: Particulars, quote: Signal<Option<String>>) -> impl IntoView {
    let auth = use_auth();
    let may_set = Memo::new(move |_| auth.can(Scope::FeesOverride));
    let f = &text().form;
    let said = move || {
        let set = p.fee.get().trim().replace([',', '$'], "");
        if may_set.get() && !set.is_empty() {
            fill(f.fee_set, &[&set])
        } else {
            match quote.get() {
                Some(fee) => fill(f.fee_quoted, &[&fee]),
                None => f.fee_unknown.to_string(),
            }
        }
    };
    view! {
        <Show when=move || may_set.get()>
            <Field id="deposit-fee" label=f.fee api="fee" value=p.fee inputmode="decimal" hint=f.fee_hint/>
        </Show>
        <p class="deposit-fee" id="deposit-fee-charged" aria-live="polite">{said}</p>
    }
}
