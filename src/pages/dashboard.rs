//! Home: the groups this token may use, and those it may not (with the scope they need).

use leptos::prelude::*;
use leptos_router::components::A;

use crate::config::AppConfig;
use crate::groups::GROUPS;
use crate::session::use_auth;

#[component]
pub fn Dashboard() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    let session = move || auth.session.get();

    let intro = move || {
        session().map(|s| {
            let expires = match s.expires_at {
                Some(at) => format!(" It expires {at}."),
                None => " It does not expire.".to_string(),
            };
            format!("Signed in with the token “{}”.{expires}", s.name)
        })
    };

    let cards = {
        let config = config.clone();
        move || {
            GROUPS
                .iter()
                .filter(|g| auth.can(g.scope))
                .map(|g| {
                    view! {
                        <li class="card">
                            <A href=config.href(&g.path())>
                                <span class="card-title">{g.title}</span>
                            </A>
                            <p>{g.summary}</p>
                        </li>
                    }
                })
                .collect_view()
        }
    };
    let denied = move || {
        let list: Vec<_> = GROUPS.iter().filter(|g| !auth.can(g.scope)).collect();
        (!list.is_empty()).then(|| {
            view! {
                <section class="panel">
                    <h2>"Not available to this token"</h2>
                    <ul class="plain">
                        {list
                            .into_iter()
                            .map(|g| view! { <li>{g.title} " — needs " <code>{g.scope.as_str()}</code></li> })
                            .collect_view()}
                    </ul>
                </section>
            }
        })
    };
    let none_allowed = move || GROUPS.iter().all(|g| !auth.can(g.scope));

    view! {
        <section class="page dashboard">
            <h1>"Dashboard"</h1>
            <p class="muted">{intro}</p>
            <Show when=none_allowed>
                <p class="panel">"This token may not use any section of the portal."</p>
            </Show>
            <ul class="cards">{cards}</ul>
            {denied}
        </section>
    }
}
