//! The first messages of a bulk send as they will be sent: each of the CSV's first rows with
//! its recipient and, with a template, the subject, text and HTML the server renders from that
//! row's data (the template preview endpoint: the renderer the send uses). A row the send would
//! refuse (a variable its data lacks, no address) is marked with the server's reason, so the
//! CSV is fixed before sending. Rendered again when the CSV, the mapping or the template
//! changes; a render still on its way is then aborted and its answer dropped.

use leptos::prelude::*;
use moneydesk_model::email::{RenderedTemplate, TemplatePreview};

use super::bulk::Sheet;
use super::parts::HtmlPreview;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::api::ApiError;
use crate::i18n::{email::text, fill};
use crate::session::use_auth;

/// How many rows are previewed.
const SHOWN: usize = 3;

/// `template`: the template the send will use, if any (none: the compose form's own parts).
#[component]
pub fn BulkPreview(
    sheet: RwSignal<Option<Sheet>>,
    mapping: RwSignal<Vec<(String, Option<String>)>>,
    subject: RwSignal<String>,
    template: Signal<Option<String>>,
) -> impl IntoView {
    let auth = use_auth();
    let rendered: [Answer<RenderedTemplate>; SHOWN] = std::array::from_fn(|_| Answer::new());
    // Each run's requests belong to the effect's owner, which the next run cleans up first:
    // the client aborts them, and `Answer` drops whatever a superseded load still brings.
    Effect::new(move |_| {
        let Some(id) = template.get() else { return };
        let mapping = mapping.get();
        sheet.with(|s| {
            let Some(s) = s else { return };
            for (i, answer) in rendered.iter().enumerate().take(s.rows.len()) {
                let data = s.personalization(i, &mapping, true).dynamic_template_data.unwrap_or_default();
                answer.load(api::preview(&auth.client(), &id, &TemplatePreview { version: None, data }));
            }
        });
    });

    let (all, t) = (text(), &text().compose);
    let row = move |s: &Sheet, i: usize| {
        let p = s.personalization(i, &[], false);
        let to = &p.to[0];
        let shown_to = match (&to.name, to.email.is_empty()) {
            (_, true) => None,
            (Some(n), false) => Some(format!("{n} <{}>", to.email)),
            (None, false) => Some(to.email.clone()),
        };
        // The form's subject is every message's, and overrides a template's (as the send does).
        let own_subject = move || Some(subject.get()).filter(|s| !s.is_empty());
        let body = move || {
            match template.get() {
            None => view! { <p><strong>{all.templates.subject_said}</strong><span class="email-bulk-subject">{own_subject().unwrap_or_else(|| all.outbox.no_subject.into())}</span></p> }.into_any(),
            Some(_) => rendered[i].with(|r| match r {
                None => view! { <p class="muted" aria-busy="true">{t.rendering}</p> }.into_any(),
                Some(Ok(r)) => {
                    let html = r.html.clone();
                    view! {
                        <p><strong>{all.templates.subject_said}</strong><span class="email-bulk-subject">{own_subject().unwrap_or_else(|| r.subject.clone())}</span></p>
                        {r.text.clone().map(|plain| view! { <pre class="email-text">{plain}</pre> })}
                        {html.map(|h| view! { <HtmlPreview html=h title=t.html_of[i]/> })}
                    }
                    .into_any()
                }
                // A 400 is the row's data refused (the send's own rule); anything else says only
                // that this preview failed.
                Some(Err(e)) => {
                    let said = match e {
                        ApiError::Validation { message, fields } if fields.is_empty() => fill(t.refused, &[message]),
                        ApiError::Validation { fields, .. } => fill(t.refused, &[&fields.iter().map(|f| format!("{}: {}", f.field, f.problem)).collect::<Vec<_>>().join("; ")]),
                        e => fill(t.not_previewed, &[&e.to_string()]),
                    };
                    let class = if matches!(e, ApiError::Validation { .. }) { "field-error email-bulk-refused" } else { "field-error" };
                    view! { <p class=class>{said}</p> }.into_any()
                }
            }),
        }
        };
        // Marked in words as well as by the frame (style/email.css: a message holding a refusal).
        let class =
            if shown_to.is_none() { "email-bulk-message email-bulk-message-refused" } else { "email-bulk-message" };
        let to_text = shown_to.unwrap_or_else(|| t.no_address.into());
        view! {
            <li class=class data-row=i.to_string()>
                <p><strong>{t.to_said}</strong><span class="email-bulk-to">{to_text}</span></p>
                {body}
            </li>
        }
    };

    view! {
        {move || sheet.with(|s| s.as_ref().filter(|s| !s.rows.is_empty()).map(|s| {
            let n = s.rows.len().min(SHOWN);
            view! {
                <section class="email-bulk-preview" aria-labelledby="email-bulk-preview-title">
                    <h2 id="email-bulk-preview-title">{fill(t.first_n, &[&n.to_string(), &s.rows.len().to_string()])}</h2>
                    <p class="muted">{t.only_these}</p>
                    <ol id="email-bulk-preview">{(0..n).map(|i| row(s, i)).collect_view()}</ol>
                </section>
            }
        }))}
    }
}
