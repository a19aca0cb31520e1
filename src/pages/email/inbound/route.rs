//! One inbound route as a row: its URL (changeable in place), the MX record to publish, its
//! counts, and its signing secret (revealed on demand, rotatable).

use leptos::prelude::*;
use moneydesk_model::email::inbound::{InboundRoute, InboundSecret};

use super::super::domains::copy;
use super::place::mx_record;
use crate::api::email as api;
use crate::api::request::submit;
use crate::api::ApiError;
use crate::session::use_auth;

/// One route: its URL (changeable in place), the MX record, its counts, its secret.
#[component]
pub fn RouteRow(route: InboundRoute, on_change: Callback<()>, show: Callback<String>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let domain = StoredValue::new(route.domain.clone());
    let editing = RwSignal::new(false);
    let url = RwSignal::new(route.url.clone());
    let busy = RwSignal::new(false);
    let said = RwSignal::new(None::<String>);
    let secret = RwSignal::new(None::<InboundSecret>);
    let save = Callback::new(move |()| {
        let u = url.get_untracked().trim().to_string();
        submit(
            busy,
            &owner,
            || api::update_inbound_route(&auth.client(), &domain.get_value(), &u),
            move |r: Result<InboundRoute, ApiError>| match r {
                Ok(_) => {
                    editing.set(false);
                    said.set(None);
                    on_change.run(());
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    let secret_owner = Owner::current();
    let fetch = Callback::new(move |rotate: bool| {
        if rotate && !window().confirm_with_message("Replace the signing secret? Posts are signed with the new one at once: update your receiver right after.").unwrap_or(false) {
            return;
        }
        let d = domain.get_value();
        submit(
            busy,
            &secret_owner,
            || -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<InboundSecret, ApiError>>>> {
                if rotate {
                    Box::pin(api::rotate_inbound_secret(&auth.client(), &d))
                } else {
                    Box::pin(api::inbound_secret(&auth.client(), &d))
                }
            },
            move |r: Result<InboundSecret, ApiError>| match r {
                Ok(s) => {
                    said.set(rotate.then(|| "A new secret signs every post from now on".to_string()));
                    secret.set(Some(s));
                    if rotate {
                        on_change.run(());
                    }
                }
                Err(e) => said.set(Some(e.to_string())),
            },
        );
    });
    let mx = mx_record(&route);
    let mx_copy = mx.clone();
    let (received, failed) = (route.received, route.failed);
    let hint = route.secret_hint.clone();
    view! {
        <tr data-domain=route.domain.clone()>
            <th scope="row"><button type="button" class="link-button inbound-show" on:click=move |_| show.run(domain.get_value())>{route.domain.clone()}</button></th>
            <td>
                <Show when=move || editing.get() fallback=move || view! {
                    <span class="mono">{move || url.get()}</span>" "
                    <button type="button" class="link-button inbound-edit" on:click=move |_| editing.set(true)>"Change"</button>
                }>
                    <form class="email-verify-row" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); save.run(()) } novalidate>
                        <label class="sr-only" for=format!("inbound-url-{}", domain.get_value())>{format!("URL for {}", domain.get_value())}</label>
                        <input type="url" id=format!("inbound-url-{}", domain.get_value()) prop:value=move || url.get() on:input=move |ev| url.set(event_target_value(&ev))/>
                        <button type="submit" class="primary" disabled=move || busy.get()>"Save"</button>
                        <button type="button" class="secondary" on:click=move |_| editing.set(false)>"Cancel"</button>
                    </form>
                </Show>
            </td>
            <td class="mono"><span>{mx.clone()}</span>" "
                <button type="button" class="link-button" aria-label=format!("Copy the MX record {mx}") on:click=move |_| copy(mx_copy.clone(), said)>"Copy"</button></td>
            <td>{format!("{received} received")}{(failed > 0).then(|| view! { <div class="field-error">{format!("{failed} failed")}</div> })}</td>
            <td>
                {move || match secret.get() {
                    Some(s) => {
                        let text = s.secret.clone();
                        view! {
                            <span class="mono inbound-secret">{s.secret.clone()}</span>" "
                            <button type="button" class="link-button" aria-label="Copy the secret" on:click=move |_| copy(text.clone(), said)>"Copy"</button>" "
                            <button type="button" class="link-button" on:click=move |_| secret.set(None)>"Hide"</button>
                        }.into_any()
                    }
                    None => view! {
                        <span class="mono">{format!("…{hint}")}</span>" "
                        <button type="button" class="link-button inbound-reveal" disabled=move || busy.get() on:click=move |_| fetch.run(false)>"Reveal"</button>
                    }.into_any(),
                }}
                " "<button type="button" class="link-button inbound-rotate" disabled=move || busy.get() on:click=move |_| fetch.run(true)>"Rotate"</button>
                <div role="status" class="muted">{move || said.get()}</div>
            </td>
        </tr>
    }
}
