//! The editor: a new template's name, the version's parts, the sample data and the draft's
//! preview; saving creates the template or adds the version, then opens it.

use leptos::prelude::*;
use moneydesk_model::email::{NewTemplate, RenderedTemplate};

use super::super::parts::HtmlPreview;
use super::draft::{saved, version, TemplateForm};
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::i18n::email::text as words;
use crate::session::use_auth;

#[component]
pub fn TemplateEditor(form: TemplateForm, rendered: Answer<RenderedTemplate>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let TemplateForm {
        open,
        changed,
        name,
        subject,
        text,
        html,
        sample,
        sample_error,
        editing,
        busy,
        save_error,
        owner,
    } = form;
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let version = version(subject.get_untracked(), text.get_untracked(), html.get_untracked());
        let client = auth.client();
        let target = open.get_untracked();
        let new_name = name.get_untracked();
        owner.with_value(|owner| {
            submit(
                busy,
                owner,
                move || {
                    let fut: std::pin::Pin<Box<dyn std::future::Future<Output = _>>> = match &target {
                        Some(id) => Box::pin(api::add_version(&client, id, &version)),
                        None => Box::pin(api::create_template(&client, &NewTemplate { name: new_name, version })),
                    };
                    fut
                },
                move |r| match r {
                    Ok(t) => {
                        toasts.show(ToastKind::Success, saved(&t));
                        save_error.set(None);
                        editing.set(false);
                        open.set(Some(t.id.clone()));
                        changed.update(|c| *c += 1);
                    }
                    Err(e) => save_error.set(Some(e.to_string())),
                },
            )
        });
    };
    let t = &words().templates;
    view! {
        <form class="email-template-editor" on:submit=save>
            <Show when=move || open.with(Option::is_none)>
                <div class="email-field"><label for="template-name">{t.name}</label>
                    <input id="template-name" maxlength="128" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></div>
            </Show>
            <div class="email-field"><label for="template-subject">{t.subject}</label>
                <input id="template-subject" prop:value=move || subject.get() on:input=move |ev| subject.set(event_target_value(&ev))/></div>
            <div class="email-field"><label for="template-text">{t.plain_text}</label>
                <textarea id="template-text" rows="6" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea></div>
            <div class="email-field"><label for="template-html">{t.html}</label>
                <textarea id="template-html" rows="6" prop:value=move || html.get() on:input=move |ev| html.set(event_target_value(&ev))></textarea></div>
            <div class="email-field"><label for="template-sample">{t.sample}</label>
                <textarea id="template-sample" rows="4" prop:value=move || sample.get() on:input=move |ev| sample.set(event_target_value(&ev))></textarea>
                <p class="field-error" role="alert">{move || sample_error.get()}</p></div>
            <div class="email-rendered" aria-live="polite">
                {move || rendered.with(|r| match r {
                    Some(Ok(r)) => {
                        let html = r.html.clone().unwrap_or_default();
                        view! {
                            <p><strong>{t.subject_said}</strong>{r.subject.clone()}</p>
                            {r.text.clone().map(|plain| view! { <pre class="email-text">{plain}</pre> })}
                            <HtmlPreview html=html title=t.preview/>
                        }.into_any()
                    }
                    Some(Err(e)) => view! { <p class="field-error">{e.to_string()}</p> }.into_any(),
                    None => ().into_any(),
                })}
            </div>
            <p class="field-error" role="alert">{move || save_error.get()}</p>
            <button type="submit" class="button primary" id="template-save" disabled=move || busy.get()>{t.save}</button>
            <button type="button" class="button" on:click=move |_| editing.set(false)>{t.cancel}</button>
        </form>
    }
}
