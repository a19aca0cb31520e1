//! A secret shown this once (a new token's text, a sign-in link's URL) with a copy button: the
//! server keeps only its hash and never answers it again.

use leptos::prelude::*;

use super::Shown;

/// Copies `text` to the clipboard; says so in `said` (without repeating the secret).
fn copy(text: String, said: RwSignal<Option<&'static str>>) {
    let promise = window().navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await;
        said.try_set(Some(match done {
            Ok(_) => "Copied to the clipboard.",
            Err(_) => "The browser did not allow copying: select the text and copy it instead.",
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
            let text = s.text.clone();
            view! {
                <section class="panel token-once" data-testid="token-once" role="alert" tabindex="-1" node_ref=panel
                    aria-labelledby="token-once-title">
                    <h2 id="token-once-title">{s.title.clone()}</h2>
                    <p><strong>"Copy it now: you will not see it again."</strong></p>
                    <p><code class="token-once-value" id="token-once-value">{s.text.clone()}</code></p>
                    <p>
                        <button type="button" class="button" id="token-once-copy" on:click=move |_| copy(text.clone(), said)>"Copy"</button>
                        " "
                        <button type="button" class="button primary" id="token-once-done"
                            on:click=move |_| { said.set(None); shown.set(None); }>"Done"</button>
                    </p>
                    <p role="status" class="muted">{move || said.get()}</p>
                </section>
            }
        })
    }
}
