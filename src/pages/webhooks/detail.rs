//! One endpoint (`?endpoint=we_…`): what it is, what can be done to it (actions.rs), its last
//! 7 days (chart.rs) and its delivery log (log.rs). After a test event or a replay the log and
//! the chart are read again every few seconds for a while, so the new attempts show.

use leptos::either::EitherOf3;
use leptos::prelude::*;
use moneydesk_model::webhooks::{WebhookEndpoint, WebhookStats};

use super::actions::Actions;
use super::chart::DeliveryChart;
use super::log::DeliveryLog;
use super::state::{state_text, types_text};
use super::traffic::{keep, Traffic, WATCH_EVERY};
use super::WebhooksCtx;
use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::format::format_date_time;
use crate::i18n::fill;
use crate::i18n::webhooks::text;
use crate::session::use_auth;

fn when(at: &str) -> String {
    format_date_time(at).unwrap_or_else(|| at.to_string())
}

#[component]
pub fn EndpointView(ctx: WebhooksCtx, id: String) -> impl IntoView {
    let auth = use_auth();
    let traffic = Traffic { id: StoredValue::new(id.clone()), tick: RwSignal::new(0), watch: RwSignal::new(0) };
    let endpoint = Answer::<WebhookEndpoint>::new();
    Effect::new(move |_| {
        ctx.changed.track();
        endpoint.load(api::webhooks::endpoint(&auth.client(), &traffic.id.get_value()));
    });
    let stats = Answer::<WebhookStats>::new();
    Effect::new(move |again: Option<()>| {
        traffic.tick.track();
        let request = api::webhooks::stats(&auth.client(), &traffic.id.get_value());
        match again {
            Some(()) => keep(stats, request),
            None => stats.load(request),
        }
    });
    Effect::new(move |_| {
        traffic.tick.track();
        if traffic.watch.get_untracked() > 0 {
            set_timeout(
                move || {
                    if traffic.watch.try_update(|w| *w = w.saturating_sub(1)).is_some() {
                        traffic.tick.try_update(|t| *t += 1);
                    }
                },
                WATCH_EVERY,
            );
        }
    });
    let t = text();
    view! {
        <section class="webhook-endpoint" data-testid="webhook-endpoint" data-id=id aria-labelledby="webhook-endpoint-title">
            <p><button type="button" class="link-button" id="webhook-back" on:click=move |_| ctx.open(None)>{t.all_endpoints}</button></p>
            {move || endpoint.with(|e| match e {
                None => EitherOf3::A(view! { <p class="muted" role="status">{t.reading_endpoint}</p> }),
                Some(Err(e)) => EitherOf3::B(view! {
                    <h2 id="webhook-endpoint-title">{t.endpoint}</h2>
                    <ApiErrorView error=e.clone()/>
                }),
                Some(Ok(e)) => EitherOf3::C(view! { <Summary e=e.clone()/> <Actions ctx traffic e=e.clone()/> }),
            })}
            <section class="webhook-traffic" aria-labelledby="webhook-days-title">
                <h3 id="webhook-days-title">{t.last_7_days}</h3>
                {move || stats.with(|s| match s {
                    None => EitherOf3::A(view! { <p class="muted" role="status">{t.reading_days}</p> }),
                    Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                    Some(Ok(s)) => EitherOf3::C(view! { <DeliveryChart days=s.days.clone()/> }),
                })}
            </section>
            <DeliveryLog ctx traffic/>
        </section>
    }
}

/// The endpoint's fields.
#[component]
fn Summary(e: WebhookEndpoint) -> impl IntoView {
    let (class, state) = state_text(&e);
    let t = text();
    let f = &t.fields;
    let previous = e.previous_secret_until.as_deref().map(|u| fill(t.previous_until, &[&when(u)]));
    let badge = format!("badge badge-{class}");
    view! {
        <h2 id="webhook-endpoint-title" class="webhook-url">{e.url.clone()}</h2>
        <dl class="webhook-fields">
            <dt>{f[0]}</dt><dd><span class=badge id="webhook-state">{state}</span>
                {e.disabled_at.as_deref().map(|at| fill(t.since, &[&when(at)]))}</dd>
            <dt>{f[1]}</dt><dd id="webhook-types">{types_text(&e.event_types)}</dd>
            <dt>{f[2]}</dt><dd>{if e.description.is_empty() { "—".to_string() } else { e.description.clone() }}</dd>
            <dt>{f[3]}</dt><dd><span class="mono" id="webhook-hint">{format!("…{}", e.secret_hint)}</span>
                {fill(t.comma_since, &[&when(&e.secret_rotated_at)])}{previous}</dd>
            <dt>{f[4]}</dt><dd>{fill(t.created_by, &[&when(&e.created_at), &e.created_by])}</dd>
            <dt>{f[5]}</dt><dd class="mono">{e.id.clone()}</dd>
        </dl>
    }
}
