//! The last step: what the MICR line said, editable, with each field's confidence; the amount
//! typed (compared with the line's amount field when the check has one); then the deposit —
//! the straightened sides to the scan endpoint, and the check deposit naming the scan, with an
//! `Idempotency-Key` kept until an answer arrives. The deposit made is shown.

use base64::Engine;
use leptos::prelude::*;
use moneydesk_model::deposits::{CheckDepositFields, CheckScan, CheckScanFields, DepositRecord, MicrField, MicrRead};
use moneydesk_model::Money;

use super::super::form::{new_key, refused, text, Complaints, Field};
use super::super::lookups;
use super::super::scan::{percent, ScanResult};
use super::Gathered;
use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::session::use_auth;

/// A MICR field's value when every character of it was read.
fn value(field: &Option<MicrField>) -> String {
    field.as_ref().filter(|f| !f.value.contains('*')).map(|f| f.value.clone()).unwrap_or_default()
}

/// What the line says of a field, under it: its confidence, and whether to check it.
fn said(field: Option<MicrField>) -> Signal<Option<String>> {
    Signal::stored(field.map(|f| {
        let check = if f.uncertain { ", check it against the check" } else { "" };
        format!("Read {} ({}{check})", f.value, percent(f.confidence))
    }))
}

#[component]
pub fn Review(gathered: Gathered, on_done: Callback<bool>) -> impl IntoView {
    let auth = use_auth();
    let complaints = expect_context::<Complaints>();
    let micr: Option<MicrRead> = gathered.front.with_untracked(|f| f.as_ref().and_then(|f| f.read.micr.clone()));
    let m = micr.clone();
    let field = move |f: fn(&MicrRead) -> &Option<MicrField>| m.as_ref().and_then(|m| f(m).clone());
    let routing = RwSignal::new(value(&field(|m| &m.routing_number)));
    let account = RwSignal::new(value(&field(|m| &m.account_number)));
    let check_number = RwSignal::new(value(&field(|m| &m.check_number)));
    let printed = field(|m| &m.amount).and_then(|a| Money::parse(&a.value).ok());
    let amount = RwSignal::new(printed.map(|p| p.with_cents().to_string()).unwrap_or_default());
    let check_date = RwSignal::new(String::new());
    let memo = RwSignal::new(String::new());
    let bank = lookups::bank_name(routing);
    let fee = lookups::standard_fee(amount);
    let amount_note = Signal::derive(move || {
        let typed = Money::parse(amount.get().trim()).ok();
        match (printed, typed) {
            (Some(p), Some(t)) if p.with_cents() != t.with_cents() => {
                Some(format!("The check's MICR line encodes {}: the amounts differ", p.with_cents()))
            }
            _ => fee.get(),
        }
    });

    let key = StoredValue::new(new_key());
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let scan = RwSignal::new(None::<CheckScan>);
    let made = RwSignal::new(None::<DepositRecord>);
    let owner = Owner::current();

    // The deposit, naming a scan for the amount typed.
    let deposit_owner = owner.clone();
    let deposit = move |scanned: CheckScan| {
        let fields = CheckDepositFields {
            amount: Some(scanned.amount.with_cents().to_string()),
            bank_account_number: text(account),
            bank_routing_number: text(routing),
            check_number: text(check_number),
            check_date: text(check_date),
            payer_id: Some(scanned.sma_sfid.clone()),
            scan_id: Some(scanned.scan_id.clone()),
            memo: text(memo),
            payee_account_id: text(gathered.payee_account),
            payee_user_id: text(gathered.payee_user),
            source: Some("portal".into()),
            ..Default::default()
        };
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
        let typed = text(amount).map(|a| a.replace([',', '$'], ""));
        // A scan already made for this amount is deposited as it is (it is deposited once).
        let same = scan.with_untracked(|s| {
            s.as_ref()
                .filter(|s| {
                    typed
                        .as_deref()
                        .and_then(|t| Money::parse(t).ok())
                        .is_some_and(|t| t.with_cents() == s.amount.with_cents())
                })
                .cloned()
        });
        if let Some(s) = same.filter(|s| s.problems.is_empty()) {
            deposit.with_value(|d| d(s));
            return;
        }
        let b64 = |side: RwSignal<Option<super::SideDone>>| {
            side.with_untracked(|s| s.as_ref().map(|s| base64::engine::general_purpose::STANDARD.encode(&s.jpeg)))
        };
        let fields = CheckScanFields { amount: typed, frontimage: b64(gathered.front), rearimage: b64(gathered.back) };
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

    let line = micr.map(|m| m.line);
    let routing_note = {
        let said = said(field(|m| &m.routing_number));
        Signal::derive(move || bank.get().or_else(|| said.get()))
    };
    let (account_note, check_note) = (said(field(|m| &m.account_number)), said(field(|m| &m.check_number)));
    view! {
        {move || made.get().map(|record| view! { <Made record on_done/> })}
        <form class="scan-review" id="scan-review" on:submit=on_submit novalidate hidden=move || made.with(Option::is_some)>
            {match line {
                Some(l) => view! { <p>"MICR line read: "<span class="mono micr-line" id="scan-micr-line">{l}</span></p> }.into_any(),
                None => view! { <p class="notice" role="status">"No MICR line was read on the front: type the check's numbers."</p> }.into_any(),
            }}
            <fieldset>
                <legend>"Check"</legend>
                <Field id="scan-routing" label="Routing number" api="bankRoutingNumber" value=routing required=true
                    inputmode="numeric" pattern="[0-9]{9}" note=routing_note/>
                <Field id="scan-account" label="Account number" api="bankAccountNumber" value=account required=true
                    inputmode="numeric" note=account_note/>
                <Field id="scan-check-number" label="Check number" api="checkNumber" value=check_number required=true
                    inputmode="numeric" note=check_note/>
                <Field id="scan-amount" label="Amount (USD)" api="amount" value=amount required=true inputmode="decimal"
                    note=amount_note hint="As written on the check, like 1250.00."/>
                <Field id="scan-check-date" label="Check date" api="checkDate" value=check_date kind="date"
                    hint="Not in the future, at most 180 days ago."/>
                <Field id="scan-memo" label="Memo" api="memo" value=memo/>
            </fieldset>
            {move || scan.get().filter(|s| !s.problems.is_empty()).map(|s| view! { <ScanResult scan=s/> })}
            <div id="scan-error" tabindex="-1">{move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}</div>
            <button type="submit" class="button primary" id="scan-submit" disabled=move || busy.get()>
                {move || if busy.get() { "Depositing…" } else { "Deposit the check" }}
            </button>
        </form>
    }
}

/// The deposit made.
#[component]
fn Made(record: DepositRecord, on_done: Callback<bool>) -> impl IntoView {
    view! {
        <div class="scan-made" id="scan-made" role="status">
            <p class="scan-ok">{format!("Deposit {} was created.", record.id)}</p>
            <dl class="micr-fields">
                <div class="micr-field"><dt>"Amount"</dt><dd>{record.amount.with_cents().to_string()}</dd></div>
                <div class="micr-field"><dt>"Status"</dt><dd>{record.status.label()}</dd></div>
                <div class="micr-field"><dt>"Check"</dt><dd class="mono">{record.check_number.clone().unwrap_or_default()}</dd></div>
                <div class="micr-field"><dt>"Bank"</dt><dd>{record.bank_name.clone().unwrap_or_default()}</dd></div>
            </dl>
            <button type="button" class="button primary" id="scan-finish" on:click=move |_| on_done.run(true)>"Done"</button>
        </div>
    }
}
