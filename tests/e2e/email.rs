//! The Email page against the real server (no relay: messages land in the development
//! mailbox): a message with HTML and an attachment sent, followed to "Sent" and read; a
//! template sent to three recipients from a CSV, previewed; the Outbox filtered by day; outbox
//! messages cancelled and resent in bulk. Verify and Domains are `email/verify.rs`; inbound
//! messages `email/inbound.rs`; bounces `email/deliverability.rs`.

mod deliverability;
mod inbound;
mod verify;

use moneydesk_e2e::{Harness, Scope};
use moneydesk_model::email::NewTemplateVersion;

async fn start() -> Harness {
    Harness::start_with(|c| c.email.worker = true).await
}

#[tokio::test]
async fn a_plain_and_html_message_with_an_attachment_is_sent_and_read_in_the_mailbox() {
    let h = start().await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email").await;
    // The sender: the demo domain's identity, with the local part typed.
    h.wait_for_text("#email-from", "@moneydesk.test").await;
    h.wait_for_text("#email-from-address", "ops@moneydesk.test").await;

    // A typed list becomes chips; one that is not an address is marked with the reason.
    h.type_into("#email-to", "ada@client.example, not-an-address,").await;
    h.wait_for_text(".chip-invalid", "not-an-address").await;
    h.click(".chip-invalid .chip-remove").await;
    assert_eq!(h.count(".chip").await, 1);
    h.type_into("#email-subject", "Your statement").await;
    h.type_into("#email-text", "Hello Ada").await;
    h.type_into("#email-html", "<p>Hello <b>Ada</b></p><script>document.title='x'</script>").await;
    // The HTML preview is a sandboxed iframe: no scripts, no same origin.
    h.wait_js(
        "document.querySelector('iframe.email-preview').getAttribute('srcdoc').includes('<b>Ada</b>')",
        "the live preview",
    )
    .await;
    assert_eq!(
        h.js("return document.querySelector('iframe.email-preview').getAttribute('sandbox')", vec![]).await,
        serde_json::json!("")
    );

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("statement.pdf");
    std::fs::write(&file, b"%PDF-1.7 statement").unwrap();
    h.upload("#email-attach-input", &file).await;
    h.wait_for_text(".attachment-name", "statement.pdf").await;
    h.wait_for_text("#email-attach-total", "18 bytes of 30.0 MiB").await;

    h.click("#email-send").await;
    h.wait_for_text("#email-notice", "1 message queued").await;

    h.goto("/email?tab=outbox").await;
    h.wait_for_text("#email-outbox-table .badge", "Sent").await;
    h.click("#email-outbox-table .email-open").await;
    h.wait_js("location.search.includes('message=msg_')", "the message in the URL").await;
    h.wait_for_text("#email-message-state", "Sent").await;
    h.wait_for_text("#email-message-text", "Hello Ada").await;
    h.wait_for_text("#email-message-attachments", "statement.pdf").await;
    h.wait_js(
        "[...document.querySelectorAll('#email-message iframe')].some(f => f.getAttribute('sandbox') === '' && f.getAttribute('srcdoc').includes('<b>Ada</b>'))",
        "the message's HTML in a sandboxed iframe",
    )
    .await;
    h.wait_for_text("#email-message", "development mailbox").await;
    h.finish().await;
}

