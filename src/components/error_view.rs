//! How an API error looks: access denied, server unreachable (with Retry), or a clear message
//! with the fields that were wrong. Use [`api_error_fallback`] as an `<ErrorBoundary>` fallback.
//! Every variant renders through one `panel` shape, so the bundle holds one copy of it.

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::{FieldError, Scope};

use crate::api::ApiError;
use crate::config::AppConfig;
use crate::i18n::components::start;
use crate::i18n::shell::shell;
use crate::session::Auth;

struct Panel {
    class: &'static str,
    testid: Option<&'static str>,
    alert: bool,
    /// `<h1>` when the view is the whole page, else `<h2>` (each page has one `h1`).
    page: bool,
    title: &'static str,
    paragraphs: Vec<String>,
    fields: Vec<FieldError>,
    home: bool,
    retry: Option<Callback<()>>,
}

fn panel(p: Panel) -> impl IntoView {
    let (title, retry_text) = (p.title, start().errors.retry);
    let home = p.home.then(|| use_context::<AppConfig>().map(|c| c.href("/")).unwrap_or_else(|| "/".into()));
    view! {
        <section class=p.class data-testid=p.testid role=p.alert.then_some("alert")>
            {if p.page { Either::Left(view! { <h1>{title}</h1> }) } else { Either::Right(view! { <h2>{title}</h2> }) }}
            {p.paragraphs.into_iter().map(|t| view! { <p>{t}</p> }).collect_view()}
            {(!p.fields.is_empty()).then(|| view! {
                <ul class="field-errors">
                    {p.fields.into_iter().map(|f| view! { <li><code>{f.field}</code> ": " {f.problem}</li> }).collect_view()}
                </ul>
            })}
            {home.map(|href| view! { <p><a href=href>{shell().to_dashboard}</a></p> })}
            {p.retry.map(|retry| view! {
                <button id="retry" type="button" class="button primary" on:click=move |_| retry.run(())>{retry_text}</button>
            })}
        </section>
    }
}

fn denied(scope: Option<Scope>, message: Option<String>, page: bool) -> Panel {
    let t = &start().errors;
    let held = use_context::<Auth>().and_then(|a| a.session.get_untracked()).map(|s| {
        let scopes: Vec<&str> = s.scopes.iter().map(|s| s.as_str()).collect();
        let scopes = if scopes.is_empty() { t.no_scopes.to_string() } else { scopes.join(", ") };
        (t.token_has)(&s.name, &scopes)
    });
    let need = match scope {
        Some(s) => (t.needs_scope)(s.as_str()),
        None => t.refused.to_string(),
    };
    let mut paragraphs = vec![need];
    paragraphs.extend(held);
    paragraphs.extend(message.map(|m| (t.server_said)(&m)));
    Panel {
        class: "panel access-denied",
        testid: Some("access-denied"),
        alert: false,
        page,
        title: t.access_denied,
        paragraphs,
        fields: Vec::new(),
        home: true,
        retry: None,
    }
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
    panel(denied(scope, message, page))
}

fn error_panel(error: ApiError, retry: Option<Callback<()>>, page: bool) -> Panel {
    let t = &start().errors;
    let (class, testid, title) = match &error {
        ApiError::Forbidden { message } => return denied(None, Some(message.clone()), page),
        ApiError::Network { .. } => ("panel network-error", Some("network-error"), t.unreachable),
        e if e.is_auth() => ("panel error-panel", None, t.signed_out),
        ApiError::NotFound { .. } => ("panel error-panel", None, t.not_found),
        ApiError::Validation { .. } => ("panel error-panel", None, t.check_input),
        _ => ("panel error-panel", None, t.went_wrong),
    };
    let (message, fields) = match error {
        ApiError::Validation { message, fields } => (message, fields),
        e if e.is_auth() => (format!("{e} {}", shell().to_sign_in), Vec::new()),
        e => (e.to_string(), Vec::new()),
    };
    Panel { class, testid, alert: true, page, title, paragraphs: vec![message], fields, home: false, retry }
}

#[component]
pub fn ApiErrorView(
    error: ApiError,
    #[prop(optional, into)] retry: Option<Callback<()>>,
    #[prop(optional)] page: bool,
) -> impl IntoView {
    panel(error_panel(error, retry, page))
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
                    Some(api) => api.clone(),
                    None => ApiError::Other { status: 0, message: err.to_string() },
                })
            });
            first.map(|error| panel(error_panel(error, retry, false)))
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
        assert!(
            text.contains("1 field is invalid") && text.contains("routingNumber") && text.contains("must be 9 digits"),
            "{text}"
        );
    }
}
