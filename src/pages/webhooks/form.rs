//! An endpoint's form, for a new one and for a change: its URL, the event types it takes (all,
//! or those ticked) and a description. The server checks the URL (https to a public address
//! unless its allow-list says otherwise) and the types; its refusal shows as it words it,
//! naming the field.

use leptos::prelude::*;

use super::state::{choosable, Draft};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::i18n::webhooks::text;

/// `id_prefix` keeps the fields' ids unique (`webhook-new`, `webhook-edit`).
#[component]
pub fn EndpointForm(
    id_prefix: &'static str,
    legend: &'static str,
    submit_label: &'static str,
    initial: Draft,
    busy: RwSignal<bool>,
    failed: RwSignal<Option<ApiError>>,
    on_submit: Callback<Draft>,
    on_cancel: Callback<()>,
) -> impl IntoView {
    let draft = RwSignal::new(initial);
    let id = move |f: &str| format!("{id_prefix}-{f}");
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        on_submit.run(draft.get_untracked());
    };
    let types = choosable()
        .map(|t| {
            let box_id = format!("{id_prefix}-type-{}", t.replace('.', "-"));
            let for_id = box_id.clone();
            view! {
                <label class="check" for=for_id>
                    <input type="checkbox" id=box_id value=t
                        prop:checked=move || draft.with(|d| d.all || d.types.iter().any(|c| c == t))
                        disabled=move || draft.with(|d| d.all)
                        on:change=move |_| draft.update(|d| d.toggle(t))/>
                    <code>{t}</code>
                </label>
            }
        })
        .collect_view();
    let t = text();
    view! {
        <form class="webhook-form" id=id("form") on:submit=send novalidate>
            <fieldset>
                <legend>{legend}</legend>
                <label for=id("url")>{t.url}</label>
                <input type="url" id=id("url") autocomplete="off" spellcheck="false" required
                    placeholder=t.url_example
                    prop:value=move || draft.with(|d| d.url.clone())
                    on:input=move |ev| draft.update(|d| d.url = event_target_value(&ev))/>
                <p class="hint">{t.url_hint}</p>
                <label for=id("description")>{t.description}</label>
                <input type="text" id=id("description") maxlength="500" autocomplete="off"
                    prop:value=move || draft.with(|d| d.description.clone())
                    on:input=move |ev| draft.update(|d| d.description = event_target_value(&ev))/>
                <fieldset class="webhook-types">
                    <legend>{t.event_types}</legend>
                    <label class="check" for=id("all")>
                        <input type="checkbox" id=id("all") prop:checked=move || draft.with(|d| d.all)
                            on:change=move |ev| { let on = event_target_checked(&ev); draft.update(|d| d.all = on) }/>
                        {t.all_events_box[0]} <code>"*"</code> {t.all_events_box[1]}
                    </label>
                    <div class="webhook-type-list">{types}</div>
                </fieldset>
                <div class="webhook-form-actions">
                    <button type="submit" class="button primary" id=id("submit") disabled=move || busy.get()>
                        {move || if busy.get() { t.saving } else { submit_label }}
                    </button>
                    <button type="button" class="button" id=id("cancel") on:click=move |_| on_cancel.run(())>{t.cancel}</button>
                </div>
            </fieldset>
            <div id=id("error") aria-live="polite">{move || failed.get().map(|e| view! { <ApiErrorView error=e/> })}</div>
        </form>
    }
}
