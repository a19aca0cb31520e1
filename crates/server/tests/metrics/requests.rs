//! Prometheus metrics on their own address: requests counted by operation and status (an
//! error answer under its operation too), the portal's and unknown paths apart, latencies as
//! histograms, the outbox's depth and delivery attempts. Each figure is what this test's own
//! work added (see `main.rs`).

use crate::common;

use std::time::Duration;

use common::Server;
use moneydesk_model::{paths, Scope};
use serde_json::json;

#[tokio::test]
async fn requests_and_deliveries_are_counted_at_the_metrics_address() {
    let _alone = crate::alone().await;
    let s = Server::start_with(|c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.email.worker = true;
    })
    .await;
    let metrics = s.running.metrics_addr().expect("metrics are served");
    let before = crate::scrape(metrics).await;
    let t = s.token(&[Scope::EmailSend]).await;
    for _ in 0..3 {
        assert_eq!(s.get_auth(paths::EMAIL_SENDERS, &t).await.status(), 200);
    }
    let r = s
        .client
        .post(s.url(paths::EMAIL_SEND))
        .bearer_auth(&t)
        .json(&json!({"subject": "no sender"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(&t)
        .json(&json!({"from": {"email": "ops@moneydesk.test"}, "subject": "Hi", "content": [{"type": "text/plain", "value": "x"}], "personalizations": [{"to": [{"email": "a@client.example"}]}]}))
        .send().await.unwrap();
    assert_eq!(r.status(), 202);
    assert_eq!(s.client.get(s.url("/api/no/such/thing")).send().await.unwrap().status(), 404);
    assert_eq!(s.client.get(s.url("/healthz")).send().await.unwrap().status(), 200);

    let sent = "moneydesk_email_delivery_attempts_total{outcome=\"sent\"}";
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let after = loop {
        let text = crate::scrape(metrics).await;
        if crate::moved(&before, &text, sent) >= 1.0 || std::time::Instant::now() > until {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let moved = |series: &str| crate::moved(&before, &after, series);
    let senders = paths::EMAIL_SENDERS;
    let send = paths::EMAIL_SEND;
    let requests = |labels: &str| moved(&format!("moneydesk_http_requests_total{{{labels}}}"));
    assert_eq!(requests(&format!("method=\"GET\",route=\"{senders}\",status=\"200\"")), 3.0, "{after}");
    assert_eq!(requests(&format!("method=\"POST\",route=\"{send}\",status=\"400\"")), 1.0, "{after}");
    assert_eq!(requests("method=\"GET\",route=\"unmatched\",status=\"404\""), 1.0, "{after}");
    assert_eq!(requests("method=\"GET\",route=\"portal\",status=\"200\""), 1.0, "{after}");
    let latency =
        format!("moneydesk_http_request_duration_seconds_bucket{{method=\"GET\",route=\"{senders}\",le=\"+Inf\"}}");
    assert_eq!(moved(&latency), 3.0, "{after}");
    assert_eq!(moved(sent), 1.0, "{after}");
}
