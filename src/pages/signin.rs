//! Sign in: choose the environment (from `environments.json`, or the host page's), paste a
//! token, and check it with the server (`AUTH_ME`) before keeping it. `?env=` preselects an
//! environment and `?next=` is where to go afterwards; both stay in the URL.

use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

use crate::api::{self, ApiError, Client};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::{
    find_environment, host_environment, load_environments, unknown_environment, AppConfig, Environment,
};
use crate::session::{check_token, use_auth, Auth, Credentials, Keep};

/// The environments config: loading, loaded, or why not.
type Environments = Option<Result<Vec<Environment>, String>>;

/// The form's state; `Copy` (signals and the fields' nodes, read on submit).
#[derive(Clone, Copy)]
struct SignInForm {
    environments: RwSignal<Environments>,
    error: RwSignal<Option<String>>,
    pending: RwSignal<bool>,
    token_ref: NodeRef<html::Textarea>,
    remember_ref: NodeRef<html::Input>,
    env_ref: NodeRef<html::Select>,
}

#[component]
pub fn SignInPage() -> impl IntoView {
    let auth = use_auth();
    let config = expect_context::<AppConfig>();
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
    let form = SignInForm {
        environments,
        error: RwSignal::new(None::<String>),
        pending: RwSignal::new(false),
        token_ref: NodeRef::<html::Textarea>::new(),
        remember_ref: NodeRef::<html::Input>::new(),
        env_ref: NodeRef::<html::Select>::new(),
    };
    let SignInForm { error, pending, token_ref, remember_ref, env_ref, .. } = form;
    let on_submit = form.on_submit(auth, query, requested.clone().unwrap_or_default());

    // The options, and the config's problem if any (shown with the form's own errors).
    let options = {
        let requested = requested.clone();
        move || {
            environments.with(|e| match e {
                Some(Ok(list)) => choices(list, requested.as_ref())
                    .map(|(id, label, selected)| view! { <option value=id prop:selected=selected>{label}</option> })
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            })
        }
    };
    let alert = move || {
        let config_problem = environments.with(|e| config_problem(e, requested.as_ref()));
        error.get().or(config_problem).map(|m| view! { <p class="alert" role="alert">{m}</p> })
    };
    let loading = move || environments.with(Option::is_none);

    view! {
        <main class="signin" id="main">
            <form class="panel signin-form" on:submit=on_submit novalidate>
                <h1>"Sign in to Moneydesk"</h1>
                {move || auth.notice.get().map(|n| view! { <p class="alert warning" role="alert">{n}</p> })}
                <label for="signin-environment">"Environment"</label>
                <select id="signin-environment" name="environment" node_ref=env_ref disabled=loading>
                    {options}
                </select>
                <label for="signin-token">"API token"</label>
                <textarea
                    id="signin-token"
                    name="token"
                    rows="3"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder="mdk_…"
                    node_ref=token_ref
                ></textarea>
                <p class="hint">"Paste the token printed when it was created. It is sent only to the chosen environment."</p>
                <label class="check">
                    <input id="signin-remember" type="checkbox" node_ref=remember_ref/>
                    "Remember on this device"
                </label>
                {alert}
                <button id="signin-submit" type="submit" class="button primary" disabled=pending>
                    {move || if pending.get() { "Checking the token…" } else { "Sign in" }}
                </button>
            </form>
        </main>
    }
}

impl SignInForm {
    /// Submitting: the environment chosen and the token typed are checked here, then with the
    /// server (`AUTH_ME`); accepted, they are kept and the user goes on to `?next=`.
    /// `requested_id` is the `?env=` the page was opened with.
    fn on_submit(self, auth: Auth, query: Memo<ParamsMap>, requested_id: String) -> impl Fn(SubmitEvent) + 'static {
        let SignInForm { environments, error, pending, token_ref, remember_ref, env_ref } = self;
        let toasts = use_toasts();
        let navigate = use_navigate();
        move |ev: SubmitEvent| {
            ev.prevent_default();
            if pending.get_untracked() {
                return;
            }
            error.set(None);
            let list = match environments.get_untracked() {
                Some(Ok(list)) => list,
                Some(Err(e)) => return error.set(Some(format!("No environment to sign in to. {e}"))),
                None => return error.set(Some("The environments are still loading; try again in a moment.".into())),
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
                        toasts.show(ToastKind::Success, format!("Signed in as {name} ({}).", env.label));
                        navigate(&next, NavigateOptions::default());
                    }
                    Err(ApiError::Aborted) => {}
                    Err(e) => {
                        error.try_set(Some(sign_in_message(&e, &env)));
                    }
                }
            });
        }
    }
}

