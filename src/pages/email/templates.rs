//! Templates: the list; one opened with its versions; an editor (a new template, or a new
//! version of the open one) whose preview renders the draft with sample data as it is typed
//! (debounced; a newer draft overtakes an older one). Saving needs the admin scope.

use std::time::Duration;

use leptos::prelude::*;
use moneydesk_model::email::{
    DraftPreview, NewTemplate, NewTemplateVersion, RenderedTemplate, TemplateDetail, TemplateSummary,
};
use moneydesk_model::Scope;
use serde_json::{Map, Value};

use super::compose::HtmlPreview;
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::session::use_auth;

/// How long typing must pause before the preview is asked for.
const DEBOUNCE: Duration = Duration::from_millis(400);

#[component]
pub fn Templates() -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let admin = Memo::new(move |_| auth.can(Scope::Admin));
    let list = Answer::<Vec<TemplateSummary>>::new();
    let changed = RwSignal::new(0u32);
    Effect::new(move |_| {
        changed.track();
        list.load(api::templates(&auth.client()));
    });
    let open = RwSignal::new(None::<String>);
    let detail = Answer::<TemplateDetail>::new();
    Effect::new(move |_| {
        if let Some(id) = open.get() {
            changed.track();
            detail.load(api::template(&auth.client(), &id));
        }
    });

    // The editor's draft.
    let name = RwSignal::new(String::new());
    let subject = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let html = RwSignal::new(String::new());
    let sample = RwSignal::new("{}".to_string());
    let editing = RwSignal::new(false);
    let rendered = Answer::<RenderedTemplate>::new();
    let sample_error = RwSignal::new(None::<String>);
    let seq = StoredValue::new(0u32);
    Effect::new(move |_| {
        let draft = NewTemplateVersion {
            subject: subject.get(),
            text: Some(text.get()).filter(|t| !t.is_empty()),
            html: Some(html.get()).filter(|h| !h.is_empty()),
        };
        let data = match serde_json::from_str::<Map<String, Value>>(&sample.get()) {
            Ok(d) => {
                sample_error.set(None);
                d
            }
            Err(e) => {
                sample_error.set(Some(format!("Sample data is not a JSON object: {e}")));
                return;
            }
        };
        if !editing.get() || draft.subject.is_empty() {
            return;
        }
        let n = seq.with_value(|s| s + 1);
        seq.set_value(n);
        let client = auth.client();
        set_timeout(
            move || {
                if seq.try_get_value() == Some(n) {
                    rendered.load(api::draft_preview(&client, &DraftPreview { version: draft, data }));
                }
            },
            DEBOUNCE,
        );
    });
    let edit = move |t: Option<&TemplateDetail>| {
        name.set(t.map(|t| t.name.clone()).unwrap_or_default());
        subject.set(t.map(|t| t.latest.subject.clone()).unwrap_or_default());
        text.set(t.and_then(|t| t.latest.text.clone()).unwrap_or_default());
        html.set(t.and_then(|t| t.latest.html.clone()).unwrap_or_default());
        let vars: Map<String, Value> = t
            .map(|t| t.latest.variables.iter().map(|v| (v.clone(), Value::String(format!("sample {v}")))).collect())
            .unwrap_or_default();
        sample.set(serde_json::to_string_pretty(&vars).unwrap_or_else(|_| "{}".into()));
        editing.set(true);
    };
    let busy = RwSignal::new(false);
    let save_error = RwSignal::new(None::<String>);
    let owner = StoredValue::new(Owner::current());
    let save = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let version = NewTemplateVersion {
            subject: subject.get_untracked(),
            text: Some(text.get_untracked()).filter(|t| !t.is_empty()),
            html: Some(html.get_untracked()).filter(|h| !h.is_empty()),
        };
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
                        toasts.show(
                            ToastKind::Success,
                            format!("Template “{}” saved as version {}.", t.name, t.latest.version),
                        );
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

    view! {
        <div class="email-templates">
            <div class="email-template-list">
                <Show when=move || admin.get()>
                    <button type="button" class="button" id="email-template-new" on:click=move |_| { open.set(None); edit(None); }>"New template"</button>
                </Show>
                {move || list.with(|l| match l {
                    None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                    Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                    Some(Ok(ts)) if ts.is_empty() => view! { <p class="muted">"No templates yet."</p> }.into_any(),
                    Some(Ok(ts)) => view! {
                        <ul id="email-template-list">
                            {ts.iter().map(|t| {
                                let id = t.id.clone();
                                view! { <li><button type="button" class="link-button" on:click=move |_| { editing.set(false); open.set(Some(id.clone())); }>{t.name.clone()}</button>
                                    <span class="muted">{format!(" v{} · {}", t.version, t.subject)}</span></li> }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                })}
            </div>
            <div class="email-template-main">
                <Show when=move || !editing.get()>
                    {move || open.get().map(|_| detail.with(|d| match d {
                        None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                        Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                        Some(Ok(t)) => {
                            let t2 = t.clone();
                            view! {
                                <h2>{t.name.clone()}</h2>
                                <p class="muted">{format!("{} · variables: {}", t.id, t.latest.variables.join(", "))}</p>
                                <Show when=move || admin.get()>
                                    {let t3 = t2.clone(); view! { <button type="button" class="button" id="email-template-edit" on:click=move |_| edit(Some(&t3))>"New version"</button> }}
                                </Show>
                                <table class="table">
                                    <caption>"Versions"</caption>
                                    <thead><tr><th scope="col">"Version"</th><th scope="col">"Subject"</th><th scope="col">"Saved"</th><th scope="col">"By"</th></tr></thead>
                                    <tbody>{t.versions.iter().map(|v| view! {
                                        <tr><td>{v.version}</td><td>{v.subject.clone()}</td><td>{v.created_at.clone()}</td><td>{v.created_by.clone()}</td></tr>
                                    }).collect_view()}</tbody>
                                </table>
                            }.into_any()
                        }
                    }))}
                </Show>
                <Show when=move || editing.get()>
                    <form class="email-template-editor" on:submit=save>
                        <Show when=move || open.with(Option::is_none)>
                            <div class="email-field"><label for="template-name">"Name"</label>
                                <input id="template-name" maxlength="128" prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev))/></div>
                        </Show>
                        <div class="email-field"><label for="template-subject">"Subject"</label>
                            <input id="template-subject" prop:value=move || subject.get() on:input=move |ev| subject.set(event_target_value(&ev))/></div>
                        <div class="email-field"><label for="template-text">"Plain text"</label>
                            <textarea id="template-text" rows="6" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea></div>
                        <div class="email-field"><label for="template-html">"HTML"</label>
                            <textarea id="template-html" rows="6" prop:value=move || html.get() on:input=move |ev| html.set(event_target_value(&ev))></textarea></div>
                        <div class="email-field"><label for="template-sample">"Sample data (JSON)"</label>
                            <textarea id="template-sample" rows="4" prop:value=move || sample.get() on:input=move |ev| sample.set(event_target_value(&ev))></textarea>
                            <p class="field-error" role="alert">{move || sample_error.get()}</p></div>
                        <div class="email-rendered" aria-live="polite">
                            {move || rendered.with(|r| match r {
                                Some(Ok(r)) => {
                                    let html = r.html.clone().unwrap_or_default();
                                    view! {
                                        <p><strong>"Subject: "</strong>{r.subject.clone()}</p>
                                        {r.text.clone().map(|t| view! { <pre class="email-text">{t}</pre> })}
                                        <HtmlPreview html=html title="Template draft preview"/>
                                    }.into_any()
                                }
                                Some(Err(e)) => view! { <p class="field-error">{e.to_string()}</p> }.into_any(),
                                None => ().into_any(),
                            })}
                        </div>
                        <p class="field-error" role="alert">{move || save_error.get()}</p>
                        <button type="submit" class="button primary" id="template-save" disabled=move || busy.get()>"Save"</button>
                        <button type="button" class="button" on:click=move |_| editing.set(false)>"Cancel"</button>
                    </form>
                </Show>
            </div>
        </div>
    }
}
