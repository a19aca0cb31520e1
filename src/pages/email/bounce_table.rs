//! The bounces and complaints table, shown alike by the Deliverability tab (the latest, each
//! with a link to its message) and by a message (its own, without the link). Here rather than
//! in one of them so neither imports the other.

use leptos::prelude::*;
use moneydesk_model::email::bounces::Bounce;

use super::parts::when;
use super::use_go;
use crate::i18n::{email::text, fill, vocab::say};

#[component]
pub fn BounceTable(bounces: Vec<Bounce>, #[prop(optional)] links: bool, id: &'static str) -> impl IntoView {
    let t = &text().deliverability;
    let go = use_go();
    let c = &t.bounce_columns;
    view! {
        <table class="table email-table email-bounces" id=id>
            <caption class="sr-only">{t.bounces_caption}</caption>
            <thead><tr>
                <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th><th scope="col">{c[5]}</th>
                {links.then(|| view! { <th scope="col">{c[6]}</th> })}
            </tr></thead>
            <tbody>
                {bounces.into_iter().map(|b| {
                    let kind_class = badge(b.kind.as_str());
                    let message = b.message_id.clone();
                    view! {
                        <tr data-id=b.id.clone()>
                            <td>{when(&b.received_at)}</td>
                            <td>{b.email.clone()}</td>
                            <td><span class=kind_class>{say(b.kind.label())}</span></td>
                            <td>{b.status.clone().unwrap_or_else(|| b.action.clone())}</td>
                            <td class="muted">{b.diagnostic.clone().unwrap_or_default()}</td>
                            <td>{if b.suppressed { t.yes } else { t.no }}</td>
                            {links.then(|| view! {
                                <td>{message.map(|m| {
                                    let label = fill(t.open, &[&m]);
                                    let to = m.clone();
                                    view! {
                                        <button type="button" class="link-button bounce-message" aria-label=label
                                            on:click=move |_| go.run(vec![("tab".into(), "outbox".into()), ("message".into(), to.clone())])>{m}</button>
                                    }
                                })}</td>
                            })}
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// A bounce kind's badge classes (its colour in email.css).
fn badge(kind: &str) -> String {
    format!("badge bounce-{kind}")
}
