//! Returns: upload a return file (X9.100-187 or ACH; its bytes as they are) and see what it
//! came to — matched, unmatched, duplicates, notifications of change, and the records that
//! could not be read — then the returned items (return_items.rs).

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::ledger::{ReturnFileResult, ReturnItemState};
use moneydesk_model::Scope;
use wasm_bindgen::JsCast;

use super::return_items::ReturnItems;
use crate::api;
use crate::api::request::submit;
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::session::use_auth;

/// How many items of a result are in each state, in the order the summary says them.
pub fn counts(r: &ReturnFileResult) -> [(&'static str, usize); 4] {
    let n = |s: ReturnItemState| r.items.iter().filter(|i| i.state == s).count();
    [
        ("matched", n(ReturnItemState::Matched)),
        ("unmatched", n(ReturnItemState::Unmatched)),
        ("duplicates", n(ReturnItemState::Duplicate)),
        ("notifications of change", n(ReturnItemState::Corrected)),
    ]
}

#[component]
pub fn Returns() -> impl IntoView {
    let auth = use_auth();
    let busy = RwSignal::new(false);
    let result = RwSignal::new(None::<Result<ReturnFileResult, ApiError>>);
    // Bumped by an upload or an act: the items are read again.
    let changed = RwSignal::new(0u32);
    let input = NodeRef::<leptos::html::Input>::new();
    let owner = Owner::current();
    let upload = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let file = input.get().and_then(|i| i.files()).and_then(|f| f.get(0));
        let Some(file) = file else { return };
        let name = file.name();
        let blob: web_sys::Blob = file.unchecked_into();
        let owner = owner.clone();
        submit(
            busy,
            &owner,
            || api::ledger::upload_returns(&auth.client(), &name, &blob),
            move |r| {
                result.set(Some(r));
                changed.update(|n| *n += 1);
            },
        );
    };
    view! {
        {auth.can(Scope::DepositsWrite).then(|| view! {
            <form class="returns-upload" on:submit=upload>
                <label for="returns-file">"Return file (X9.100-187 or ACH)"</label>
                <input id="returns-file" type="file" node_ref=input required/>
                <button type="submit" class="button primary" id="returns-submit" disabled=move || busy.get()>
                    {move || if busy.get() { "Reading…" } else { "Upload" }}
                </button>
            </form>
        })}
        {move || result.get().map(|r| match r {
            Ok(r) => Either::Left(view! { <FileResult r/> }),
            Err(e) => Either::Right(view! { <ApiErrorView error=e/> }),
        })}
        <ReturnItems changed/>
    }
}

#[component]
fn FileResult(r: ReturnFileResult) -> impl IntoView {
    let summary = counts(&r).map(|(what, n)| view! { <li data-count=what>{format!("{n} {what}")}</li> }).to_vec();
    let errors = r
        .errors
        .iter()
        .map(|e| {
            let at = e.record_number.map(|n| format!("Record {n}: ")).unwrap_or_default();
            let field = e.field.clone().map(|f| format!("{f}: ")).unwrap_or_default();
            view! { <li>{format!("{at}{field}{}", e.message)}</li> }
        })
        .collect_view();
    let name = r.file_name.clone().unwrap_or_else(|| format!("File {}", r.file_id));
    view! {
        <section class="returns-result" data-testid="returns-result" aria-live="polite">
            <h2>{format!("{name} ({})", r.format.label())}</h2>
            <ul class="returns-counts">{summary}</ul>
            <Show when={
                let empty = r.errors.is_empty();
                move || !empty
            }>
                <h4>{format!("{} record(s) could not be read", r.errors.len())}</h4>
            </Show>
            <ul class="returns-errors" data-testid="returns-errors">{errors}</ul>
        </section>
    }
}
