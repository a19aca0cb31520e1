//! The Email page's Deliverability tab (issue 46): a message is sent, a hard bounce comes back
//! for it and a report that is no report is posted; the tab shows its sending domain over the
//! limits, the bounce with a link to its message, the unreadable report counted once, and a
//! window with nothing sent, taken from the URL.

use moneydesk_e2e::{Harness, Scope};
use moneydesk_model::paths;
use serde_json::{json, Value};

/// Posts `body` as `type` to `path` from the signed-in page; the callback gets the status and
/// the answer's JSON.
const POST: &str = r#"
const [token, path, type, body, done] = arguments;
fetch(path, { method: 'POST', headers: { 'Authorization': 'Bearer ' + token, 'Content-Type': type }, body })
  .then(r => r.json().then(b => done({ status: r.status, body: b })), e => done('failed: ' + e));
"#;

async fn post(h: &Harness, token: &str, path: &str, kind: &str, body: String) -> Value {
    h.js_async(POST, vec![json!(token), json!(path), json!(kind), json!(body)]).await
}

/// A Postfix-shaped delivery status notification: `recipient` refused for good (5.1.1).
fn hard_bounce(recipient: &str) -> String {
    format!(
        "From: MAILER-DAEMON@mx.client.example (Mail Delivery System)\r\n\
         Subject: Undelivered Mail Returned to Sender\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B1\"\r\n\r\n\
         --B1\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\
         --B1\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.client.example\r\n\r\n\
         Final-Recipient: rfc822; {recipient}\r\nAction: failed\r\nStatus: 5.1.1\r\n\
         Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: User unknown\r\n\r\n\
         --B1--\r\n"
    )
}

#[tokio::test]
async fn a_bounce_shows_its_domain_over_the_limits_and_links_to_its_message() {
    // The worker delivers to the development mailbox: a bounce rate is over what was delivered.
    let h = Harness::start_with(|c| c.email.worker = true).await;
    let admin = h.token(&[Scope::EmailSend, Scope::Admin]).await;
    h.sign_in(&admin).await;
    h.goto("/email?tab=deliverability").await;
    h.wait_for_text("#deliverability-none", "Nothing was sent in this window.").await;
    h.wait_for_text("#deliverability-no-bounces", "No bounce or complaint").await;

    let send = json!({"from": {"email": "statements@moneydesk.test"}, "subject": "Statement",
        "content": [{"type": "text/plain", "value": "Hi"}],
        "personalizations": [{"to": [{"email": "gone@client.example"}]}]});
    let sent = post(&h, &admin, paths::EMAIL_SEND, "application/json", send.to_string()).await;
    assert_eq!(sent["status"], 202, "{sent}");
    let id = sent["body"]["data"][0].as_str().expect("a message id").to_string();
    h.goto("/email?tab=outbox").await;
    h.wait_for_text("#email-outbox-table .badge", "Sent").await;
    let to = format!("{}?to=bounces%2B{id}%40mdbounce.moneydesk.test", paths::EMAIL_BOUNCE_REPORTS);
    let report = post(&h, &admin, &to, "message/rfc822", hard_bounce("gone@client.example")).await;
    assert_eq!((report["status"].as_u64(), report["body"]["data"]["state"].as_str()), (Some(201), Some("processed")));
    let junk = post(&h, &admin, paths::EMAIL_BOUNCE_REPORTS, "message/rfc822", "Just words.\r\n".into()).await;
    assert_eq!(junk["body"]["data"]["state"], "unparseable", "{junk}");

    h.goto("/email?tab=deliverability").await;
    let row = "#deliverability-domains tr[data-domain='moneydesk.test']";
    h.wait_for_text(row, "moneydesk.test").await;
    // One delivered, one hard bounce: a bounce rate of 100 %, flagged.
    h.wait_for(&format!("{row}.deliverability-flagged .deliverability-flag")).await;
    h.wait_for_text(row, "100.00 %").await;
    h.wait_for_text("#deliverability-unparseable", "1 report could not be read; it is kept.").await;
    h.wait_for_text("#deliverability-latest", "gone@client.example").await;
    h.wait_for_text("#deliverability-latest", "5.1.1").await;

    // The bounce's message opens in the Outbox, its bounce listed on it.
    h.click("#deliverability-latest .bounce-message").await;
    h.wait_for_text("#email-message-bounces", "gone@client.example").await;
    let query = h.url().await.query().unwrap_or_default().to_string();
    assert!(query.contains("tab=outbox") && query.contains(&format!("message={id}")), "{query}");

    // A window in the past, chosen in the form, is the URL's and holds nothing.
    h.goto("/email?tab=deliverability&from=2020-01-01&to=2020-01-31").await;
    h.wait_for_text("#deliverability-none", "Nothing was sent in this window.").await;
    assert_eq!(h.js("return document.querySelector('#deliverability-from').value", vec![]).await, "2020-01-01");
    h.finish().await;
}
