//! Prometheus metrics, on their own listen address (`MONEYDESK_METRICS_ADDR`, off by default;
//! `GET /metrics` there, no token: keep the address private). Off, nothing is recorded and the
//! request path pays one relaxed atomic load.
//!
//! - `moneydesk_http_requests_total{method,route,status}` and
//!   `moneydesk_http_request_duration_seconds{method,route}`: `route` is the API operation's
//!   path template (`/api/v1/…/{domain}`), `portal` for the portal's files and the health
//!   checks, `unmatched` for an `/api` path no operation has.
//! - `moneydesk_email_outbox{state}`, `moneydesk_inbound_messages{state}`: messages by state
//!   (the queue's depth), read every 15 s.
//! - `moneydesk_email_delivery_attempts_total{outcome}`, `moneydesk_inbound_delivery_attempts_total{outcome}`.
//! - `moneydesk_claims_taken_over_total{kind="outbox"|"inbound"|"job"}`: claims taken whose
//!   lease had run out, the holder having died (or stalled) before finishing: an outbox
//!   message or inbound delivery left mid-attempt, a scheduled job whose last run never ended.
//!   Anything but 0 means an instance stopped uncleanly.
//! - `moneydesk_db_connections{state="idle"|"in_use"}`: this instance's pool.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::extract::MatchedPath;
use axum::response::Response;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use pin_project_lite::pin_project;
use tokio::task::JoinHandle;

use crate::storage::Database;
use crate::AppState;

static ENABLED: AtomicBool = AtomicBool::new(false);
static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Whether metrics are recorded (a server with `MONEYDESK_METRICS_ADDR` started).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// The operation a response answered, put there by the guard for the frame to count.
#[derive(Clone, Debug)]
pub struct RouteLabel(pub MatchedPath);

pin_project! {
    /// A route's answer, tagged with the route when metrics are on.
    pub struct Tagged<F> {
        #[pin]
        inner: F,
        route: Option<MatchedPath>,
    }
}

impl<F> Tagged<F> {
    pub fn new(inner: F, route: Option<MatchedPath>) -> Tagged<F> {
        Tagged { inner, route }
    }
}

impl<F: Future<Output = Result<Response, Infallible>>> Future for Tagged<F> {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(mut resp) = ready!(this.inner.poll(cx));
        if let Some(route) = this.route.take() {
            resp.extensions_mut().insert(RouteLabel(route));
        }
        Poll::Ready(Ok(resp))
    }
}

/// Counts one answered request.
pub fn request(method: &axum::http::Method, route: &str, status: u16, took: Duration) {
    let (method, route) = (method.as_str().to_string(), route.to_string());
    metrics::counter!("moneydesk_http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status.to_string()).increment(1);
    metrics::histogram!("moneydesk_http_request_duration_seconds", "method" => method, "route" => route)
        .record(took.as_secs_f64());
}

/// Counts one delivery attempt of the outbox (`email`) or of inbound mail (`inbound`).
pub fn attempt(kind: &'static str, outcome: &'static str) {
    if enabled() {
        let name = if kind == "email" {
            "moneydesk_email_delivery_attempts_total"
        } else {
            "moneydesk_inbound_delivery_attempts_total"
        };
        metrics::counter!(name, "outcome" => outcome).increment(1);
    }
}

/// Counts `n` claims of `kind` (`outbox`, `inbound`, `job`) taken over from a holder whose
/// lease ran out.
pub fn taken_over(kind: &'static str, n: u64) {
    if enabled() && n > 0 {
        metrics::counter!("moneydesk_claims_taken_over_total", "kind" => kind).increment(n);
    }
}

/// The running metrics listener.
pub struct Exporter {
    pub addr: SocketAddr,
    tasks: Vec<JoinHandle<()>>,
}

impl Exporter {
    pub fn stop(self) {
        for t in self.tasks {
            t.abort();
        }
    }
}

/// Installs the recorder (once a process) and serves `/metrics` at `addr`.
pub async fn start(state: AppState, addr: SocketAddr) -> anyhow::Result<Exporter> {
    let handle = match HANDLE.get() {
        Some(h) => h.clone(),
        None => {
            let recorder = PrometheusBuilder::new()
                .set_buckets(&[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0])?
                .build_recorder();
            let handle = recorder.handle();
            // Another server of this process (tests) may have installed it first.
            let _ = metrics::set_global_recorder(recorder);
            HANDLE.get_or_init(|| handle).clone()
        }
    };
    ENABLED.store(true, Ordering::Relaxed);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("MONEYDESK_METRICS_ADDR: listening on {addr}: {e}"))?;
    let addr = listener.local_addr()?;
    let render = handle.clone();
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let h = render.clone();
            async move {
                h.run_upkeep();
                ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], h.render())
            }
        }),
    );
    let serve = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "metrics listener stopped");
        }
    });
    let gauges = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(15));
        loop {
            every.tick().await;
            if let Err(e) = read_gauges(&state).await {
                tracing::debug!(error = %e, "metrics: reading the queues");
            }
        }
    });
    tracing::info!(%addr, "metrics at /metrics");
    Ok(Exporter { addr, tasks: vec![serve, gauges] })
}

async fn read_gauges(state: &AppState) -> sqlx::Result<()> {
    let db = &state.stores.database;
    for (table, name) in
        [("email_messages", "moneydesk_email_outbox"), ("email_inbound_messages", "moneydesk_inbound_messages")]
    {
        let q = db.sql(&format!("SELECT state, count(*) AS n FROM {table} GROUP BY state"));
        let rows: Vec<(String, i64)> = db.acquire().await?.exec().rows(&q).await?;
        for (st, n) in rows {
            metrics::gauge!(name, "state" => st).set(n as f64);
        }
    }
    let (size, idle) = match db {
        Database::Sqlite(p) => (p.size(), p.num_idle() as u32),
        Database::Postgres(p) => (p.size(), p.num_idle() as u32),
    };
    metrics::gauge!("moneydesk_db_connections", "state" => "idle").set(f64::from(idle));
    metrics::gauge!("moneydesk_db_connections", "state" => "in_use").set(f64::from(size.saturating_sub(idle)));
    Ok(())
}
