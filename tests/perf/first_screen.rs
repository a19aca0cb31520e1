//! The first screen, measured in headless Chromium (not a timed test; run by
//! `scripts/bench-first-screen`): the release portal on the real server with the demo seed.
//! For each page, `MONEYDESK_BENCH_RUNS` (default 10) loads of its URL by a signed-in user:
//!   - cold: a fresh browser (empty cache, new profile) per load;
//!   - warm: the same browser loading the URL again (assets from its cache);
//!   - slow: cold, under an emulated 150 ms round trip and 1.6 Mbps down / 750 kbps up.
//!
//! It prints the median time from navigation start to the page's first meaningful content
//! (accounts, permissions: the first data row; fees: the schedule's table; routing: the
//! directory's status; deposits: the chart; home: the cards), and the waterfall of the last
//! cold load: each request's start and end (ms from navigation start).

use std::time::Duration;

use moneydesk_e2e::{Browser, Harness, Scope};
use serde_json::{json, Value};

const PAGES: &[(&str, &str)] = &[
    ("/accounts", "tbody tr[data-id]"),
    ("/permissions", "tbody tr[data-id]"),
    ("/fees", "[data-testid=fee-schedule] tbody tr"),
    ("/routing", "[data-testid=routing-status-head]"),
    ("/deposits", "[data-testid=deposit-chart] p, [data-testid=deposit-chart] svg"),
    ("/", "main .cards .card"),
];

/// Resolves with `performance.now()` once `selector` matches (at once when it already does).
const CONTENT_AT: &str = "const [selector, done] = arguments;
    const now = () => document.querySelector(selector) && done(performance.now());
    if (now()) return;
    new MutationObserver((_, o) => { if (now()) o.disconnect(); })
        .observe(document.documentElement, { childList: true, subtree: true });";

const WATERFALL: &str = "return performance.getEntriesByType('resource').map(e =>
    [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd), e.transferSize]);";

struct Signed {
    token: String,
}

/// Opens `url` signed in: the credentials the portal keeps, written on the origin first (a
/// tiny same-origin file, so the page itself loads only once, cold).
async fn load(b: &Browser, origin: &str, path: &str, ready: &str, who: &Signed) -> (f64, Value) {
    b.open(&format!("{origin}/environments.json")).await;
    let credentials = json!({"environment": "local", "baseUrl": "", "token": who.token}).to_string();
    b.js("localStorage.setItem('moneydesk.credentials', arguments[0])", vec![json!(credentials)]).await;
    b.open(&format!("{origin}{path}")).await;
    let at = b.js_async(CONTENT_AT, vec![json!(ready)]).await.as_f64().unwrap_or(f64::NAN);
    let waterfall = b.js(WATERFALL, vec![]).await;
    (at, waterfall)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if xs.is_empty() {
        f64::NAN
    } else {
        xs[xs.len() / 2]
    }
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::var("MONEYDESK_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let who = Signed { token: h.token(&[Scope::Admin]).await };
    let origin = h.base_url();
    let dir = tempfile::tempdir().unwrap();
    println!("bench-first-screen: {runs} loads per page and mode; median ms from navigation start to the first content");
    println!("{:<14} {:>8} {:>8} {:>8}", "page", "cold", "warm", "slow");
    for (path, ready) in PAGES {
        let mut cold = Vec::new();
        let mut warm = Vec::new();
        let mut slow = Vec::new();
        let mut last_waterfall = Value::Null;
        for run in 0..runs {
            let b = Browser::start(&dir.path().join(format!("cold-{run}")), "first-screen".into()).await;
            let (at, waterfall) = load(&b, &origin, path, ready, &who).await;
            cold.push(at);
            last_waterfall = waterfall;
            b.open(&format!("{origin}{path}")).await;
            warm.push(b.js_async(CONTENT_AT, vec![json!(ready)]).await.as_f64().unwrap_or(f64::NAN));
            b.close().await;
        }
        for run in 0..runs.div_ceil(2) {
            let b = Browser::start(&dir.path().join(format!("slow-{run}")), "first-screen".into()).await;
            b.emulate_network(150, 200_000, 93_750).await;
            slow.push(load(&b, &origin, path, ready, &who).await.0);
            b.close().await;
        }
        println!("{:<14} {:>8.0} {:>8.0} {:>8.0}", path, median(cold), median(warm), median(slow));
        if let Some(list) = last_waterfall.as_array() {
            for e in list {
                println!("    {:>5}..{:<5} {:>8} B  {}", e[1], e[2], e[3], e[0].as_str().unwrap_or_default());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ua = h.js("return navigator.userAgent", vec![]).await;
    println!("bench-first-screen: browser {}", ua.as_str().unwrap_or_default());
    h.finish().await;
}
