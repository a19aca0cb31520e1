//! Reading the check before depositing it: both sides and the amount go to the scan endpoint
//! with the managed sleeve account; the server measures each side, keeps it as grayscale and
//! G4, and reads the MICR line. What it read fills the routing, account and check number
//! fields (each still editable, with its confidence shown), every quality finding and problem
//! is listed, and the deposit then names the scan instead of sending the images again.

use leptos::prelude::*;
use moneydesk_model::deposits::{CheckScan, CheckScanFields, MicrField};

use crate::api::request::submit;
use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::i18n::deposits::text;
use crate::session::use_auth;

use super::lookups;

/// The form's fields a scan reads and fills.
#[derive(Clone, Copy)]
pub struct ScanTargets {
    pub amount: RwSignal<String>,
    pub routing: RwSignal<String>,
    pub account: RwSignal<String>,
    pub check_number: RwSignal<String>,
    pub front: RwSignal<Option<(String, String)>>,
    pub back: RwSignal<Option<(String, String)>>,
    /// The sleeve account the scan was made for, and the scan the deposit names.
    pub sleeve: RwSignal<String>,
    pub scan: RwSignal<Option<CheckScan>>,
}

/// A MICR field into its form field, unless a character of it could not be read.
fn fill(target: RwSignal<String>, field: &Option<MicrField>) {
    if let Some(f) = field.as_ref().filter(|f| !f.value.contains('*')) {
        target.set(f.value.clone());
    }
}

pub(super) fn percent(confidence: f32) -> String {
    format!("{:.0} %", (confidence * 100.0).clamp(0.0, 100.0))
}

#[component]
pub fn ReadCheck(targets: ScanTargets) -> impl IntoView {
    let auth = use_auth();
    let busy = RwSignal::new(false);
    let failed = RwSignal::new(None::<ApiError>);
    let owner = Owner::current();
    let sleeves = lookups::payees(targets.sleeve);
    let f = &text().form;
    // New pictures (or another amount or account) make the scan stale: the deposit would send
    // what the scan did not read.
    Effect::new(move |first: Option<()>| {
        targets.front.track();
        targets.back.track();
        targets.amount.track();
        targets.sleeve.track();
        if first.is_some() {
            targets.scan.set(None);
        }
    });
    let ready = Memo::new(move |_| {
        targets.front.with(Option::is_some)
            && targets.back.with(Option::is_some)
            && !targets.sleeve.with(|s| s.trim().is_empty())
            && !targets.amount.with(|a| a.trim().is_empty())
    });
    let read = move |_| {
        if busy.get_untracked() || !ready.get_untracked() {
            return;
        }
        let fields = CheckScanFields {
            amount: Some(targets.amount.get_untracked().trim().replace([',', '$'], "")),
            frontimage: targets.front.get_untracked().map(|(_, b)| b),
            rearimage: targets.back.get_untracked().map(|(_, b)| b),
        };
        let sleeve = targets.sleeve.get_untracked().trim().to_string();
        failed.set(None);
        submit(
            busy,
            &owner,
            || api::deposits::scan(&auth.client(), &sleeve, &fields),
            move |result| match result {
                Ok(scan) => {
                    if let Some(m) = &scan.micr {
                        fill(targets.routing, &m.routing_number);
                        fill(targets.account, &m.account_number);
                        fill(targets.check_number, &m.check_number);
                    }
                    targets.scan.set(Some(scan));
                }
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    view! {
        <div class="scan-check">
            <div class="field">
                <label for="deposit-sleeve">{f.sleeve}</label>
                <input id="deposit-sleeve" list="deposit-sleeve-options" autocomplete="off" aria-describedby="deposit-sleeve-hint"
                    prop:value=move || targets.sleeve.get() on:input=move |ev| targets.sleeve.set(event_target_value(&ev))/>
                <datalist id="deposit-sleeve-options">
                    {move || sleeves.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                </datalist>
                <p class="hint" id="deposit-sleeve-hint">{f.scan_sleeve_hint}</p>
            </div>
            <button type="button" class="button" id="deposit-scan" disabled=move || busy.get() || !ready.get() on:click=read>
                {move || if busy.get() { f.reading } else { f.read }}
            </button>
            {move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}
            {move || targets.scan.get().map(|s| view! { <ScanResult scan=s/> })}
        </div>
    }
}

/// What the scan found: the MICR line and its fields, each side's findings, the problems.
#[component]
pub(super) fn ScanResult(scan: CheckScan) -> impl IntoView {
    let micr = scan.micr.clone();
    let t = &text().form;
    let row = |label: &'static str, f: &Option<MicrField>| {
        f.as_ref().map(|f| {
            let uncertain = f.uncertain;
            view! {
                <div class="micr-field" class:uncertain=uncertain>
                    <dt>{label}</dt>
                    <dd><span class="mono">{super::field::marked(&f.value)}</span>" "
                        <span class="muted">{percent(f.confidence)}{uncertain.then_some(t.check_it)}</span></dd>
                </div>
            }
        })
    };
    let findings = [(t.sides.0, &scan.front), (t.sides.1, &scan.rear)]
        .into_iter()
        .flat_map(|(side, s)| s.findings.iter().map(move |f| crate::i18n::fill(t.finding, &[side, &f.advice])))
        .collect::<Vec<_>>();
    view! {
        <section class="scan-result" id="deposit-scan-result" aria-live="polite" aria-label=t.scan_label>
            {match micr {
                Some(m) => view! {
                    <p>{t.micr_line}<span class="mono micr-line">{super::field::marked(&m.line)}</span></p>
                    <dl class="micr-fields">
                        {row(t.routing_number, &m.routing_number)}
                        {m.bank_name.clone().map(|b| view! { <div class="micr-field"><dt>{t.bank_label}</dt><dd>{b}</dd></div> })}
                        {row(t.account_number, &m.account_number)}
                        {row(t.check_number, &m.check_number)}
                        {row(t.amount_encoded, &m.amount)}
                    </dl>
                }
                .into_any(),
                None => view! { <p>{t.no_micr}</p> }.into_any(),
            }}
            {(!findings.is_empty()).then(|| view! {
                <ul class="scan-findings">{findings.into_iter().map(|f| view! { <li>{f}</li> }).collect_view()}</ul>
            })}
            {if scan.problems.is_empty() {
                view! { <p class="scan-ok">{t.scan_ready}</p> }.into_any()
            } else {
                view! {
                    <ul class="scan-problems" role="alert">
                        {scan.problems.iter().map(|p| view! { <li>{p.clone()}</li> }).collect_view()}
                    </ul>
                }
                .into_any()
            }}
        </section>
    }
}
