//! The Email page's Suppressions tab (issue 46): a manual entry added for a sender domain is
//! listed (the filters in the URL), and an administrator removes it.

use moneydesk_e2e::{Harness, Scope};

#[tokio::test]
async fn a_suppression_is_added_listed_filtered_and_removed() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::EmailSend, Scope::Admin]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=suppressions&domain=bank.example").await;
    h.wait_for_text("#suppressions-empty", "No address is suppressed").await;
    h.type_into("#suppressions-addresses", "Gone@Client.example").await;
    h.click("#suppressions-add").await;
    h.wait_for_text("#suppressions-said", "1 suppressed").await;
    h.wait_for_text("#suppressions-table", "gone@client.example").await;
    h.wait_for_text("#suppressions-table", "Manual").await;

    // A reason ticked is in the URL; one the entry does not have hides it.
    h.click("#suppressions-reason-bounce").await;
    h.wait_for_text("#suppressions-empty", "No address is suppressed").await;
    assert!(h.url().await.query().unwrap_or_default().contains("reason=bounce"));
    h.click("#suppressions-reason-bounce").await;
    h.wait_for_text("#suppressions-table", "gone@client.example").await;

    h.click("#suppressions-table .suppression-remove").await;
    h.wait_for_text("#suppressions-said", "gone@client.example removed").await;
    h.wait_for_text("#suppressions-empty", "No address is suppressed").await;
    h.finish().await;
}
