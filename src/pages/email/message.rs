//! One message as it was sent: headers, each attempt with the relay's reply, the plain text,
//! the HTML in a sandboxed iframe (no scripts, no same origin), attachments and the raw MIME
//! to download; a failed message can be resent. The development mailbox's messages read the
//! same.

use leptos::prelude::*;
use moneydesk_model::email::{MessageDetail, MessageState};

use super::bounce_table::BounceTable;
use super::parts::{state_class, HtmlPreview};
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::download::save_blob;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::bytes;
use crate::i18n::{email::text, fill, vocab::say};
use crate::session::use_auth;

#[component]
pub fn MessageView(id: String, close: Callback<()>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let detail = Answer::<MessageDetail>::new();
    detail.load(api::message(&auth.client(), &id));
    let (all, t) = (text(), &text().message);
    let download = move |what: Result<(String, u32), String>| {
        let client = auth.client();
        leptos::task::spawn_local(async move {
            let (blob, name) = match what {
                Ok((id, index)) => (api::attachment(&client, &id, index).await, None),
                Err(id) => (api::raw(&client, &id).await, Some(format!("{id}.eml"))),
            };
            match blob {
                Ok(b) => {
                    let _ = save_blob(&b, name.as_deref().unwrap_or("attachment"));
                }
                Err(e) => toasts.show(ToastKind::Error, fill(t.download_failed, &[&e.to_string()])),
            }
        });
    };
    // Queues a failed message again, then shows it as it now stands.
    let resend = move |id: String| {
        let client = auth.client();
        leptos::task::spawn_local(async move {
            match api::resend(&client, &id).await {
                Ok(_) => detail.load(api::message(&client, &id)),
                Err(e) => toasts.show(ToastKind::Error, e.to_string()),
            }
        });
    };
    view! {
        <section class="email-message" aria-label=t.label id="email-message">
            <button type="button" class="button email-close" on:click=move |_| close.run(())>{all.close}</button>
            {move || detail.with(|d| match d {
                None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(m)) => {
                    let id = m.message.id.clone();
                    let raw_id = id.clone();
                    let resend_id = id.clone();
                    let badge = state_class(m.message.state);
                    let via = if m.message.delivery == moneydesk_model::email::Delivery::Mailbox { t.mailbox } else { t.relay };
                    let c = &t.attempt_columns;
                    view! {
                        <h2>{m.message.subject.clone()}</h2>
                        <p><span class=badge id="email-message-state">{say(m.message.state.label())}</span>
                            {[" · ", via, " · ", &m.message.id].concat()}
                            {(m.message.state == MessageState::Failed).then(|| view! { " " <button type="button" class="button" id="email-resend" on:click=move |_| resend(resend_id.clone())>{t.resend}</button> })}</p>
                        <table class="email-headers">
                            <caption class="sr-only">{t.headers}</caption>
                            <tbody>
                                {m.headers.iter().map(|h| view! { <tr><th scope="row">{h.name.clone()}</th><td>{h.value.clone()}</td></tr> }).collect_view()}
                                {(!m.bcc.is_empty()).then(|| view! { <tr><th scope="row">{t.bcc}</th><td>{m.bcc.join(", ")}</td></tr> })}
                                {(!m.message.suppressed.is_empty()).then(|| view! {
                                    <tr id="email-message-suppressed"><th scope="row">{t.suppressed}</th><td>{suppressed(&m.message.suppressed)}</td></tr>
                                })}
                            </tbody>
                        </table>
                        {(!m.bounces.is_empty()).then(|| view! {
                            <h3>{all.deliverability.message_bounces}</h3>
                            <BounceTable bounces=m.bounces.clone() id="email-message-bounces"/>
                        })}
                        <h3>{t.attempts}</h3>
                        <table class="table email-attempts">
                            <thead><tr><th scope="col">"#"</th><th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th></tr></thead>
                            <tbody>
                                {m.attempt_log.iter().map(|a| view! {
                                    <tr><td>{a.number}</td><td>{a.started_at.clone()}</td><td>{say(a.outcome.label())}</td><td>{a.reply.clone().or_else(|| a.resent_by.as_ref().map(|r| fill(t.resent_by, &[&r.token, &r.user]))).unwrap_or_default()}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                        {m.text.clone().map(|plain| view! { <h3>{t.plain_text}</h3><pre class="email-text" id="email-message-text">{plain}</pre> })}
                        {m.html.clone().map(|h| view! { <h3>{t.html}</h3><HtmlPreview html=h title=t.html_title/> })}
                        {(!m.attachments.is_empty()).then(|| view! {
                            <h3>{t.attachments}</h3>
                            <ul class="attachment-list" id="email-message-attachments">
                                {m.attachments.iter().map(|a| {
                                    let (id, index) = (id.clone(), a.index);
                                    view! {
                                        <li><button type="button" class="link-button" on:click=move |_| download(Ok((id.clone(), index)))>{a.filename.clone()}</button>
                                            <span class="muted">{format!(" {} · {}", bytes(a.size), a.content_type)}</span></li>
                                    }
                                }).collect_view()}
                            </ul>
                        })}
                        <button type="button" class="button" on:click=move |_| download(Err(raw_id.clone()))>{t.raw}</button>
                    }.into_any()
                }
            })}
        </section>
    }
}

/// The recipients the suppression list named: `addr (field, reason[, category])`, and
/// whether they were sent to anyway.
fn suppressed(list: &[moneydesk_model::email::suppressions::SuppressedRecipient]) -> String {
    let t = &text().message;
    list.iter()
        .map(|s| {
            let mut why = vec![s.field.clone(), say(s.reason.label()).to_string()];
            why.extend(s.category.clone());
            if s.bypassed {
                why.push(t.bypassed.to_string());
            }
            format!("{} ({})", s.email, why.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}
