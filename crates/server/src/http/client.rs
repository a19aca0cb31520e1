//! What the server's own outgoing requests share (the inbound mail webhook, the webhook
//! endpoints' deliveries): how a request that got no answer is told in a delivery log.

use std::time::Duration;

/// Why a POST got no answer, in words.
pub fn failure_text(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("no answer within {} s", timeout.as_secs());
    }
    let mut text = if e.is_connect() { "could not connect".to_string() } else { "the request failed".to_string() };
    let mut source = std::error::Error::source(e);
    let mut last = String::new();
    while let Some(s) = source {
        last = s.to_string();
        source = s.source();
    }
    if !last.is_empty() {
        text.push_str(": ");
        text.push_str(&last);
    }
    text
}
