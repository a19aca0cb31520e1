//! Tokens in the portal: an admin creates a token (its text shown once, its creation on its
//! drawer's Activity tab) and a sign-in link for a user with `fees:read` alone; a second
//! browser opens the link, is signed in as that user and may open the fee schedules but not the
//! accounts; the used link, opened again, gets a page that says it was used. A non-admin's Tokens page lists only its own tokens, and
//! revoking a token there refuses it on the next request.

use moneydesk_e2e::{Browser, Harness, Scope};
use moneydesk_model::paths;

#[tokio::test]
async fn an_admin_makes_a_token_and_a_sign_in_link_that_a_second_browser_uses_once() {
    let h = Harness::start().await;
    let admin = h.token(&[Scope::Admin]).await;
    h.sign_in(&admin).await;
    h.goto("/tokens").await;
    h.wait_for("#tokens-table tbody tr[data-id]").await;

    // A token: shown once, then listed with its expiry and no use yet.
    h.type_into("#token-new-name", "ci reader").await;
    h.type_into("#token-new-user", "ci").await;
    h.click("#token-new-scope-fees-read").await;
    h.click("#token-new-submit").await;
    h.wait_for_text("[data-testid=token-once]", "you will not see it again").await;
    let text = h.text("#token-once-value").await;
    assert!(text.starts_with("mdk_"), "{text}");
    h.wait_for_text("#tokens-table tbody", "ci reader").await;
    h.click("#token-once-done").await;
    h.wait_gone("[data-testid=token-once]").await;
    assert!(!h.js("return document.body.innerText", vec![]).await.to_string().contains(&text), "shown once");

    // Its drawer's Activity tab: its creation, one record.
    let made = h
        .js(
            "return [...document.querySelectorAll('#tokens-table tbody tr')].find(r => r.textContent.includes('ci reader')).dataset.id",
            vec![],
        )
        .await;
    let made = made.as_str().expect("the new token's row").to_string();
    h.click(&format!("#tokens-table tr[data-id='{made}'] .token-open")).await;
    h.wait_for(&format!("[data-testid=token-details][data-id='{made}']")).await;
    h.click("#activity-token-activity-tab").await;
    h.wait_for_text("[data-testid=activity-records] .activity-entry .mono", "create_token").await;
    assert_eq!(h.count("[data-testid=activity-records] .activity-entry").await, 1, "created, nothing else yet");
    h.click(".drawer-close").await;
    h.wait_gone(".drawer").await;

    // A sign-in link for dana, fees:read alone.
    h.type_into("#link-new-user", "dana").await;
    h.click("#link-new-scope-fees-read").await;
    h.click("#link-new-submit").await;
    h.wait_for_text("[data-testid=token-once]", "one use, 15 minutes").await;
    let url = h.text("#token-once-value").await;
    assert!(url.contains("/signin?link=mdl_"), "{url}");
    h.wait_for_text("#links-table tbody", "dana").await;

    // A second browser: the link signs it in as dana, with what fees:read allows.
    let dir = tempfile::tempdir().unwrap();
    let other = Browser::start(dir.path(), "tokens-second-browser".into()).await;
    other.open(&url).await;
    other.wait_for("button#signout").await;
    other.wait_for_path("/").await;
    let kept = other
        .js("return sessionStorage.getItem(arguments[0])", vec![moneydesk_model::portal_shell::CREDENTIALS_KEY.into()])
        .await;
    let me: serde_json::Value = serde_json::from_str(kept.as_str().unwrap_or("null")).unwrap();
    let me = me["token"].clone();
    assert!(me.as_str().is_some_and(|t| t.starts_with("mdk_")), "kept for the tab: {me}");
    other.open(&h.page_url("/fees")).await;
    other.wait_for("[data-testid=fee-schedule]").await;
    other.open(&h.page_url("/accounts")).await;
    other.wait_for_text("main", "accounts:read").await;

    // The link again: used, and the page says so.
    other.open(&url).await;
    other.wait_for_text("#signin-link-problem", "used already").await;
    other.wait_for_text("h1", "can no longer be used").await;
    other.allow_console_error("status of 410");
    other.check_console().await;
    other.close().await;

    // The admin's list shows the link used.
    h.goto("/tokens").await;
    h.wait_for_text("#links-table tbody", "Used").await;
    h.finish().await;
}

#[tokio::test]
async fn a_user_sees_only_its_own_tokens_and_a_revoked_one_is_refused() {
    let h = Harness::start().await;
    let mine = h.server().create_token_for("laptop", "erin", &[Scope::FeesRead]).await.unwrap();
    let spare = h.server().create_token_for("spare", "erin", &[Scope::FeesRead]).await.unwrap();
    h.server().create_token_for("someone else", "frank", &[Scope::FeesRead]).await.unwrap();
    h.sign_in(&mine).await;
    h.goto("/tokens").await;
    h.wait_for_text("#tokens-table tbody", "spare").await;
    assert_eq!(h.count("#tokens-table tbody tr").await, 2, "erin's two tokens only");
    assert_eq!(h.count("#token-new").await, 0, "no create form without admin");
    h.click("#tokens-table tbody tr:nth-child(2) .token-revoke").await;
    h.wait_for("#tokens-table tbody tr[data-revoked=true]").await;

    // The revoked token is refused on its next request with the 600 body.
    let answer = h
        .js_async(
            "const done = arguments[arguments.length - 1]; \
             fetch(arguments[0], { headers: { Authorization: 'Bearer ' + arguments[1] } }) \
             .then(async r => done([r.status, await r.json()]))",
            vec![paths::AUTH_ME.into(), spare.clone().into()],
        )
        .await;
    assert_eq!(answer[0], 401, "{answer}");
    assert_eq!(answer[1]["code"], 600, "{answer}");
    h.allow_console_error("status of 401");
    h.finish().await;
}
