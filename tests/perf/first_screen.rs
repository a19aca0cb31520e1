//! The first screen, measured in headless Chromium (not a timed test; run by
//! `scripts/bench-first-screen`): the release portal on the real server with the demo seed.
//! For each page, `MONEYDESK_BENCH_RUNS` (default 10) loads of its URL by a signed-in user:
//!   - cold: a fresh browser (empty cache, new profile) per load;
//!   - warm: the same browser loading the URL again (assets from its cache);
//!   - slow: cold, under an emulated 150 ms round trip and 1.6 Mbps down / 750 kbps up.
//!
//! It prints the median time from navigation start to the page's first meaningful content
//! painted (accounts, permissions: the first data row; fees: the schedule's table; routing: the
//! directory's status; deposits: the chart; home: the cards), below it when that content was
//! first in the DOM (watched from the document's start: [`WATCH`]), and the waterfall of the last
//! cold load: each request's start, first byte and end (ms from navigation start).
//!
//! Issue 10's peer (tests/perf/peer.rs, bench/peer/): the same run loads react-admin's
//! accounts list the same ways, the two interleaved run by run (and which goes first
//! alternating), so that the machine's noise falls on both; it prints both medians, their
//! ratio and the peer's waterfall. `MONEYDESK_BENCH_PEER=0` leaves it out;
//! `MONEYDESK_BENCH_PAGES=/accounts,/fees` measures only those pages; `MONEYDESK_BENCH_SCOPES=1`:
//! see [`remember_scopes`]; `MONEYDESK_BENCH_SETTLE_MS=1000`: see [`settle`];
//! `MONEYDESK_BENCH_BEFORE=<dist>` also measures that build of the portal (served by a second
//! server), interleaved with this one and the peer, and prints this build's ratio to it;
//! `MONEYDESK_BENCH_H2=1` instead measures this build a second time from a server that
//! terminates TLS (a test CA's certificate; the browsers are told to accept it), so over
//! HTTP/2, interleaved with the same build over plain HTTP/1.1 and the peer;
//! `MONEYDESK_BENCH_H2=tls` serves the HTTP/1.1 loads over TLS too, so that only the protocol
//! differs.

mod peer;

use std::sync::atomic::{AtomicUsize, Ordering};
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

/// Installed in every document before its own scripts run (`Browser::on_new_document`), for
/// the app's selector: `window.__firstContent` resolves with [the moment the selector first
/// matched, the moment the frame showing it was painted] (ms from navigation start; a task
/// queued by the next animation frame runs after that frame's paint, as the table's own
/// `frame` measure takes it). Watching from the document's start, the same way for both apps:
/// a script sent after the navigation returned (before 2026-11-27) ran only when the main
/// thread was free, for the portal after its rows were built and painted, so it measured the
/// driver's delay on top of the paint, and for the peer (rows long after the load event) the
/// rows' insertion before their layout and paint.
const WATCH: &str = "(() => {
    const selector = SELECTOR;
    let found;
    const seen = new Promise((resolve) => { found = resolve; });
    Object.defineProperty(window, '__firstContent', { value: seen });
    const now = () => {
        if (!document.querySelector(selector)) return false;
        const dom = performance.now();
        requestAnimationFrame(() => setTimeout(() => found([dom, performance.now()])));
        return true;
    };
    const o = new MutationObserver(() => { if (now()) o.disconnect(); });
    o.observe(document, { childList: true, subtree: true });
})();";

/// What [`WATCH`] saw: [in the DOM, painted].
const CONTENT_AT: &str = "const done = arguments[arguments.length - 1];
    window.__firstContent.then(done);";

