//! Sign in: choose the environment (from `environments.json`, or the host page's), paste a
//! token, and check it with the server (`AUTH_ME`) before keeping it. `?env=` preselects an
//! environment and `?next=` is where to go afterwards; both stay in the URL. `?link=<secret>`
//! (a sign-in link an admin made) is exchanged for a session token instead, kept for the tab;
//! a link that is expired, used, revoked or unknown gets a page that says so (`LinkSignIn`).

use leptos::either::Either;
use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::api::{self, ApiError, Client};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::{
    find_environment, host_environment, load_environments, unknown_environment, AppConfig, Environment,
};
use crate::i18n::fill;
use crate::i18n::signin::text;
use crate::session::{check_token, use_auth, Credentials, Keep};

/// The environments config: loading, loaded, or why not.
type Environments = Option<Result<Vec<Environment>, String>>;

#[component]
pub fn SignInPage() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let query = use_query_map();

    let environments = RwSignal::new(None as Environments);
    match config.base_url.clone() {
        Some(url) => environments.set(Some(Ok(vec![host_environment(&url)]))),
        None => spawn_local(async move {
            environments.try_set(Some(load_environments().await));
        }),
    }
    // `?env=` picks the environment; one that is not configured is said so (and not used).
    let requested = query.with_untracked(|q| q.get("env"));
    if let Some(secret) = query.with_untracked(|q| q.get("link")).filter(|l| !l.trim().is_empty()) {
        return Either::Right(view! { <LinkSignIn secret environments requested/> });
    }
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);
    let token_ref = NodeRef::<html::Textarea>::new();
    let remember_ref = NodeRef::<html::Input>::new();
    let env_ref = NodeRef::<html::Select>::new();
    let t = text();

    let requested_id = requested.clone().unwrap_or_default();
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        error.set(None);
        let list = match environments.get_untracked() {
            Some(Ok(list)) => list,
            Some(Err(e)) => return error.set(Some(fill(t.no_environment, &[&e]))),
            None => return error.set(Some(t.still_loading.into())),
        };
        let id = env_ref.get_untracked().map(|s| s.value()).unwrap_or_default();
        let Some(env) = find_environment(&list, &id).cloned() else {
            let id = if id.is_empty() { requested_id.clone() } else { id };
            return error.set(Some(unknown_environment(&id, &list)));
        };
        let raw = token_ref.get_untracked().map(|t| t.value()).unwrap_or_default();
        let token = match check_token(&raw) {
            Ok(t) => t,
            Err(message) => return error.set(Some(message)),
        };
        let remember = remember_ref.get_untracked().is_some_and(|r| r.checked());
        let keep = if remember { Keep::Device } else { Keep::Tab };
        let next = safe_next(query.with_untracked(|q| q.get("next")));
        let check = api::auth::me(&Client::new(env.base_url.clone(), Some(token.clone())));
        let navigate = navigate.clone();
        pending.set(true);
        spawn_local(async move {
            let result = check.await;
            pending.try_set(false);
            match result {
                Ok(session) => {
                    let name = session.name.clone();
                    let credentials =
                        Credentials { environment: env.id.clone(), base_url: env.base_url.clone(), token, keep };
                    auth.sign_in(credentials, session);
                    toasts.show(ToastKind::Success, fill(t.signed_in, &[&name, &env.label]));
                    navigate(&next, NavigateOptions::default());
                }
                Err(ApiError::Aborted) => {}
                Err(e) => {
                    error.try_set(Some(sign_in_message(&e, &env)));
                }
            }
        });
    };

    // The options, and the config's problem if any (shown with the form's own errors).
    let options = {
        let requested = requested.clone();
        move || {
            environments.with(|e| match e {
                Some(Ok(list)) => {
                    let known = requested.as_ref().is_none_or(|id| find_environment(list, id).is_some());
                    let chosen = requested.clone().filter(|_| known).unwrap_or_else(|| list[0].id.clone());
                    let placeholder = (!known).then(|| (String::new(), t.choose_environment.to_string(), true));
                    placeholder
                        .into_iter()
                        .chain(list.iter().map(|e| {
                            let place = if e.base_url.is_empty() { t.this_site } else { e.base_url.as_str() };
                            (e.id.clone(), format!("{} — {place}", e.label), e.id == chosen)
                        }))
                        .map(|(id, label, selected)| view! { <option value=id prop:selected=selected>{label}</option> })
                        .collect::<Vec<_>>()
                }
                _ => Vec::new(),
            })
        }
    };
    let alert = move || {
        let config_problem = environments.with(|e| match e {
            None => None,
            Some(Err(m)) => Some(m.clone()),
            Some(Ok(list)) => requested
                .as_ref()
                .filter(|id| find_environment(list, id).is_none())
                .map(|id| unknown_environment(id, list)),
        });
        error.get().or(config_problem).map(|m| view! { <p class="alert" role="alert">{m}</p> })
    };
    let loading = move || environments.with(Option::is_none);

    Either::Left(view! {
        <main class="signin" id="main">
            <form class="panel signin-form" on:submit=on_submit novalidate>
                <h1>{t.heading}</h1>
                {move || auth.notice.get().map(|n| view! { <p class="alert warning" role="alert">{n}</p> })}
                <label for="signin-environment">{t.environment}</label>
                <select id="signin-environment" name="environment" node_ref=env_ref disabled=loading>
                    {options}
                </select>
                <label for="signin-token">{t.token}</label>
                <textarea
                    id="signin-token"
                    name="token"
                    rows="3"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder=t.token_example
                    node_ref=token_ref
                ></textarea>
                <p class="hint">{t.token_hint}</p>
                <label class="check">
                    <input id="signin-remember" type="checkbox" node_ref=remember_ref/>
                    {t.remember}
                </label>
                {alert}
                <button id="signin-submit" type="submit" class="button primary" disabled=pending>
                    {move || if pending.get() { t.checking } else { t.submit }}
                </button>
            </form>
        </main>
    })
}

