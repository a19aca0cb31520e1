//! An admin's new token: name, user, scopes and expiry; its text then shows once.

use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use moneydesk_model::tokens::NewToken;
use moneydesk_model::Scope;

use super::Shown;
use crate::api;
use crate::api::request::submit;
use crate::i18n::fill;
use crate::i18n::tokens::text;

/// The scopes ticked in the fieldset `prefix` (checkboxes `PREFIX-scope-NAME`).
pub fn ticked(prefix: &str) -> Vec<String> {
    let document = document();
    Scope::ALL
        .iter()
        .filter(|s| {
            let id = format!("{prefix}-scope-{}", s.as_str().replace(':', "-"));
            document
                .get_element_by_id(&id)
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e).ok())
                .is_some_and(|i| i.checked())
        })
        .map(|s| s.as_str().to_string())
        .collect()
}

/// A checkbox per scope.
#[component]
pub fn ScopeChoice(prefix: &'static str) -> impl IntoView {
    let boxes = Scope::ALL
        .iter()
        .map(|s| {
            let id = format!("{prefix}-scope-{}", s.as_str().replace(':', "-"));
            view! { <label class="check"><input type="checkbox" id=id.clone() name="scopes" value=s.as_str()/>{s.as_str()}</label> }
        })
        .collect_view();
    view! { <fieldset class="token-scopes"><legend>{text().scopes}</legend>{boxes}</fieldset> }
}

#[component]
pub fn NewTokenForm(changed: RwSignal<u32>, shown: RwSignal<Option<Shown>>) -> impl IntoView {
    let auth = crate::session::use_auth();
    let owner = Owner::current();
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<String>));
    let (name, user, days) =
        (NodeRef::<html::Input>::new(), NodeRef::<html::Input>::new(), NodeRef::<html::Select>::new());
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let value =
            |r: NodeRef<html::Input>| r.get_untracked().map(|i| i.value().trim().to_string()).unwrap_or_default();
        let user_id = Some(value(user)).filter(|u| !u.is_empty());
        let expires_in_days = days.get_untracked().and_then(|s| s.value().parse().ok());
        let new = NewToken { name: value(name), user_id, scopes: ticked("token-new"), expires_in_days };
        submit(
            busy,
            &owner,
            || api::tokens::create(&auth.client(), &new),
            move |r| match r {
                Ok(made) => {
                    failed.set(None);
                    let title = fill(text().made_title, &[&made.record.name, &made.record.user_id]);
                    shown.set(Some(Shown { title, text: made.token }));
                    changed.update(|n| *n += 1);
                }
                Err(e) => failed.set(Some(e.to_string())),
            },
        );
    };
    let t = text();
    let e = &t.expiry_choices;
    view! {
        <form class="panel token-form" id="token-new" on:submit=on_submit novalidate aria-labelledby="token-new-title">
            <h2 id="token-new-title">{t.new_token}</h2>
            <label for="token-new-name">{t.name}</label>
            <input id="token-new-name" type="text" maxlength="100" node_ref=name required/>
            <label for="token-new-user">{t.user_default}</label>
            <input id="token-new-user" type="text" node_ref=user/>
            <ScopeChoice prefix="token-new"/>
            <label for="token-new-expiry">{t.expires}</label>
            <select id="token-new-expiry" node_ref=days>
                <option value="">{e[0]}</option>
                <option value="1">{e[1]}</option>
                <option value="7">{e[2]}</option>
                <option value="30" selected>{e[3]}</option>
                <option value="90">{e[4]}</option>
                <option value="365">{e[5]}</option>
            </select>
            {move || failed.get().map(|m| view! { <p class="alert" role="alert">{m}</p> })}
            <button type="submit" class="button primary" id="token-new-submit" disabled=busy>{t.create_token}</button>
        </form>
    }
}
