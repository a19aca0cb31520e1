//! A secret shown this once (a new token's text, a sign-in link's URL) with a copy button: the
//! server keeps only its hash and never answers it again.

use leptos::prelude::*;

use super::Shown;
use crate::i18n::tokens::text;

/// Copies `secret` to the clipboard; says so in `said` (without repeating the secret).
fn copy(secret: String, said: RwSignal<Option<&'static str>>) {
    let promise = window().navigator().clipboard().write_text(&secret);
    leptos::task::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await;
        said.try_set(Some(match done {
            Ok(_) => text().copied,
            Err(_) => text().not_copied,
        }));
    });
}

#[component]
pub fn ShownOnce(shown: RwSignal<Option<Shown>>) -> impl IntoView {
    let said = RwSignal::new(None::<&'static str>);
    let panel = NodeRef::<leptos::html::Section>::new();
    // It takes focus when it appears, so a keyboard or screen reader user meets it first.
    Effect::new(move |_| {
        if let (true, Some(el)) = (shown.with(Option::is_some), panel.get()) {
            let _ = el.focus();
        }
    });
    move || {
        shown.get().map(|s| {
            let secret = s.text.clone();
            let t = text();
            view! {
                <section class="panel token-once" data-testid="token-once" role="alert" tabindex="-1" node_ref=panel
                    aria-labelledby="token-once-title">
                    <h2 id="token-once-title">{s.title.clone()}</h2>
                    <p><strong>{t.copy_now}</strong></p>
                    <p><code class="token-once-value" id="token-once-value">{s.text.clone()}</code></p>
                    <p>
                        <button type="button" class="button" id="token-once-copy" on:click=move |_| copy(secret.clone(), said)>{t.copy}</button>
                        " "
                        <button type="button" class="button primary" id="token-once-done"
                            on:click=move |_| { said.set(None); shown.set(None); }>{t.done}</button>
                    </p>
                    <p role="status" class="muted">{move || said.get()}</p>
                </section>
            }
        })
    }
}
