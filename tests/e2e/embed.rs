//! The portal embedded in a host page served from another origin (examples/embed/host.html).

use moneydesk_e2e::{workspace_root, Harness, Scope, StaticHost};
use serde_json::json;

#[tokio::test]
async fn the_portal_renders_inside_a_host_page_on_another_origin_with_a_handed_over_token() {
    let html =
        std::fs::read_to_string(workspace_root().join("examples/embed/host.html")).expect("examples/embed/host.html");
    let host = StaticHost::serve(html).await;
    let h = Harness::start_with(|c| c.cors_origins = vec![host.origin.clone()]).await;
    let token = h.token(&[Scope::FeesRead, Scope::RoutingRead]).await;

    // The host page hands over the API's origin and a token (no sign-in page).
    h.open(&format!("{}/portal/?api={}#token={token}", host.origin, h.api_url())).await;
    h.wait_for("#moneydesk > .moneydesk[data-theme]").await;
    h.wait_for("#moneydesk button#signout").await;
    assert_eq!(h.count("#moneydesk textarea#signin-token").await, 0, "no sign-in with a handed-over token");
    assert_eq!(h.count("body > .moneydesk").await, 0, "mounted into the target, not onto <body>");

    // Navigation stays under the host's base path, and the token's scopes apply.
    h.click("#moneydesk nav a[href$=\"/routing\"]").await;
    h.wait_for_path("/portal/routing").await;
    h.wait_for_text("#moneydesk main h1", "routing").await;
    h.click("#moneydesk nav a[href$=\"/accounts\"]").await;
    h.wait_for("#moneydesk [data-testid=access-denied]").await;

    // Nothing leaks: the host's elements keep their computed styles, the host's title stays,
    // and the handed-over token is written nowhere.
    let styles = h.js("return [window.hostStylesBefore, window.hostStyles()];", vec![]).await;
    assert_eq!(styles[0], styles[1], "the portal changed the host page's styles");
    assert_eq!(h.text("#host-title").await, "Acme Treasury");
    let stored = h
        .js(
            "return JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie]);",
            vec![],
        )
        .await;
    assert!(!stored.as_str().unwrap_or_default().contains(&token), "the handed-over token was stored: {stored}");
    // The portal sends it only as a header: no request it made has the token in its URL.
    let in_urls = h.requests_to(&token).await;
    assert!(in_urls.is_empty(), "a request URL carried the token: {in_urls:?}");

    h.finish().await;
}

fn host_html() -> String {
    std::fs::read_to_string(workspace_root().join("examples/embed/host.html")).expect("examples/embed/host.html")
}

/// A handed-over token the server refuses (unknown, or revoked after it was handed over): the
/// embedded portal shows its sign-in state inside the target, saying why, not a broken page.
#[tokio::test]
async fn a_refused_handed_over_token_shows_the_sign_in_state() {
    let host = StaticHost::serve(host_html()).await;
    let h = Harness::start_with(|c| c.cors_origins = vec![host.origin.clone()]).await;
    h.allow_console_error("status of 401");

    let unknown = format!("mdk_{}", "A".repeat(43));
    h.open(&format!("{}/portal/?api={}#token={unknown}", host.origin, h.api_url())).await;
    h.wait_for("#moneydesk textarea#signin-token").await;
    h.wait_for_text("#moneydesk [role=alert]", "Sign in again").await;
    assert_eq!(h.count("#moneydesk button#signout").await, 0, "not signed in");

    let revoked = h.server().create_token("revoked-embed", &[Scope::FeesRead]).await.expect("token");
    h.server().state.stores.tokens.revoke("revoked-embed").await.expect("revoking");
    h.open(&format!("{}/portal/?api={}#token={revoked}", host.origin, h.api_url())).await;
    h.wait_for("#moneydesk textarea#signin-token").await;
    h.wait_for_text("#moneydesk [role=alert]", "Sign in again").await;
    assert_eq!(h.count("body > .moneydesk").await, 0, "still inside the host's target");
    h.finish().await;
}

/// A host origin the server does not allow (CORS) cannot use the portal or its API: the
/// browser refuses the host page the portal's module script and every API answer.
#[tokio::test]
async fn a_host_origin_that_is_not_allowed_cannot_use_the_api() {
    let host = StaticHost::serve(host_html()).await;
    let h = Harness::start_with(|c| c.cors_origins = vec!["https://treasury.example".into()]).await;
    h.allow_console_error("CORS policy");
    h.allow_console_error("net::ERR_FAILED");
    let token = h.token(&[Scope::FeesRead]).await;
    h.open(&format!("{}/portal/?api={}#token={token}", host.origin, h.api_url())).await;
    let read = h
        .js_async(
            "const [api, token, done] = arguments;
             const attempt = (path, init) => fetch(api + path, init).then(() => 'read', () => 'blocked');
             Promise.all([
                 attempt('/embed.js', {}),
                 attempt('/api/v1/cores/auth/me', { headers: { Authorization: 'Bearer ' + token } }),
                 attempt('/api/health', {}),
             ]).then(done);",
            vec![json!(h.api_url()), json!(token)],
        )
        .await;
    assert_eq!(read, json!(["blocked", "blocked", "blocked"]), "the browser let the host read");
    assert_eq!(h.count(".moneydesk").await, 0, "the portal did not run on a host it does not allow");
    h.finish().await;
}

/// The deposits page embedded in another site's page starts its check-scanning worker from the
/// portal's server (a worker must be of the page's origin: the portal makes a small one of the
/// host's that loads the worker's code from its server) and reads a check with it.
#[tokio::test]
async fn the_embedded_scan_wizard_reads_a_check_with_the_worker_from_the_portals_server() {
    let host = StaticHost::serve(host_html()).await;
    let h = Harness::start_with_flags(&["--deny-permission-prompts".to_string()], |c| {
        c.cors_origins = vec![host.origin.clone()];
    })
    .await;
    let token = h.token(&[Scope::Admin]).await;
    h.open(&format!("{}/portal/deposits?new=scan&api={}#token={token}", host.origin, h.api_url())).await;
    h.wait_for("#moneydesk #scan-wizard").await;
    for field in ["#scan-sleeve", "#scan-payee-account", "#scan-payee-user"] {
        h.type_into(field, "acct-1").await;
    }
    h.click("#scan-next").await;
    // The step goes in the URL under the host's base path (once, not twice).
    h.wait_for_path("/portal/deposits").await;
    assert!(h.url().await.query().unwrap_or("").contains("step=front"), "{}", h.url().await);
    let check = moneydesk_e2e::shared_data("checks/full/07_tmannherz_check1_deluxe_sample.jpg");
    h.upload("#scan-front-file", &check).await;
    h.wait_for("#moneydesk #scan-front-found img.straightened").await;
    assert_eq!(h.count("#scan-wizard [role=alert]").await, 0, "the worker started and answered");
    h.finish().await;
}
