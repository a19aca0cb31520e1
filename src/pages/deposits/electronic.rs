//! Electronic deposits on the Deposits page: a new ACH pull from a vendor's account into a
//! managed sleeve account (the vendor's bank named from the directory as it is typed; submitted
//! with an `Idempotency-Key`), and the NACHA file of a day's pulls, shown and downloadable.

use leptos::prelude::*;
use moneydesk_model::deposits::ElectronicDepositFields;

use super::field::{new_key, refused, text, Complaints, Field};
use super::lookups;
use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::download::save;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::group;
use crate::i18n::{deposits::text as words, fill};
use crate::session::use_auth;

use super::detail::Changed;

/// Tomorrow in the browser's zone, `YYYY-MM-DD`: the usual effective day of a pull.
fn tomorrow() -> String {
    let t = js_sys::Date::new_0();
    t.set_date(t.get_date() + 1);
    format!("{:04}-{:02}-{:02}", t.get_full_year(), t.get_month() + 1, t.get_date())
}

#[component]
pub fn NewPull(on_done: Callback<bool>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let sleeve = RwSignal::new(String::new());
    let user = RwSignal::new(String::new());
    let routing = RwSignal::new(String::new());
    let account = RwSignal::new(String::new());
    let account_type = RwSignal::new("checking".to_string());
    let vendor = RwSignal::new(String::new());
    let amount = RwSignal::new(String::new());
    let effective = RwSignal::new(tomorrow());
    let description = RwSignal::new("DEPOSIT".to_string());
    let key = StoredValue::new(new_key());
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let complaints = Complaints(RwSignal::new(Vec::new()));
    provide_context(complaints);
    let owner = Owner::current();
    let bank = lookups::bank_name(routing);
    let sleeves = lookups::payees(sleeve);
    let f = &words().form;

    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let fields = ElectronicDepositFields {
            amount: text(amount).map(|a| a.replace([',', '$'], "")),
            bank_routing_number: text(routing),
            bank_account_number: text(account),
            account_type: text(account_type),
            vendor_name: text(vendor),
            company_entry_description: text(description),
            effective_date: text(effective),
            payee_account_id: text(sleeve),
            payee_user_id: text(user),
            memo: None,
        };
        failed.set(None);
        complaints.0.set(Vec::new());
        let k = key.get_value();
        submit(
            busy,
            &owner,
            || api::deposits::create_electronic(&auth.client(), &fields, &k),
            move |result| match result {
                Ok(record) => {
                    toasts.show(
                        ToastKind::Success,
                        fill(f.pull_recorded, &[&record.id.to_string(), &record.amount.to_string()]),
                    );
                    on_done.run(true);
                }
                Err(e) => refused(e, key, complaints, failed, "pull-form-error"),
            },
        );
    };

    view! {
        <form class="panel deposit-form" id="pull-form" aria-labelledby="pull-form-title" on:submit=on_submit novalidate>
            <h2 id="pull-form-title">{f.pull_heading}</h2>
            <fieldset>
                <legend>{f.into}</legend>
                <Field id="pull-sleeve" label=f.sleeve api="payeeAccountId" value=sleeve required=true list="pull-sleeve-options"/>
                <datalist id="pull-sleeve-options">
                    {move || sleeves.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                </datalist>
                <Field id="pull-user" label=f.user_id api="payeeUserId" value=user required=true/>
            </fieldset>
            <fieldset>
                <legend>{f.from_vendor}</legend>
                <Field id="pull-routing" label=f.routing_number api="bankRoutingNumber" value=routing required=true inputmode="numeric"
                    pattern="[0-9]{9}" note=bank hint=f.pull_routing_hint/>
                <Field id="pull-account" label=f.account_number api="bankAccountNumber" value=account required=true inputmode="numeric"/>
                <div class="field">
                    <label for="pull-account-type">{f.account_type}</label>
                    <select id="pull-account-type" on:change=move |ev| account_type.set(event_target_value(&ev))>
                        <option value="checking" selected=true>{f.checking}</option>
                        <option value="savings">{f.savings}</option>
                    </select>
                </div>
                <Field id="pull-vendor" label=f.vendor api="vendorName" value=vendor required=true hint=f.vendor_hint/>
                <Field id="pull-amount" label=f.amount_usd api="amount" value=amount required=true inputmode="decimal"/>
                <Field id="pull-effective" label=f.effective api="effectiveDate" value=effective kind="date" required=true/>
                <Field id="pull-description" label=f.description api="companyEntryDescription" value=description
                    hint=f.description_hint/>
            </fieldset>
            <div id="pull-form-error" tabindex="-1">{move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}</div>
            <div class="form-actions">
                <button type="submit" class="button primary" id="pull-submit" disabled=move || busy.get()>
                    {move || if busy.get() { f.recording } else { f.record_pull }}
                </button>
                <button type="button" class="button" on:click=move |_| on_done.run(false)>{f.cancel}</button>
            </div>
        </form>
    }
}

/// The NACHA file of a day's pulls: shown as text, and downloadable.
#[component]
pub fn AchFile() -> impl IntoView {
    let auth = use_auth();
    let Changed(changed) = expect_context::<Changed>();
    let day = RwSignal::new(tomorrow());
    let file = RwSignal::new(None::<Result<String, ApiError>>);
    let busy = RwSignal::new(false);
    let owner = Owner::current();
    // A new pull or a move may change the file shown: it is fetched again when asked.
    Effect::new(move |_| {
        changed.track();
        file.set(None);
    });
    let show = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        let d = day.get_untracked();
        submit(busy, &owner, || api::deposits::ach_file(&auth.client(), &d), move |result| file.set(Some(result)));
    };
    let download = move |_| {
        if let Some(Ok(text)) = file.get_untracked() {
            let parts = js_sys::Array::of1(&text.into());
            let _ = save(&parts, &format!("ach-{}.txt", day.get_untracked()), "text/plain");
        }
    };
    let f = &words().form;
    view! {
        <section class="panel ach-file" aria-labelledby="ach-file-title">
            <h2 id="ach-file-title">{f.ach_heading}</h2>
            <form class="ach-file-form" on:submit=show>
                <div class="field">
                    <label for="ach-file-date">{f.effective_on}</label>
                    <input id="ach-file-date" type="date" prop:value=move || day.get() on:input=move |ev| day.set(event_target_value(&ev))/>
                </div>
                <button type="submit" class="button" id="ach-file-show" disabled=move || busy.get()>{f.show_file}</button>
            </form>
            {move || file.get().map(|r| match r {
                Ok(text) => {
                    let entries = text.lines().filter(|l| l.starts_with('6')).count();
                    view! {
                        <p>{fill(f.ach_pulls, &[&group(entries as u64), if entries == 1 { f.pull.0 } else { f.pull.1 }])}" "
                            <button type="button" class="button" id="ach-file-download" on:click=download>{f.download}</button></p>
                        <pre class="ach-file-text" id="ach-file-text" tabindex="0" aria-label=f.nacha_label>{text}</pre>
                    }
                    .into_any()
                }
                Err(e) => view! { <ApiErrorView error=e/> }.into_any(),
            })}
        </section>
    }
}
