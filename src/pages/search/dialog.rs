//! The search panel: a combobox whose text is searched as it is typed (after a pause; a newer
//! text aborts the request of an older one and an answer that arrives late is dropped), the
//! hits grouped by where they live, the arrow keys moving through them and Enter (or a click)
//! opening one: its list, with its drawer open. Styled by the drawer's rules (record.css, and
//! table.css's `.sr-only`, loaded with this chunk) and CSSOM properties (`style:`), which the
//! CSP allows where a `style` attribute is refused.

use std::time::Duration;

use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;
use moneydesk_model::paths;
use moneydesk_model::search::SearchResult;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

use super::state::{askable, option_id, Shown, DEBOUNCE_MS};
use super::SearchOpen;
use crate::api::ApiError;
use crate::i18n::fill;
use crate::i18n::search::text;
use crate::i18n::vocab::say;
use crate::session::use_auth;

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Searching,
    Done(String),
    Failed(String),
}

#[component]
pub fn SearchDialog() -> impl IntoView {
    let SearchOpen(open) = expect_context::<SearchOpen>();
    let navigate = use_navigate();
    let asked = RwSignal::new(None::<String>);
    let shown = RwSignal::new(Shown::default());
    let status = RwSignal::new(Status::Idle);
    let input = NodeRef::<leptos::html::Input>::new();

    take_focus(input);
    let on_input = debounced(asked);
    search_as_asked(asked, shown, status);

    let close = move || open.set(false);
    let go = move |i: usize| {
        if let Some(target) = shown.with_untracked(|s| s.hit(i).map(|h| h.open.clone())) {
            open.set(false);
            navigate(&target, NavigateOptions::default());
        }
    };
    let go = StoredValue::new(go);
    let on_keydown = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" => {
            ev.prevent_default();
            shown.update(|s| s.step(if ev.key() == "ArrowDown" { 1 } else { -1 }));
            scroll_active(shown.with_untracked(|s| s.active));
        }
        "Enter" => {
            ev.prevent_default();
            if let Some(i) = shown.with_untracked(|s| s.active) {
                go.with_value(|g| g(i));
            }
        }
        "Escape" => {
            ev.prevent_default();
            ev.stop_propagation();
            close();
        }
        _ => {}
    };
    let expanded = move || if shown.with(|s| s.is_empty()) { "false" } else { "true" };
    let active_id = move || shown.with(|s| s.active.map(option_id));
    let t = text();
    let status_text = move || match status.get() {
        Status::Idle => t.idle.to_string(),
        Status::Searching => t.searching.to_string(),
        Status::Done(s) | Status::Failed(s) => s,
    };

    view! {
        <div class="drawer-backdrop" on:click=move |_| close()></div>
        <div class="drawer search-panel" role="dialog" aria-modal="true" aria-labelledby="global-search-title">
            <div class="drawer-head">
                <h2 id="global-search-title">{t.heading}</h2>
                <button type="button" class="icon-button" aria-label=t.close title=t.close_title on:click=move |_| close()>
                    "×"
                </button>
            </div>
            <div class="drawer-body">
                <label for="global-search-input" class="sr-only">{t.label}</label>
                <input
                    id="global-search-input"
                    node_ref=input
                    type="text"
                    role="combobox"
                    autocomplete="off"
                    spellcheck="false"
                    aria-autocomplete="list"
                    aria-controls="global-search-results"
                    aria-expanded=expanded
                    aria-activedescendant=active_id
                    placeholder=t.placeholder
                    style:width="100%"
                    style:box-sizing="border-box"
                    style:font-size="1rem"
                    style:padding="0.55rem 0.7rem"
                    on:input=on_input
                    on:keydown=on_keydown
                />
                <p class="muted" role="status" aria-live="polite" style:margin="0.6rem 0">{status_text}</p>
                <div id="global-search-results" role="listbox" aria-label=t.results>
                    {move || results(shown, go)}
                </div>
            </div>
        </div>
    }
}

