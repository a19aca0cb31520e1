//! Compose: the sender (the server's identities), recipients as chips, a subject, and either
//! a plain and an HTML part (the HTML previewed live in a sandboxed iframe: no scripts, no
//! same origin) or a stored template with a form for its variables and a preview; attachments;
//! or a CSV for a bulk send. Before sending, the model's own rules run here and each problem is
//! shown by its field; the server's refusals are shown the same way. The form's state and what
//! is made of it (the request) are draft.rs; each part of the form is a component here.

mod draft;

use leptos::prelude::*;
use moneydesk_model::email::{RenderedTemplate, SenderIdentity, TemplateDetail, TemplatePreview, TemplateSummary};
use moneydesk_model::FieldError;

use self::draft::{from_address, preview_data, ComposeForm, Mode};
use super::attachments::Attachments;
use super::bulk::BulkPicker;
use super::bulk_preview::BulkPreview;
use super::parts::HtmlPreview;
use super::recipients::Recipients;
use crate::api::request::{submit, Answer};
use crate::api::{email as api, ApiError};
use crate::i18n::{email::text, fill};
use crate::session::use_auth;

/// The sender's address: the identity picked, or the local part typed for a domain's.
fn from_email(senders: Answer<Vec<SenderIdentity>>, form: ComposeForm) -> String {
    senders
        .with(|s| match s {
            Some(Ok(list)) => list.get(form.identity.get()).map(|i| from_address(&i.address, &form.local.get())),
            _ => None,
        })
        .unwrap_or_default()
}

#[component]
pub fn Compose() -> impl IntoView {
    let auth = use_auth();
    let senders = Answer::<Vec<SenderIdentity>>::new();
    let templates = Answer::<Vec<TemplateSummary>>::new();
    senders.load(api::senders(&auth.client()));
    templates.load(api::templates(&auth.client()));

    let form = ComposeForm::new();
    let template = Answer::<TemplateDetail>::new();
    let rendered = Answer::<RenderedTemplate>::new();
    let owner = Owner::current();

    Effect::new(move |_| {
        let id = form.template_id.get();
        if !id.is_empty() {
            template.load(api::template(&auth.client(), &id));
        }
    });
    let variables = Signal::derive(move || {
        template.with(|t| match t {
            Some(Ok(t)) => t.latest.variables.clone(),
            _ => Vec::new(),
        })
    });
    Effect::new(move |_| {
        let vars = variables.get();
        form.values.set(vars.into_iter().map(|v| (v, String::new())).collect());
    });

    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        form.notice.set(None);
        let now = (js_sys::Date::now() / 1000.0) as i64;
        let request = match form.draft(from_email(senders, form)).checked(now) {
            Ok(request) => request,
            Err(found) => return form.problems.set(found),
        };
        form.problems.set(Vec::new());
        submit(
            form.busy,
            &owner,
            || api::send(&auth.client(), &request),
            move |r: Result<Vec<String>, ApiError>| match r {
                Ok(ids) => form.sent(&ids),
                Err(ApiError::Validation { message, fields }) => form.problems.set(if fields.is_empty() {
                    vec![FieldError::new("request", message)]
                } else {
                    fields
                }),
                Err(e) => form.problems.set(vec![FieldError::new("request", e.to_string())]),
            },
        );
    };

    let (sheet, mapping, mode, template_id) = (form.sheet, form.mapping, form.mode, form.template_id);
    let (t, subject) = (&text().compose, text().templates.subject);
    view! {
        <form class="email-compose" on:submit=send novalidate>
            <FromField form senders/>
            <Show when=move || sheet.with(Option::is_none) fallback=move || view! { <p class="muted">{t.csv_recipients}</p> }>
                <Recipients id="email-to" label=t.to chips=form.to/>
                <button type="button" class="link-button" on:click=move |_| form.show_cc.update(|s| *s = !*s)>{move || if form.show_cc.get() { t.hide_cc } else { t.show_cc }}</button>
                <Show when=move || form.show_cc.get()>
                    <Recipients id="email-cc" label=t.cc chips=form.cc/>
                    <Recipients id="email-bcc" label=t.bcc chips=form.bcc/>
                </Show>
            </Show>
            <div class="email-field">
                <label for="email-subject">{move || if mode.get() == Mode::Template { t.subject_optional } else { subject }}</label>
                <input id="email-subject" maxlength="998" prop:value=move || form.subject.get() on:input=move |ev| form.subject.set(event_target_value(&ev))/>
            </div>
            <fieldset class="email-mode">
                <legend>{t.content}</legend>
                <label><input type="radio" name="email-mode" id="email-mode-write" prop:checked=move || mode.get() == Mode::Write on:change=move |_| mode.set(Mode::Write)/>{t.write}</label>
                <label><input type="radio" name="email-mode" id="email-mode-template" prop:checked=move || mode.get() == Mode::Template on:change=move |_| mode.set(Mode::Template)/>{t.use_template}</label>
            </fieldset>
            <Show when=move || mode.get() == Mode::Write fallback=move || view! { <TemplateFields form templates rendered/> }>
                <Editors form/>
            </Show>
            <Attachments picked=form.picked/>
            <BulkPicker sheet mapping variables/>
            <BulkPreview sheet mapping subject=form.subject template=Signal::derive(move || (mode.get() == Mode::Template).then(|| template_id.get()).filter(|t| !t.is_empty()))/>
            <Outcome form/>
        </form>
    }
}

