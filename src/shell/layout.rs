//! The signed-in layout: header with navigation, theme toggle and sign-out around the page.
//! Signed out, it sends the user to sign in (keeping where they were in `?next=`); with a
//! token whose session is not known yet (a reload), it asks the server first.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;

use crate::api::{self, ApiError};
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::AppConfig;
use crate::groups::GROUPS;
use crate::i18n::{self, shell::shell, Lang};
use crate::session::{use_auth, Keep};
use crate::theme::{use_theme, Mode};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Gate {
    SignedOut,
    Checking,
    Ready,
}

/// The header and navigation around the page of the current path; `page` picks that page
/// (`pages::page_for`, handed in by the app so that components do not depend on pages).
#[component]
pub fn Shell(page: fn(&str) -> AnyView) -> impl IntoView {
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
    let here = {
        let config = config.clone();
        move || {
            let path = location.pathname.get_untracked();
            let search = location.search.get_untracked();
            let path = config.relative(&path).to_string();
            if search.is_empty() {
                path
            } else {
                format!("{path}?{}", search.trim_start_matches('?'))
            }
        }
    };
    Effect::new(move |_| {
        if gate.get() != Gate::SignedOut {
            return;
        }
        let here = here();
        // Sign-out navigates to /signin itself; a page left behind needs `next`.
        let target = match here.as_str() {
            "/" => "/signin".to_string(),
            h if h.starts_with("/signin") => return,
            h => format!("/signin?next={}", String::from(js_sys::encode_uri_component(h))),
        };
        navigate(&target, NavigateOptions { replace: true, ..Default::default() });
    });

    // The page: rebuilt when the first path segment changes (query changes stay inside it).
    let section = Memo::new({
        let config = config.clone();
        move |_| {
            let path = location.pathname.get();
            config.relative(&path).trim_start_matches('/').split('/').next().unwrap_or_default().to_string()
        }
    });
    // While the stored token is being checked, the page is already built (hidden): its code
    // and its first request start at once instead of after `auth/me` (one round trip less to
    // the first screen). A refused token signs out as before; a failed check drops the page,
    // so the one shown after Retry starts fresh.
    let check_failed = RwSignal::new(None::<ApiError>);
    let page_live = Memo::new(move |_| gate.get() != Gate::SignedOut && check_failed.with(Option::is_none));
    let t = shell();
    view! {
        <Header/>
        <main class="main" id="main">
            {move || match gate.get() {
                Gate::Ready => None,
                Gate::Checking => Some(Either::Left(view! { <SessionCheck failed=check_failed/> })),
                Gate::SignedOut => Some(Either::Right(view! { <Loading label=t.to_sign_in/> })),
            }}
            {move || page_live.get().then(|| view! {
                <div class="page-slot" hidden=move || gate.get() != Gate::Ready>{move || page(&section.get())}</div>
            })}
        </main>
    }
}

