//! How an API error looks: access denied, server unreachable (with Retry), or a clear message
//! with the fields that were wrong. Use [`api_error_fallback`] as an `<ErrorBoundary>` fallback.

use leptos::either::EitherOf4;
use leptos::prelude::*;
use moneydesk_model::Scope;

use crate::api::ApiError;
use crate::config::AppConfig;
use crate::session::Auth;

/// `<h1>` when the view is the whole page, else `<h2>` (each page has one `h1`).
fn heading(page: bool, text: &'static str) -> AnyView {
    if page {
        view! { <h1>{text}</h1> }.into_any()
    } else {
        view! { <h2>{text}</h2> }.into_any()
    }
}

fn home_href() -> String {
    use_context::<AppConfig>().map(|c| c.href("/")).unwrap_or_else(|| "/".into())
}

#[component]
pub fn AccessDenied(
    /// The scope the page needs, when known.
    #[prop(optional)]
    scope: Option<Scope>,
    /// The server's words, for a 403 answer.
    #[prop(optional, into)]
    message: Option<String>,
    #[prop(optional)] page: bool,
) -> impl IntoView {
    let held = use_context::<Auth>().and_then(|a| a.session.get_untracked()).map(|s| {
        let scopes: Vec<&str> = s.scopes.iter().map(|s| s.as_str()).collect();
        let scopes = if scopes.is_empty() { "no scopes".to_string() } else { scopes.join(", ") };
        format!("Your token “{}” has: {scopes}.", s.name)
    });
    view! {
        <section class="panel access-denied" data-testid="access-denied">
            {heading(page, "Access denied")}
            <p>
                {match scope {
                    Some(s) => format!("This page needs the {} scope (or admin). ", s.as_str()),
                    None => "The server refused this request for your token. ".to_string(),
                }}
                {held}
            </p>
            {message.map(|m| view! { <p class="muted">"Server said: " {m}</p> })}
            <p>"Ask an administrator for a token with that scope, or " <a href=home_href()>"go to the dashboard"</a> "."</p>
        </section>
    }
}

#[component]
pub fn NetworkError(
    #[prop(into)] message: String,
    #[prop(optional, into)] retry: Option<Callback<()>>,
    #[prop(optional)] page: bool,
) -> impl IntoView {
    view! {
        <section class="panel network-error" data-testid="network-error" role="alert">
            {heading(page, "Cannot reach the server")}
            <p>{message}</p>
            {retry.map(|retry| view! {
                <button id="retry" type="button" class="button primary" on:click=move |_| retry.run(())>
                    "Retry"
                </button>
            })}
        </section>
    }
}

#[component]
pub fn ApiErrorView(
    error: ApiError,
    #[prop(optional, into)] retry: Option<Callback<()>>,
    #[prop(optional)] page: bool,
) -> impl IntoView {
    match error {
        ApiError::Forbidden { message } => EitherOf4::A(view! { <AccessDenied message page/> }),
        e @ ApiError::Network { .. } => EitherOf4::B(match retry {
            Some(retry) => view! { <NetworkError message=e.to_string() retry page/> }.into_any(),
            None => view! { <NetworkError message=e.to_string() page/> }.into_any(),
        }),
        e if e.is_auth() => EitherOf4::C(view! {
            <section class="panel" role="alert">
                {heading(page, "Signed out")}
                <p>{e.to_string()} " Taking you to the sign-in page…"</p>
            </section>
        }),
        e => {
            let fields = match &e {
                ApiError::Validation { fields, .. } => fields.clone(),
                _ => Vec::new(),
            };
            let title = match &e {
                ApiError::NotFound { .. } => "Not found",
                ApiError::NotImplemented { .. } => "Not available yet",
                ApiError::Validation { .. } => "Check the input",
                _ => "Something went wrong",
            };
            let message = match &e {
                ApiError::Validation { message, .. } => message.clone(),
                other => other.to_string(),
            };
            EitherOf4::D(view! {
                <section class="panel error-panel" role="alert">
                    {heading(page, title)}
                    <p>{message}</p>
                    {(!fields.is_empty()).then(|| view! {
                        <ul class="field-errors">
                            {fields.into_iter().map(|f| view! { <li><code>{f.field}</code> ": " {f.message}</li> }).collect_view()}
                        </ul>
                    })}
                    {retry.map(|retry| view! {
                        <button id="retry" type="button" class="button" on:click=move |_| retry.run(())>"Retry"</button>
                    })}
                </section>
            })
        }
    }
}

