//! The Tokens page (any token): the tokens with their expiry and last use, each revocable — an
//! admin's every token, anyone else's their own user's. An admin also creates tokens (form.rs;
//! the text shown once with a copy button, once.rs) and makes sign-in links for a user
//! (links.rs): one use, 15 minutes, then a session token of the link's scopes.

mod form;
mod links;
mod once;

use leptos::either::EitherOf4;
use leptos::prelude::*;
use moneydesk_model::tokens::TokenInfo;
use moneydesk_model::Scope;

use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date_time;
use crate::session::use_auth;

/// A secret the server answered this once (a token's text, a link's URL), until dismissed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub title: String,
    pub text: String,
}

#[component]
pub fn TokensPage() -> impl IntoView {
    let auth = use_auth();
    let admin = move || auth.can(Scope::Admin);
    let changed = RwSignal::new(0u32);
    let shown = RwSignal::new(None::<Shown>);
    view! {
        <div class="page tokens-page">
            <h1>"Tokens"</h1>
            <p class="muted">{move || if admin() {
                "Every token, with its expiry and last use (written at most once a minute). A token's text is shown once, when it is created."
            } else {
                "Your tokens, with their expiry and last use. Revoke one you no longer use."
            }}</p>
            <once::ShownOnce shown/>
            <Show when=admin>
                <form::NewTokenForm changed shown/>
            </Show>
            <TokenList changed/>
            <Show when=admin>
                <links::SignInLinks shown/>
            </Show>
        </div>
    }
}

/// "never" for a missing time, else the time in words.
pub fn when(t: &Option<String>, none: &'static str) -> String {
    t.as_deref().map(|t| format_date_time(t).unwrap_or_else(|| t.to_string())).unwrap_or_else(|| none.to_string())
}

#[component]
fn TokenList(changed: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let tokens = Answer::<Vec<TokenInfo>>::new();
    Effect::new(move |_| {
        changed.track();
        tokens.load(api::tokens::list(&auth.client()));
    });
    view! {
        <section aria-labelledby="tokens-list-title">
            <h2 id="tokens-list-title">"Tokens"</h2>
            {move || tokens.with(|l| match l {
                None => EitherOf4::A(view! { <p class="muted" role="status">"Reading the tokens…"</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| changed.update(|n| *n += 1))/> }),
                Some(Ok(all)) if all.is_empty() => EitherOf4::C(view! { <p class="muted">"No tokens."</p> }),
                Some(Ok(all)) => EitherOf4::D(view! { <TokenTable all=all.clone() changed/> }),
            })}
        </section>
    }
}

#[component]
fn TokenTable(all: Vec<TokenInfo>, changed: RwSignal<u32>) -> impl IntoView {
    let rows = all.into_iter().map(|t| view! { <TokenRow t changed/> }).collect_view();
    view! {
        <div class="table-scroll">
            <table class="data-table" id="tokens-table">
                <caption class="sr-only">"Tokens"</caption>
                <thead><tr>
                    <th scope="col">"Name"</th><th scope="col">"User"</th><th scope="col">"Scopes"</th>
                    <th scope="col">"Expires"</th><th scope="col">"Last used"</th><th scope="col">"State"</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn TokenRow(t: TokenInfo, changed: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let id = t.id;
    let revoke = move |_| {
        submit(
            busy,
            &owner,
            || api::tokens::revoke(&auth.client(), id),
            move |r| match r {
                Ok(_) => changed.update(|n| *n += 1),
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    let scopes = t.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    let label = format!("Revoke {}", t.name);
    let state = match &t.revoked_at {
        Some(_) => view! { <span class="badge badge-disabled">{format!("Revoked {}", when(&t.revoked_at, ""))}</span> }.into_any(),
        None => view! {
            <button type="button" class="button danger token-revoke" aria-label=label disabled=busy on:click=revoke>"Revoke"</button>
            {move || failed.get().map(|e| view! { <p class="alert" role="alert">{e.to_string()}</p> })}
        }
        .into_any(),
    };
    view! {
        <tr data-id=t.id.to_string() data-revoked=t.revoked_at.is_some().to_string()>
            <th scope="row">{t.name.clone()}</th>
            <td>{t.user_id.clone()}</td>
            <td>{scopes}</td>
            <td class="token-expires">{when(&t.expires_at, "Never")}</td>
            <td class="token-last-used">{when(&t.last_used_at, "Never")}</td>
            <td>{state}</td>
        </tr>
    }
}
