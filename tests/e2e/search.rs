//! The global search: opened with Ctrl+K or the header's button, its code fetched on first
//! use; the text searched once typing pauses (one request for the whole text, none for its
//! beginnings), hits grouped, the arrow keys and Enter opening one on its list with its
//! drawer or record shown; axe finds nothing wrong with the open panel. A token's hit opens
//! its details on the Tokens page, a vault file's marks its row in its folder; a link to one
//! that is gone says so.

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

#[tokio::test]
async fn a_tokens_hit_opens_its_details_and_a_link_to_a_token_not_there_says_so() {
    let h = Harness::start().await;
    h.server().create_token("nightly export", &[Scope::FeesRead]).await.expect("a token to find");
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;

    h.click("#search-open").await;
    h.type_into("#global-search-input", "nightly export").await;
    h.wait_for_text("#global-search-results [role=option][data-group=tokens]", "nightly export").await;
    h.click("#global-search-results [role=option][data-group=tokens]").await;
    h.wait_gone("#global-search-input").await;

    // The Tokens page with that token's details open, as a click on its name opens them.
    h.wait_for_text(".drawer[role=dialog] h2", "nightly export").await;
    let details = h.wait_for_text("[data-testid=token-details]", "fees:read").await;
    let url = h.url().await;
    assert_eq!(url.path(), "/tokens");
    let id = crate::tables::query(&url, "open").expect("the hit names the token");
    assert!(details.contains(&id), "the details show the token's id {id}: {details}");
    assert_eq!(
        h.js("return document.querySelector('[data-testid=token-details]').dataset.id", vec![]).await,
        json!(id)
    );
    h.click(".drawer-close").await;
    h.wait_gone(".drawer").await;
    h.click("#tokens-table th .token-open").await;
    h.wait_for(".drawer[role=dialog] [data-testid=token-details]").await;
    h.click(".drawer-close").await;

    // A link to a token the list does not hold: said, and no drawer.
    h.goto("/tokens?open=987654").await;
    h.wait_for("#tokens-table tbody tr").await;
    h.wait_for_text("#tokens-not-found", "987654").await;
    assert_eq!(h.count(".drawer").await, 0);
    h.finish().await;
}

#[tokio::test]
async fn a_vault_files_hit_marks_its_row_in_its_folder_and_a_link_to_a_file_gone_says_so() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::VaultRead, Scope::VaultWrite]).await;
    h.sign_in(&token).await;
    h.goto("/vault").await;
    h.wait_for("#vault-empty").await;
    crate::vault::new_folder(&h, "Clients").await;
    h.click(&format!("{} .vault-name", crate::vault::row("Clients"))).await;
    h.wait_js("location.search.includes('path=Clients')", "the folder in the URL").await;
    let dir = tempfile::tempdir().unwrap();
    for (i, name) in ["a-first.txt", "q3-statement.txt", "z-last.txt"].into_iter().enumerate() {
        let file = dir.path().join(name);
        std::fs::write(&file, name).unwrap();
        crate::vault::upload(&h, &file, i + 1).await;
    }
    h.wait_for(&crate::vault::row("Clients/z-last.txt")).await;
    h.goto("/").await;

    h.click("#search-open").await;
    h.type_into("#global-search-input", "q3-statement").await;
    h.wait_for_text("#global-search-results [role=option][data-group=vault]", "q3-statement.txt").await;
    h.click("#global-search-results [role=option][data-group=vault]").await;
    h.wait_gone("#global-search-input").await;

    // In its folder, its row marked and ticked, and the focus on its name.
    let marked = format!("{}[data-landed]", crate::vault::row("Clients/q3-statement.txt"));
    h.wait_for(&marked).await;
    let url = h.url().await;
    assert_eq!((url.path(), crate::tables::query(&url, "path").as_deref()), ("/vault", Some("Clients")));
    let ticked = format!("return document.querySelector('{marked} input[type=checkbox]').checked");
    assert_eq!(h.js(&ticked, vec![]).await, json!(true), "the file's row is selected");
    h.wait_js(
        "document.activeElement && document.activeElement.closest('tr') && document.activeElement.closest('tr').dataset.path === 'Clients/q3-statement.txt'",
        "the focus on the file's name",
    )
    .await;
    assert_eq!(h.count("[data-landed]").await, 1, "only that row");

    // A link to a file the folder no longer holds: said above the listing.
    h.goto("/vault?path=Clients&file=gone.txt").await;
    h.wait_for(&crate::vault::row("Clients/z-last.txt")).await;
    h.wait_for_text("#vault-file-gone", "“gone.txt” is no longer in Clients").await;
    assert_eq!(h.count("[data-landed]").await, 0);
    h.finish().await;
}