#[tokio::test]
async fn a_template_is_sent_to_three_recipients_from_a_csv() {
    let h = start().await;
    let parts = NewTemplateVersion {
        subject: "Statement for {{first_name}}".into(),
        text: Some("Dear {{first_name}}".into()),
        html: Some("<p>Dear {{first_name}}</p>".into()),
    };
    let template = h
        .server()
        .state
        .stores
        .templates
        .create("tmpl_e2estatement00000000000", "Statement", &parts, "e2e")
        .await
        .unwrap();
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email").await;
    h.wait_for_text("#email-from-address", "ops@moneydesk.test").await;
    h.click("#email-mode-template").await;
    h.wait_for(&format!("#email-template option[value={}]", template.id)).await;
    h.select("#email-template", &template.id).await;
    h.wait_for("#email-var-first_name").await;

    let dir = tempfile::tempdir().unwrap();
    // A first draft whose third row stops before its first_name: the preview shows the first
    // rows as they will be sent, rendered by the server, and flags that one with its reason.
    h.allow_console_error("status of 400");
    let draft = dir.path().join("draft.csv");
    std::fs::write(&draft, "email,name,first_name\nada@client.example,Ada Lovelace,Ada\n\"bob@client.example\",\"Bob, Jr.\",Bob\ncy@client.example\ndee@client.example,,Dee\n").unwrap();
    h.upload("#email-csv", &draft).await;
    h.wait_for_text("#email-bulk-count", "4 messages").await;
    h.wait_for_text("#email-bulk-preview-title", "The first 3 of 4 messages").await;
    assert_eq!(h.count("#email-bulk-preview > li").await, 3);
    h.wait_for_text("li[data-row='0'] .email-bulk-to", "Ada Lovelace <ada@client.example>").await;
    h.wait_for_text("li[data-row='0'] .email-bulk-subject", "Statement for Ada").await;
    h.wait_for_text("li[data-row='0'] .email-text", "Dear Ada").await;
    h.wait_for_text("li[data-row='1'] .email-bulk-to", "Bob, Jr. <bob@client.example>").await;
    h.wait_for_text("li[data-row='1'] .email-bulk-subject", "Statement for Bob").await;
    h.wait_js(
        "(f => f && f.getAttribute('sandbox') === '' && f.getAttribute('srcdoc').includes('<p>Dear Bob</p>'))(document.querySelector(\"li[data-row='1'] iframe\"))",
        "the second message's HTML in a sandboxed iframe",
    )
    .await;
    h.wait_for_text("li[data-row='2'] .email-bulk-refused", "data.first_name").await;
    assert_eq!(h.count(".email-bulk-refused").await, 1, "only the row without its first_name");
    h.wait_js(
        "getComputedStyle(document.querySelector(\"li[data-row='2']\")).borderTopWidth === '2px'",
        "the refused row framed",
    )
    .await;
    // Another column for the variable: every previewed message rendered again with it.
    h.select("#email-map-0", "name").await;
    h.wait_for_text("li[data-row='0'] .email-bulk-subject", "Statement for Ada Lovelace").await;
    h.wait_for_text("li[data-row='1'] .email-bulk-subject", "Statement for Bob, Jr.").await;

    // The CSV fixed: three rows, all of them sendable.
    let csv = dir.path().join("clients.csv");
    std::fs::write(&csv, "email,name,first_name\nada@client.example,Ada Lovelace,Ada\n\"bob@client.example\",\"Bob, Jr.\",Bob\ncy@client.example,,Cy\n").unwrap();
    h.upload("#email-csv", &csv).await;
    h.wait_for_text("#email-bulk-count", "3 messages").await;
    h.wait_for_text("li[data-row='2'] .email-bulk-subject", "Statement for Cy").await;
    h.wait_for_text("li[data-row='2'] .email-bulk-to", "cy@client.example").await;
    assert_eq!(h.count(".email-bulk-refused").await, 0);
    h.click("#email-template-preview").await;
    h.wait_for_text("#email-rendered-subject", "Statement for Ada").await;
    h.wait_for_text("#email-send", "Send 3 messages").await;
    h.click("#email-send").await;
    h.wait_for_text("#email-notice", "3 messages queued").await;

    h.goto("/email?tab=outbox").await;
    h.wait_js("document.querySelectorAll('#email-outbox-table tbody tr').length === 3", "three messages").await;
    for name in ["Ada", "Bob", "Cy"] {
        h.wait_for_text("#email-outbox-table", &format!("Statement for {name}")).await;
    }
    h.wait_for_text("#email-outbox-table", "Bob, Jr.").await;
    h.finish().await;
}