/// An `<ErrorBoundary>` fallback that shows the first error: an [`ApiError`] as
/// [`ApiErrorView`] (with Retry calling `retry`), anything else as its message.
pub fn api_error_fallback(
    retry: Option<Callback<()>>,
) -> impl FnMut(ArcRwSignal<Errors>) -> AnyView + Send + Clone + 'static {
    move |errors: ArcRwSignal<Errors>| {
        let errors = errors.clone();
        (move || {
            let first = errors.with(|e| {
                e.iter().next().map(|(_, err)| match err.downcast_ref::<ApiError>() {
                    Some(api) => Ok(api.clone()),
                    None => Err(err.to_string()),
                })
            });
            match first {
                Some(Ok(api)) => match retry {
                    Some(retry) => view! { <ApiErrorView error=api retry/> }.into_any(),
                    None => view! { <ApiErrorView error=api/> }.into_any(),
                },
                Some(Err(text)) => view! {
                    <section class="panel error-panel" role="alert"><h2>"Something went wrong"</h2><p>{text}</p></section>
                }
                .into_any(),
                None => ().into_any(),
            }
        })
        .into_any()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::sync::Arc;

    use moneydesk_model::FieldError;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_util::{container, find};

    #[wasm_bindgen_test]
    async fn network_error_offers_a_working_retry() {
        let root = container();
        let clicks = Arc::new(AtomicU32::new(0));
        let seen = clicks.clone();
        let error = ApiError::Network { url: "http://127.0.0.1:9/api".into(), message: "Failed to fetch".into() };
        let handle = leptos::mount::mount_to(root.clone(), move || {
            let retry = Callback::new(move |()| {
                seen.fetch_add(1, Ordering::SeqCst);
            });
            view! { <ApiErrorView error retry page=true/> }
        });
        let view = find(&root, "[data-testid=network-error]").await;
        assert_eq!(view.get_attribute("role").as_deref(), Some("alert"));
        assert!(view.query_selector("h1").unwrap().is_some(), "a whole-page view has the page's h1");
        assert!(view.text_content().unwrap().contains("Could not reach the server at http://127.0.0.1:9/api"));
        find(&root, "button#retry").await.click();
        assert_eq!(clicks.load(Ordering::SeqCst), 1);
        drop(handle);
        assert_eq!(root.inner_html(), "", "unmounting leaves nothing behind");
    }

    #[wasm_bindgen_test]
    async fn forbidden_shows_access_denied_and_validation_lists_fields() {
        let root = container();
        let _handle = leptos::mount::mount_to(root.clone(), || {
            view! {
                <ApiErrorView error=ApiError::Forbidden { message: "needs vault:read".into() }/>
                <ApiErrorView error=ApiError::Validation {
                    message: "1 field is invalid".into(),
                    fields: vec![FieldError::new("routingNumber", "must be 9 digits, got 8")],
                }/>
            }
        });
        let denied = find(&root, "[data-testid=access-denied]").await;
        assert!(denied.query_selector("h2").unwrap().is_some(), "inside a page: h2, the page keeps its h1");
        assert!(denied.text_content().unwrap().contains("needs vault:read"));
        let alert = find(&root, ".error-panel[role=alert]").await;
        let text = alert.text_content().unwrap();
        assert!(text.contains("1 field is invalid") && text.contains("routingNumber") && text.contains("must be 9 digits"), "{text}");
    }
}