/// Signs in with a sign-in link's secret: exchanged once with the environment's server (the
/// `?env=` one, else this site's, else the first) for a session token kept for this tab.
#[component]
fn LinkSignIn(secret: String, environments: RwSignal<Environments>, requested: Option<String>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let config = expect_context::<AppConfig>();
    let failed = RwSignal::new(None::<(&'static str, String)>);
    let t = text();
    let started = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(loaded) = environments.get() else { return };
        if started.get_value() {
            return;
        }
        started.set_value(true);
        let list = match loaded {
            Ok(list) => list,
            Err(e) => return failed.set(Some((t.no_environment_title, e))),
        };
        let chosen = requested.as_deref().and_then(|id| find_environment(&list, id));
        let Some(env) = chosen.or_else(|| list.iter().find(|e| e.base_url.is_empty())).or(list.first()).cloned() else {
            return failed.set(Some((t.no_environment_title, t.empty_environments.into())));
        };
        let exchange = api::tokens::exchange(&env.base_url, &secret);
        let navigate = navigate.clone();
        spawn_local(async move {
            match exchange.await {
                Ok(signed) => {
                    let name = signed.session.name.clone();
                    let credentials = Credentials {
                        environment: env.id.clone(),
                        base_url: env.base_url.clone(),
                        token: signed.token,
                        keep: Keep::Tab,
                    };
                    auth.sign_in(credentials, signed.session);
                    toasts.show(ToastKind::Success, fill(t.signed_in, &[&name, &env.label]));
                    navigate("/", NavigateOptions { replace: true, ..Default::default() });
                }
                Err(ApiError::Aborted) => {}
                Err(e) => {
                    failed.try_set(Some(link_problem(&e)));
                }
            }
        });
    });
    let signin = config.href("/signin");
    view! {
        <main class="signin" id="main">
            <section class="panel signin-form" aria-labelledby="signin-link-title" data-testid="signin-link">
                {move || match failed.get() {
                    None => Either::Left(view! {
                        <h1 id="signin-link-title">{t.link_heading}</h1>
                        <p role="status">{t.link_checking}</p>
                    }),
                    Some((title, message)) => Either::Right(view! {
                        <h1 id="signin-link-title">{title}</h1>
                        <p class="alert" role="alert" id="signin-link-problem">{message}</p>
                        <p><a href=signin.clone() rel="external">{t.link_instead}</a></p>
                    }),
                }}
            </section>
        </main>
    }
}

/// Why a link gave no session, as a title and words a person can act on.
pub fn link_problem(e: &ApiError) -> (&'static str, String) {
    let t = text();
    match e {
        ApiError::Other { status: 410, message } => (t.link_gone, message.clone()),
        ApiError::NotFound { .. } => (t.link_unknown, t.link_unknown_why.into()),
        other => (t.link_failed, other.to_string()),
    }
}

/// Only a path of this portal is a place to go back to (no other site, not sign-in itself).
pub fn safe_next(next: Option<String>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && !n.starts_with("/signin") => n,
        _ => "/".into(),
    }
}

/// Why the token was not accepted, in words a person can act on.
pub fn sign_in_message(e: &ApiError, env: &Environment) -> String {
    let t = text();
    let server = if env.base_url.is_empty() { t.this_server } else { env.base_url.as_str() };
    match e {
        ApiError::Unauthorized { .. } => fill(t.unauthorized, &[&env.label]),
        ApiError::InvalidToken { message } => fill(t.invalid_token, &[message]),
        ApiError::Forbidden { .. } => t.forbidden.into(),
        ApiError::Network { message, .. } => fill(t.unreachable, &[server, message]),
        ApiError::NotJson { status } => fill(t.not_json, &[server, &status.to_string(), &env.label]),
        ApiError::NotFound { .. } => fill(t.no_api, &[server]),
        other => other.to_string(),
    }
}
