//! Compose: the sender (the server's identities), recipients as chips, a subject, and either
//! a plain and an HTML part (the HTML previewed live in a sandboxed iframe: no scripts, no
//! same origin) or a stored template with a form for its variables and a preview; attachments;
//! or a CSV for a bulk send. Before sending, the model's own rules run here and each problem is
//! shown by its field; the server's refusals are shown the same way.

use leptos::prelude::*;
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::email::{
    Attachment, Content, Mailbox, Personalization, RenderedTemplate, SendRequest, SenderIdentity, TemplateDetail,
    TemplatePreview, TemplateSummary,
};
use moneydesk_model::FieldError;
use serde_json::{Map, Value};

use super::attachments::{Attachments, Picked};
use super::bulk::{BulkPicker, Sheet};
use super::bulk_preview::BulkPreview;
use super::recipients::Recipients;
use crate::api::request::{submit, Answer};
use crate::api::{email as api, ApiError};
use crate::session::use_auth;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Write,
    Template,
}

/// The sandboxed preview of an HTML part: scripts never run and the document is of no origin.
#[component]
pub fn HtmlPreview(#[prop(into)] html: Signal<String>, title: &'static str) -> impl IntoView {
    view! { <iframe class="email-preview" sandbox="" title=title srcdoc=move || html.get()></iframe> }
}

