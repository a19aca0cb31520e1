//! Serving connections: what `axum::serve` does (accept, hand each connection to hyper, stop
//! gracefully), through hyper's HTTP/1.1 builder directly, for the setting `axum::serve` does
//! not offer: an answer's head and body go out in one `write` (API answers are small; hyper's
//! default is a `writev` of both). Also `TCP_NODELAY`. HTTP/1.1 only, as before (axum's
//! `http2` feature was never enabled); no protocol upgrades (nothing here uses them).
//!
//! A slow or half-open client cannot hold a file descriptor for long: each connection is
//! watched ([`idle`]) for a request head that does not complete within the header-read timeout
//! and for keep-alive idleness beyond the idle timeout, and at most `max_connections` are open
//! at once (beyond it the listener stops accepting; new clients wait in the kernel's queue).

use std::cell::RefCell;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use futures_util::future::Either;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::util::Oneshot;
use tower::{Service, ServiceExt};

mod idle;

/// How long a client may take and how many connections may be open (see the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A request head must be complete this long after its first byte (for a new connection:
    /// after the connection opened).
    pub header_read_timeout: Duration,
    /// A keep-alive connection with no request in flight is closed after this long.
    pub keep_alive_timeout: Duration,
    /// Connections open at once; beyond it, new ones wait until one closes.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_read_timeout: Duration::from_secs(10),
            keep_alive_timeout: Duration::from_secs(60),
            max_connections: 1024,
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, lets every
/// connection finish the request it is answering, and returns once all are closed.
pub async fn serve<S>(
    listener: TcpListener,
    app: S,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send,
{
    let connections = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut at_cap_logged: Option<Instant> = None;
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A slot first: at the cap nothing is accepted, so waiting clients cost the kernel's
        // queue, not a file descriptor of ours.
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                if at_cap_logged.is_none_or(|at| at.elapsed() >= Duration::from_secs(60)) {
                    tracing::warn!(
                        max_connections = limits.max_connections,
                        "connection limit reached: {} connections are open (MONEYDESK_MAX_CONNECTIONS); \
                         new connections wait until one closes",
                        limits.max_connections
                    );
                    at_cap_logged = Some(Instant::now());
                }
                tokio::select! {
                    slot = slots.clone().acquire_owned() => slot.expect("the semaphore is never closed"),
                    () = &mut shutdown => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    pause_after(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%peer, error = %e, "could not set TCP_NODELAY");
        }
        let watch = idle::Watch::new();
        let service = Direct::new(idle::track(watch.clone(), app.clone()), peer);
        // hyper's own header_read_timeout stays off: `idle::Watched` times heads and idleness
        // without a timer reset per request.
        let connection = http1::Builder::new()
            .writev(false)
            .header_read_timeout(None)
            .serve_connection(TokioIo::new(idle::Io::new(stream, watch.clone())), service);
        let connection = idle::Watched::new(connections.watch(connection), watch, limits);
        tokio::spawn(async move {
            match connection.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::debug!(%peer, error = %e, "connection closed with an error"),
                Err(why) => tracing::debug!(%peer, "connection closed: {why}"),
            }
            drop(slot);
        });
    }
    drop(listener);
    connections.shutdown().await;
    Ok(())
}

/// After a failed accept: a connection that died in the queue is nobody's problem; anything
/// else (out of file descriptors, most often) is logged and retried a second later, as
/// `axum::serve` does, rather than spinning or giving up.
async fn pause_after(e: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(e.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        return;
    }
    tracing::error!(error = %e, "accepting a connection failed; retrying in 1 s");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// The app as hyper calls it on one connection: each request goes straight to this
/// connection's own copy of the app. hyper calls a service through `&self`, so hyper-util's
/// `TowerToHyperService` cloned the whole app for every request (and dropped the clone after
/// it), touching the router's reference count that every worker thread shares, and wrapped
/// the answer in one more future; under wrk on the quote (perf on the server process) that
/// glue was ~0.5 % of the server's CPU. Small, but on every request of every endpoint. An
/// HTTP/1.1 connection answers one request at a time, so the `RefCell` is never borrowed twice;
/// the borrow ends when `call` returns, before the answer's future runs.
/// It also gives each request the peer's address (`ConnectInfo`), which the audit trail
/// records.
struct Direct<S>(RefCell<S>, SocketAddr);

impl<S> Direct<S> {
    fn new(app: S, peer: SocketAddr) -> Self {
        Direct(RefCell::new(app), peer)
    }
}

impl<S> hyper::service::Service<Request<Incoming>> for Direct<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<S::Future, Oneshot<S, Request>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let mut req = req.map(Body::new);
        req.extensions_mut().insert(axum::extract::ConnectInfo(self.1));
        let mut app = self.0.borrow_mut();
        // The app is always ready (no layer of it applies backpressure); should that change, a
        // copy is readied as `TowerToHyperService` would.
        match app.poll_ready(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(())) => Either::Left(app.call(req)),
            Poll::Pending => Either::Right(app.clone().oneshot(req)),
        }
    }
}
