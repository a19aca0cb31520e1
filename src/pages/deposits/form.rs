//! A new check deposit: the payee, the check's MICR fields, its amount and date, both sides'
//! images (JPEG, PNG or TIFF, read in the browser and sent base64), and the particulars and
//! fee of particulars.rs: every field of the description's table. Every field the
//! server refuses is named under the form. The submission carries an `Idempotency-Key` kept
//! until an answer arrives, so resubmitting after a lost answer never deposits twice. "Read
//! the check" (scan.rs) reads the MICR line into the form first; the deposit then names the
//! scan.

use base64::Engine;
use leptos::prelude::*;
use moneydesk_model::deposits::CheckDepositFields;

use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::i18n::{deposits::text as words, fill};
use crate::session::use_auth;

use super::field::{new_key, refused, text, Complaints, Field};
use super::lookups;
use super::particulars::{FeeToCharge, Particulars, ParticularsFields};
use super::scan::{ReadCheck, ScanTargets};

/// The server takes at most 10 MiB an image; refuse larger files before reading them.
pub(super) const MAX_IMAGE_BYTES: f64 = 10.0 * 1024.0 * 1024.0;

/// One side's image: the file chosen, read into base64, with a preview.
#[component]
fn ImageField(
    id: &'static str,
    label: &'static str,
    api: &'static str,
    value: RwSignal<Option<(String, String)>>,
) -> impl IntoView {
    let complaints = expect_context::<Complaints>();
    let f = &words().form;
    let problem = RwSignal::new(None::<String>);
    let preview = RwSignal::new(None::<String>);
    let drop_preview = move || {
        if let Some(Some(url)) = preview.try_get_untracked() {
            let _ = web_sys::Url::revoke_object_url(&url);
        }
    };
    on_cleanup(drop_preview);
    let on_change = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        drop_preview();
        preview.set(None);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            value.set(None);
            return;
        };
        if file.size() > MAX_IMAGE_BYTES {
            problem.set(Some(fill(f.too_large, &[&file.name()])));
            value.set(None);
            return;
        }
        problem.set(None);
        preview.set(web_sys::Url::create_object_url_with_blob(&file).ok());
        let name = file.name();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => {
                    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                    value.try_set(Some((name, base64::engine::general_purpose::STANDARD.encode(bytes))));
                }
                Err(_) => {
                    problem.try_set(Some(fill(f.unreadable, &[&name])));
                }
            }
        });
    };
    let shown = move || problem.get().or_else(|| complaints.about(api));
    let alt = fill(f.preview, &[&label.to_lowercase()]);
    view! {
        <div class="field" class:invalid=move || shown().is_some()>
            <label for=id>{label}" *"</label>
            <input id=id type="file" required accept="image/jpeg,image/png,image/tiff" on:change=on_change
                aria-invalid=move || shown().is_some().then_some("true")/>
            {move || shown().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
            {move || preview.get().map(|src| view! { <img class="image-preview" src=src alt=alt.clone()/> })}
        </div>
    }
}

/// The form's own values and those a scan reads and fills.
#[derive(Clone, Copy)]
struct CheckForm {
    payee_account: RwSignal<String>,
    payee_user: RwSignal<String>,
    check_date: RwSignal<String>,
    memo: RwSignal<String>,
    targets: ScanTargets,
}

impl CheckForm {
    fn blank() -> Self {
        let blank = || RwSignal::new(String::new());
        let targets = ScanTargets {
            amount: blank(),
            routing: blank(),
            account: blank(),
            check_number: blank(),
            front: RwSignal::new(None),
            back: RwSignal::new(None),
            sleeve: blank(),
            scan: RwSignal::new(None),
        };
        CheckForm { payee_account: blank(), payee_user: blank(), check_date: blank(), memo: blank(), targets }
    }

    /// The request, read untracked. A fee is sent only by a token that may set fees (the
    /// field shows only to one).
    fn fields(&self, more: &Particulars, may_set_fee: bool) -> CheckDepositFields {
        let ScanTargets { amount, routing, account, check_number, front, back, sleeve, scan } = self.targets;
        // A scan's images were stored by the scan: the deposit names it instead of sending them.
        let scanned = scan.with_untracked(|s| s.as_ref().map(|s| s.scan_id.clone()));
        let images = |side: RwSignal<Option<(String, String)>>| {
            if scanned.is_some() {
                None
            } else {
                side.get_untracked().map(|(_, b)| b)
            }
        };
        CheckDepositFields {
            amount: text(amount).map(|a| a.replace([',', '$'], "")),
            bank_account_number: text(account),
            bank_routing_number: text(routing),
            check_number: text(check_number),
            check_date: text(self.check_date),
            check_front_image: images(front),
            check_back_image: images(back),
            payer_id: text(sleeve),
            scan_id: scanned,
            memo: text(self.memo),
            payee_account_id: text(self.payee_account),
            payee_user_id: text(self.payee_user),
            bank_name: text(more.bank_name),
            schedule_date: text(more.schedule_date),
            payer_type: text(more.payer_type),
            payment_type: text(more.payment_type),
            source: text(more.source),
            fee: text(more.fee).filter(|_| may_set_fee).map(|f| f.replace([',', '$'], "")),
            ..Default::default()
        }
    }
}