/// After a reload: ask the server who the stored token is before showing any page. (A plain
/// task rather than a resource: nothing renders from it but the wait and the failure.)
#[component]
fn SessionCheck(failed: RwSignal<Option<ApiError>>) -> impl IntoView {
    let auth = use_auth();
    // Requests are created under this component's owner, so leaving the page aborts them;
    // a Retry click runs inside the error view's owner, which `failed.set(None)` disposes,
    // and a request tied to that owner would be aborted at once.
    let owner = Owner::current();
    let check = move || {
        let me = match &owner {
            Some(owner) => owner.with(|| api::auth::me(&auth.client())),
            None => api::auth::me(&auth.client()),
        };
        failed.set(None);
        spawn_local(async move {
            match me.await {
                Ok(session) => auth.checked(session),
                Err(ApiError::Aborted) => {}
                Err(error) => _ = failed.try_set(Some(error)),
            }
        });
    };
    check();
    let retry = Callback::new(move |()| check());
    move || match failed.get() {
        None => Either::Left(view! { <Loading label=shell().checking_token/> }),
        Some(error) => Either::Right(view! { <ApiErrorView error retry page=true/> }),
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
    let t = shell();
    let nav = NodeRef::<leptos::html::Nav>::new();

    // One effect marks the current section and the sections this token may not open (rather
    // than reactive attributes on every link), and closes the small-screen menu on navigation.
    let marks = config.clone();
    Effect::new(move |_| {
        let path = location.pathname.get();
        let here = marks.relative(&path);
        let session = auth.session.get();
        menu_open.set(false);
        let Some(nav) = nav.get() else { return };
        let links = nav.children();
        for (i, g) in GROUPS.iter().enumerate() {
            let Some(a) = links.item(i as u32) else { continue };
            let current = here == g.path() || here.starts_with(&format!("{}/", g.path()));
            let _ = if current { a.set_attribute("aria-current", "page") } else { a.remove_attribute("aria-current") };
            let locked = !session.as_ref().is_some_and(|s| g.opens(|sc| s.can(sc)));
            let _ = a.class_list().toggle_with_force("locked", locked);
            let _ = if locked {
                a.set_attribute("title", &(t.needs_scope)(g.scope.as_str()))
            } else {
                a.remove_attribute("title")
            };
        }
    });

    let sign_out = move |_| {
        let handed_over = auth.credentials.with_untracked(|c| c.as_ref().is_some_and(|c| c.keep == Keep::Memory));
        navigate("/signin", NavigateOptions::default());
        auth.sign_out();
        toasts.show(ToastKind::Info, if handed_over { t.signed_out_host } else { t.signed_out });
    };

    let env = auth.credentials.with_untracked(|c| c.as_ref().map(|c| c.environment.clone())).unwrap_or_default();
    let who = move || auth.session.with(|s| s.as_ref().map(|s| s.name.clone()));
    // A String like the layout's other memos (a `Memo<&str>` would be 620 bytes of its own code).
    let theme_label = Memo::new(move |_| (if theme.mode() == Mode::Dark { t.to_light } else { t.to_dark }).to_string());
    let links =
        GROUPS.iter().map(|g| view! { <a class="nav-link" href=config.href(&g.path())>{g.title()}</a> }).collect_view();

    view! {
        <header class="header">
            <div class="header-bar">
                <a class="brand" href=config.href("/")>
                    <span class="brand-mark" aria-hidden="true">"◆"</span>
                    {t.brand}
                </a>
                <span class="env-badge" title=t.environment>{env}</span>
                <span class="spacer"></span>
                <span class="who" title=t.signed_in_as>{who}</span>
                <crate::pages::search::SearchButton/>
                <LanguageSwitch/>
                <button
                    id="theme-toggle"
                    type="button"
                    class="icon-button"
                    aria-label=theme_label
                    title=theme_label
                    on:click=move |_| theme.toggle()
                >
                    {move || if theme.mode() == Mode::Dark { "☀" } else { "☾" }}
                </button>
                <button id="signout" type="button" class="button" on:click=sign_out>
                    {t.sign_out}
                </button>
                <button
                    type="button"
                    class="icon-button menu-button"
                    aria-controls="moneydesk-nav"
                    aria-expanded=move || if menu_open.get() { "true" } else { "false" }
                    aria-label=t.menu
                    on:click=move |_| menu_open.update(|o| *o = !*o)
                >
                    "☰"
                </button>
            </div>
            <nav node_ref=nav id="moneydesk-nav" class="nav" class:open=menu_open aria-label=t.sections>
                {links}
            </nav>
        </header>
    }
}

/// The language menu: each language named in itself; the choice is remembered on this device
/// and the portal reloads in it (`i18n::choose`).
#[component]
fn LanguageSwitch() -> impl IntoView {
    let toasts = use_toasts();
    let now = i18n::lang();
    // One element per language, written out: a list built from `Lang::ALL` costs the start
    // bundle a Vec of views' code.
    let (en, es) = (Lang::En, Lang::Es);
    let on_change = move |ev| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        let Some(lang) = Lang::parse(&select.value()) else { return };
        spawn_local(async move {
            if i18n::choose(lang).await.is_err() {
                // The menu shows the language the portal still speaks.
                select.set_value(i18n::lang().tag());
                toasts.show(ToastKind::Error, shell().language_failed);
            }
        });
    };
    view! {
        <select id="language" class="language-select" aria-label=shell().language on:change=on_change>
            <option value=en.tag() selected=now == en>{en.name()}</option>
            <option value=es.tag() selected=now == es>{es.name()}</option>
        </select>
    }
}
