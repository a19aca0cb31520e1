//! The signed-in layout: header with navigation, theme toggle and sign-out around the page.
//! Signed out, it sends the user to sign in (keeping where they were in `?next=`); with a
//! token whose session is not known yet (a reload), it asks the server first.

use leptos::prelude::*;
use leptos_router::components::{Outlet, A};
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;

use crate::api;
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::AppConfig;
use crate::groups::GROUPS;
use crate::session::use_auth;
use crate::theme::use_theme;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Gate {
    SignedOut,
    Checking,
    Ready,
}

#[component]
pub fn Shell() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    let location = use_location();
    let navigate = use_navigate();

    let gate = Memo::new(move |_| match (auth.credentials.with(Option::is_some), auth.session.with(Option::is_some)) {
        (false, _) => Gate::SignedOut,
        (true, false) => Gate::Checking,
        (true, true) => Gate::Ready,
    });

    // Signed out (or the server refused the token): to sign in, then back here.
    let relative = {
        let config = config.clone();
        move || {
            let path = location.pathname.get_untracked();
            let here = format!("{}{}", config.relative(&path), location.search.get_untracked());
            here
        }
    };
    Effect::new(move |_| {
        if gate.get() == Gate::SignedOut {
            let here = relative();
            let target = if here == "/" {
                "/signin".to_string()
            } else {
                format!("/signin?next={}", String::from(js_sys::encode_uri_component(&here)))
            };
            navigate(&target, NavigateOptions { replace: true, ..Default::default() });
        }
    });

    view! {
        <Header/>
        <main class="main" id="main">
            {move || match gate.get() {
                Gate::Ready => Outlet().into_any(),
                Gate::Checking => view! { <SessionCheck/> }.into_any(),
                Gate::SignedOut => view! { <Loading label="Taking you to the sign-in page…"/> }.into_any(),
            }}
        </main>
    }
}

/// After a reload: ask the server who the stored token is before showing any page.
#[component]
fn SessionCheck() -> impl IntoView {
    let auth = use_auth();
    let me = LocalResource::new(move || {
        let client = auth.client();
        async move { api::auth::me(&client).await }
    });
    Effect::new(move |_| {
        if let Some(Ok(session)) = me.get() {
            auth.session.set(Some(session));
        }
    });
    let retry = Callback::new(move |()| me.refetch());
    view! {
        <Transition fallback=|| view! { <Loading label="Checking your token…"/> }>
            {move || Suspend::new(async move {
                match me.await {
                    Ok(_) => view! { <Loading/> }.into_any(),
                    Err(error) => view! { <ApiErrorView error retry page=true/> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn Header() -> impl IntoView {
    let auth = use_auth();
    let theme = use_theme();
    let toasts = use_toasts();
    let config = expect_context::<AppConfig>();
    let navigate = use_navigate();
    let location = use_location();
    let menu_open = RwSignal::new(false);

    // A followed link closes the menu on small screens.
    Effect::new(move |_| {
        location.pathname.track();
        menu_open.set(false);
    });

    let sign_out = move |_| {
        let embedded_token = auth.credentials.with_untracked(|c| {
            c.as_ref().is_some_and(|c| c.keep == crate::session::Keep::Memory)
        });
        navigate("/signin", NavigateOptions::default());
        auth.sign_out();
        toasts.show(
            ToastKind::Info,
            if embedded_token { "Signed out: the token from the host page is forgotten." } else { "Signed out." },
        );
    };

    let who = move || {
        auth.session.with(|s| s.as_ref().map(|s| s.name.clone())).unwrap_or_default()
    };
    let env = move || {
        auth.credentials
            .with(|c| c.as_ref().map(|c| c.environment.clone()))
            .unwrap_or_default()
    };

    let links = GROUPS
        .iter()
        .map(|g| {
            let href = config.href(&g.path());
            let scope = g.scope;
            view! {
                <A href=href attr:class=move || if auth.can(scope) { "nav-link" } else { "nav-link locked" }>
                    {g.title}
                </A>
            }
        })
        .collect_view();

    view! {
        <header class="header">
            <div class="header-bar">
                <a class="brand" href=config.href("/")>
                    <span class="brand-mark" aria-hidden="true">"◆"</span>
                    "Moneydesk"
                </a>
                <span class="env-badge" title="Environment">{env}</span>
                <span class="spacer"></span>
                <span class="who" title="Signed in as">{who}</span>
                <button
                    id="theme-toggle"
                    type="button"
                    class="icon-button"
                    aria-label=move || format!("Switch to {} theme", theme.mode().other().as_str())
                    title=move || format!("Switch to {} theme", theme.mode().other().as_str())
                    on:click=move |_| theme.toggle()
                >
                    {move || if theme.mode() == crate::theme::Mode::Dark { "☀" } else { "☾" }}
                </button>
                <button id="signout" type="button" class="button" on:click=sign_out>
                    "Sign out"
                </button>
                <button
                    type="button"
                    class="icon-button menu-button"
                    aria-controls="moneydesk-nav"
                    aria-expanded=move || menu_open.get().to_string()
                    aria-label="Menu"
                    on:click=move |_| menu_open.update(|o| *o = !*o)
                >
                    "☰"
                </button>
            </div>
            <nav id="moneydesk-nav" class="nav" class:open=move || menu_open.get() aria-label="Sections">
                {links}
            </nav>
        </header>
    }
}
