//! The root: contexts, the router with its base, the routes, toasts and the loading bar.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::components::error_view::api_error_fallback;
use crate::components::loading::LoadingBar;
use crate::components::toasts::{ToastHost, Toasts};
use crate::config::MountOptions;
use crate::pages::{self, not_found::NotFound};
use crate::session::{load_stored, Auth, Credentials, Keep};
use crate::shell::layout::Shell;
use crate::theme::Theme;

#[component]
pub fn App(options: MountOptions) -> impl IntoView {
    let config = options.app_config();
    // A token handed over by the host wins, and lives in memory only.
    let initial = match &options.token {
        Some(token) => Some(Credentials {
            environment: "host".into(),
            base_url: options.base_url.clone().unwrap_or_default(),
            token: token.clone(),
            keep: Keep::Memory,
        }),
        // Embedded with its own base URL: only a token for that server is of use.
        None => load_stored().filter(|c| options.base_url.as_ref().is_none_or(|u| *u == c.base_url)),
    };
    let auth = Auth::new(initial);
    let theme = Theme::init();
    provide_context(config.clone());
    provide_context(auth);
    provide_context(theme);
    provide_context(Toasts::new());

    // The bar shows while the router changes pages and while any API request is in flight.
    let (is_routing, set_is_routing) = signal(false);
    let busy = Signal::derive(move || is_routing.get() || auth.in_flight.get() > 0);
    let base = config.base_path.clone();

    // Two routes: sign-in, and the layout for everything else, which picks the page from the
    // path's first segment (one route per page would multiply the router's generic code). The
    // tree is built once: a language is chosen by reloading in it (`i18n::choose`).
    view! {
        <div class="moneydesk" class:embedded=config.embedded data-theme=move || theme.mode().as_str()>
            <Router base=base set_is_routing>
                <LoadingBar active=busy/>
                <ErrorBoundary fallback=api_error_fallback(None)>
                    <Routes fallback=|| view! { <NotFound/> }>
                        <Route path=path!("/signin") view=pages::sign_in/>
                        <Route path=path!("/*any") view=|| view! { <Shell page=pages::page_for/> }/>
                    </Routes>
                </ErrorBoundary>
            </Router>
            <ToastHost/>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::paths::AUTH_ME;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::test_util::{clear_storage, container, find, json, text_containing, wait_until, Answer, FakeFetch};

    const ENVIRONMENTS: &str = include_str!("../public/environments.json");
    const FEES_ONLY: &str = r#"{"code":200,"errorMessage":null,"error":null,"data":{"name":"ops-fees","scopes":["fees:read"],"expiresAt":null}}"#;
    const INVALID: &str = r#"{"code":600,"errorMessage":"Invalid token","error":"Authorization: expired","errors":[{"field":"Authorization","problem":"expired"}],"reason":"invalid_token","data":null}"#;

    fn set_token(root: &web_sys::Element, value: &str) {
        let area: web_sys::HtmlTextAreaElement =
            root.query_selector("#signin-token").unwrap().unwrap().unchecked_into();
        area.set_value(value);
        area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    }

    async fn click(root: &web_sys::Element, selector: &str) {
        find(root, selector).await.click();
    }

    /// The whole portal in the test page: a stored token with the server down, Retry, sign
    /// out, sign-in mistakes, sign in, the dashboard, a guarded page and a 404.
    #[wasm_bindgen_test]
    async fn the_portal_end_to_end_against_a_fake_server() {
        clear_storage();
        let history = web_sys::window().unwrap().history().unwrap();
        let start_url = web_sys::window().unwrap().location().href().unwrap();
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/fees")).unwrap();
        let stored = r#"{"environment":"local","baseUrl":"","token":"mdk_stored"}"#;
        web_sys::window()
            .unwrap()
            .session_storage()
            .unwrap()
            .unwrap()
            .set_item("moneydesk.credentials", stored)
            .unwrap();

        // 1. A reload with a stored token while the server is down: say so, offer Retry.
        let down = FakeFetch::install(vec![("/environments.json", json(200, ENVIRONMENTS))]);
        let root = container();
        let _handle = leptos::mount::mount_to(root.clone(), || view! { <App options=MountOptions::default()/> });
        let moneydesk = find(&root, "div.moneydesk[data-theme]").await;
        assert!(matches!(moneydesk.get_attribute("data-theme").as_deref(), Some("light" | "dark")));
        text_containing(&root, "[data-testid=network-error]", "Could not reach the server").await;
        drop(down);

        // 2. The server is back: Retry shows the page the user was on, guarded by its scope.
        let up =
            FakeFetch::install(vec![("/environments.json", json(200, ENVIRONMENTS)), (AUTH_ME, json(200, FEES_ONLY))]);
        click(&root, "button#retry").await;
        text_containing(&root, "section.fees-page h1", "Fee schedules").await;
        assert_eq!(up.requests().last().unwrap().2.as_deref(), Some("Bearer mdk_stored"));
        assert_eq!(root.query_selector_all("h1").unwrap().length(), 1, "one h1 per page");

        // 3. A page the token may not use, through the navigation.
        click(&root, "nav a[href$=\"/vault\"]").await;
        text_containing(&root, "[data-testid=access-denied]", "vault:read").await;
        assert!(root.query_selector("[data-testid=placeholder]").unwrap().is_none());

        // 4. A path that does not exist.
        click(&root, "a.brand").await;
        text_containing(&root, "h1", "Dashboard").await;
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/no-such-page")).unwrap();
        web_sys::window().unwrap().dispatch_event(&web_sys::Event::new("popstate").unwrap()).unwrap();
        find(&root, "[data-testid=not-found]").await;

        // 5. Sign out: storage cleared, the sign-in page.
        click(&root, "button#signout").await;
        find(&root, "textarea#signin-token").await;
        assert!(web_sys::window()
            .unwrap()
            .session_storage()
            .unwrap()
            .unwrap()
            .get_item("moneydesk.credentials")
            .unwrap()
            .is_none());
        find(&root, ".toasts [role=status]").await;
        let select = find(&root, "select#signin-environment").await;
        assert_eq!(select.query_selector_all("option").unwrap().length(), 3);

        // 6. Signed out, a deep link goes to sign in and remembers where it was going.
        history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("/vault?x=1")).unwrap();
        web_sys::window().unwrap().dispatch_event(&web_sys::Event::new("popstate").unwrap()).unwrap();
        wait_until("the sign-in page keeps where the user was going", || {
            web_sys::window().unwrap().location().search().unwrap() == "?next=%2Fvault%3Fx%3D1"
        })
        .await;
        assert_eq!(web_sys::window().unwrap().location().pathname().unwrap(), "/signin");
        assert_eq!(web_sys::window().unwrap().location().search().unwrap(), "?next=%2Fvault%3Fx%3D1");

        // 7. A malformed token is refused before anything is sent.
        let sent_before = up.requests().len();
        set_token(&root, "mdk_abc\ndef");
        click(&root, "button#signin-submit").await;
        text_containing(&root, "[role=alert]", "line break").await;
        assert_eq!(up.requests().len(), sent_before);
        drop(up);

        // 8. The server rejects the token (code 600).
        let rejecting = FakeFetch::install(vec![(AUTH_ME, json(401, INVALID))]);
        set_token(&root, "mdk_revoked");
        click(&root, "button#signin-submit").await;
        text_containing(&root, "[role=alert]", "code 600").await;
        drop(rejecting);

        // 9. Something that is not JSON answers.
        let html = FakeFetch::install(vec![(
            AUTH_ME,
            Answer::Body { status: 200, content_type: "text/html", body: "<!doctype html>".into() },
        )]);
        click(&root, "button#signin-submit").await;
        text_containing(&root, "[role=alert]", "not JSON").await;
        drop(html);

        // 10. A good token, remembered on this device: back to the deep link (denied: fees only).
        let good = FakeFetch::install(vec![(AUTH_ME, json(200, FEES_ONLY))]);
        set_token(&root, "  mdk_good\n");
        let remember: web_sys::HtmlInputElement = find(&root, "#signin-remember").await.unchecked_into();
        remember.click();
        click(&root, "button#signin-submit").await;
        text_containing(&root, "[data-testid=access-denied]", "vault:read").await;
        assert_eq!(web_sys::window().unwrap().location().pathname().unwrap(), "/vault");
        assert_eq!(web_sys::window().unwrap().location().search().unwrap(), "?x=1");
        click(&root, "a.brand").await;
        text_containing(&root, "h1", "Dashboard").await;
        assert_eq!(good.requests()[0].2.as_deref(), Some("Bearer mdk_good"));
        let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
        assert!(local.get_item("moneydesk.credentials").unwrap().unwrap().contains("mdk_good"));
        // The fees group, and Tokens, which every token opens (its own tokens).
        let cards = root.query_selector_all(".cards .card").unwrap().length();
        assert_eq!(cards, 2, "only the fees group and Tokens are usable");

        // 11. The theme toggle flips data-theme.
        let before = moneydesk.get_attribute("data-theme").unwrap();
        click(&root, "button#theme-toggle").await;
        wait_until("data-theme flips", || moneydesk.get_attribute("data-theme").unwrap() != before).await;

        clear_storage();
        history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&start_url)).unwrap();
    }
}
