//! Templates: the list; one opened with its versions; an editor (a new template, or a new
//! version of the open one, editor.rs) whose preview renders the draft with sample data as it
//! is typed (debounced; a newer draft overtakes an older one). Saving needs the admin scope.
//! The editor's state and what is made of it are draft.rs; each part of the page is a
//! component here. With `audit:read`, the open template has an Activity tab.

mod draft;
mod editor;

use leptos::prelude::*;
use moneydesk_model::email::{RenderedTemplate, TemplateDetail, TemplateSummary};
use moneydesk_model::Scope;

use self::draft::TemplateForm;
use self::editor::TemplateEditor;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::i18n::{email::text, fill};
use crate::pages::activity::tab::{WithActivity, TEMPLATE};
use crate::session::use_auth;

#[component]
pub fn Templates() -> impl IntoView {
    let auth = use_auth();
    let admin = Memo::new(move |_| auth.can(Scope::Admin));
    let form = TemplateForm::new();
    let TemplateForm { open, changed, editing, .. } = form;
    let list = Answer::<Vec<TemplateSummary>>::new();
    Effect::new(move |_| {
        changed.track();
        list.load(api::templates(&auth.client()));
    });
    let detail = Answer::<TemplateDetail>::new();
    Effect::new(move |_| {
        if let Some(id) = open.get() {
            changed.track();
            detail.load(api::template(&auth.client(), &id));
        }
    });
    let rendered = Answer::<RenderedTemplate>::new();
    form.preview_as_typed(auth, rendered);

    view! {
        <div class="email-templates">
            <TemplateList form list admin/>
            <div class="email-template-main">
                <Show when=move || !editing.get()>
                    <OpenTemplate form detail admin/>
                </Show>
                <Show when=move || editing.get()>
                    <TemplateEditor form rendered/>
                </Show>
            </div>
        </div>
    }
}

/// The templates, each opening on a click; "New template" for an admin.
#[component]
fn TemplateList(form: TemplateForm, list: Answer<Vec<TemplateSummary>>, admin: Memo<bool>) -> impl IntoView {
    let TemplateForm { open, editing, .. } = form;
    let (all, t) = (text(), &text().templates);
    view! {
        <div class="email-template-list">
            <Show when=move || admin.get()>
                <button type="button" class="button" id="email-template-new" on:click=move |_| { open.set(None); form.edit(None); }>{t.new_template}</button>
            </Show>
            {move || list.with(|l| match l {
                None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(ts)) if ts.is_empty() => view! { <p class="muted">{t.none}</p> }.into_any(),
                Some(Ok(ts)) => view! {
                    <ul id="email-template-list">
                        {ts.iter().map(|s| {
                            let id = s.id.clone();
                            view! { <li><button type="button" class="link-button" on:click=move |_| { editing.set(false); open.set(Some(id.clone())); }>{s.name.clone()}</button>
                                <span class="muted">{fill(t.listed, &[&s.version.to_string(), &s.subject])}</span></li> }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            })}
        </div>
    }
}

/// The template open: its variables and versions; "New version" for an admin.
#[component]
fn OpenTemplate(form: TemplateForm, detail: Answer<TemplateDetail>, admin: Memo<bool>) -> impl IntoView {
    let open = form.open;
    let (all, words) = (text(), &text().templates);
    let c = &words.columns;
    move || {
        open.get().map(|_| detail.with(|d| match d {
            None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(t)) => {
                let t2 = t.clone();
                let about = fill(words.about, &[&t.id, &t.latest.variables.join(", ")]);
                let versions = t.versions.clone();
                view! {
                    <h2>{t.name.clone()}</h2>
                    <WithActivity target_type=TEMPLATE target_id=t.id.clone()>
                        <p class="muted">{about}</p>
                        <Show when=move || admin.get()>
                            {let t3 = t2.clone(); view! { <button type="button" class="button" id="email-template-edit" on:click=move |_| form.edit(Some(&t3))>{words.new_version}</button> }}
                        </Show>
                        <table class="table">
                            <caption>{words.versions}</caption>
                            <thead><tr><th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th><th scope="col">{c[3]}</th></tr></thead>
                            <tbody>{versions.into_iter().map(|v| view! {
                                <tr><td>{v.version}</td><td>{v.subject}</td><td>{v.created_at}</td><td>{v.created_by}</td></tr>
                            }).collect_view()}</tbody>
                        </table>
                    </WithActivity>
                }.into_any()
            }
        }))
    }
}