/// The environment select's options: `(id, label, selected)`. The one `?env=` names is chosen
/// (else the first); when it is not configured, a placeholder is first and chosen.
fn choices<'a>(
    list: &'a [Environment],
    requested: Option<&'a String>,
) -> impl Iterator<Item = (String, String, bool)> + 'a {
    let known = requested.is_none_or(|id| find_environment(list, id).is_some());
    let chosen = requested.cloned().filter(|_| known).unwrap_or_else(|| list[0].id.clone());
    let placeholder = (!known).then(|| ("".to_string(), "Choose an environment".to_string(), true));
    placeholder.into_iter().chain(list.iter().map(move |e| {
        let place = if e.base_url.is_empty() { "this site" } else { e.base_url.as_str() };
        (e.id.clone(), format!("{} — {place}", e.label), e.id == chosen)
    }))
}

/// What is wrong with the config (it did not load, or `?env=` names an environment it lacks).
fn config_problem(environments: &Environments, requested: Option<&String>) -> Option<String> {
    match environments {
        None => None,
        Some(Err(m)) => Some(m.clone()),
        Some(Ok(list)) => {
            requested.filter(|id| find_environment(list, id).is_none()).map(|id| unknown_environment(id, list))
        }
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
    let server = if env.base_url.is_empty() { "this site's server" } else { env.base_url.as_str() };
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

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn envs() -> Vec<Environment> {
        let env = |id: &str, label: &str, base_url: &str| Environment {
            id: id.into(),
            label: label.into(),
            base_url: base_url.into(),
        };
        vec![env("prod", "Production", ""), env("test", "Test", "https://test.bank.example")]
    }

    fn shown(requested: Option<&str>) -> Vec<(String, String, bool)> {
        let (list, requested) = (envs(), requested.map(str::to_string));
        choices(&list, requested.as_ref()).collect()
    }

    #[wasm_bindgen_test]
    fn the_requested_environment_is_chosen_else_the_first() {
        let o = |id: &str, label: &str, selected| (id.to_string(), label.to_string(), selected);
        assert_eq!(
            shown(None),
            vec![o("prod", "Production — this site", true), o("test", "Test — https://test.bank.example", false)]
        );
        assert_eq!(shown(Some("test")).iter().map(|c| c.2).collect::<Vec<_>>(), vec![false, true]);
        let unknown = shown(Some("staging"));
        assert_eq!(
            unknown.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(),
            vec!["Choose an environment", "Production — this site", "Test — https://test.bank.example"],
            "an environment not configured is not offered"
        );
        assert_eq!((unknown[0].0.as_str(), unknown[0].2), ("", true), "the placeholder is marked chosen");
    }

    #[wasm_bindgen_test]
    fn the_config_problem_is_one_that_did_not_load_or_lacks_the_requested() {
        let staging = "staging".to_string();
        assert_eq!(config_problem(&None, Some(&staging)), None, "still loading");
        assert_eq!(config_problem(&Some(Err("no file".into())), None).as_deref(), Some("no file"));
        assert_eq!(config_problem(&Some(Ok(envs())), Some(&"test".to_string())), None);
        assert_eq!(config_problem(&Some(Ok(envs())), Some(&staging)), Some(unknown_environment("staging", &envs())));
    }

    #[wasm_bindgen_test]
    fn only_a_path_of_the_portal_is_next() {
        assert_eq!(safe_next(Some("/accounts?page=2".into())), "/accounts?page=2");
        for bad in ["https://evil.example/", "//evil.example", "/\\evil", "/signin?next=/"] {
            assert_eq!(safe_next(Some(bad.into())), "/", "{bad}");
        }
        assert_eq!(safe_next(None), "/");
    }
}