/// The sender: the identity, the local part for a domain's, the display name, and the address.
#[component]
fn FromField(form: ComposeForm, senders: Answer<Vec<SenderIdentity>>) -> impl IntoView {
    let ComposeForm { identity, local, from_name, .. } = form;
    let (all, t) = (text(), &text().compose);
    view! {
        <div class="email-field">
            <label for="email-from">{t.from}</label>
            <div class="email-from">
                <select id="email-from" on:change=move |ev| identity.set(event_target_value(&ev).parse().unwrap_or(0))>
                    {move || senders.with(|s| match s {
                        Some(Ok(list)) => list.iter().enumerate().map(|(i, s)| {
                            let shown = if s.address.starts_with('@') { fill(t.any_address, &[&s.address]) } else { s.address.clone() };
                            view! { <option value=i.to_string()>{shown}</option> }
                        }).collect_view().into_any(),
                        _ => view! { <option value="0">{all.loading}</option> }.into_any(),
                    })}
                </select>
                <Show when=move || senders.with(|s| matches!(s, Some(Ok(l)) if l.get(identity.get()).is_some_and(|i| i.address.starts_with('@'))))>
                    <label for="email-from-local" class="sr-only">{t.local_label}</label>
                    <input id="email-from-local" prop:value=move || local.get() on:input=move |ev| local.set(event_target_value(&ev))/>
                </Show>
                <label for="email-from-name" class="sr-only">{t.display_label}</label>
                <input id="email-from-name" placeholder=t.display_hint prop:value=move || from_name.get() on:input=move |ev| from_name.set(event_target_value(&ev))/>
            </div>
            <p class="muted" id="email-from-address">{move || from_email(senders, form)}</p>
        </div>
    }
}

/// The plain and HTML parts, the HTML previewed as typed.
#[component]
fn Editors(form: ComposeForm) -> impl IntoView {
    let ComposeForm { text: plain, html, .. } = form;
    let (words, t) = (&text().templates, &text().compose);
    view! {
        <div class="email-editors">
            <div class="email-field">
                <label for="email-text">{words.plain_text}</label>
                <textarea id="email-text" rows="8" prop:value=move || plain.get() on:input=move |ev| plain.set(event_target_value(&ev))></textarea>
            </div>
            <div class="email-field">
                <label for="email-html">{words.html}</label>
                <textarea id="email-html" rows="8" prop:value=move || html.get() on:input=move |ev| html.set(event_target_value(&ev))></textarea>
            </div>
            <div class="email-field">
                <span class="label">{t.html_preview}</span>
                <HtmlPreview html=html title=t.html_preview/>
            </div>
        </div>
    }
}