/// Sends `n` messages through the API as the signed-in page would (the script's callback gets
/// the ids).
const SEND: &str = r#"
const [token, n, done] = arguments;
fetch('/api/v1/cores/utility/message/email', { method: 'POST',
    headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ from: { email: 'ops@moneydesk.test' }, subject: 'Your statement',
      content: [{ type: 'text/plain', value: 'Hello' }],
      personalizations: [...Array(n).keys()].map(i => ({ to: [{ email: 'client' + i + '@client.example' }] })) }) })
  .then(r => r.json()).then(b => done(b.data), e => done('failed: ' + e));
"#;

/// Sets a date field as the date picker would (typed dates depend on the browser's locale).
async fn set_date(h: &Harness, css: &str, day: &str) {
    h.js(
        "const i = document.querySelector(arguments[0]); i.value = arguments[1]; i.dispatchEvent(new Event('input', { bubbles: true }));",
        vec![serde_json::json!(css), serde_json::json!(day)],
    )
    .await;
}

#[tokio::test]
async fn the_outbox_is_narrowed_to_the_days_the_messages_were_created_with_the_days_in_the_url() {
    let h = start().await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=outbox").await;
    h.wait_for("#email-outbox-empty").await;
    let ids = h.js_async(SEND, vec![serde_json::json!(token), serde_json::json!(2)]).await;
    assert_eq!(ids.as_array().map(Vec::len), Some(2), "two messages accepted: {ids}");
    h.goto("/email?tab=outbox").await;
    h.wait_js("document.querySelectorAll('#email-outbox-table tbody tr').length === 2", "both messages").await;
    // The day they were created, as the table shows it (UTC): no assumption about the clock.
    let created = h
        .js("return document.querySelector('#email-outbox-table tbody td:not(.bulk-check-cell)').textContent", vec![])
        .await;
    let day = created.as_str().unwrap()[..10].to_string();

    set_date(&h, "#email-created-from", "2020-01-01").await;
    set_date(&h, "#email-created-to", "2020-01-31").await;
    h.click(".email-filters button[type=submit]").await;
    h.wait_for("#email-outbox-empty").await;
    h.wait_js("(p => p.get('createdFrom') === '2020-01-01' && p.get('createdTo') === '2020-01-31')(new URLSearchParams(location.search))", "the days in the URL").await;

    set_date(&h, "#email-created-from", &day).await;
    set_date(&h, "#email-created-to", &day).await;
    h.click(".email-filters button[type=submit]").await;
    h.wait_js("document.querySelectorAll('#email-outbox-table tbody tr').length === 2", "the day's messages").await;
    let url = h.url().await;
    assert_eq!(
        url.query_pairs().filter(|(k, v)| (k == "createdFrom" || k == "createdTo") && *v == day.as_str()).count(),
        2,
        "{url}"
    );

    // The URL alone brings the filter back, in the form and in the list.
    h.goto(&format!("/email?tab=outbox&createdFrom=2020-01-01&createdTo={day}")).await;
    h.wait_js("document.querySelectorAll('#email-outbox-table tbody tr').length === 2", "from 2020 to the day").await;
    assert_eq!(
        h.js("return document.querySelector('#email-created-from').value", vec![]).await,
        serde_json::json!("2020-01-01")
    );
    assert_eq!(h.js("return document.querySelector('#email-created-to').value", vec![]).await, serde_json::json!(day));
    h.goto("/email?tab=outbox&createdTo=2020-01-31").await;
    h.wait_for("#email-outbox-empty").await;
    h.finish().await;
}

