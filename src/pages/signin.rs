//! Sign in: choose the environment (from `environments.json`, or the host page's), paste a
//! token, and check it with the server (`AUTH_ME`) before keeping it. `?env=` preselects an
//! environment and `?next=` is where to go afterwards; both stay in the URL.

use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::api::{self, ApiError, Client};
use crate::components::loading::Loading;
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::{find_environment, host_environment, load_environments, unknown_environment, AppConfig, Environment};
use crate::session::{check_token, use_auth, Credentials, Keep};

#[component]
pub fn SignInPage() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let query = use_query_map();

    let host_url = config.base_url.clone();
    let environments = LocalResource::new(move || {
        let host_url = host_url.clone();
        async move {
            match host_url {
                Some(url) => Ok(vec![host_environment(&url)]),
                None => load_environments().await,
            }
        }
    });

    let requested = Memo::new(move |_| query.with(|q| q.get("env")));
    let chosen = RwSignal::new(None::<String>);
    let token = RwSignal::new(String::new());
    let remember = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);

    // The select's value: the user's pick, else `?env=`, else the first configured one.
    let selected = move |list: &[Environment]| -> Option<String> {
        chosen.get().or_else(|| requested.get()).or_else(|| list.first().map(|e| e.id.clone()))
    };

    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        error.set(None);
        let list = match environments.get_untracked() {
            Some(Ok(list)) => list,
            Some(Err(e)) => return error.set(Some(format!("No environment to sign in to: {e}"))),
            None => return error.set(Some("The environments are still loading; try again in a moment.".into())),
        };
        let id = selected(&list).unwrap_or_default();
        let Some(env) = find_environment(&list, &id).cloned() else {
            return error.set(Some(unknown_environment(&id, &list)));
        };
        let token = match check_token(&token.get_untracked()) {
            Ok(t) => t,
            Err(message) => return error.set(Some(message)),
        };
        let keep = if remember.get_untracked() { Keep::Device } else { Keep::Tab };
        let next = safe_next(query.with_untracked(|q| q.get("next")));
        let client = Client::new(env.base_url.clone(), Some(token.clone()));
        let check = api::auth::me(&client);
        let navigate = navigate.clone();
        pending.set(true);
        spawn_local(async move {
            let result = check.await;
            pending.try_set(false);
            match result {
                Ok(session) => {
                    let name = session.name.clone();
                    let credentials = Credentials { environment: env.id.clone(), base_url: env.base_url.clone(), token, keep };
                    auth.sign_in(credentials, session);
                    toasts.show(ToastKind::Success, format!("Signed in as {name} ({}).", env.label));
                    navigate(&next, NavigateOptions::default());
                }
                Err(ApiError::Aborted) => {}
                Err(e) => {
                    error.try_set(Some(sign_in_message(&e, &env)));
                }
            }
        });
    };

    let environment_field = move || {
        Suspend::new(async move {
            match environments.await {
                Err(message) => view! { <p class="alert" role="alert">{message}</p> }.into_any(),
                Ok(list) => {
                    let unknown = requested
                        .get()
                        .filter(|id| chosen.get().is_none() && find_environment(&list, id).is_none())
                        .map(|id| unknown_environment(&id, &list));
                    let current = selected(&list);
                    let options = list
                        .iter()
                        .map(|e| {
                            let id = e.id.clone();
                            let is_current = current.as_deref() == Some(id.as_str());
                            let where_ = if e.base_url.is_empty() { "this site".to_string() } else { e.base_url.clone() };
                            view! { <option value=id prop:selected=is_current>{format!("{} — {where_}", e.label)}</option> }
                        })
                        .collect_view();
                    view! {
                        <select
                            id="signin-environment"
                            name="environment"
                            on:change=move |ev| chosen.set(Some(event_target_value(&ev)))
                        >
                            {unknown.is_some().then(|| view! { <option value="" prop:selected=true disabled>"Choose an environment"</option> })}
                            {options}
                        </select>
                        {unknown.map(|m| view! { <p class="alert" role="alert">{m}</p> })}
                    }
                    .into_any()
                }
            }
        })
    };

    view! {
        <div class="signin">
            <form class="panel signin-form" on:submit=on_submit novalidate>
                <h1>"Sign in to Moneydesk"</h1>
                {move || auth.notice.get().map(|n| view! { <p class="alert warning" role="alert">{n}</p> })}
                <label for="signin-environment">"Environment"</label>
                <Transition fallback=|| view! { <Loading label="Loading environments…"/> }>
                    {environment_field}
                </Transition>
                <label for="signin-token">"API token"</label>
                <textarea
                    id="signin-token"
                    name="token"
                    rows="3"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder="mdk_…"
                    prop:value=move || token.get()
                    on:input=move |ev| token.set(event_target_value(&ev))
                ></textarea>
                <p class="hint">"Paste the token printed when it was created. It is sent only to the chosen environment."</p>
                <label class="check">
                    <input
                        id="signin-remember"
                        type="checkbox"
                        prop:checked=move || remember.get()
                        on:change=move |ev| remember.set(event_target_checked(&ev))
                    />
                    "Remember on this device"
                </label>
                {move || error.get().map(|e| view! { <p class="alert" role="alert">{e}</p> })}
                <button id="signin-submit" type="submit" class="button primary" disabled=move || pending.get()>
                    {move || if pending.get() { "Checking the token…" } else { "Sign in" }}
                </button>
            </form>
        </div>
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
    let server = if env.base_url.is_empty() { "this site's server".to_string() } else { env.base_url.clone() };
    match e {
        ApiError::Unauthorized { .. } => format!(
            "The server did not accept this token: it is unknown there or was revoked. Is it a token of the {} environment?",
            env.label
        ),
        ApiError::InvalidToken { message } => {
            format!("The server rejected this token as malformed, expired or revoked (code 600): {message}")
        }
        ApiError::Forbidden { .. } => "This token is valid but may not sign in to the portal.".into(),
        ApiError::Network { message, .. } => {
            format!("Could not reach {server}: is the server running, and is the environment's base URL right? ({message})")
        }
        ApiError::NotJson { status } => format!(
            "{server} answered HTTP {status} with something that is not JSON: the {} environment's base URL does not seem to point at the Moneydesk API.",
            env.label
        ),
        ApiError::NotFound { .. } => format!("{server} has no Moneydesk API (HTTP 404 for the token check)."),
        other => other.to_string(),
    }
}
