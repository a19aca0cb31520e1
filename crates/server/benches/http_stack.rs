//! What the server's own stack costs per request, without sockets or hyper: the whole app
//! (frame, compression, body limit, routing, guard, handler) answering the ACH lookup,
//! against a bare axum router answering a constant — the in-process counterpart of the wrk
//! ratio in `scripts/bench-routing` (which also pays the kernel and hyper, equally for both).
//! Run: `cargo bench -p moneydesk-server --profile server --bench http_stack`.

use std::hint::black_box;
use std::path::PathBuf;

use axum::body::{to_bytes, Body};
use axum::http::{header, HeaderValue, Request, Uri};
use axum::routing::get;
use axum::Router;
use criterion::Criterion;
use moneydesk_model::{paths, Scope};
use moneydesk_server::state::Stores;
use moneydesk_server::{AppState, Config};
use tower::{Service, ServiceExt};

// The server binary's allocator, so the figures match what it pays.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

async fn answer<S>(svc: S, req: Request<Body>) -> usize
where
    S: Service<Request<Body>, Response = axum::response::Response, Error = std::convert::Infallible>,
{
    let Ok(resp) = svc.oneshot(req).await;
    assert!(resp.status().is_success(), "{}", resp.status());
    to_bytes(resp.into_body(), usize::MAX).await.expect("body").len()
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let tmp = tempfile::tempdir().expect("temp dir");
    let (app, token) = rt.block_on(async {
        let mut config = Config::for_tests(tmp.path());
        config.fedach_file = Some(data("FedACHdir.txt"));
        config.fedwire_file = Some(data("fpddir.txt"));
        config.routing_refresh = None;
        config.log = "warn".into();
        // Never refuse here: the limiter's check is measured, not its 429s.
        config.fees_rate = moneydesk_server::rate_limit::Quota { per_second: 1_000_000_000, burst: 1_000_000_000 };
        let stores = Stores::open(&config.database_url).await.expect("database");
        let state = AppState::new(config, stores).await.expect("state");
        let token = state
            .stores
            .tokens
            .create("bench", &[Scope::RoutingRead, Scope::FeesRead], None)
            .await
            .expect("token")
            .token;
        (moneydesk_server::app(state).expect("app"), token)
    });
    let bare =
        Router::new().route("/bare", get(|| async { ([("content-type", "application/json")], "{\"ok\":true}") }));
    let uri: Uri = format!("{}?routingNumber=011000138", paths::ROUTING_ACH_VALIDATE).parse().unwrap();
    let authorization = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
    let lookup =
        || Request::get(uri.clone()).header(header::AUTHORIZATION, authorization.clone()).body(Body::empty()).unwrap();
    let quote_uri: Uri = format!("{}?transferType=EFT&amount=5000.00&payeeId=p-1", paths::FEES_ACH).parse().unwrap();
    let quote = || {
        Request::get(quote_uri.clone())
            .header(header::AUTHORIZATION, authorization.clone())
            .body(Body::empty())
            .unwrap()
    };
    let me = || {
        Request::get(paths::AUTH_ME).header(header::AUTHORIZATION, authorization.clone()).body(Body::empty()).unwrap()
    };
    // The first lookup reads the token table and renders the record; later ones are the hot path.
    rt.block_on(answer(app.clone(), lookup()));
    rt.block_on(answer(app.clone(), quote()));

    // STACK_PROFILE=lookup|quote|me|bare n: only that request, n times (for `perf record`).
    if let Ok(what) = std::env::var("STACK_PROFILE") {
        let n: u32 = std::env::var("STACK_PROFILE_N").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
        let t = std::time::Instant::now();
        for _ in 0..n {
            match what.as_str() {
                "quote" => rt.block_on(answer(app.clone(), quote())),
                "lookup" => rt.block_on(answer(app.clone(), lookup())),
                "me" => rt.block_on(answer(app.clone(), me())),
                _ => rt.block_on(answer(bare.clone(), Request::get("/bare").body(Body::empty()).unwrap())),
            };
        }
        println!("{what}: {:.0} ns a request", t.elapsed().as_secs_f64() * 1e9 / n as f64);
        return;
    }

    // STACK_ROUNDS=n: n alternating rounds of both; the median round's ratio is the figure
    // least disturbed by a busy machine (for A/B comparisons).
    if let Some(rounds) = std::env::var("STACK_ROUNDS").ok().and_then(|n| n.parse::<u32>().ok()) {
        const PER_ROUND: u32 = 50_000;
        let time = |f: &mut dyn FnMut()| {
            let t = std::time::Instant::now();
            for _ in 0..PER_ROUND {
                f();
            }
            t.elapsed().as_secs_f64() * 1e9 / PER_ROUND as f64
        };
        // Each round: bare, then each app request; per request the ratio of its time to the
        // same round's bare time, and the median of those ratios over the rounds.
        let mut ratios: [Vec<(f64, f64, f64)>; 3] = Default::default();
        for _ in 0..rounds {
            let bare_ns = time(&mut || {
                rt.block_on(answer(bare.clone(), Request::get("/bare").body(Body::empty()).unwrap()));
            });
            let requests: [&dyn Fn() -> Request<Body>; 3] = [&me, &lookup, &quote];
            let app_ns = requests.map(|request| {
                time(&mut || {
                    rt.block_on(answer(app.clone(), request()));
                })
            });
            for (rows, app_ns) in ratios.iter_mut().zip(app_ns) {
                rows.push((app_ns / bare_ns, bare_ns, app_ns));
            }
        }
        println!("median of {rounds} rounds (bare router, then each app request, {PER_ROUND} requests each):");
        for (name, rows) in ["auth/me", "ACH lookup", "fee quote"].iter().zip(ratios.iter_mut()) {
            rows.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (ratio, bare_ns, app_ns) = rows[rows.len() / 2];
            println!(
                "  {name:<10} {app_ns:>6.0} ns = {ratio:.2} x bare router {bare_ns:.0} ns ({:+.0} ns)",
                app_ns - bare_ns
            );
        }
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("stack_bare_router_constant", |b| {
        b.iter(|| rt.block_on(answer(bare.clone(), Request::get("/bare").body(Body::empty()).unwrap())))
    });
    c.bench_function("stack_app_ach_lookup", |b| b.iter(|| black_box(rt.block_on(answer(app.clone(), lookup())))));
    c.final_summary();
}
