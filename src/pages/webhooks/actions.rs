//! What can be done to an endpoint: change it (form.rs), enable or disable it, send it a test
//! event, rotate its secret (the old one signing beside the new for an overlap; the new one
//! shown once) and delete it (after a confirmation). Each refusal shows as the server words it.

use leptos::prelude::*;
use moneydesk_model::webhooks::{WebhookEndpoint, WebhookEndpointUpdate, WebhookEndpointWithSecret};

use super::form::EndpointForm;
use super::secret::Revealed;
use super::state::{rotation, Draft};
use super::traffic::Traffic;
use super::WebhooksCtx;
use crate::api;
use crate::api::request::submit;
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::i18n::fill;
use crate::i18n::webhooks::text;
use crate::session::use_auth;

/// The panel open under the buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Panel {
    None,
    Edit,
    Rotate,
    Delete,
}

/// What the actions share; `Copy`.
#[derive(Clone, Copy)]
struct Acts {
    ctx: WebhooksCtx,
    id: StoredValue<String>,
    panel: RwSignal<Panel>,
    busy: RwSignal<bool>,
    said: RwSignal<Option<String>>,
    failed: RwSignal<Option<ApiError>>,
}

impl Acts {
    /// The end of a request that changed the endpoint: `then` on success, the refusal otherwise.
    fn finish<T>(self, r: Result<T, ApiError>, then: impl FnOnce(T)) {
        match r {
            Ok(v) => {
                self.failed.set(None);
                then(v);
            }
            Err(e) => self.failed.set(Some(e)),
        }
    }
}

#[component]
pub fn Actions(ctx: WebhooksCtx, traffic: Traffic, e: WebhookEndpoint) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let acts = Acts {
        ctx,
        id: StoredValue::new(e.id.clone()),
        panel: RwSignal::new(Panel::None),
        busy: RwSignal::new(false),
        said: RwSignal::new(None),
        failed: RwSignal::new(None),
    };
    let enabled = e.enabled;
    let toggle = {
        let owner = owner.clone();
        move |_| {
            let change = WebhookEndpointUpdate { enabled: Some(!enabled), ..Default::default() };
            submit(
                acts.busy,
                &owner,
                || api::webhooks::update(&auth.client(), &acts.id.get_value(), &change),
                move |r| acts.finish(r, |_| ctx.touch()),
            );
        }
    };
    let test = move |_| {
        submit(
            acts.busy,
            &owner,
            || api::webhooks::send_test(&auth.client(), &acts.id.get_value()),
            move |r: Result<String, ApiError>| {
                acts.finish(r, |event| {
                    acts.said.set(Some(fill(text().test_queued, &[&event])));
                    traffic.sent();
                })
            },
        );
    };
    let open = move |p: Panel| acts.panel.update(|now| *now = if *now == p { Panel::None } else { p });
    let draft = Draft::of(&e);
    let before = StoredValue::new(e);
    let t = text();
    view! {
        <div class="webhook-actions" role="group" aria-label=t.actions>
            <button type="button" class="button" id="webhook-edit" on:click=move |_| open(Panel::Edit)>{t.edit}</button>
            <button type="button" class="button" id="webhook-toggle" disabled=move || acts.busy.get() on:click=toggle>
                {if enabled { t.disable } else { t.enable }}
            </button>
            <button type="button" class="button" id="webhook-test" disabled=move || acts.busy.get() on:click=test>{t.send_test}</button>
            <button type="button" class="button" id="webhook-rotate" on:click=move |_| open(Panel::Rotate)>{t.rotate_secret}</button>
            <button type="button" class="button danger" id="webhook-delete" on:click=move |_| open(Panel::Delete)>{t.delete}</button>
        </div>
        <p role="status" class="muted" id="webhook-said">{move || acts.said.get()}</p>
        {move || match acts.panel.get() {
            Panel::None => None,
            Panel::Edit => Some(view! { <Edit acts draft=draft.clone() before/> }.into_any()),
            Panel::Rotate => Some(view! { <Rotate acts/> }.into_any()),
            Panel::Delete => Some(view! { <Delete acts/> }.into_any()),
        }}
        <div aria-live="polite" id="webhook-action-error">
            {move || (acts.panel.get() != Panel::Edit).then(|| acts.failed.get().map(|e| view! { <ApiErrorView error=e/> }))}
        </div>
    }
}

#[component]
fn Edit(acts: Acts, draft: Draft, before: StoredValue<WebhookEndpoint>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let on_submit = Callback::new(move |d: Draft| {
        let change = before.with_value(|b| d.change(b));
        submit(
            acts.busy,
            &owner,
            || api::webhooks::update(&auth.client(), &acts.id.get_value(), &change),
            move |r| {
                acts.finish(r, |_| {
                    acts.panel.set(Panel::None);
                    acts.ctx.touch();
                })
            },
        );
    });
    view! {
        <EndpointForm id_prefix="webhook-edit" legend=text().change_endpoint submit_label=text().save initial=draft
            busy=acts.busy failed=acts.failed on_submit on_cancel=Callback::new(move |()| acts.panel.set(Panel::None))/>
    }
}

#[component]
fn Rotate(acts: Acts) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let hours = RwSignal::new(String::new());
    let send = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let asked = match rotation(&hours.get_untracked()) {
            Ok(r) => r,
            Err(why) => return acts.said.set(Some(why)),
        };
        submit(
            acts.busy,
            &owner,
            || api::webhooks::rotate_secret(&auth.client(), &acts.id.get_value(), &asked),
            move |r: Result<WebhookEndpointWithSecret, ApiError>| {
                acts.finish(r, |made| {
                    acts.ctx.revealed.set(Some(Revealed::of(made, true)));
                    acts.ctx.touch();
                })
            },
        );
    };
    let t = text();
    view! {
        <form class="webhook-panel" id="webhook-rotate-form" on:submit=send novalidate>
            <p>{t.rotate_intro}</p>
            <label for="webhook-overlap">{t.overlap}</label>
            <input type="number" id="webhook-overlap" min="0" max="168" step="1" inputmode="numeric" placeholder="24"
                prop:value=move || hours.get() on:input=move |ev| hours.set(event_target_value(&ev))/>
            <div class="webhook-form-actions">
                <button type="submit" class="button primary" id="webhook-rotate-submit" disabled=move || acts.busy.get()>{t.rotate}</button>
                <button type="button" class="button" on:click=move |_| acts.panel.set(Panel::None)>{t.cancel}</button>
            </div>
        </form>
    }
}

#[component]
fn Delete(acts: Acts) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let confirm = move |_| {
        submit(
            acts.busy,
            &owner,
            || api::webhooks::delete(&auth.client(), &acts.id.get_value()),
            move |r| {
                acts.finish(r, |()| {
                    acts.ctx.touch();
                    acts.ctx.open(None);
                })
            },
        );
    };
    let t = text();
    view! {
        <div class="webhook-panel webhook-confirm" role="group" aria-labelledby="webhook-delete-q">
            <p id="webhook-delete-q"><strong>{t.delete_q}</strong>{t.delete_note}</p>
            <div class="webhook-form-actions">
                <button type="button" class="button danger" id="webhook-delete-confirm" disabled=move || acts.busy.get() on:click=confirm>{t.delete_confirm}</button>
                <button type="button" class="button" on:click=move |_| acts.panel.set(Panel::None)>{t.keep}</button>
            </div>
        </div>
    }
}