#[component]
pub fn Compose() -> impl IntoView {
    let auth = use_auth();
    let senders = Answer::<Vec<SenderIdentity>>::new();
    let templates = Answer::<Vec<TemplateSummary>>::new();
    senders.load(api::senders(&auth.client()));
    templates.load(api::templates(&auth.client()));

    let identity = RwSignal::new(0usize);
    let local = RwSignal::new("ops".to_string());
    let from_name = RwSignal::new(String::new());
    let (to, cc, bcc) =
        (RwSignal::new(Vec::<String>::new()), RwSignal::new(Vec::<String>::new()), RwSignal::new(Vec::<String>::new()));
    let show_cc = RwSignal::new(false);
    let subject = RwSignal::new(String::new());
    let mode = RwSignal::new(Mode::Write);
    let (text, html) = (RwSignal::new(String::new()), RwSignal::new(String::new()));
    let template_id = RwSignal::new(String::new());
    let template = Answer::<TemplateDetail>::new();
    let values = RwSignal::new(Vec::<(String, String)>::new());
    let rendered = Answer::<RenderedTemplate>::new();
    let picked = RwSignal::new(Vec::<Picked>::new());
    let sheet = RwSignal::new(None::<Sheet>);
    let mapping = RwSignal::new(Vec::<(String, Option<String>)>::new());
    let problems = RwSignal::new(Vec::<FieldError>::new());
    let notice = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let owner = Owner::current();

    Effect::new(move |_| {
        let id = template_id.get();
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
        values.set(vars.into_iter().map(|v| (v, String::new())).collect());
    });

    // The sender's address: the identity's, or the local part typed for a domain's.
    let from_email = move || {
        senders
            .with(|s| match s {
                Some(Ok(list)) => list.get(identity.get()).map(|i| match i.address.strip_prefix('@') {
                    Some(domain) => format!("{}@{domain}", local.get().trim()),
                    None => i.address.clone(),
                }),
                _ => None,
            })
            .unwrap_or_default()
    };
    let data_of = move |pairs: &[(String, String)]| -> Map<String, Value> {
        pairs.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect()
    };
    let mailboxes = |list: Vec<String>| list.into_iter().map(|email| Mailbox { email, name: None }).collect::<Vec<_>>();

    let build = move || -> SendRequest {
        let templated = mode.get_untracked() == Mode::Template;
        let personalizations = match sheet.get_untracked() {
            Some(s) => {
                let mapping = mapping.get_untracked();
                (0..s.rows.len()).map(|i| s.personalization(i, &mapping, templated)).collect()
            }
            None => vec![Personalization {
                to: mailboxes(to.get_untracked()),
                cc: mailboxes(cc.get_untracked()),
                bcc: mailboxes(bcc.get_untracked()),
                dynamic_template_data: templated.then(|| data_of(&values.get_untracked())),
                ..Default::default()
            }],
        };
        let mut content = Vec::new();
        if !templated {
            if !text.get_untracked().is_empty() {
                content.push(Content { kind: "text/plain".into(), value: text.get_untracked() });
            }
            if !html.get_untracked().is_empty() {
                content.push(Content { kind: "text/html".into(), value: html.get_untracked() });
            }
        }
        SendRequest {
            from: Mailbox {
                email: from_email(),
                name: Some(from_name.get_untracked()).filter(|n| !n.trim().is_empty()),
            },
            subject: Some(subject.get_untracked()).filter(|s| !s.is_empty()),
            content,
            personalizations,
            attachments: picked
                .get_untracked()
                .iter()
                .map(|a| Attachment {
                    content: encode_base64(&a.bytes),
                    filename: a.name.clone(),
                    kind: Some(a.content_type.clone()),
                    disposition: a.inline.then(|| "inline".to_string()),
                    content_id: a.inline.then(|| a.content_id()),
                })
                .collect(),
            template_id: templated.then(|| template_id.get_untracked()).filter(|t| !t.is_empty()),
            ..Default::default()
        }
    };

    let preview = move |_| {
        let id = template_id.get_untracked();
        if id.is_empty() {
            return;
        }
        let data = match sheet.get_untracked() {
            Some(s) if !s.rows.is_empty() => s.data(0, &mapping.get_untracked()),
            _ => data_of(&values.get_untracked()),
        };
        rendered.load(api::preview(&auth.client(), &id, &TemplatePreview { version: None, data }));
    };

    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        notice.set(None);
        let request = build();
        if mode.get_untracked() == Mode::Template && template_id.get_untracked().is_empty() {
            problems.set(vec![FieldError::new("template_id", "pick a template")]);
            return;
        }
        let now = (js_sys::Date::now() / 1000.0) as i64;
        if let Err(found) = request.check(now) {
            problems.set(found);
            return;
        }
        problems.set(Vec::new());
        submit(
            busy,
            &owner,
            || api::send(&auth.client(), &request),
            move |r: Result<Vec<String>, ApiError>| match r {
                Ok(ids) => {
                    notice.set(Some(format!(
                        "{} queued: {}",
                        if ids.len() == 1 { "1 message".to_string() } else { format!("{} messages", ids.len()) },
                        ids.join(", ")
                    )));
                    to.set(Vec::new());
                    cc.set(Vec::new());
                    bcc.set(Vec::new());
                    picked.set(Vec::new());
                    sheet.set(None);
                }
                Err(ApiError::Validation { message, fields }) => {
                    problems.set(if fields.is_empty() { vec![FieldError::new("request", message)] } else { fields })
                }
                Err(e) => problems.set(vec![FieldError::new("request", e.to_string())]),
            },
        );
    };

    view! {
        <form class="email-compose" on:submit=send novalidate>
            <div class="email-field">
                <label for="email-from">"From"</label>
                <div class="email-from">
                    <select id="email-from" on:change=move |ev| identity.set(event_target_value(&ev).parse().unwrap_or(0))>
                        {move || senders.with(|s| match s {
                            Some(Ok(list)) => list.iter().enumerate().map(|(i, s)| {
                                let shown = if s.address.starts_with('@') { format!("any address {}", s.address) } else { s.address.clone() };
                                view! { <option value=i.to_string()>{shown}</option> }
                            }).collect_view().into_any(),
                            _ => view! { <option value="0">"Loading…"</option> }.into_any(),
                        })}
                    </select>
                    <Show when=move || senders.with(|s| matches!(s, Some(Ok(l)) if l.get(identity.get()).is_some_and(|i| i.address.starts_with('@'))))>
                        <label for="email-from-local" class="sr-only">"Sender's name before the @"</label>
                        <input id="email-from-local" prop:value=move || local.get() on:input=move |ev| local.set(event_target_value(&ev))/>
                    </Show>
                    <label for="email-from-name" class="sr-only">"Sender's display name"</label>
                    <input id="email-from-name" placeholder="Display name (optional)" prop:value=move || from_name.get() on:input=move |ev| from_name.set(event_target_value(&ev))/>
                </div>
                <p class="muted" id="email-from-address">{move || from_email()}</p>
            </div>
            <Show when=move || sheet.with(Option::is_none) fallback=|| view! { <p class="muted">"Recipients come from the CSV (one message a row; cc and bcc are not used)."</p> }>
                <Recipients id="email-to" label="To" chips=to/>
                <button type="button" class="link-button" on:click=move |_| show_cc.update(|s| *s = !*s)>{move || if show_cc.get() { "Hide Cc and Bcc" } else { "Cc and Bcc" }}</button>
                <Show when=move || show_cc.get()>
                    <Recipients id="email-cc" label="Cc" chips=cc/>
                    <Recipients id="email-bcc" label="Bcc" chips=bcc/>
                </Show>
            </Show>
            <div class="email-field">
                <label for="email-subject">{move || if mode.get() == Mode::Template { "Subject (optional: the template has one)" } else { "Subject" }}</label>
                <input id="email-subject" maxlength="998" prop:value=move || subject.get() on:input=move |ev| subject.set(event_target_value(&ev))/>
            </div>
            <fieldset class="email-mode">
                <legend>"Content"</legend>
                <label><input type="radio" name="email-mode" id="email-mode-write" prop:checked=move || mode.get() == Mode::Write on:change=move |_| mode.set(Mode::Write)/>" Write"</label>
                <label><input type="radio" name="email-mode" id="email-mode-template" prop:checked=move || mode.get() == Mode::Template on:change=move |_| mode.set(Mode::Template)/>" Use a template"</label>
            </fieldset>
            <Show when=move || mode.get() == Mode::Write fallback=move || view! {
                <div class="email-template">
                    <label for="email-template">"Template"</label>
                    <select id="email-template" on:change=move |ev| template_id.set(event_target_value(&ev))>
                        <option value="">"— pick a template —"</option>
                        {move || templates.with(|t| match t {
                            Some(Ok(list)) => list.iter().map(|t| view! { <option value=t.id.clone()>{format!("{} (v{})", t.name, t.version)}</option> }).collect_view().into_any(),
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
                    <button type="button" class="button" id="email-template-preview" on:click=preview disabled=move || template_id.with(String::is_empty)>"Preview"</button>
                    {move || rendered.with(|r| match r {
                        Some(Ok(r)) => {
                            let html = r.html.clone().unwrap_or_default();
                            view! {
                                <div class="email-rendered">
                                    <p><strong>"Subject: "</strong><span id="email-rendered-subject">{r.subject.clone()}</span></p>
                                    {r.text.clone().map(|t| view! { <pre class="email-text">{t}</pre> })}
                                    <HtmlPreview html=html title="Template preview"/>
                                </div>
                            }.into_any()
                        }
                        Some(Err(e)) => view! { <p class="field-error" role="alert">{e.to_string()}</p> }.into_any(),
                        None => ().into_any(),
                    })}
                </div>
            }>
                <div class="email-editors">
                    <div class="email-field">
                        <label for="email-text">"Plain text"</label>
                        <textarea id="email-text" rows="8" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    </div>
                    <div class="email-field">
                        <label for="email-html">"HTML"</label>
                        <textarea id="email-html" rows="8" prop:value=move || html.get() on:input=move |ev| html.set(event_target_value(&ev))></textarea>
                    </div>
                    <div class="email-field">
                        <span class="label">"HTML preview"</span>
                        <HtmlPreview html=html title="HTML preview"/>
                    </div>
                </div>
            </Show>
            <Attachments picked/>
            <BulkPicker sheet mapping variables/>
            <BulkPreview sheet mapping subject template=Signal::derive(move || (mode.get() == Mode::Template).then(|| template_id.get()).filter(|t| !t.is_empty()))/>
            {move || {
                let p = problems.get();
                (!p.is_empty()).then(|| view! {
                    <div class="email-problems" role="alert" id="email-problems">
                        <p>"Not sent:"</p>
                        <ul>{p.into_iter().map(|f| view! { <li><code>{f.field}</code>" "{f.message}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
            {move || notice.get().map(|n| view! {
                <p class="email-notice" role="status" id="email-notice">{n}" "<a href="?tab=outbox">"See the Outbox"</a></p>
            })}
            <button type="submit" class="button primary" id="email-send" disabled=move || busy.get()>
                {move || sheet.with(|s| match s {
                    Some(s) => format!("Send {} messages", s.rows.len()),
                    None => "Send".to_string(),
                })}
            </button>
        </form>
    }
}
