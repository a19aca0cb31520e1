//! Webhooks in the portal: an endpoint to a private address outside the allow-list is refused
//! with the server's words naming `url`; one to a local receiver (allowed by the server's
//! allow-list, as `MONEYDESK_WEBHOOK_ALLOW` would) is created for `deposit.created` alone, its
//! secret shown once. A check deposited through the API reaches the receiver and shows in the
//! endpoint's delivery log and its last 7 days; Replay on the row delivers the same event again
//! (a second attempt in the log, a second POST with the same id at the receiver); a test event
//! arrives too; disabling and deleting the endpoint work.

use std::sync::{Arc, Mutex};

use moneydesk_e2e::{Harness, Scope};
use moneydesk_model::paths;
use moneydesk_model::webhooks::{ID_HEADER, SIGNATURE_HEADER};
use moneydesk_server::config::webhooks::parse_allowed;
use serde_json::Value;

use crate::tables::{api, check_deposit, post};

/// What the receiver got: each POST's event id, its event type and whether it was signed.
type Got = Arc<Mutex<Vec<(String, String, bool)>>>;

/// A receiver on a loopback port answering 200 to every POST and keeping what it got.
async fn receiver() -> (String, Got) {
    let got: Got = Arc::default();
    let kept = got.clone();
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post(move |headers: axum::http::HeaderMap, body: axum::body::Bytes| {
            let kept = kept.clone();
            async move {
                let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
                let event: Value = serde_json::from_slice(&body).unwrap_or_default();
                let kind = event["type"].as_str().unwrap_or_default().to_string();
                kept.lock().unwrap().push((h(ID_HEADER), kind, h(SIGNATURE_HEADER).contains("v1=")));
                "thanks"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, got)
}

/// A $75.00 check deposited to the first account; its id.
async fn deposit(h: &Harness, token: &str) -> i64 {
    let first = api(h, token, &format!("{}?size=1", paths::ACCOUNTS)).await["data"]["content"][0].clone();
    let body = check_deposit(first["id"].as_str().expect("an account"), "75.00", "1077");
    let (status, made) = post(h, token, paths::DEPOSITS_CHECK, body).await;
    assert_eq!(status, 201, "{made}");
    made["id"].as_i64().unwrap()
}

/// Waits until the receiver has `n` POSTs.
async fn received(got: &Got, n: usize) -> Vec<(String, String, bool)> {
    for _ in 0..200 {
        let now = got.lock().unwrap().clone();
        if now.len() >= n {
            return now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the receiver got {:?}, not {n} POSTs", got.lock().unwrap());
}

#[tokio::test]
async fn a_deposit_is_delivered_logged_and_replayed_from_the_webhooks_page() {
    let (url, got) = receiver().await;
    let h = Harness::start_with(|c| {
        c.seed_demo = true;
        c.webhooks.worker = true;
        c.webhooks.allow = vec![parse_allowed("127.0.0.1").unwrap()];
    })
    .await;
    let token = h.token(&[Scope::Admin]).await;
    h.sign_in(&token).await;
    // The refused create is a 400 the browser logs.
    h.allow_console_error("status of 400");

    h.goto("/webhooks").await;
    h.wait_for("#webhook-endpoints-empty").await;
    h.click("#webhook-new").await;
    // A private address outside the allow-list: the server's refusal, naming the field.
    h.type_into("#webhook-new-url", "https://10.1.2.3/hook").await;
    h.click("#webhook-new-submit").await;
    h.wait_for_text("#webhook-new-error .field-errors", "url").await;
    h.wait_for_text("#webhook-new-error .field-errors", "private").await;

    // The receiver, for deposit.created alone.
    h.type_into("#webhook-new-url", &url).await;
    h.type_into("#webhook-new-description", "The books").await;
    h.click("#webhook-new-all").await;
    h.click("#webhook-new-type-deposit-created").await;
    h.click("#webhook-new-submit").await;
    h.wait_for_text("[data-testid=webhook-secret]", "you will not see it again").await;
    let secret = h.text("#webhook-secret-value").await;
    assert!(secret.starts_with("whsec_"), "{secret}");
    let row = "#webhook-endpoints tbody tr[data-id]";
    h.wait_for_text(&format!("{row} td"), "deposit.created").await;
    let hint = h.text(&format!("{row} td.mono")).await;
    assert!(secret.ends_with(hint.trim_start_matches('…')), "the hint is the secret's end: {hint}");
    h.click("#webhook-secret-done").await;
    h.wait_gone("[data-testid=webhook-secret]").await;
    assert!(!h.js("return document.body.innerText", vec![]).await.to_string().contains(&secret), "shown once");

    // A deposit: delivered, and in the endpoint's log.
    let id = deposit(&h, &token).await;
    let first = received(&got, 1).await;
    assert_eq!(first[0].1, "deposit.created");
    assert!(first[0].2, "signed");
    let event = first[0].0.clone();
    h.click(&format!("{row} .webhook-open")).await;
    h.wait_for("[data-testid=webhook-endpoint]").await;
    assert!(h.url().await.query().unwrap_or_default().contains("endpoint=we_"), "the endpoint is in the URL");
    let logged = format!("#webhook-log tbody tr[data-event='{event}']");
    h.wait_for_text(&format!("{logged} code"), "deposit.created").await;
    h.wait_for_text(&format!("{logged}[data-attempt='1']"), "delivered").await;
    h.wait_for("[data-testid=webhook-chart] rect.delivered").await;
    assert_eq!(h.count(&format!("{logged}[data-status=delivered]")).await, 1, "deposit {id}: one delivery");

    // Replay on the row: the same event again.
    h.click(&format!("{logged} .webhook-replay")).await;
    h.wait_for_text("#webhook-replayed", "1 delivery queued").await;
    let twice = received(&got, 2).await;
    assert_eq!(twice[1].0, event, "the same event id again");
    h.wait_js(
        &format!("document.querySelectorAll(\"{logged}[data-status=delivered]\").length == 2"),
        "the replay's attempt is in the log",
    )
    .await;

    // The endpoint's view, its log and chart drawn, passes axe in both themes.
    let axe = crate::a11y::axe_source();
    let mut problems = crate::a11y::violations(&h, &axe).await;
    crate::a11y::set_theme(&h, "dark").await;
    h.reload().await;
    h.wait_for("div.moneydesk[data-theme=dark]").await;
    h.wait_for(&format!("{logged}[data-status=delivered]")).await;
    h.wait_for("[data-testid=webhook-chart] rect.delivered").await;
    problems.extend(crate::a11y::violations(&h, &axe).await);
    assert!(problems.is_empty(), "axe-core on the endpoint's view:\n{}", problems.join("\n"));

    // A test event, sent to this endpoint although it takes deposit.created alone.
    h.click("#webhook-test").await;
    h.wait_for_text("#webhook-said", "queued").await;
    let three = received(&got, 3).await;
    assert_eq!(three[2].1, "webhook.test");
    h.wait_for("#webhook-log tbody tr[data-status=delivered] code").await;
    h.wait_js(
        "[...document.querySelectorAll('#webhook-log code')].some(c => c.textContent == 'webhook.test')",
        "the test event's row",
    )
    .await;

    // Disabled, then deleted after the confirmation.
    h.click("#webhook-toggle").await;
    h.wait_for_text("#webhook-state", "Disabled").await;
    h.click("#webhook-delete").await;
    h.click("#webhook-delete-confirm").await;
    h.wait_for("#webhook-endpoints-empty").await;
    h.finish().await;
}
