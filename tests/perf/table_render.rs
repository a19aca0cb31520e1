//! Browser benchmark of the data table (not a timed test; run by `scripts/bench-table`):
//! the release portal on the real server with the demo seed, in headless Chromium. The table
//! marks `moneydesk-table:<id>:data` when a page's records arrive and measures
//! `moneydesk-table:<id>:render:<rows>` after the DOM update and a forced layout, and
//! `...:frame:<rows>` once the next frame is painted (see `measure_render` in
//! src/components/data_table/mod.rs); this reads those measures back through the Performance
//! API while paging through 500-row pages (windowed: only the rows near the viewport render).
//!
//! `MONEYDESK_BENCH_RUNS` (default 20) page turns per column set.
//!
//! First, issue 10's "page size → 500, next frame painted" side by side with its peer
//! (tests/perf/page_size.rs, tests/perf/peer.rs; `MONEYDESK_BENCH_PEER=0` leaves it out):
//! `MONEYDESK_BENCH_RUNS` turns of each.

mod page_size;
mod peer;

use std::time::{Duration, Instant};

use moneydesk_e2e::{Harness, Scope};
use serde_json::{json, Value};

const MEASURE: &str = "moneydesk-table:accounts:render:500";
const BUILD: &str = "moneydesk-table:accounts:build:500";
const FRAME: &str = "moneydesk-table:accounts:frame:500";

async fn entries(h: &Harness, name: &str) -> Vec<f64> {
    let v = h
        .js("return performance.getEntriesByName(arguments[0], 'measure').map(e => e.duration)", vec![json!(name)])
        .await;
    serde_json::from_value(v).unwrap_or_default()
}

async fn measures(h: &Harness) -> Vec<f64> {
    entries(h, MEASURE).await
}

/// Waits until there are more than `n` render measures (the page turn rendered).
async fn wait_measures(h: &Harness, n: usize) -> Vec<f64> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let m = measures(h).await;
        if m.len() > n {
            return m;
        }
        if Instant::now() > deadline {
            h.fail(format!("no new {MEASURE} measure after {n}")).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn summary(label: &str, mut xs: Vec<f64>) {
    if xs.is_empty() {
        println!("bench-table: {label}: no measures");
        return;
    }
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| xs[((xs.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "bench-table: {label}: n={} min={:.1} ms median={:.1} ms p95={:.1} ms max={:.1} ms (target < 50 ms)",
        xs.len(),
        xs[0],
        at(0.5),
        at(0.95),
        xs[xs.len() - 1]
    );
}

/// Turns pages 1 → 2 → 3 → 4 → 3 → 2 → 1 → 2 … (the demo's 2,400 accounts fill four
/// 500-row pages; the fifth has 400) and returns, per turn, the time until the rows were in
/// the DOM, until they were laid out, and until the next frame was painted.
async fn page_turns(h: &Harness, runs: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut seen = measures(h).await.len();
    let mut page = 1;
    let mut forward = true;
    for _ in 0..runs {
        if page == 4 {
            forward = false;
        } else if page == 1 {
            forward = true;
        }
        let button = if forward { "next" } else { "prev" };
        page = if forward { page + 1 } else { page - 1 };
        h.click(&format!(".pager button[data-page={button}]")).await;
        seen = wait_measures(h, seen).await.len();
    }
    let all = measures(h).await;
    let first = entries(h, BUILD).await;
    // The frame measure lands a frame after the render measure.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let frames = entries(h, FRAME).await;
    let last = |xs: &[f64]| xs[xs.len().saturating_sub(runs)..].to_vec();
    (last(&first), last(&all), last(&frames))
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::var("MONEYDESK_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let h = Harness::start_with(|c| c.seed_demo = true).await;
    let token = h.token(&[Scope::AccountsRead]).await;
    h.sign_in(&token).await;

    if let Some(dist) = peer::dist() {
        let origin = h.base_url();
        let p = peer::Peer::serve(dist, peer::accounts(&h, &origin, &token).await).await;
        let (m, pr) = page_size::compare(&h, &origin, &p.origin, runs).await;
        page_size::print(&m, &pr);
    }

    // The default columns (6 of 24).
    h.goto("/accounts?size=500").await;
    let first = wait_measures(&h, 0).await[0];
    println!("bench-table: first 500-row page after a full load: {first:.1} ms");
    let (shown, all, frames) = page_turns(&h, runs).await;
    summary("500 rows x 6 columns, data to rows in the DOM", shown);
    summary("500 rows x 6 columns, data to rows laid out", all);
    summary("500 rows x 6 columns, data to the next frame painted", frames);

    // Every column shown (24): the widest table the page can show.
    let keys: Value = h
        .js(
            "return [...document.querySelectorAll('.column-chooser input[type=checkbox]')].map(i => i.value).join(',')",
            vec![],
        )
        .await;
    h.js("localStorage.setItem('moneydesk.table.accounts.columns', arguments[0])", vec![keys]).await;
    h.goto("/accounts?size=500").await;
    wait_measures(&h, 0).await;
    let (shown, all, frames) = page_turns(&h, runs).await;
    summary("500 rows x 24 columns, data to rows in the DOM", shown);
    summary("500 rows x 24 columns, data to rows laid out", all);
    summary("500 rows x 24 columns, data to the next frame painted", frames);

    let ua = h.js("return navigator.userAgent", vec![]).await;
    println!("bench-table: browser {}", ua.as_str().unwrap_or_default());
    h.finish().await;
}
