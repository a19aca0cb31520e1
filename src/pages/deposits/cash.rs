//! Cash deposits on the Deposits page (the `…/deposits/cash` extension): cash counted in and
//! recorded against a managed sleeve account, with the fee it will be charged shown before
//! submitting and an `Idempotency-Key`, so a retried submission records the cash once. The
//! deposit then lists, charts and moves like every other (the table, the drawer).

use leptos::prelude::*;
use moneydesk_model::deposits::CashDepositFields;

use super::field::{new_key, refused, text, Complaints, Field};
use super::lookups;
use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::i18n::{deposits::text as words, fill};
use crate::session::use_auth;

/// Today in the browser's zone, `YYYY-MM-DD`: when cash usually applies.
fn today() -> String {
    let t = js_sys::Date::new_0();
    format!("{:04}-{:02}-{:02}", t.get_full_year(), t.get_month() + 1, t.get_date())
}

#[component]
pub fn NewCash(on_done: Callback<bool>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let sleeve = RwSignal::new(String::new());
    let user = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    let schedule = RwSignal::new(today());
    let memo = RwSignal::new(String::new());
    let key = StoredValue::new(new_key());
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let complaints = Complaints(RwSignal::new(Vec::new()));
    provide_context(complaints);
    let owner = Owner::current();
    let fee = lookups::standard_fee(amount);
    let sleeves = lookups::payees(sleeve);
    let f = &words().form;

    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let fields = CashDepositFields {
            amount: text(amount).map(|a| a.replace([',', '$'], "")),
            payee_account_id: text(sleeve),
            payee_user_id: text(user),
            schedule_date: text(schedule),
            memo: text(memo),
        };
        failed.set(None);
        complaints.0.set(Vec::new());
        let k = key.get_value();
        submit(
            busy,
            &owner,
            || api::deposits::create_cash(&auth.client(), &fields, &k),
            move |result| match result {
                Ok(record) => {
                    toasts.show(
                        ToastKind::Success,
                        fill(f.cash_recorded, &[&record.id.to_string(), &record.amount.to_string()]),
                    );
                    on_done.run(true);
                }
                Err(e) => refused(e, key, complaints, failed, "cash-form-error"),
            },
        );
    };

    view! {
        <form class="panel deposit-form" id="cash-form" aria-labelledby="cash-form-title" on:submit=on_submit novalidate>
            <h2 id="cash-form-title">{f.cash_heading}</h2>
            <fieldset>
                <legend>{f.into}</legend>
                <Field id="cash-sleeve" label=f.sleeve api="payeeAccountId" value=sleeve required=true
                    list="cash-sleeve-options" hint=f.payee_hint/>
                <datalist id="cash-sleeve-options">
                    {move || sleeves.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                </datalist>
                <Field id="cash-user" label=f.user_id api="payeeUserId" value=user required=true/>
            </fieldset>
            <fieldset>
                <legend>{f.cash}</legend>
                <Field id="cash-amount" label=f.amount_usd api="amount" value=amount required=true inputmode="decimal"
                    note=fee hint=f.cash_amount_hint/>
                <Field id="cash-schedule-date" label=f.applies_on api="scheduleDate" value=schedule kind="date"
                    hint=f.applies_hint/>
                <Field id="cash-memo" label=f.memo api="memo" value=memo/>
            </fieldset>
            <div id="cash-form-error" tabindex="-1">{move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}</div>
            <div class="form-actions">
                <button type="submit" class="button primary" id="cash-submit" disabled=move || busy.get()>
                    {move || if busy.get() { f.recording } else { f.record_cash }}
                </button>
                <button type="button" class="button" on:click=move |_| on_done.run(false)>{f.cancel}</button>
            </div>
        </form>
    }
}