/// Shift-clicks a row's checkbox (a range from the row last clicked).
/// Once the box is there: the outbox refreshes its rows while messages change state, so the
/// row may be between two renders when the test gets to it.
async fn shift_click(h: &Harness, css: &str) {
    let css = serde_json::json!(css);
    let click = format!(
        "(() => {{ const e = document.querySelector({css}); if (!e) return false; \
         e.dispatchEvent(new MouseEvent('click', {{ shiftKey: true, bubbles: true, cancelable: true }})); return true; }})()"
    );
    h.wait_js(&click, &format!("{css} is there to shift-click")).await;
}

/// Runs a bulk action of the bar and answers its question.
async fn bulk(h: &Harness, action: &str) {
    h.click(&format!("#email-outbox-bulk-bar [data-bulk-action={action}]")).await;
    h.click("#email-outbox-bulk-bar [data-bulk=yes]").await;
}

/// Outbox bulk actions (no worker: messages stay queued): a range cancelled, a range of
/// cancelled and queued messages resent (a partial success, said and shown per row), and every
/// queued message of the filter — more than a page — cancelled at once.
#[tokio::test]
async fn outbox_messages_are_cancelled_and_resent_in_bulk_with_each_rows_outcome() {
    let h = Harness::start().await;
    let token = h.token(&[Scope::EmailSend]).await;
    h.sign_in(&token).await;
    h.goto("/email?tab=outbox").await;
    h.wait_for("#email-outbox-empty").await;
    let ids = h.js_async(SEND, vec![serde_json::json!(token), serde_json::json!(30)]).await;
    assert_eq!(ids.as_array().map(Vec::len), Some(30), "{ids}");
    h.goto("/email?tab=outbox").await;
    h.wait_js("document.querySelectorAll('#email-outbox-table tbody tr').length === 25", "a page of messages").await;
    let check = |n: usize| format!("#email-outbox-table tbody tr:nth-child({n}) .bulk-check");
    let outcome = |n: usize| format!("#email-outbox-table tbody tr:nth-child({n}) td:last-child");

    h.click(&check(1)).await;
    shift_click(&h, &check(3)).await;
    h.wait_for_text("#email-outbox-bulk-bar .bulk-count", "3 messages selected.").await;
    bulk(&h, "cancel").await;
    h.wait_for_text("#email-outbox-bulk-summary", "3 cancelled, 0 refused.").await;
    h.wait_for_text(&outcome(2), "Done").await;
    h.wait_for_text("#email-outbox-table tbody tr:nth-child(3) .badge.state-failed", "Failed").await;

    // Three failed and two queued: the failed are resent, the queued refused, each row says so.
    h.click(&check(1)).await;
    shift_click(&h, &check(5)).await;
    h.wait_for_text("#email-outbox-bulk-bar .bulk-count", "5 messages selected.").await;
    bulk(&h, "resend").await;
    h.wait_for_text("#email-outbox-bulk-summary", "3 resent, 2 refused.").await;
    h.wait_for_text(&outcome(1), "Done").await;
    h.wait_for_text(&outcome(4), "Refused: ").await;
    h.wait_for_text(&outcome(5), "only a failed message can be resent").await;
    h.click("#email-outbox-bulk-summary [data-bulk=show-refused]").await;
    assert_eq!(h.count("#email-outbox-bulk-refused li").await, 2);
    h.snapshot("outbox-bulk").await;

    // Every queued message, all 30 over two pages: the filter is sent, not ids.
    h.click("#email-state-queued").await;
    h.wait_js("location.search.includes('state=queued')", "the filter in the URL").await;
    h.click("#email-outbox-table thead .bulk-check").await;
    h.wait_for_text("#email-outbox-bulk-bar [data-bulk=all]", "Select all 30 matching").await;
    h.click("#email-outbox-bulk-bar [data-bulk=all]").await;
    h.wait_for_text("#email-outbox-bulk-bar .bulk-count", "All 30 messages matching the filter are selected.").await;
    bulk(&h, "cancel").await;
    h.wait_for_text("#email-outbox-bulk-summary", "30 cancelled, 0 refused.").await;
    h.wait_for("#email-outbox-empty").await;
    h.finish().await;
}
