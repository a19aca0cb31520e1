//! The global search: opened with Ctrl+K or the header's button, its code fetched on first
//! use; the text searched once typing pauses (one request for the whole text, none for its
//! beginnings), hits grouped, the arrow keys and Enter opening one on its list with its
//! drawer or record shown; axe finds nothing wrong with the open panel.

use moneydesk_e2e::{Harness, Scope};
use serde_json::json;

/// ACME COMMUNITY BANK, N.A. in the embedded demo directory.
const ACME: &str = "021090028";

const CTRL_K: &str = "\u{E009}k\u{E000}";
const ARROW_DOWN: &str = "\u{E015}";
const ARROW_UP: &str = "\u{E013}";
const ENTER: &str = "\u{E007}";

async fn keys(h: &Harness, keys: &str) {
    h.client().active_element().await.unwrap().send_keys(keys).await.unwrap();
}

/// The ids of the shown hits, and which one is active.
async fn hits(h: &Harness) -> (Vec<String>, Option<String>) {
    let v = h
        .js(
            "const all = [...document.querySelectorAll('#global-search-results [role=option]')];
             return [all.map(o => o.dataset.open), (all.find(o => o.getAttribute('aria-selected') === 'true') || {}).id || null];",
            vec![],
        )
        .await;
    let opens = v[0].as_array().unwrap().iter().map(|o| o.as_str().unwrap().to_string()).collect();
    (opens, v[1].as_str().map(str::to_string))
}

#[tokio::test]
async fn ctrl_k_finds_a_routing_number_and_enter_opens_its_record() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::RoutingRead, Scope::DepositsRead]).await;
    h.sign_in(&token).await;

    keys(&h, CTRL_K).await;
    h.wait_for("#global-search-input:focus").await;
    h.type_into("#global-search-input", ACME).await;
    h.wait_for("#global-search-results [role=group][aria-label='Routing directory'] [role=option]").await;
    h.wait_for_text("[role=status]", "result").await;
    let (opens, active) = hits(&h).await;
    assert_eq!(opens.first().map(String::as_str), Some("/routing?number=021090028"), "{opens:?}");
    assert_eq!(active.as_deref(), Some("search-hit-0"), "the best hit is active");
    assert_eq!(
        h.js("return document.querySelector('#global-search-input').getAttribute('aria-activedescendant')", vec![])
            .await,
        json!("search-hit-0")
    );

    // Debounced: one request for the whole number, none for the digits typed before it.
    let sent = h.requests_to("/api/v2/services/search").await;
    assert_eq!(sent.len(), 1, "{:?}", sent.iter().map(|r| r.url.clone()).collect::<Vec<_>>());
    assert!(sent[0].url.contains(&format!("q={ACME}")), "{}", sent[0].url);

    // Up from the first wraps to the last; down comes back; Enter opens the record.
    keys(&h, ARROW_UP).await;
    let (opens, active) = hits(&h).await;
    assert_eq!(active, Some(format!("search-hit-{}", opens.len() - 1)));
    keys(&h, ARROW_DOWN).await;
    assert_eq!(hits(&h).await.1.as_deref(), Some("search-hit-0"));
    keys(&h, ENTER).await;
    h.wait_gone("#global-search-input").await;
    h.wait_for_text("[data-testid=ach-fields]", "ACME COMMUNITY BANK, N.A.").await;
    let url = h.url().await;
    assert_eq!(url.path(), "/routing");
    assert!(url.query().unwrap_or_default().contains("number=021090028"));
    h.finish().await;
}

#[tokio::test]
async fn the_header_button_finds_a_message_by_address_and_opens_its_drawer() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    let message = json!({
        "from": {"email": "ops@moneydesk.test"},
        "subject": "Your March statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ana@client.example"}]}]
    });
    let (status, body) = crate::tables::post(&h, &token, moneydesk_model::paths::EMAIL_SEND, message).await;
    assert_eq!(status, 202, "{body}");

    h.click("#search-open").await;
    h.type_into("#global-search-input", "ana@client.example").await;
    h.wait_for_text("#global-search-results [role=option][data-group=email]", "Your March statement").await;
    let groups = h.js("return [...document.querySelectorAll('#global-search-results [role=group]')].map(g => g.getAttribute('aria-label'))", vec![]).await;
    assert_eq!(groups, json!(["Email outbox"]), "only the groups the token opens, and only those that found something");

    let problems = crate::a11y::violations(&h, &crate::a11y::axe_source()).await;
    assert!(problems.is_empty(), "axe on the open search panel:\n{}", problems.join("\n"));

    h.click("#global-search-results [role=option][data-group=email]").await;
    h.wait_gone("#global-search-input").await;
    h.wait_for_text("section#email-message", "Your March statement").await;
    let url = h.url().await;
    assert_eq!(url.path(), "/email");
    assert!(url.query().unwrap_or_default().contains("message=msg_"), "{url}");
    h.finish().await;
}
