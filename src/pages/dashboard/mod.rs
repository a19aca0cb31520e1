//! Home: the operator's morning view. Today's figures of every group the token's scopes open,
//! read in one call (`GET` [`OVERVIEW`], kept a few seconds by the server), each a link to the
//! filtered list behind it (day.rs), with the day's deposits as a stacked chart by rail
//! (chart.rs); then the groups the token may use. Nothing the scopes do not open: the server
//! leaves those members out, and the cards list only the groups the token opens. Its own chunk
//! (`home!` in src/groups.rs), with style/dashboard.css. Follows the session: the layout may
//! build the page while the stored token is being checked.

use leptos::prelude::*;
use moneydesk_model::auth::Session;
use moneydesk_model::overview::Overview;
use moneydesk_model::paths::OVERVIEW;

use crate::api::ApiError;
use crate::config::AppConfig;
use crate::format::format_date_time;
use crate::groups::GROUPS;
use crate::i18n::dashboard::text;
use crate::i18n::fill;
use crate::session::use_auth;

mod chart;
mod day;
mod links;

#[component]
pub fn Dashboard() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    let overview = RwSignal::new(None::<Result<Overview, ApiError>>);
    // Bumped by Retry and Refresh: the figures are read again, past the few seconds the
    // server (and the browser) keep them — the operator asked for now, not for the kept copy.
    let asked = RwSignal::new(0u32);
    Effect::new(move |_| {
        let again = asked.get() > 0;
        if auth.session.with(Option::is_none) {
            return;
        }
        let client = auth.client();
        let client = if again { client.with_header("Cache-Control", "no-cache") } else { client };
        let read = client.get_data::<Overview>(OVERVIEW, &[]);
        leptos::task::spawn_local(async move {
            let answer = read.await;
            let _ = overview.try_set(Some(answer));
        });
    });
    let links = config.clone();
    let t = text();
    let figures = move || match overview.get() {
        None => view! { <p class="muted day-loading">{t.reading}</p> }.into_any(),
        Some(Ok(o)) => {
            let at = format_date_time(&o.generated_at).unwrap_or_else(|| o.generated_at.clone());
            view! {
                <p class="muted day-asof">
                    {t.as_of} <time datetime=o.generated_at.clone()>{at}</time> " "
                    <button type="button" class="button" id="overview-refresh" on:click=move |_| asked.update(|n| *n += 1)>
                        {t.refresh}
                    </button>
                </p>
                {day::day(o, &links)}
            }
            .into_any()
        }
        Some(Err(e)) => view! {
            <p class="day-error" role="status">
                {t.not_read} {e.to_string()} " "
                <button type="button" class="button" id="overview-retry" on:click=move |_| asked.update(|n| *n += 1)>
                    {t.retry}
                </button>
            </p>
        }
        .into_any(),
    };
    view! {
        <section class="page dashboard">
            <h1>{t.heading}</h1>
            {move || intro(auth.session.get())}
            <div class="day" data-testid="overview">{figures}</div>
            {move || cards(auth.session.get(), &config)}
        </section>
    }
}

fn intro(session: Option<Session>) -> impl IntoView {
    let t = text();
    session.map(|s| {
        let expires = match &s.expires_at {
            Some(at) => fill(t.expires, &[at]),
            None => t.never_expires.to_string(),
        };
        view! { <p class="muted">{fill(t.signed_in_with, &[&s.name, &expires])}</p> }
    })
}

/// The groups this token opens, each a card with what its page does.
fn cards(session: Option<Session>, config: &AppConfig) -> impl IntoView {
    let can = |g: &crate::groups::Group| session.as_ref().is_some_and(|s| g.opens(|sc| s.can(sc)));
    let cards = GROUPS
        .iter()
        .filter(|g| can(g))
        .map(|g| {
            view! {
                <li class="card">
                    <a href=config.href(&g.path())><span class="card-title">{g.title()}</span></a>
                    <p>{g.summary()}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <h2 class="day-groups-head">{text().your_groups}</h2>
        <ul class="cards">{cards}</ul>
    }
}
