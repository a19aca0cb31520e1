//! Signing in with a sign-in link's secret (`?link=`): exchanged once with the environment's
//! server (the `?env=` one, else this site's, else the first) for a session token kept for
//! this tab; a link that is expired, used, revoked or unknown gets a page that says so.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::state::{link_problem, Environments};
use crate::api::{self, ApiError};
use crate::components::toasts::{use_toasts, ToastKind};
use crate::config::{find_environment, AppConfig};
use crate::i18n::fill;
use crate::i18n::signin::text;
use crate::session::{use_auth, Credentials, Keep};

#[component]
pub fn LinkSignIn(secret: String, environments: RwSignal<Environments>, requested: Option<String>) -> impl IntoView {
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
