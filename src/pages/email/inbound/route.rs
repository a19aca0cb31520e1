//! One inbound route as a row: its URL (changeable in place), the MX record to publish, its
//! counts, and its signing secret (revealed on demand, rotatable).

use leptos::prelude::*;
use moneydesk_model::email::inbound::{InboundRoute, InboundSecret};

use super::super::domains::copy;
use super::place::mx_record;
use crate::api::email as api;
use crate::api::request::submit;
use crate::api::ApiError;
use crate::i18n::{email::text, fill};
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
    let t = &text().inbound;
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
        if rotate && !window().confirm_with_message(t.rotate_question).unwrap_or(false) {
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
                    said.set(rotate.then(|| t.rotated.to_string()));
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
    let copy_word = text().domains.copy;
    let url_id = format!("inbound-url-{}", domain.get_value());
    let url_for = fill(t.url_for, &[&domain.get_value()]);
    let counts = fill(t.received_count, &[&received.to_string()]);
    view! {
        <tr data-domain=route.domain.clone()>
            <th scope="row"><button type="button" class="link-button inbound-show" on:click=move |_| show.run(domain.get_value())>{route.domain.clone()}</button></th>
            <td>
                <Show when=move || editing.get() fallback=move || view! {
                    <span class="mono">{move || url.get()}</span>" "
                    <button type="button" class="link-button inbound-edit" on:click=move |_| editing.set(true)>{t.change}</button>
                }>
                    <form class="email-verify-row" on:submit=move |ev: leptos::ev::SubmitEvent| { ev.prevent_default(); save.run(()) } novalidate>
                        <label class="sr-only" for=url_id.clone()>{url_for.clone()}</label>
                        <input type="url" id=url_id.clone() prop:value=move || url.get() on:input=move |ev| url.set(event_target_value(&ev))/>
                        <button type="submit" class="primary" disabled=move || busy.get()>{t.save}</button>
                        <button type="button" class="secondary" on:click=move |_| editing.set(false)>{t.cancel}</button>
                    </form>
                </Show>
            </td>
            <td class="mono"><span>{mx.clone()}</span>" "
                <button type="button" class="link-button" aria-label=fill(t.copy_mx, &[&mx]) on:click=move |_| copy(mx_copy.clone(), said)>{copy_word}</button></td>
            <td>{counts}{(failed > 0).then(|| view! { <div class="field-error">{fill(t.failed_count, &[&failed.to_string()])}</div> })}</td>
            <td>
                {move || match secret.get() {
                    Some(s) => {
                        let value = s.secret.clone();
                        view! {
                            <span class="mono inbound-secret">{s.secret.clone()}</span>" "
                            <button type="button" class="link-button" aria-label=t.copy_secret on:click=move |_| copy(value.clone(), said)>{copy_word}</button>" "
                            <button type="button" class="link-button" on:click=move |_| secret.set(None)>{t.hide}</button>
                        }.into_any()
                    }
                    None => view! {
                        <span class="mono">{format!("…{hint}")}</span>" "
                        <button type="button" class="link-button inbound-reveal" disabled=move || busy.get() on:click=move |_| fetch.run(false)>{t.reveal}</button>
                    }.into_any(),
                }}
                " "<button type="button" class="link-button inbound-rotate" disabled=move || busy.get() on:click=move |_| fetch.run(true)>{t.rotate}</button>
                <div role="status" class="muted">{move || said.get()}</div>
            </td>
        </tr>
    }
}
