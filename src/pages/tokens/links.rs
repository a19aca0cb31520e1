//! An admin's sign-in links: one for a user (one use, 15 minutes; its URL shown once), and the
//! links made, each revocable until used.

use leptos::either::EitherOf3;
use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use moneydesk_model::tokens::{NewSignInLink, SignInLink, SIGN_IN_LINK_ROUTE};

use super::form::{ticked, ScopeChoice};
use super::{when, Shown};
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::i18n::fill;
use crate::i18n::tokens::text;
use crate::session::use_auth;

/// The link as this portal opens it (its own address and base path, which an embedded portal
/// knows and the server does not).
fn portal_url(secret: &str) -> String {
    let config = use_context::<crate::config::AppConfig>().unwrap_or_default();
    let origin = window().location().origin().unwrap_or_default();
    format!("{origin}{}", config.href(&format!("{SIGN_IN_LINK_ROUTE}{secret}")))
}

#[component]
pub fn SignInLinks(shown: RwSignal<Option<Shown>>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let changed = RwSignal::new(0u32);
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<String>));
    let user = NodeRef::<html::Input>::new();
    let links = Answer::<Vec<SignInLink>>::new();
    Effect::new(move |_| {
        changed.track();
        links.load(api::tokens::links(&auth.client()));
    });
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let user_id = user.get_untracked().map(|i| i.value().trim().to_string()).unwrap_or_default();
        let new = NewSignInLink { user_id, scopes: ticked("link-new") };
        submit(
            busy,
            &owner,
            || api::tokens::create_link(&auth.client(), &new),
            move |r| match r {
                Ok(made) => {
                    failed.set(None);
                    let title = fill(text().link_title, &[&made.link.user_id]);
                    shown.set(Some(Shown { title, text: portal_url(&made.secret) }));
                    changed.update(|n| *n += 1);
                }
                Err(e) => failed.set(Some(e.to_string())),
            },
        );
    };
    let t = text();
    view! {
        <section aria-labelledby="links-title">
            <h2 id="links-title">{t.links_heading}</h2>
            <p class="muted">{t.links_intro}</p>
            <form class="panel token-form" id="link-new" on:submit=on_submit novalidate aria-labelledby="link-new-title">
                <h3 id="link-new-title">{t.new_link}</h3>
                <label for="link-new-user">{t.user}</label>
                <input id="link-new-user" type="text" node_ref=user required/>
                <ScopeChoice prefix="link-new"/>
                {move || failed.get().map(|m| view! { <p class="alert" role="alert">{m}</p> })}
                <button type="submit" class="button primary" id="link-new-submit" disabled=busy>{t.create_link}</button>
            </form>
            {move || links.with(|l| match l {
                None => EitherOf3::A(view! { <p class="muted" role="status">{t.reading_links}</p> }),
                Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                Some(Ok(all)) => EitherOf3::C(view! { <LinkTable all=all.clone() changed/> }),
            })}
        </section>
    }
}

#[component]
fn LinkTable(all: Vec<SignInLink>, changed: RwSignal<u32>) -> impl IntoView {
    let rows = all.into_iter().map(|l| view! { <LinkRow l changed/> }).collect_view();
    let t = text();
    let c = &t.link_columns;
    view! {
        <div class="table-scroll">
            <table class="data-table" id="links-table">
                <caption class="sr-only">{t.links_heading}</caption>
                <thead><tr>
                    <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                    <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

#[component]
fn LinkRow(l: SignInLink, changed: RwSignal<u32>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let id = l.id;
    let revoke = move |_| {
        submit(
            busy,
            &owner,
            || api::tokens::revoke_link(&auth.client(), id),
            move |r| match r {
                Ok(_) => changed.update(|n| *n += 1),
                Err(e) => failed.set(Some(e)),
            },
        );
    };
    let t = text();
    let state = match (&l.used_at, &l.revoked_at) {
        (Some(_), _) => view! { <span class="badge">{fill(t.used_at, &[&when(&l.used_at, "")])}</span> }.into_any(),
        (_, Some(_)) => view! { <span class="badge badge-disabled">{t.revoked}</span> }.into_any(),
        _ => view! {
            <button type="button" class="button danger" aria-label=fill(t.revoke_link, &[&l.user_id])
                disabled=busy on:click=revoke>{t.revoke}</button>
            {move || failed.get().map(|e| view! { <p class="alert" role="alert">{e.to_string()}</p> })}
        }
        .into_any(),
    };
    let scopes = l.scopes.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    view! {
        <tr data-id=l.id.to_string()>
            <th scope="row">{l.user_id.clone()}</th>
            <td>{scopes}</td>
            <td>{when(&Some(l.created_at.clone()), "")}</td>
            <td>{when(&Some(l.expires_at.clone()), "")}</td>
            <td>{state}</td>
        </tr>
    }
}
