//! The metrics tests, a binary of their own. The Prometheus recorder is the process's: in the
//! one `server` binary every other test's requests, deliveries and take-overs were counted with
//! these tests' own (CI's run of 2026-11-29 saw `delivery_attempts_total{outcome="sent"}` above
//! 1). Here the two tests take turns (`alone`) and each asserts the difference between a scrape
//! before its work and one after.

#[path = "../common/mod.rs"]
#[macro_use]
mod common;

mod requests;
mod takeover;

/// Held for a whole test: the figures it reads move only by its own work.
pub async fn alone() -> tokio::sync::MutexGuard<'static, ()> {
    static ONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    ONE.lock().await
}

/// The `/metrics` text at `addr`.
pub async fn scrape(addr: std::net::SocketAddr) -> String {
    reqwest::get(format!("http://{addr}/metrics")).await.unwrap().text().await.unwrap()
}

/// The value of one series (`name{labels}` exactly as rendered) in a scrape; 0 when absent.
pub fn value(text: &str, series: &str) -> f64 {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok()).unwrap_or(0.0)
}

/// How much `series` moved from `before` to `after`.
pub fn moved(before: &str, after: &str, series: &str) -> f64 {
    value(after, series) - value(before, series)
}

#[test]
fn a_series_is_read_by_its_exact_labels_and_is_zero_when_absent() {
    let text = "a_total{k=\"x\"} 3\na_total{k=\"xy\"} 5\n";
    assert_eq!(value(text, "a_total{k=\"x\"}"), 3.0);
    assert_eq!(value(text, "a_total{k=\"y\"}"), 0.0);
    assert_eq!(moved("", text, "a_total{k=\"xy\"}"), 5.0);
}
