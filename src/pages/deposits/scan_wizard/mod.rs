//! Scan a check (`?new=scan`): a wizard on the Deposits page.
//!
//! 1. Who: the managed sleeve account the check is deposited to, and the payee.
//! 2. The front, 3. the back: the camera (rear camera preferred, guide frame, live hints,
//!    taken by itself when the check is still, sharp and fills the frame; or by the button) or a
//!    file; the check found, straightened and its corners adjustable; quality findings; the
//!    front's MICR line read — all in the scanning worker (`moneydesk_checkimage` in wasm, the
//!    crate the server reads with), so the page never freezes.
//! 4. Review: routing (with the bank's name), account and check number from the MICR line with
//!    their confidence, editable; the amount typed and compared with the line's amount field.
//! 5. Deposit: the straightened sides to the scan endpoint, then the check deposit naming the
//!    scan (with an `Idempotency-Key`), and the deposit made shown.
//!
//! The step is kept in the URL (`?new=scan&step=back`), so Back goes to the previous step.

mod camera;
mod capture;
mod corners;
mod entry;
mod framing;
mod review;
mod side;

use std::rc::Rc;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::field::Field;
use super::lookups;
use crate::api::scan_worker::ScanWorker;
use crate::i18n::{deposits::text, fill};
use side::{SideCapture, SideDone};

/// The wizard's steps, as the URL names them (their titles: the catalogue's `wizard.steps`).
const STEPS: [&str; 4] = ["who", "front", "back", "review"];

/// What the steps gather.
#[derive(Clone, Copy)]
pub(super) struct Gathered {
    pub sleeve: RwSignal<String>,
    pub payee_account: RwSignal<String>,
    pub payee_user: RwSignal<String>,
    pub front: RwSignal<Option<SideDone>>,
    pub back: RwSignal<Option<SideDone>>,
}

#[component]
pub fn ScanWizard(on_done: Callback<bool>) -> impl IntoView {
    let query = use_query_map();
    let navigate = use_navigate();
    let location = leptos_router::hooks::use_location();
    // Embedded, the browser path starts with the host's base path, which navigate adds itself.
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    let step = Memo::new(move |_| {
        let s = query.with(|q| q.get_str("step").map(str::to_string)).unwrap_or_default();
        STEPS.iter().position(|name| *name == s).unwrap_or(0)
    });
    let go = StoredValue::new(move |to: usize| {
        let mut q = query.get_untracked();
        q.replace("step", STEPS[to].to_string());
        let path = config.relative(&location.pathname.get_untracked()).to_string();
        navigate(&format!("{path}{}", q.to_query_string()), NavigateOptions { scroll: false, ..Default::default() });
    });
    let gathered = Gathered {
        sleeve: RwSignal::new(String::new()),
        payee_account: RwSignal::new(String::new()),
        payee_user: RwSignal::new(String::new()),
        front: RwSignal::new(None),
        back: RwSignal::new(None),
    };
    // One worker for the wizard's life; terminated with it.
    let worker = StoredValue::new_local(None::<Rc<ScanWorker>>);
    let worker_failed = RwSignal::new(None::<String>);
    match ScanWorker::start() {
        Ok(w) => worker.set_value(Some(Rc::new(w))),
        Err(e) => worker_failed.set(Some(e)),
    }
    on_cleanup(move || drop(worker.try_update_value(Option::take)));

    let complaints = super::field::Complaints(RwSignal::new(Vec::new()));
    provide_context(complaints);
    let sleeves = lookups::payees(gathered.sleeve);
    let payees = lookups::payees(gathered.payee_account);
    // A step can be left when what it gathers is there; a later step reached by the URL with an
    // earlier one unfinished shows the earliest unfinished one.
    let finished = move |i: usize| match i {
        0 => {
            !gathered.sleeve.with(|s| s.trim().is_empty())
                && !gathered.payee_account.with(|s| s.trim().is_empty())
                && !gathered.payee_user.with(|s| s.trim().is_empty())
        }
        1 => gathered.front.with(Option::is_some),
        2 => gathered.back.with(Option::is_some),
        _ => false,
    };
    let shown = Memo::new(move |_| (0..step.get()).find(|&i| !finished(i)).unwrap_or_else(|| step.get()));
    let (t, f, w) = (text(), &text().form, &text().wizard);
    let next = move |_| {
        let s = shown.get_untracked();
        if finished(s) && s + 1 < STEPS.len() {
            go.with_value(|g| g(s + 1));
        }
    };

    view! {
        <section class="panel scan-wizard" id="scan-wizard" aria-labelledby="scan-wizard-title">
            <h2 id="scan-wizard-title">{t.scan}</h2>
            <ol class="wizard-steps">
                {w.steps.iter().enumerate().map(|(i, title)| view! {
                    <li class:current=move || shown.get() == i class:done=move || i < shown.get()
                        aria-current=move || (shown.get() == i).then_some("step")>{*title}</li>
                }).collect_view()}
            </ol>
            {move || worker_failed.get().map(|e| view! {
                <p class="field-error" role="alert">{fill(w.worker_failed, &[&e])}</p>
            })}
            {move || match shown.get() {
                0 => view! {
                    <fieldset>
                        <legend>{w.steps[0]}</legend>
                        <Field id="scan-sleeve" label=f.sleeve api="payerId" value=gathered.sleeve required=true
                            list="scan-sleeve-options" hint=w.sleeve_hint/>
                        <datalist id="scan-sleeve-options">
                            {move || sleeves.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                        </datalist>
                        <Field id="scan-payee-account" label=t.columns[10] api="payeeAccountId" value=gathered.payee_account required=true
                            list="scan-payee-options" hint=f.payee_hint/>
                        <datalist id="scan-payee-options">
                            {move || payees.get().into_iter().map(|(id, name)| view! { <option value=id>{name}</option> }).collect_view()}
                        </datalist>
                        <Field id="scan-payee-user" label=w.payee_user api="payeeUserId" value=gathered.payee_user required=true/>
                    </fieldset>
                }.into_any(),
                1 => view! { <SideCapture worker side="front" micr=true done=gathered.front/> }.into_any(),
                2 => view! { <SideCapture worker side="back" micr=false done=gathered.back/> }.into_any(),
                _ => view! { <review::Review gathered on_done/> }.into_any(),
            }}
            <div class="form-actions">
                <Show when=move || { shown.get() + 1 < STEPS.len() }>
                    <button type="button" class="button primary" id="scan-next" disabled=move || !finished(shown.get()) on:click=next>
                        {w.next}
                    </button>
                </Show>
                <Show when=move || { shown.get() > 0 }>
                    <button type="button" class="button" id="scan-back" on:click=move |_| go.with_value(|g| g(shown.get_untracked() - 1))>
                        {w.back}
                    </button>
                </Show>
                <button type="button" class="button" id="scan-cancel" on:click=move |_| on_done.run(false)>{f.cancel}</button>
            </div>
        </section>
    }
}

/// The side's word (`side` is the API's `front` or `back`).
pub fn side_word(side: &str) -> &'static str {
    let sides = crate::i18n::deposits::text().detail.sides;
    if side == "front" {
        sides.0
    } else {
        sides.1
    }
}
