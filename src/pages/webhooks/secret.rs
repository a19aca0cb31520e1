//! A secret the server answered (a new endpoint's, or a rotation's), shown this once with a
//! copy button: the server keeps it to sign with and never answers it again.

use leptos::prelude::*;
use moneydesk_model::webhooks::WebhookEndpointWithSecret;

use super::WebhooksCtx;
use crate::format::format_date_time;
use crate::i18n::fill;
use crate::i18n::webhooks::text;

/// The secret shown, and what it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revealed {
    pub endpoint_id: String,
    pub url: String,
    pub secret: String,
    /// A rotation's (the previous secret signs too until then), not a new endpoint's.
    pub previous_until: Option<String>,
    pub rotated: bool,
}

impl Revealed {
    pub fn of(answer: WebhookEndpointWithSecret, rotated: bool) -> Revealed {
        let e = answer.endpoint;
        Revealed {
            endpoint_id: e.id,
            url: e.url,
            secret: answer.secret,
            previous_until: e.previous_secret_until,
            rotated,
        }
    }
}

/// Copies `secret` to the clipboard; says so in `said` (without repeating the secret).
fn copy(secret: String, said: RwSignal<Option<String>>) {
    let promise = window().navigator().clipboard().write_text(&secret);
    leptos::task::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await;
        said.try_set(Some(match done {
            Ok(_) => text().copied.to_string(),
            Err(_) => text().not_copied.to_string(),
        }));
    });
}

#[component]
pub fn SecretOnce(ctx: WebhooksCtx) -> impl IntoView {
    let said = RwSignal::new(None::<String>);
    let shown = NodeRef::<leptos::html::Section>::new();
    // The secret takes focus when it appears, so a keyboard or screen reader user meets it first.
    Effect::new(move |_| {
        if let (Some(_), Some(el)) = (ctx.revealed.with(|r| r.as_ref().map(|_| ())), shown.get()) {
            let _ = el.focus();
        }
    });
    move || {
        ctx.revealed.get().map(|r| {
            let secret = r.secret.clone();
            let t = text();
            let title = if r.rotated { t.new_secret } else { t.secret };
            let overlap = match (&r.previous_until, r.rotated) {
                (Some(until), true) => {
                    let until = format_date_time(until).unwrap_or_else(|| until.clone());
                    fill(t.previous_signs, &[&until])
                }
                (None, true) => t.previous_stopped.to_string(),
                _ => String::new(),
            };
            view! {
                <section class="webhook-secret" data-testid="webhook-secret" role="alert" tabindex="-1" node_ref=shown
                    aria-labelledby="webhook-secret-title">
                    <h2 id="webhook-secret-title">{title}</h2>
                    <p>{fill(t.for_url, &[&r.url])}<strong>{t.copy_now}</strong>{t.kept_to_sign}</p>
                    <p class="webhook-secret-row">
                        <code class="webhook-secret-value" id="webhook-secret-value">{r.secret.clone()}</code>
                        <button type="button" class="button" id="webhook-secret-copy" on:click=move |_| copy(secret.clone(), said)>{t.copy}</button>
                    </p>
                    {(!overlap.is_empty()).then(|| view! { <p class="muted">{overlap}</p> })}
                    <p role="status" class="muted">{move || said.get()}</p>
                    <button type="button" class="button primary" id="webhook-secret-done"
                        on:click=move |_| { said.set(None); ctx.revealed.set(None) }>{t.saved_it}</button>
                </section>
            }
        })
    }
}
