//! One message as it was sent: headers, each attempt with the relay's reply, the plain text,
//! the HTML in a sandboxed iframe (no scripts, no same origin), attachments and the raw MIME
//! to download; a failed message can be resent. The development mailbox's messages read the
//! same.

use leptos::prelude::*;
use moneydesk_model::email::{MessageDetail, MessageState};

use super::parts::HtmlPreview;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::download::save_blob;
use crate::components::error_view::ApiErrorView;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::format::bytes;
use crate::session::use_auth;

#[component]
pub fn MessageView(id: String, close: Callback<()>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let detail = Answer::<MessageDetail>::new();
    detail.load(api::message(&auth.client(), &id));
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
                Err(e) => toasts.show(ToastKind::Error, format!("Download failed: {e}")),
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
        <section class="email-message" aria-label="Message" id="email-message">
            <button type="button" class="button email-close" on:click=move |_| close.run(())>"Close"</button>
            {move || detail.with(|d| match d {
                None => view! { <p class="muted" aria-busy="true">"Loading…"</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(m)) => {
                    let id = m.message.id.clone();
                    let raw_id = id.clone();
                    let resend_id = id.clone();
                    view! {
                        <h2>{m.message.subject.clone()}</h2>
                        <p><span class=format!("badge state-{}", m.message.state.as_str()) id="email-message-state">{m.message.state.label()}</span>
                            {format!(" · {} · {}", if m.message.delivery == moneydesk_model::email::Delivery::Mailbox { "development mailbox" } else { "SMTP relay" }, m.message.id)}
                            {(m.message.state == MessageState::Failed).then(|| view! { " " <button type="button" class="button" id="email-resend" on:click=move |_| resend(resend_id.clone())>"Resend"</button> })}</p>
                        <table class="email-headers">
                            <caption class="sr-only">"Headers"</caption>
                            <tbody>
                                {m.headers.iter().map(|h| view! { <tr><th scope="row">{h.name.clone()}</th><td>{h.value.clone()}</td></tr> }).collect_view()}
                                {(!m.bcc.is_empty()).then(|| view! { <tr><th scope="row">"Bcc (envelope only)"</th><td>{m.bcc.join(", ")}</td></tr> })}
                            </tbody>
                        </table>
                        <h3>"Attempts"</h3>
                        <table class="table email-attempts">
                            <thead><tr><th scope="col">"#"</th><th scope="col">"Started"</th><th scope="col">"Outcome"</th><th scope="col">"Reply"</th></tr></thead>
                            <tbody>
                                {m.attempt_log.iter().map(|a| view! {
                                    <tr><td>{a.number}</td><td>{a.started_at.clone()}</td><td>{a.outcome.label()}</td><td>{a.reply.clone().or_else(|| a.resent_by.as_ref().map(|r| format!("Resent by {} ({})", r.token, r.user))).unwrap_or_default()}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                        {m.text.clone().map(|t| view! { <h3>"Plain text"</h3><pre class="email-text" id="email-message-text">{t}</pre> })}
                        {m.html.clone().map(|h| view! { <h3>"HTML"</h3><HtmlPreview html=h title="Message HTML"/> })}
                        {(!m.attachments.is_empty()).then(|| view! {
                            <h3>"Attachments"</h3>
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
                        <button type="button" class="button" on:click=move |_| download(Err(raw_id.clone()))>"Download the raw MIME (.eml)"</button>
                    }.into_any()
                }
            })}
        </section>
    }
}
