//! The portal embedded in a host page served from another origin (examples/embed/host.html).

use moneydesk_e2e::{workspace_root, Harness, Scope, StaticHost};
use serde_json::json;

#[tokio::test]
async fn the_portal_renders_inside_a_host_page_on_another_origin_with_a_handed_over_token() {
    let html = std::fs::read_to_string(workspace_root().join("examples/embed/host.html"))
        .expect("examples/embed/host.html");
    let host = StaticHost::serve(html).await;
    let h = Harness::start_with(|c| c.cors_origins = vec![host.origin.clone()]).await;
    let token = h.token(&[Scope::FeesRead, Scope::RoutingRead]).await;

    // The host page hands over the API's origin and a token (no sign-in page).
    h.open(&format!(
        "{}/portal/?api={}#token={token}",
        host.origin,
        h.api_url()
    ))
    .await;
    h.wait_for("#moneydesk > .moneydesk[data-theme]").await;
    h.wait_for("#moneydesk button#signout").await;
    assert_eq!(
        h.count("#moneydesk textarea#signin-token").await,
        0,
        "no sign-in with a handed-over token"
    );
    assert_eq!(
        h.count("body > .moneydesk").await,
        0,
        "mounted into the target, not onto <body>"
    );

    // Navigation stays under the host's base path, and the token's scopes apply.
    h.click("#moneydesk nav a[href$=\"/routing\"]").await;
    h.wait_for_path("/portal/routing").await;
    h.wait_for_text("#moneydesk main h1", "routing").await;
    h.click("#moneydesk nav a[href$=\"/accounts\"]").await;
    h.wait_for("#moneydesk [data-testid=access-denied]").await;

    // Nothing leaks: the host's elements keep their computed styles, the host's title stays,
    // and the handed-over token is written nowhere.
    let styles = h
        .js(
            "return [window.hostStylesBefore, window.hostStyles()];",
            vec![],
        )
        .await;
    assert_eq!(
        styles[0], styles[1],
        "the portal changed the host page's styles"
    );
    assert_eq!(h.text("#host-title").await, "Acme Treasury");
    let stored = h
        .js("return JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie]);", vec![])
        .await;
    assert!(
        !stored.as_str().unwrap_or_default().contains(&token),
        "the handed-over token was stored: {stored}"
    );
    assert_eq!(
        h.js("return location.hash", vec![]).await,
        json!(""),
        "the token left the URL"
    );

    h.finish().await;
}