/// The document, then every request: [name, start, first byte, end, bytes transferred], the
/// page's own performance measures (Moneydesk's table: from its records arriving to the rows
/// built, laid out, painted), the first contentful paint, DOMContentLoaded and load.
const WATERFALL: &str = "const n = performance.getEntriesByType('navigation')[0];
    const row = e => [e.name.replace(location.origin, ''), Math.round(e.startTime),
        Math.round(e.responseStart), Math.round(e.responseEnd), e.transferSize];
    const measure = e => ['(' + e.name + ')', Math.round(e.startTime), 0, Math.round(e.startTime + e.duration), 0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return [row(n), ...performance.getEntriesByType('resource').map(row),
        ...performance.getEntriesByType('measure').map(measure),
        ['(first contentful paint)', Math.round(fcp ? fcp.startTime : -1), 0, 0, 0],
        ['(DOMContentLoaded, load)', Math.round(n.domContentLoadedEventEnd), 0, Math.round(n.loadEventEnd), 0]];";

/// The main thread's long tasks (over 50 ms) so far: [start, end] (ms from navigation start).
const LONG_TASKS: &str = "const done = arguments[arguments.length - 1];
    const all = t => t.map(e => [Math.round(e.startTime), Math.round(e.startTime + e.duration)]);
    const o = new PerformanceObserver(l => { o.disconnect(); done(all(l.getEntries())); });
    o.observe({ type: 'longtask', buffered: true });
    setTimeout(() => { o.disconnect(); done(all(o.takeRecords())); }, 200);";

/// `MONEYDESK_BENCH_SCOPES=1`: cold loads also find the scopes the last check of the token
/// found (`moneydesk.scopes`, src/session.rs), as the browser of a user who signed in with
/// "remember on this device" holds them; by default only the credentials are written (the
/// figures issue 10 tracks), and the portal waits for `auth/me` before building the page.
fn remember_scopes() -> bool {
    std::env::var("MONEYDESK_BENCH_SCOPES").is_ok_and(|v| v == "1")
}

/// `MONEYDESK_BENCH_SETTLE_MS=N`: a cold load waits N ms after its browser started (and the
/// same-origin file was opened) before it opens the page, so that the page is not measured
/// against the browser's own start-up work (its profile, its GPU and network processes) on a
/// two-CPU machine: the case of a user whose browser is already running, with an empty cache
/// for the portal (issue 10's "a fresh browser context per run"). 0, the default, measures a
/// browser that has only just started.
fn settle() -> Duration {
    Duration::from_millis(std::env::var("MONEYDESK_BENCH_SETTLE_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// What is loaded: Moneydesk's page (signed in) or the peer's list.
#[derive(Clone, Copy)]
enum App<'a> {
    Moneydesk { origin: &'a str, path: &'a str, ready: &'a str, token: &'a str },
    Peer { origin: &'a str },
}

impl App<'_> {
    fn url(&self) -> String {
        match self {
            App::Moneydesk { origin, path, .. } => format!("{origin}{path}"),
            App::Peer { origin } => format!("{origin}{}", peer::PATH),
        }
    }

    fn ready(&self) -> &str {
        match self {
            App::Moneydesk { ready, .. } => ready,
            App::Peer { .. } => peer::ROW,
        }
    }
}

/// A cold load of the app's page in `b`: first a tiny same-origin file (for Moneydesk, to
/// write the credentials the portal keeps; for the peer, alike, so both pages load from an
/// origin already connected to), then the page; the time to its content and its waterfall.
async fn load(b: &Browser, app: App<'_>) -> (Seen, Value) {
    match app {
        App::Moneydesk { origin, token, .. } => {
            b.open(&format!("{origin}/environments.json")).await;
            let credentials = json!({"environment": "local", "baseUrl": "", "token": token}).to_string();
            b.js("localStorage.setItem('moneydesk.credentials', arguments[0])", vec![json!(credentials)]).await;
            if remember_scopes() {
                b.js("localStorage.setItem('moneydesk.scopes', 'admin')", vec![]).await;
            }
        }
        App::Peer { origin } => b.open(&format!("{origin}/ping")).await,
    }
    tokio::time::sleep(settle()).await;
    b.on_new_document(&WATCH.replace("SELECTOR", &json!(app.ready()).to_string())).await;
    b.open(&app.url()).await;
    let at = content_at(b).await;
    let mut waterfall = b.js(WATERFALL, vec![]).await;
    if let (Value::Array(list), Value::Array(tasks)) = (&mut waterfall, b.js_async(LONG_TASKS, vec![]).await) {
        for t in tasks {
            list.push(json!(["(long task)", t[0], 0, t[1], 0]));
        }
        list.push(json!(["(first content in the DOM)", at.dom.round(), 0, 0, 0]));
        list.push(json!(["(first content painted: the measured time)", at.painted.round(), 0, 0, 0]));
    }
    (at, waterfall)
}

/// The same page again in the same browser (its cache warm), through about:blank: the
/// peer's URL differs from the open one only after `#`, which would not load the page again.
async fn reload(b: &Browser, app: App<'_>) -> Seen {
    b.open("about:blank").await;
    b.open(&app.url()).await;
    content_at(b).await
}

/// When a load's first content was in the DOM and when it was painted (ms from navigation start).
#[derive(Clone, Copy)]
struct Seen {
    dom: f64,
    painted: f64,
}

async fn content_at(b: &Browser) -> Seen {
    let at = b.js_async(CONTENT_AT, vec![]).await;
    let ms = |i: usize| at[i].as_f64().unwrap_or(f64::NAN);
    Seen { dom: ms(0), painted: ms(1) }
}

/// One figure of an app's loads (the first content painted, or in the DOM), mode by mode.
struct Modes {
    cold: Vec<f64>,
    warm: Vec<f64>,
    slow: Vec<f64>,
}

#[derive(Default)]
struct Times {
    cold: Vec<Seen>,
    warm: Vec<Seen>,
    slow: Vec<Seen>,
    waterfall: Value,
    slow_waterfall: Value,
}

impl Times {
    /// The measured time: the first content painted.
    fn painted(&self) -> Modes {
        self.figure(|s| s.painted)
    }

    /// The first content in the DOM (before its layout and paint).
    fn dom(&self) -> Modes {
        self.figure(|s| s.dom)
    }

    fn figure(&self, of: fn(&Seen) -> f64) -> Modes {
        let all = |xs: &[Seen]| xs.iter().map(of).collect();
        Modes { cold: all(&self.cold), warm: all(&self.warm), slow: all(&self.slow) }
    }
}

/// `runs` cold loads (each followed by a warm one), then `runs` slow ones, of every app, the
/// apps taking turns within each run (the first one alternating), each load in a fresh browser.
async fn measure(apps: &[App<'_>], runs: usize, dir: &std::path::Path) -> Vec<Times> {
    let mut times: Vec<Times> = apps.iter().map(|_| Times::default()).collect();
    // A new profile directory for every browser of the whole run: Chromium keeps its HTTP
    // cache there, so a directory used again (as `cold-<run>` once was, for every page) hands
    // the next page the previous page's main module and shared chunks, warm.
    static BROWSERS: AtomicUsize = AtomicUsize::new(0);
    let browser = || dir.join(format!("b-{}", BROWSERS.fetch_add(1, Ordering::Relaxed)));
    for run in 0..runs {
        for k in 0..apps.len() {
            let i = (run + k) % apps.len();
            let b = Browser::start_with_flags(&browser(), "first-screen".into(), &flags()).await;
            let (at, waterfall) = load(&b, apps[i]).await;
            times[i].cold.push(at);
            times[i].waterfall = waterfall;
            times[i].warm.push(reload(&b, apps[i]).await);
            b.close().await;
        }
    }
    for run in 0..runs {
        for k in 0..apps.len() {
            let i = (run + k) % apps.len();
            let b = Browser::start_with_flags(&browser(), "first-screen".into(), &flags()).await;
            b.emulate_network(150, 200_000, 93_750).await;
            let (at, waterfall) = load(&b, apps[i]).await;
            times[i].slow.push(at);
            times[i].slow_waterfall = waterfall;
            b.close().await;
        }
    }
    times
}

/// `MONEYDESK_BENCH_H2=1`: this build also over TLS, HTTP/2 (`tls`: the HTTP/1.1 loads over
/// TLS too, so that only the protocol differs).
fn over_http2() -> bool {
    std::env::var("MONEYDESK_BENCH_H2").is_ok_and(|v| v == "1" || v == "tls")
}

/// `MONEYDESK_BENCH_H2=tls`.
fn http1_over_tls() -> bool {
    std::env::var("MONEYDESK_BENCH_H2").is_ok_and(|v| v == "tls")
}

/// Chromium's flags for every load: with `MONEYDESK_BENCH_H2`, the test CA's certificate is
/// accepted (on every browser, so the HTTP/1.1 loads are started the same way).
fn flags() -> Vec<String> {
    if over_http2() {
        vec!["--ignore-certificate-errors".into()]
    } else {
        Vec::new()
    }
}

fn median(xs: &[f64]) -> f64 {
    let mut xs = xs.to_vec();
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if xs.is_empty() {
        f64::NAN
    } else {
        xs[xs.len() / 2]
    }
}

fn row(label: &str, t: &Modes) {
    println!("{:<24} {:>8.0} {:>8.0} {:>8.0}", label, median(&t.cold), median(&t.warm), median(&t.slow));
}

fn print_waterfall(title: &str, waterfall: &Value) {
    let Some(list) = waterfall.as_array() else { return };
    println!("    {title}: start..first byte..end (ms from navigation start), bytes transferred");
    for e in list {
        println!("    {:>5}..{:>5}..{:<5} {:>8} B  {}", e[1], e[2], e[3], e[4], e[0].as_str().unwrap_or_default());
    }
}

/// The other app's row, then this build's medians over its, mode by mode.
fn compared(label: &str, ratio_label: &str, m: &Modes, other: &Modes) {
    row(label, other);
    let ratio = |a: &[f64], b: &[f64]| median(a) / median(b);
    println!(
        "{:<24} {:>8.2} {:>8.2} {:>8.2}",
        ratio_label,
        ratio(&m.cold, &other.cold),
        ratio(&m.warm, &other.warm),
        ratio(&m.slow, &other.slow)
    );
}

fn samples(label: &str, xs: &[f64]) {
    let list: Vec<String> = xs.iter().map(|x| format!("{x:.0}")).collect();
    println!("    {label:<22} {}", list.join(" "));
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::var("MONEYDESK_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(10);
    let only: Option<Vec<String>> =
        std::env::var("MONEYDESK_BENCH_PAGES").ok().map(|v| v.split(',').map(|p| p.trim().to_string()).collect());
    let certs = tempfile::tempdir().unwrap();
    let tls = over_http2().then(|| {
        moneydesk_e2e::certificates::certificates(certs.path());
        moneydesk_e2e::certificates::tls_files(certs.path())
    });
    let h = Harness::start_with(|c| {
        c.seed_demo = true;
        if http1_over_tls() {
            c.transport.tls = tls.clone();
            c.transport.http2 = false;
        }
    })
    .await;
    let token = h.token(&[Scope::Admin]).await;
    let origin = h.base_url();
    let peer = match peer::dist() {
        Some(dist) => Some(peer::Peer::serve(dist, peer::accounts(&h, &origin, &token).await).await),
        None => None,
    };
    // Another build of the portal, measured in the same run (MONEYDESK_BENCH_BEFORE=<dist>):
    // on this noisy machine only builds measured interleaved can be told apart by 10–20 ms.
    // Or this build over TLS and HTTP/2 (MONEYDESK_BENCH_H2), in the same place.
    let before = match (std::env::var_os("MONEYDESK_BENCH_BEFORE"), tls) {
        (Some(_), Some(_)) => {
            panic!("MONEYDESK_BENCH_BEFORE and MONEYDESK_BENCH_H2 each take the second server: set one")
        }
        (None, None) => None,
        (dist, tls) => {
            let hb = Harness::start_with(|c| {
                c.seed_demo = true;
                if let Some(dist) = dist {
                    c.dist_dir = Some(dist.into());
                }
                c.transport.tls = tls;
            })
            .await;
            let token = hb.token(&[Scope::Admin]).await;
            Some((hb, token))
        }
    };
    let (before_label, before_ratio) = if over_http2() {
        ("  over TLS, HTTP/2", "  HTTP/1.1 / HTTP/2")
    } else {
        ("  before (another build)", "  this build / before")
    };
    let before_origin = before.as_ref().map(|(hb, _)| hb.base_url()).unwrap_or_default();
    let dir = tempfile::tempdir().unwrap();
    println!(
        "bench-first-screen: {runs} loads per page and mode; median ms from navigation start to the first content painted"
    );
    if remember_scopes() {
        println!("bench-first-screen: cold loads find the token's scopes remembered (MONEYDESK_BENCH_SCOPES=1)");
    }
    println!("{:<24} {:>8} {:>8} {:>8}", "page", "cold", "warm", "slow");
    for (path, ready) in PAGES {
        if only.as_ref().is_some_and(|o| !o.iter().any(|p| p == path)) {
            continue;
        }
        let moneydesk = App::Moneydesk { origin: &origin, path, ready, token: &token };
        let mut apps = vec![moneydesk];
        let before_at = before.as_ref().map(|(_, token)| {
            apps.push(App::Moneydesk { origin: &before_origin, path, ready, token });
            apps.len() - 1
        });
        let peer_at = match (&peer, *path) {
            (Some(p), "/accounts") => {
                apps.push(App::Peer { origin: &p.origin });
                Some(apps.len() - 1)
            }
            _ => None,
        };
        let times = measure(&apps, runs, dir.path()).await;
        let m = &times[0];
        row(path, &m.painted());
        row("  in the DOM", &m.dom());
        if let Some(b) = before_at.map(|i| &times[i]) {
            compared(before_label, before_ratio, &m.painted(), &b.painted());
            compared("    in the DOM", before_ratio, &m.dom(), &b.dom());
            if let (true, Some(p)) = (over_http2(), peer_at.map(|i| &times[i])) {
                compared("  react-admin peer", "  HTTP/2 / peer", &b.painted(), &p.painted());
            }
            let (b, name) = (b.painted(), if over_http2() { "HTTP/2" } else { "before" });
            samples(&format!("{name} cold"), &b.cold);
            samples(&format!("{name} warm"), &b.warm);
            samples(&format!("{name} slow"), &b.slow);
        }
        if let Some(p) = peer_at.map(|i| &times[i]) {
            compared("  react-admin peer", "  Moneydesk / peer", &m.painted(), &p.painted());
            compared("    in the DOM", "    Moneydesk / peer", &m.dom(), &p.dom());
            for (label, t) in [("Moneydesk", m.painted()), ("peer", p.painted())] {
                samples(&format!("{label} cold"), &t.cold);
                samples(&format!("{label} warm"), &t.warm);
                samples(&format!("{label} slow"), &t.slow);
            }
        }
        print_waterfall("the last cold load", &times[0].waterfall);
        if let (true, Some(b)) = (over_http2(), before_at.map(|i| &times[i])) {
            print_waterfall("the last slow load", &times[0].slow_waterfall);
            print_waterfall("the last slow load over HTTP/2", &b.slow_waterfall);
        }
        if let Some(p) = peer_at.map(|i| &times[i]) {
            print_waterfall("the last slow load", &times[0].slow_waterfall);
            print_waterfall("the peer's last cold load", &p.waterfall);
            print_waterfall("the peer's last slow load", &p.slow_waterfall);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ua = h.js("return navigator.userAgent", vec![]).await;
    println!("bench-first-screen: browser {}", ua.as_str().unwrap_or_default());
    drop(peer);
    if let Some((hb, _)) = before {
        hb.finish().await;
    }
    h.finish().await;
}
