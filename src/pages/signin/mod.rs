//! Sign in: choose the environment (from `environments.json`, or the host page's), paste a
//! token, and check it with the server (`AUTH_ME`) before keeping it. `?env=` preselects an
//! environment and `?next=` is where to go afterwards; both stay in the URL. `?link=<secret>`
//! (a sign-in link an admin made) is exchanged for a session token instead, kept for the tab
//! (link.rs). What the form decides without the DOM is state.rs.

mod link;
pub mod state;

use leptos::either::Either;
use leptos::ev::SubmitEvent;
use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use self::link::LinkSignIn;
use self::state::{attempt, config_problem, options, safe_next, sign_in_message, Environments};
use crate::api::{self, ApiError, Client};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::{host_environment, load_environments, AppConfig};
use crate::i18n::fill;
use crate::i18n::signin::text;
use crate::session::{use_auth, Credentials};

#[component]
pub fn SignInPage() -> impl IntoView {
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
    match query.with_untracked(|q| q.get("link")).filter(|l| !l.trim().is_empty()) {
        Some(secret) => Either::Right(view! { <LinkSignIn secret environments requested/> }),
        None => Either::Left(view! { <TokenSignIn environments requested/> }),
    }
}

/// The form's state, shared by its submit handler and its view.
#[derive(Clone, Copy)]
struct Form {
    environments: RwSignal<Environments>,
    error: RwSignal<Option<String>>,
    pending: RwSignal<bool>,
    env: NodeRef<html::Select>,
    token: NodeRef<html::Textarea>,
    remember: NodeRef<html::Input>,
}

impl Form {
    /// The form's values, checked; the problem is shown on the form.
    fn attempt(&self, requested: &str) -> Option<state::Attempt> {
        let chosen = self.env.get_untracked().map(|s| s.value()).unwrap_or_default();
        let raw = self.token.get_untracked().map(|t| t.value()).unwrap_or_default();
        let remember = self.remember.get_untracked().is_some_and(|r| r.checked());
        self.environments
            .with_untracked(|e| attempt(e, &chosen, requested, &raw, remember))
            .map_err(|m| self.error.set(Some(m)))
            .ok()
    }
}

#[component]
fn TokenSignIn(environments: RwSignal<Environments>, requested: Option<String>) -> impl IntoView {
    let auth = use_auth();
    let toasts = use_toasts();
    let navigate = use_navigate();
    let query = use_query_map();
    let form = Form {
        environments,
        error: RwSignal::new(None),
        pending: RwSignal::new(false),
        env: NodeRef::new(),
        token: NodeRef::new(),
        remember: NodeRef::new(),
    };
    let t = text();
    let requested_id = requested.clone().unwrap_or_default();
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if form.pending.get_untracked() {
            return;
        }
        form.error.set(None);
        let Some(state::Attempt { env, token, keep }) = form.attempt(&requested_id) else { return };
        let next = safe_next(query.with_untracked(|q| q.get("next")));
        let check = api::auth::me(&Client::new(env.base_url.clone(), Some(token.clone())));
        let navigate = navigate.clone();
        form.pending.set(true);
        spawn_local(async move {
            let result = check.await;
            form.pending.try_set(false);
            match result {
                Ok(session) => {
                    let name = session.name.clone();
                    auth.sign_in(
                        Credentials { environment: env.id.clone(), base_url: env.base_url.clone(), token, keep },
                        session,
                    );
                    toasts.show(ToastKind::Success, fill(t.signed_in, &[&name, &env.label]));
                    navigate(&next, NavigateOptions::default());
                }
                Err(ApiError::Aborted) => {}
                Err(e) => drop(form.error.try_set(Some(sign_in_message(&e, &env)))),
            }
        });
    };
    let wanted = requested.clone();
    let choices = move || {
        environments.with(|e| match e {
            Some(Ok(list)) => options(list, wanted.as_deref()),
            _ => Vec::new(),
        })
    };
    let choices = move || {
        choices()
            .into_iter()
            .map(|(id, label, selected)| view! { <option value=id prop:selected=selected>{label}</option> })
            .collect::<Vec<_>>()
    };
    let alert = move || {
        let problem = environments.with(|e| config_problem(e, requested.as_deref()));
        form.error.get().or(problem).map(|m| view! { <p class="alert" role="alert">{m}</p> })
    };
    let loading = move || environments.with(Option::is_none);

    view! {
        <main class="signin" id="main">
            <form class="panel signin-form" on:submit=on_submit novalidate>
                <h1>{t.heading}</h1>
                {move || auth.notice.get().map(|n| view! { <p class="alert warning" role="alert">{n}</p> })}
                <label for="signin-environment">{t.environment}</label>
                <select id="signin-environment" name="environment" node_ref=form.env disabled=loading>
                    {choices}
                </select>
                <label for="signin-token">{t.token}</label>
                <textarea id="signin-token" name="token" rows="3" spellcheck="false" autocomplete="off"
                    placeholder=t.token_example node_ref=form.token></textarea>
                <p class="hint">{t.token_hint}</p>
                <label class="check">
                    <input id="signin-remember" type="checkbox" node_ref=form.remember/>
                    {t.remember}
                </label>
                {alert}
                <button id="signin-submit" type="submit" class="button primary" disabled=form.pending>
                    {move || if form.pending.get() { t.checking } else { t.submit }}
                </button>
            </form>
        </main>
    }
}