/// Focus moves into the panel's text box, and back to whoever had it (the header's button)
/// when the panel closes.
fn take_focus(input: NodeRef<leptos::html::Input>) {
    let previous = SendWrapper::new(document().active_element());
    on_cleanup(move || {
        if let Some(el) = previous.take().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
    // After the next frame: the panel arrives with its chunk, and an element not yet in the
    // document takes no focus (Ctrl+K's panel missed it in the e2e run that way).
    Effect::new(move |_| {
        if let Some(i) = input.get() {
            request_animation_frame(move || _ = i.focus());
        }
    });
}

/// The input handler: the text is asked for once typing pauses.
fn debounced(asked: RwSignal<Option<String>>) -> impl Fn(web_sys::Event) + Clone + 'static {
    let pending = StoredValue::new(None::<TimeoutHandle>);
    on_cleanup(move || {
        if let Some(h) = pending.try_get_value().flatten() {
            h.clear();
        }
    });
    move |ev: web_sys::Event| {
        let text = event_target_value(&ev);
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let later = move || asked.set(askable(&text));
        pending.set_value(set_timeout_with_handle(later, Duration::from_millis(DEBOUNCE_MS as u64)).ok());
    }
}

/// Asks for each asked text; shows its answer unless a newer text was asked meanwhile.
fn search_as_asked(asked: RwSignal<Option<String>>, shown: RwSignal<Shown>, status: RwSignal<Status>) {
    let auth = use_auth();
    // The request starts inside this effect's owner: the client aborts it when the effect
    // runs again (newer text); the generation drops an answer that still arrives late.
    let generation = StoredValue::new(0u64);
    Effect::new(move |_| {
        let Some(q) = asked.get() else {
            shown.set(Shown::default());
            status.set(Status::Idle);
            return;
        };
        generation.update_value(|g| *g += 1);
        let mine = generation.get_value();
        status.set(Status::Searching);
        let request = auth.client().get_data::<SearchResult>(paths::SEARCH, &[("q", &q)]);
        spawn_local(async move {
            let answer = request.await;
            if generation.try_get_value() != Some(mine) || matches!(answer, Err(ApiError::Aborted)) {
                return;
            }
            match answer {
                Ok(result) => {
                    let s = Shown::from_result(result);
                    let said = match s.len() {
                        0 => fill(text().nothing, &[&q]),
                        1 => text().one.to_string(),
                        n => fill(text().many, &[&n.to_string()]),
                    };
                    shown.try_set(s);
                    status.try_set(Status::Done(said));
                }
                Err(e) => {
                    shown.try_set(Shown::default());
                    status.try_set(Status::Failed(e.to_string()));
                }
            }
        });
    });
}

/// The groups and their hits; `go(i)` opens hit `i`.
fn results(shown: RwSignal<Shown>, go: StoredValue<impl Fn(usize) + Send + Sync + 'static>) -> impl IntoView {
    let groups = shown.with(|s| s.groups.clone());
    let mut i = 0usize;
    groups
        .into_iter()
        .map(|(group, hits, more)| {
            let label = if more { fill(text().more, &[say(group.label())]) } else { say(group.label()).to_string() };
            let aria_label = label.clone();
            let items = hits
                .into_iter()
                .map(|h| {
                    let at = i;
                    i += 1;
                    let selected = move || shown.with(|s| s.active == Some(at));
                    let background = move || if selected() { "var(--accent-soft)" } else { "transparent" };
                    view! {
                        <div
                            role="option"
                            id=option_id(at)
                            class="search-hit"
                            data-group=group.as_str()
                            data-open=h.open.clone()
                            aria-selected=move || if selected() { "true" } else { "false" }
                            style:padding="0.45rem 0.6rem"
                            style:border-radius="6px"
                            style:cursor="pointer"
                            style:background=background
                            on:mousemove=move |_| shown.update(|s| if s.active != Some(at) { s.active = Some(at) })
                            on:click=move |_| go.with_value(|g| g(at))
                        >
                            <div style:font-weight="600">{h.title}</div>
                            <div class="muted" style:font-size="0.85rem">
                                {h.detail.unwrap_or_default()}
                                " · "
                                {say(h.matched.label())}
                                " "
                                {h.field}
                            </div>
                        </div>
                    }
                })
                .collect_view();
            view! {
                <div role="group" aria-label=aria_label style:margin-top="0.75rem">
                    <div aria-hidden="true" class="muted" style:font-size="0.8rem" style:text-transform="uppercase" style:letter-spacing="0.04em">
                        {label}
                    </div>
                    {items}
                </div>
            }
        })
        .collect_view()
}

/// Keeps the active hit in view as the arrow keys move (aligned to the nearest edge: `false`).
fn scroll_active(active: Option<usize>) {
    if let Some(el) = active.and_then(|i| document().get_element_by_id(&option_id(i))) {
        el.scroll_into_view_with_bool(false);
    }
}
