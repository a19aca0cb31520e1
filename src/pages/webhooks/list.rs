//! The endpoints: a new one (its secret then shown once), and a table of each endpoint's URL
//! (opening it), event types, state and secret hint.

use leptos::either::EitherOf4;
use leptos::prelude::*;
use moneydesk_model::webhooks::{WebhookEndpoint, WebhookEndpointWithSecret};

use super::form::EndpointForm;
use super::secret::Revealed;
use super::state::{state_text, types_text, Draft};
use super::WebhooksCtx;
use crate::api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::i18n::fill;
use crate::i18n::webhooks::text;
use crate::session::use_auth;

/// A create's `Idempotency-Key`: the same for a retry of one submission.
fn new_key() -> String {
    let salt = (js_sys::Math::random() * 1e12) as u64;
    format!("portal-webhook-{:x}-{salt:x}", js_sys::Date::now() as u64)
}

#[component]
pub fn Endpoints(ctx: WebhooksCtx) -> impl IntoView {
    let auth = use_auth();
    let endpoints = Answer::<Vec<WebhookEndpoint>>::new();
    Effect::new(move |_| {
        ctx.changed.track();
        endpoints.load(api::webhooks::endpoints(&auth.client()));
    });
    let adding = RwSignal::new(false);
    let t = text();
    view! {
        <section class="webhook-endpoints" aria-labelledby="webhook-endpoints-title">
            <div class="webhooks-head">
                <h2 id="webhook-endpoints-title">{t.endpoints}</h2>
                <button type="button" class="button primary" id="webhook-new" aria-expanded=move || adding.get().to_string()
                    on:click=move |_| adding.update(|a| *a = !*a)>{t.new_endpoint}</button>
            </div>
            <Show when=move || adding.get()>
                <NewEndpoint ctx adding/>
            </Show>
            {move || endpoints.with(|l| match l {
                None => EitherOf4::A(view! { <p class="muted" role="status">{t.reading_endpoints}</p> }),
                Some(Err(e)) => EitherOf4::B(view! { <ApiErrorView error=e.clone() retry=Callback::new(move |()| ctx.touch())/> }),
                Some(Ok(all)) if all.is_empty() => EitherOf4::C(view! {
                    <p class="muted" id="webhook-endpoints-empty">{t.no_endpoints}</p>
                }),
                Some(Ok(all)) => EitherOf4::D(view! { <EndpointTable ctx all=all.clone()/> }),
            })}
        </section>
    }
}

/// A new endpoint: on success its secret shows once and the list is read again.
#[component]
fn NewEndpoint(ctx: WebhooksCtx, adding: RwSignal<bool>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let (busy, failed) = (RwSignal::new(false), RwSignal::new(None::<ApiError>));
    let key = StoredValue::new(new_key());
    let on_submit = Callback::new(move |draft: Draft| {
        let new = draft.create();
        let k = key.get_value();
        submit(
            busy,
            &owner,
            || api::webhooks::create(&auth.client(), &new, &k),
            move |r: Result<WebhookEndpointWithSecret, ApiError>| {
                // A lost answer keeps the key, so sending again makes one endpoint.
                if !matches!(r, Err(ApiError::Network { .. })) {
                    key.set_value(new_key());
                }
                match r {
                    Ok(made) => {
                        failed.set(None);
                        ctx.revealed.set(Some(Revealed::of(made, false)));
                        adding.set(false);
                        ctx.touch();
                    }
                    Err(e) => failed.set(Some(e)),
                }
            },
        );
    });
    view! {
        <EndpointForm id_prefix="webhook-new" legend=text().a_new_endpoint submit_label=text().create_endpoint initial=Draft::new()
            busy failed on_submit on_cancel=Callback::new(move |()| adding.set(false))/>
    }
}

#[component]
fn EndpointTable(ctx: WebhooksCtx, all: Vec<WebhookEndpoint>) -> impl IntoView {
    let t = text();
    let rows = all
        .into_iter()
        .map(|e| {
            let (class, state) = state_text(&e);
            let id = e.id.clone();
            let label = fill(t.open, &[&e.url]);
            let badge = format!("badge badge-{class}");
            view! {
                <tr data-id=e.id.clone() data-enabled=e.enabled.to_string()>
                    <th scope="row">
                        <button type="button" class="link-button webhook-open" aria-label=label
                            on:click=move |_| ctx.open(Some(id.clone()))>{e.url.clone()}</button>
                        {(!e.description.is_empty()).then(|| view! { <div class="muted">{e.description.clone()}</div> })}
                    </th>
                    <td class="webhook-types-cell">{types_text(&e.event_types)}</td>
                    <td><span class=badge>{state}</span></td>
                    <td class="mono">{format!("…{}", e.secret_hint)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="data-table webhook-table" id="webhook-endpoints">
            <caption class="sr-only">{t.table_caption}</caption>
            <thead><tr>
                <th scope="col">{t.columns[0]}</th><th scope="col">{t.columns[1]}</th><th scope="col">{t.columns[2]}</th><th scope="col">{t.columns[3]}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
