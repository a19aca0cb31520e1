//! Recipients as chips: typed (Enter, comma or semicolon commits), pasted as a list (commas,
//! semicolons, spaces or new lines), each checked with the model's address rules as it is
//! added and marked with the reason when it fails. Backspace in the empty field removes the
//! last chip.

use leptos::prelude::*;
use moneydesk_model::email::EmailAddress;

use crate::i18n::{email::text, fill};

/// A chip's address and, when it is not one, why.
pub fn problem(address: &str) -> Option<String> {
    EmailAddress::parse(address).err().map(|e| e.to_string())
}

/// Splits a pasted or typed list into addresses.
pub fn split(text: &str) -> Vec<String> {
    text.split([',', ';', '\n', '\r', '\t', ' ']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

#[component]
pub fn Recipients(
    /// The field's id (its label points at it).
    id: &'static str,
    label: &'static str,
    chips: RwSignal<Vec<String>>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let commit = move || {
        let text = typed.get_untracked();
        let found = split(&text);
        if !found.is_empty() {
            chips.update(|c| {
                for a in found {
                    if !c.iter().any(|x| x.eq_ignore_ascii_case(&a)) {
                        c.push(a);
                    }
                }
            });
        }
        typed.set(String::new());
    };
    let t = &text().compose;
    // Enter commits what is typed; Backspace in an empty field takes the last chip back.
    let on_key = move |ev: web_sys::KeyboardEvent| match ev.key().as_str() {
        "Enter" => {
            ev.prevent_default();
            commit();
        }
        "Backspace" if typed.get_untracked().is_empty() => chips.update(|c| {
            c.pop();
        }),
        _ => {}
    };
    view! {
        <div class="email-field">
            <label for=id>{label}</label>
            <div class="chips">
                <ul class="chip-list" aria-label=label>
                    {move || chips.get().into_iter().enumerate().map(|(i, a)| {
                        let why = problem(&a);
                        let bad = why.is_some();
                        let title = why.clone().unwrap_or_default();
                        let remove_label = fill(t.remove_named, &[&a]);
                        view! {
                            <li class="chip" class:chip-invalid=bad title=title>
                                <span>{a.clone()}</span>
                                {why.map(|w| view! { <span class="sr-only">{fill(t.not_address, &[&w])}</span> })}
                                <button type="button" class="chip-remove" aria-label=remove_label
                                    on:click=move |_| chips.update(|c| { if i < c.len() { c.remove(i); } })>"×"</button>
                            </li>
                        }
                    }).collect_view()}
                </ul>
                <input id=id type="text" autocomplete="off" class="chip-input"
                    prop:value=move || typed.get()
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        // A separator typed (or a list pasted) commits what came before it.
                        if v.contains([',', ';', '\n']) || v.trim_end() != v && !v.trim().is_empty() {
                            typed.set(v);
                            commit();
                        } else {
                            typed.set(v);
                        }
                    }
                    on:keydown=on_key
                    on:blur=move |_| commit()/>
            </div>
            {move || {
                let bad: Vec<String> = chips.get().into_iter().filter_map(|a| problem(&a).map(|w| format!("{}: {}", a, w))).collect();
                (!bad.is_empty()).then(|| view! { <p class="field-error" role="alert">{bad.join("; ")}</p> })
            }}
        </div>
    }
}
