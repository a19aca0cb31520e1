//! The harness's own promises, so a page's test can rely on them.

use moneydesk_e2e::Harness;

#[tokio::test]
#[should_panic(expected = "the browser console has errors")]
async fn a_console_error_fails_the_test() {
    let h = Harness::start().await;
    h.goto("/signin").await;
    h.wait_for("textarea#signin-token").await;
    h.js("console.error('harness self-test: this error must fail the test')", vec![]).await;
    h.finish().await;
}
