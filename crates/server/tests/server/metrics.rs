//! Prometheus metrics on their own address: requests counted by operation and status (an
//! error answer under its operation too), the portal's and unknown paths apart, latencies as
//! histograms, the outbox's depth and delivery attempts. (One test in this binary: the
//! recorder is the process's.)

use crate::common;

use std::time::Duration;

use common::Server;
use moneydesk_model::{paths, Scope};
use serde_json::json;

#[tokio::test]
async fn requests_and_deliveries_are_counted_at_the_metrics_address() {
    let s = Server::start_with(|c| {
        c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
        c.email.worker = true;
    })
    .await;
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

    let at = format!("http://{}/metrics", s.running.metrics_addr().expect("metrics are served"));
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let text = loop {
        let text = reqwest::get(&at).await.unwrap().text().await.unwrap();
        if text.contains("moneydesk_email_delivery_attempts_total") || std::time::Instant::now() > until {
            break text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let senders = paths::EMAIL_SENDERS;
    assert!(
        text.contains(&format!("moneydesk_http_requests_total{{method=\"GET\",route=\"{senders}\",status=\"200\"}} 3")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "moneydesk_http_requests_total{{method=\"POST\",route=\"{}\",status=\"400\"}} 1",
            paths::EMAIL_SEND
        )),
        "{text}"
    );
    assert!(
        text.contains("moneydesk_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1"),
        "{text}"
    );
    assert!(text.contains("moneydesk_http_requests_total{method=\"GET\",route=\"portal\",status=\"200\"} 1"), "{text}");
    assert!(
        text.contains(&format!(
            "moneydesk_http_request_duration_seconds_bucket{{method=\"GET\",route=\"{senders}\",le=\"+Inf\"}} 3"
        )),
        "{text}"
    );
    assert!(text.contains("moneydesk_email_delivery_attempts_total{outcome=\"sent\"} 1"), "{text}");
}