#[component]
pub fn NewDeposit(on_done: Callback<bool>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let form = CheckForm::blank();
    let CheckForm { payee_account, payee_user, check_date, memo, targets } = form;
    let ScanTargets { amount, routing, account, check_number, front, back, .. } = targets;
    let key = StoredValue::new(new_key());
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let complaints = Complaints(RwSignal::new(Vec::new()));
    provide_context(complaints);
    let owner = Owner::current();

    let more = Particulars::blank();
    let directory = lookups::directory(routing);
    more.prefill_bank(directory);
    let bank = lookups::note(directory);
    let quote = lookups::fee_quote(amount);
    let f = &words().form;
    let fee = Signal::derive(move || quote.get().map(|fee| fill(f.standard_fee, &[&fee])));
    let payees = lookups::payees(payee_account);

    let on_submit = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        if busy.get_untracked() {
            return;
        }
        let fields = form.fields(&more, auth.can(moneydesk_model::Scope::FeesOverride));
        failed.set(None);
        complaints.0.set(Vec::new());
        let k = key.get_value();
        submit(
            busy,
            &owner,
            || api::deposits::create(&auth.client(), &fields, &k),
            move |result| match result {
                Ok(record) => {
                    toasts.show(
                        ToastKind::Success,
                        fill(f.check_created, &[&record.id.to_string(), &record.amount.to_string()]),
                    );
                    on_done.run(true);
                }
                Err(e) => refused(e, key, complaints, failed, "deposit-form-error"),
            },
        );
    };

    view! {
        <form class="panel deposit-form" id="deposit-form" aria-labelledby="deposit-form-title" on:submit=on_submit novalidate>
            <h2 id="deposit-form-title">{f.check_heading}</h2>
            <fieldset>
                <legend>{f.payee}</legend>
                <Field id="deposit-payee-account" label=f.account api="payeeAccountId" value=payee_account required=true
                    list="deposit-payee-options" hint=f.payee_hint/>
                <datalist id="deposit-payee-options">
                    {move || payees.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                </datalist>
                <Field id="deposit-payee-user" label=f.user_id api="payeeUserId" value=payee_user required=true/>
            </fieldset>
            <fieldset>
                <legend>{f.check}</legend>
                <Field id="deposit-amount" label=f.amount_usd api="amount" value=amount inputmode="decimal"
                    note=fee hint=f.check_amount_hint/>
                <Field id="deposit-check-number" label=f.check_number api="checkNumber" value=check_number required=true inputmode="numeric"/>
                <Field id="deposit-routing" label=f.routing_number api="bankRoutingNumber" value=routing required=true inputmode="numeric"
                    pattern="[0-9]{9}" note=bank hint=f.check_routing_hint/>
                <Field id="deposit-account" label=f.account_number api="bankAccountNumber" value=account required=true inputmode="numeric"/>
                <Field id="deposit-check-date" label=f.check_date api="checkDate" value=check_date kind="date"
                    hint=f.check_date_hint/>
                <Field id="deposit-memo" label=f.memo api="memo" value=memo/>
            </fieldset>
            <fieldset>
                <legend>{f.images}</legend>
                <ImageField id="deposit-front" label=f.front api="checkFrontImage" value=front/>
                <ImageField id="deposit-back" label=f.back api="checkBackImage" value=back/>
                <ReadCheck targets/>
            </fieldset>
            <ParticularsFields p=more/>
            <FeeToCharge p=more quote/>
            <div id="deposit-form-error" tabindex="-1">
                {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            </div>
            <div class="form-actions">
                <button type="submit" class="button primary" id="deposit-submit" disabled=move || busy.get()>
                    {move || if busy.get() { f.depositing } else { f.deposit }}
                </button>
                <button type="button" class="button" on:click=move |_| on_done.run(false)>{f.cancel}</button>
            </div>
        </form>
    }
}
