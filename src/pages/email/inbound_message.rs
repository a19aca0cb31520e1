//! One inbound message: its envelope, its attachments, and every delivery attempt with the
//! receiver's status and the start of its answer (or why it could not be reached);
//! "Redeliver" posts a delivered or failed one again.

use leptos::prelude::*;
use moneydesk_model::email::inbound::{InboundDetail, InboundMessage, InboundState};

use super::parts::{inbound_badge, when};
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::format::bytes;
use crate::i18n::{email::text, fill};
use crate::session::use_auth;

/// The SMTP envelope: `MAIL FROM <a@b> → c@d`.
fn envelope(mail_from: &str, rcpt_to: &[String]) -> String {
    format!("MAIL FROM <{mail_from}> → {}", rcpt_to.join(", "))
}

/// A receiver's HTTP status as a badge class: delivered (2xx) or failed.
fn status_class(ok: bool) -> &'static str {
    if ok {
        "badge inbound-delivered"
    } else {
        "badge inbound-failed"
    }
}

#[component]
pub fn InboundView(id: String, on_change: Callback<()>, close: Callback<()>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let answer = Answer::<InboundDetail>::new();
    let id = StoredValue::new(id);
    let tick = RwSignal::new(0u32);
    Effect::new(move |_| {
        tick.track();
        answer.load(api::inbound_message(&auth.client(), &id.get_value()));
    });
    // Follows a delivery under way.
    Effect::new(move |_| {
        if answer.with(
            |a| matches!(a, Some(Ok(d)) if matches!(d.message.state, InboundState::Pending | InboundState::Delivering)),
        ) {
            set_timeout(
                move || {
                    tick.try_update(|t| *t += 1);
                },
                std::time::Duration::from_secs(2),
            );
        }
    });
    let busy = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let (all, t) = (text(), &text().inbound);
    let c = &t.attempt_columns;
    let redeliver = Callback::new(move |()| {
        submit(
            busy,
            &owner,
            || api::redeliver_inbound(&auth.client(), &id.get_value()),
            move |r: Result<InboundMessage, ApiError>| match r {
                Ok(_) => {
                    said.set(Some(t.posting.into()));
                    tick.update(|t| *t += 1);
                    on_change.run(());
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    view! {
        <section class="email-message email-inbound-message" id="inbound-message" aria-labelledby="inbound-message-title">
            {move || answer.with(|a| match a {
                None => view! { <p class="muted" role="status">{all.loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                Some(Ok(d)) => {
                    let m = &d.message;
                    view! {
                        <h3 id="inbound-message-title">{if m.subject.is_empty() { all.outbox.no_subject.to_string() } else { m.subject.clone() }}" "{inbound_badge(m.state)}</h3>
                        <dl class="verification-facts">
                            <dt>{t.from}</dt><dd>{m.from.clone()}</dd>
                            <dt>{t.envelope}</dt><dd class="mono">{envelope(&m.mail_from, &m.rcpt_to)}</dd>
                            <dt>{t.received}</dt><dd>{fill(t.received_how, &[&when(&m.received_at), if m.received_by == "smtp" { t.by_smtp } else { t.by_api }, &bytes(m.size)])}</dd>
                            {m.next_attempt_at.clone().map(|n| view! { <dt>{t.next_attempt}</dt><dd>{when(&n)}</dd> })}
                        </dl>
                        {(!d.attachments.is_empty()).then(|| view! {
                            <h4>{all.message.attachments}</h4>
                            <ul class="email-attachments">{d.attachments.iter().map(|a| view! {
                                <li>{format!("{} ({}, {})", a.filename, a.content_type, bytes(a.size))}</li>
                            }).collect_view()}</ul>
                        })}
                        <h4>{t.deliveries}</h4>
                        {if d.attempts_made.is_empty() {
                            view! { <p class="muted">{t.not_posted}</p> }.into_any()
                        } else {
                            view! {
                                <table class="email-table" id="inbound-attempts">
                                    <caption class="sr-only">{t.attempts_caption}</caption>
                                    <thead><tr>
                                        <th scope="col">"#"</th><th scope="col">{c[0]}</th><th scope="col">{c[1]}</th>
                                        <th scope="col">{c[2]}</th><th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                                    </tr></thead>
                                    <tbody>{d.attempts_made.iter().map(|a| {
                                        let ok = a.status.is_some_and(|s| (200..300).contains(&s));
                                        view! {
                                            <tr>
                                                <td>{a.number}</td>
                                                <td>{when(&a.started_at)}</td>
                                                <td class="mono">{a.url.clone()}</td>
                                                <td>{match a.status {
                                                    Some(s) => view! { <span class=status_class(ok)>{s}</span> }.into_any(),
                                                    None => view! { <span class="muted">{t.no_answer}</span> }.into_any(),
                                                }}</td>
                                                <td>{a.duration_ms.map(|ms| fill(t.took, &[&ms.to_string()])).unwrap_or_default()}</td>
                                                <td class="muted">{a.result.clone()}</td>
                                            </tr>
                                        }
                                    }).collect_view()}</tbody>
                                </table>
                            }.into_any()
                        }}
                    }.into_any()
                }
            })}
            <div class="email-verify-row">
                <Show when=move || answer.with(|a| matches!(a, Some(Ok(d)) if matches!(d.message.state, InboundState::Delivered | InboundState::Failed)))>
                    <button type="button" class="primary" id="inbound-redeliver" disabled=move || busy.get() on:click=move |_| redeliver.run(())>{t.redeliver.0}</button>
                </Show>
                <button type="button" class="secondary" on:click=move |_| close.run(())>{all.close}</button>
            </div>
            <p role="status" id="inbound-said">{move || said.get()}</p>
        </section>
    }
}
