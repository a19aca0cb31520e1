//! Home: the groups this token may use, and those it may not (with the scope they need).
//! Follows the session: the layout may build the page while the stored token is being checked.

use leptos::prelude::*;

use crate::config::AppConfig;
use crate::groups::GROUPS;
use crate::session::use_auth;

#[component]
pub fn Dashboard() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    move || dashboard(auth.session.get(), &config)
}

fn dashboard(session: Option<moneydesk_model::auth::Session>, config: &AppConfig) -> impl IntoView {
    let can = |g: &crate::groups::Group| session.as_ref().is_some_and(|s| g.opens(|sc| s.can(sc)));

    let intro = session.as_ref().map(|s| {
        let expires = match &s.expires_at {
            Some(at) => format!("It expires {at}."),
            None => "It does not expire.".to_string(),
        };
        format!("Signed in with the token “{}”. {expires}", s.name)
    });
    let cards = GROUPS
        .iter()
        .filter(|g| can(g))
        .map(|g| {
            view! {
                <li class="card">
                    <a href=config.href(&g.path())><span class="card-title">{g.title}</span></a>
                    <p>{g.summary}</p>
                </li>
            }
        })
        .collect_view();
    let denied: Vec<_> = GROUPS
        .iter()
        .filter(|g| !can(g))
        .map(|g| view! { <li>{g.title} " — needs " <code>{g.scope.as_str()}</code></li> })
        .collect();
    let denied = (!denied.is_empty()).then(|| {
        view! {
            <section class="panel">
                <h2>"Not available to this token"</h2>
                <ul class="plain">{denied}</ul>
            </section>
        }
    });

    view! {
        <section class="page dashboard">
            <h1>"Dashboard"</h1>
            <p class="muted">{intro}</p>
            <ul class="cards">{cards}</ul>
            {denied}
        </section>
    }
}
