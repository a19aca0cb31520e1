//! The last step: what the MICR line said, editable, with each field's confidence; the amount
//! typed (compared with the line's amount field when the check has one); then the deposit —
//! the straightened sides to the scan endpoint, and the check deposit naming the scan, with an
//! `Idempotency-Key` kept until an answer arrives. The deposit made is shown. The form's state
//! and what is made of it are entry.rs.

use leptos::prelude::*;
use moneydesk_model::deposits::{CheckScan, DepositRecord, MicrField, MicrRead};

use super::super::field::{marked, refused, text, Complaints, Field};
use super::super::lookups;
use super::super::scan::ScanResult;
use super::entry::{differs, plain_amount, printed, reusable, said, scan_fields, ReviewForm};
use super::Gathered;
use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::i18n::{deposits::text as words, fill, vocab::say};
use crate::session::use_auth;

#[component]
pub fn Review(gathered: Gathered, on_done: Callback<bool>) -> impl IntoView {
    let auth = use_auth();
    let complaints = expect_context::<Complaints>();
    let micr: Option<MicrRead> = gathered.front.with_untracked(|f| f.as_ref().and_then(|f| f.read.micr.clone()));
    let form = ReviewForm::new(micr.as_ref());
    let ReviewForm { key, busy, failed, scan, made, .. } = form;
    let owner = Owner::current();

    // The deposit, naming a scan for the amount typed.
    let deposit_owner = owner.clone();
    let deposit = move |scanned: CheckScan| {
        let fields = form.entry(gathered).deposit(&scanned);
        let k = key.get_value();
        submit(
            busy,
            &deposit_owner,
            || api::deposits::create(&auth.client(), &fields, &k),
            move |result| match result {
                Ok(record) => made.set(Some(record)),
                Err(e) => refused(e, key, complaints, failed, "scan-error"),
            },
        );
    };
    let deposit = StoredValue::new_local(deposit);
    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        failed.set(None);
        complaints.0.set(Vec::new());
        let typed = plain_amount(text(form.amount));
        // A scan already made for this amount is deposited as it is (it is deposited once).
        if let Some(s) = scan.with_untracked(|s| reusable(s.as_ref(), typed.as_deref())) {
            return deposit.with_value(|d| d(s));
        }
        let fields = gathered
            .front
            .with_untracked(|f| gathered.back.with_untracked(|b| scan_fields(typed, f.as_ref(), b.as_ref())));
        let sleeve = gathered.sleeve.get_untracked().trim().to_string();
        submit(
            busy,
            &owner,
            || api::deposits::scan(&auth.client(), &sleeve, &fields),
            move |result| match result {
                Ok(s) => {
                    scan.set(Some(s.clone()));
                    if s.problems.is_empty() {
                        deposit.with_value(|d| d(s));
                    }
                }
                Err(e) => {
                    if let ApiError::Validation { fields, .. } = &e {
                        complaints.0.set(fields.clone());
                    }
                    failed.set(Some(e));
                }
            },
        );
    };

    view! {
        {move || made.get().map(|record| view! { <Made record on_done/> })}
        <form class="scan-review" id="scan-review" on:submit=on_submit novalidate hidden=move || made.with(Option::is_some)>
            <CheckFields form micr/>
            {move || scan.get().filter(|s| !s.problems.is_empty()).map(|s| view! { <ScanResult scan=s/> })}
            <div id="scan-error" tabindex="-1">{move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}</div>
            <button type="submit" class="button primary" id="scan-submit" disabled=move || busy.get()>
                {move || if busy.get() { words().form.depositing } else { words().form.deposit }}
            </button>
        </form>
    }
}

/// The MICR line read, and the check's fields with what the page knows of each as it is typed:
/// what the line said of it (the bank's name for the routing number, the fee for the amount).
#[component]
fn CheckFields(form: ReviewForm, micr: Option<MicrRead>) -> impl IntoView {
    let ReviewForm { routing, account, check_number, amount, check_date, memo, .. } = form;
    let field = |f: fn(&MicrRead) -> &Option<MicrField>| micr.as_ref().and_then(|m| f(m).as_ref());
    let bank = lookups::bank_name(routing);
    let fee = lookups::standard_fee(amount);
    let printed = printed(micr.as_ref());
    let amount_note = Signal::derive(move || differs(printed, &amount.get()).or_else(|| fee.get()));
    let routing_note = {
        let said = said(field(|m| &m.routing_number));
        Signal::derive(move || bank.get().or_else(|| said.clone()))
    };
    let account_note = Signal::stored(said(field(|m| &m.account_number)));
    let check_note = Signal::stored(said(field(|m| &m.check_number)));
    let (f, w) = (&words().form, &words().wizard);
    view! {
        {match micr.map(|m| m.line) {
            Some(l) => view! { <p>{w.micr_read}<span class="mono micr-line" id="scan-micr-line">{marked(&l)}</span></p> }.into_any(),
            None => view! { <p class="notice" role="status">{w.no_micr_read}</p> }.into_any(),
        }}
        <fieldset>
            <legend>{f.check}</legend>
            <Field id="scan-routing" label=f.routing_number api="bankRoutingNumber" value=routing required=true
                inputmode="numeric" pattern="[0-9]{9}" note=routing_note/>
            <Field id="scan-account" label=f.account_number api="bankAccountNumber" value=account required=true
                inputmode="numeric" note=account_note/>
            <Field id="scan-check-number" label=f.check_number api="checkNumber" value=check_number required=true
                inputmode="numeric" note=check_note/>
            <Field id="scan-amount" label=f.amount_usd api="amount" value=amount required=true inputmode="decimal"
                note=amount_note hint=w.amount_hint/>
            <Field id="scan-check-date" label=f.check_date api="checkDate" value=check_date kind="date"
                hint=f.check_date_hint/>
            <Field id="scan-memo" label=f.memo api="memo" value=memo/>
        </fieldset>
    }
}

/// The deposit made.
#[component]
fn Made(record: DepositRecord, on_done: Callback<bool>) -> impl IntoView {
    let w = &words().wizard;
    let c = &w.made_fields;
    view! {
        <div class="scan-made" id="scan-made" role="status">
            <p class="scan-ok">{fill(w.made, &[&record.id.to_string()])}</p>
            <dl class="micr-fields">
                <div class="micr-field"><dt>{c[0]}</dt><dd>{record.amount.with_cents().to_string()}</dd></div>
                <div class="micr-field"><dt>{c[1]}</dt><dd>{say(record.status.label())}</dd></div>
                <div class="micr-field"><dt>{c[2]}</dt><dd class="mono">{record.check_number.clone().unwrap_or_default()}</dd></div>
                <div class="micr-field"><dt>{c[3]}</dt><dd>{record.bank_name.clone().unwrap_or_default()}</dd></div>
            </dl>
            <button type="button" class="button primary" id="scan-finish" on:click=move |_| on_done.run(true)>{w.done}</button>
        </div>
    }
}
