//! The portal's shell: sign-in, navigation to every page, deep links, scopes, 404, sign-out,
//! bad tokens, an API server that is down, and the language menu. How a page's code, its
//! stylesheets and the first screen's fonts load is `shell/loading.rs`.

mod loading;

use moneydesk_e2e::{Harness, Scope};

/// Each page's route and a word its h1 must contain.
const PAGES: [(&str, &str); 8] = [
    ("fees", "fee"),
    ("vault", "vault"),
    ("email", "email"),
    ("routing", "routing"),
    ("deposits", "deposit"),
    ("cash_letters", "cash letter"),
    ("accounts", "account"),
    ("permissions", "permission"),
];

#[tokio::test]
async fn admin_signs_in_visits_every_page_reloads_a_deep_link_and_signs_out() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::Admin]).await;

    // Signed out, the portal sends us to sign in.
    h.goto("/").await;
    h.wait_for_path("/signin").await;
    h.sign_in(&token).await;
    h.wait_for_path("/").await;

    for (page, word) in PAGES {
        h.click(&format!("nav a[href$=\"/{page}\"]")).await;
        h.wait_for_path(&format!("/{page}")).await;
        h.wait_for_text("main h1", word).await;
        assert_eq!(h.count("h1").await, 1, "/{page} has exactly one h1");
        assert_eq!(h.count("[data-testid=access-denied]").await, 0, "admin may use /{page}");
    }

    // A deep link loads (and reloads) straight into its page.
    h.goto("/routing").await;
    h.wait_for_text("main h1", "routing").await;
    h.reload().await;
    h.wait_for_text("main h1", "routing").await;

    // The theme toggle flips the root's data-theme.
    let before = h.wait_for(".moneydesk[data-theme]").await.attr("data-theme").await.ok().flatten();
    h.click("button#theme-toggle").await;
    let after = h.wait_for(".moneydesk[data-theme]").await.attr("data-theme").await.ok().flatten();
    assert_ne!(before, after, "the theme toggle changes data-theme");

    // A path that does not exist.
    h.goto("/no-such-page").await;
    h.wait_for("[data-testid=not-found]").await;

    // Sign out: back at the sign-in page, and the token is forgotten.
    h.goto("/fees").await;
    h.click("button#signout").await;
    h.wait_for_path("/signin").await;
    h.wait_for("textarea#signin-token").await;
    h.goto("/fees").await;
    h.wait_for_path("/signin").await;

    h.finish().await;
}

#[tokio::test]
async fn a_token_without_the_scope_sees_access_denied() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::FeesRead]).await;
    // The portal may ask the API and get 403: the browser logs that, and that is expected.
    h.allow_console_error("status of 403");

    h.goto("/signin").await;
    h.sign_in(&token).await;
    h.goto("/accounts").await;
    h.wait_for("[data-testid=access-denied]").await;

    // A page it may use still shows.
    h.click("nav a[href$=\"/fees\"]").await;
    h.wait_for_text("main h1", "fee").await;
    assert_eq!(h.count("[data-testid=access-denied]").await, 0);

    h.finish().await;
}

#[tokio::test]
async fn bad_tokens_get_a_clear_message() {
    let h = Harness::start().await;
    // The server refuses the unknown and the revoked token with 401, which the browser logs.
    h.allow_console_error("status of 401");

    // Malformed: refused before anything is sent.
    h.goto("/signin").await;
    h.submit_sign_in("mdk_abc def").await;
    h.wait_for_text("[role=alert]", "space inside").await;

    // Not a Moneydesk token at all.
    h.type_into("textarea#signin-token", "ghp_0123456789").await;
    h.click("button#signin-submit").await;
    h.wait_for_text("[role=alert]", "mdk_").await;

    // Well-formed (mdk_ + 43 base64url characters) but unknown to the server: 401.
    let unknown = format!("mdk_{}", "A".repeat(43));
    h.type_into("textarea#signin-token", &unknown).await;
    h.click("button#signin-submit").await;
    h.wait_for_text("[role=alert]", "unknown").await;

    // Revoked: 401 with code 600.
    let revoked = h.server().create_token("revoked-in-e2e", &[Scope::Admin]).await.expect("token");
    h.server().state.stores.tokens.revoke("revoked-in-e2e").await.expect("revoking");
    h.type_into("textarea#signin-token", &revoked).await;
    h.click("button#signin-submit").await;
    h.wait_for_text("[role=alert]", "code 600").await;

    h.wait_for_path("/signin").await;
    assert_eq!(h.count("button#signout").await, 0, "still signed out");
    h.finish().await;
}

#[tokio::test]
async fn api_server_down_shows_network_error_and_retry_recovers() {
    // The portal and the API on two servers, so the API can go down while the portal loads.
    let mut h = Harness::start_split().await;
    let token = h.token(&[Scope::Admin]).await;
    h.goto("/signin").await;
    h.sign_in(&token).await;
    h.click("nav a[href$=\"/fees\"]").await;
    h.wait_for_text("main h1", "fee").await;

    h.stop_server().await;
    h.allow_console_error("ERR_CONNECTION_REFUSED");
    // Reloading makes the portal check the stored token with the API, which does not answer.
    h.reload().await;
    h.wait_for("[data-testid=network-error]").await;
    h.wait_for("button#retry").await;

    // The API is back: Retry carries on to the page we were on.
    h.restart_server().await;
    h.click("button#retry").await;
    h.wait_for_text("main h1", "fee").await;
    assert_eq!(h.count("[data-testid=network-error]").await, 0);

    h.finish().await;
}

/// The shell's language menu: Spanish for the whole portal (its words, `<html lang>`, the
/// page's own catalogue), remembered over a reload, and back to English.
#[tokio::test]
async fn the_portal_switches_to_spanish_remembers_it_and_switches_back() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::Admin]).await;
    h.goto("/signin").await;
    h.sign_in(&token).await;
    h.goto("/permissions").await;
    h.wait_for_text("main h1", "Permissions").await;
    assert_eq!(html_lang(&h).await, "en", "English is the default");

    h.select("select#language", "es").await;
    h.wait_for_text("nav a[href$=\"/fees\"]", "Tarifas").await;
    h.wait_for_text("main h1", "Permisos").await;
    h.wait_for_text("button#signout", "Cerrar sesión").await;
    assert_eq!(html_lang(&h).await, "es", "<html lang> follows the language");

    // Remembered on this device: a reload starts in Spanish.
    h.reload().await;
    h.wait_for_text("main h1", "Permisos").await;
    h.wait_for_text("nav a[href$=\"/permissions\"]", "Permisos").await;
    assert_eq!(html_lang(&h).await, "es");

    h.select("select#language", "en").await;
    h.wait_for_text("nav a[href$=\"/fees\"]", "Fee schedules").await;
    h.wait_for_text("main h1", "Permissions").await;
    h.wait_for_text("button#signout", "Sign out").await;
    assert_eq!(html_lang(&h).await, "en");
    h.reload().await;
    h.wait_for_text("main h1", "Permissions").await;

    h.finish().await;
}

/// `<html lang>` now.
async fn html_lang(h: &Harness) -> serde_json::Value {
    h.js("return document.documentElement.lang", vec![]).await
}
