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
use crate::i18n::fill;
use crate::i18n::ledger::text;
use crate::i18n::vocab::say;
use crate::session::use_auth;

/// How many items of a result are in each state, in the order the summary says them (the
/// labels: the catalogue's `count_labels`, in this order).
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
    let t = text();
    view! {
        {auth.can(Scope::DepositsWrite).then(|| view! {
            <form class="returns-upload" on:submit=upload>
                <label for="returns-file">{t.return_file}</label>
                <input id="returns-file" type="file" node_ref=input required/>
                <button type="submit" class="button primary" id="returns-submit" disabled=move || busy.get()>
                    {move || if busy.get() { t.reading_file } else { t.upload }}
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
    let t = text();
    let summary = counts(&r)
        .into_iter()
        .zip(t.count_labels)
        .map(|((what, n), label)| {
            let said = format!("{n} {label}");
            view! { <li data-count=what>{said}</li> }
        })
        .collect_view();
    let errors = r
        .errors
        .iter()
        .map(|e| {
            let at = e.record_number.map(|n| fill(t.record_at, &[&n.to_string()])).unwrap_or_default();
            let field = e.field.clone().map(|f| format!("{f}: ")).unwrap_or_default();
            let said = format!("{at}{field}{}", e.message);
            view! { <li>{said}</li> }
        })
        .collect_view();
    let name = r.file_name.clone().unwrap_or_else(|| fill(t.file, &[&r.file_id.to_string()]));
    let heading = format!("{name} ({})", say(r.format.label()));
    view! {
        <section class="returns-result" data-testid="returns-result" aria-live="polite">
            <h2>{heading}</h2>
            <ul class="returns-counts">{summary}</ul>
            <Show when={
                let empty = r.errors.is_empty();
                move || !empty
            }>
                <h4>{fill(t.not_read, &[&r.errors.len().to_string()])}</h4>
            </Show>
            <ul class="returns-errors" data-testid="returns-errors">{errors}</ul>
        </section>
    }
}