/// A stored template: its pick, a field for each variable (none in bulk: the CSV has them),
/// and the preview the server renders.
#[component]
fn TemplateFields(
    form: ComposeForm,
    templates: Answer<Vec<TemplateSummary>>,
    rendered: Answer<RenderedTemplate>,
) -> impl IntoView {
    let auth = use_auth();
    let ComposeForm { template_id, values, sheet, mapping, .. } = form;
    let preview = move |_| {
        let id = template_id.get_untracked();
        if id.is_empty() {
            return;
        }
        let data = sheet
            .with_untracked(|s| mapping.with_untracked(|m| values.with_untracked(|v| preview_data(s.as_ref(), m, v))));
        rendered.load(api::preview(&auth.client(), &id, &TemplatePreview { version: None, data }));
    };
    let t = &text().compose;
    view! {
        <div class="email-template">
            <label for="email-template">{t.template}</label>
            <select id="email-template" on:change=move |ev| template_id.set(event_target_value(&ev))>
                <option value="">{t.pick}</option>
                {move || templates.with(|list| match list {
                    Some(Ok(list)) => list.iter().map(|s| view! { <option value=s.id.clone()>{fill(t.template_option, &[&s.name, &s.version.to_string()])}</option> }).collect_view().into_any(),
                    _ => ().into_any(),
                })}
            </select>
            <Show when=move || sheet.with(Option::is_none)>
                {move || values.get().into_iter().enumerate().map(|(i, (name, value))| {
                    let id = format!("email-var-{name}");
                    view! {
                        <div class="email-field">
                            <label for=format!("{id}")>{name.clone()}</label>
                            <input id=id prop:value=value on:input=move |ev| {
                                let v = event_target_value(&ev);
                                values.update(|vals| if let Some(x) = vals.get_mut(i) { x.1 = v; });
                            }/>
                        </div>
                    }
                }).collect_view()}
            </Show>
            <button type="button" class="button" id="email-template-preview" on:click=preview disabled=move || template_id.with(String::is_empty)>{t.preview}</button>
            {move || rendered.with(|r| match r {
                Some(Ok(r)) => {
                    let html = r.html.clone().unwrap_or_default();
                    view! {
                        <div class="email-rendered">
                            <p><strong>{text().templates.subject_said}</strong><span id="email-rendered-subject">{r.subject.clone()}</span></p>
                            {r.text.clone().map(|plain| view! { <pre class="email-text">{plain}</pre> })}
                            <HtmlPreview html=html title=t.template_preview/>
                        </div>
                    }.into_any()
                }
                Some(Err(e)) => view! { <p class="field-error" role="alert">{e.to_string()}</p> }.into_any(),
                None => ().into_any(),
            })}
        </div>
    }
}

/// What the last try found wrong, or what it queued; and the send button.
#[component]
fn Outcome(form: ComposeForm) -> impl IntoView {
    let ComposeForm { problems, notice, busy, sheet, .. } = form;
    let t = &text().compose;
    view! {
        {move || {
            let p = problems.get();
            (!p.is_empty()).then(|| view! {
                <div class="email-problems" role="alert" id="email-problems">
                    <p>{t.not_sent}</p>
                    <ul>{p.into_iter().map(|f| view! { <li><code>{f.field}</code>" "{f.problem}</li> }).collect_view()}</ul>
                </div>
            })
        }}
        {move || notice.get().map(|n| view! {
            <p class="email-notice" role="status" id="email-notice">{n}" "<a href="?tab=outbox">{t.see_outbox}</a></p>
        })}
        <button type="submit" class="button primary" id="email-send" disabled=move || busy.get()>
            {move || sheet.with(|s| match s {
                Some(s) => fill(t.send_n, &[&s.rows.len().to_string()]),
                None => t.send.to_string(),
            })}
        </button>
    }
}
