//! The Tokens page (any token): the tokens with their expiry and last use, each revocable — an
//! admin's every token, anyone else's their own user's. An admin also creates tokens (form.rs;
//! the text shown once with a copy button, once.rs) and makes sign-in links for a user
//! (links.rs): one use, 15 minutes, then a session token of the link's scopes. A token's name
//! opens its details (details.rs), as does a link's `open=ID`.

mod details;
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
use crate::i18n::fill;
use crate::i18n::tokens::text;
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
    let t = text();
    view! {
        <div class="page tokens-page">
            <h1>{t.heading}</h1>
            <p class="muted">{move || if admin() { t.intro_admin } else { t.intro_own }}</p>
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
    let open = details::Open::follow(tokens);
    let t = text();
    view! {
        <section aria-labelledby="tokens-list-title">
            <h2 id="tokens-list-title">{t.heading}</h2>
            <details::NotFound open/>
            {move || tokens.with(|l| match l {
                None => EitherOf4::A(view! { <p class="muted" role="status">{t.reading}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| changed.update(|n| *n += 1))/> }),
                Some(Ok(all)) if all.is_empty() => EitherOf4::C(view! { <p class="muted">{t.none}</p> }),
                Some(Ok(all)) => EitherOf4::D(view! { <TokenTable all=all.clone() changed open/> }),
            })}
        </section>
    }
}

#[component]
fn TokenTable(all: Vec<TokenInfo>, changed: RwSignal<u32>, open: details::Open) -> impl IntoView {
    let drawer = view! { <details::TokenDrawer all=all.clone() open/> };
    let rows = all.into_iter().map(|t| view! { <TokenRow t changed open/> }).collect_view();
    let t = text();
    let c = &t.columns;
    view! {
        <div class="table-scroll">
            <table class="data-table" id="tokens-table">
                <caption class="sr-only">{t.heading}</caption>
                <thead><tr>
                    <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                    <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th><th scope="col">{c[5]}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {drawer}
    }
}

#[component]
fn TokenRow(t: TokenInfo, changed: RwSignal<u32>, open: details::Open) -> impl IntoView {
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
    let words = text();
    let label = fill(words.revoke_token, &[&t.name]);
    let state = match &t.revoked_at {
        Some(_) => view! { <span class="badge badge-disabled">{fill(words.revoked_at, &[&when(&t.revoked_at, "")])}</span> }.into_any(),
        None => view! {
            <button type="button" class="button danger token-revoke" aria-label=label disabled=busy on:click=revoke>{words.revoke}</button>
            {move || failed.get().map(|e| view! { <p class="alert" role="alert">{e.to_string()}</p> })}
        }
        .into_any(),
    };
    view! {
        <tr data-id=t.id.to_string() data-revoked=t.revoked_at.is_some().to_string()>
            <th scope="row">
                <button type="button" class="link-button token-open" on:click=move |_| open.id.set(Some(id))>{t.name.clone()}</button>
            </th>
            <td>{t.user_id.clone()}</td>
            <td>{scopes}</td>
            <td class="token-expires">{when(&t.expires_at, words.never)}</td>
            <td class="token-last-used">{when(&t.last_used_at, words.never)}</td>
            <td>{state}</td>
        </tr>
    }
}
