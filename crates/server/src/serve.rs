//! Serving connections: what `axum::serve` does (accept, hand each connection to hyper, stop
//! gracefully), through hyper's builders directly, for the settings `axum::serve` does not
//! offer: an HTTP/1.1 answer's head and body go out in one `write` (API answers are small;
//! hyper's default is a `writev` of both); `TCP_NODELAY`; HTTP/2 beside HTTP/1.1 — on plain
//! connections when the client opens with HTTP/2's preface (h2c with prior knowledge, as a
//! proxy in front speaks it), on TLS by ALPN — and TLS terminated here when the server is given
//! a certificate ([`tls`]). No protocol upgrades (nothing here uses them).
//!
//! Why HTTP/2: a cold page load asks for ~15 files and two API answers at once; over HTTP/1.1
//! a browser opens at most six connections to a host and queues the rest behind them, a
//! round trip each on a slow link. One HTTP/2 connection carries them all at once.
//!
//! A slow or half-open client cannot hold a file descriptor for long: each connection is
//! watched ([`idle`]) for a TLS handshake or request head that does not complete within the
//! header-read timeout and for keep-alive idleness beyond the idle timeout, and at most
//! `max_connections` are open at once (beyond it the listener stops accepting; new clients
//! wait in the kernel's queue).

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
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;
use tower::util::Oneshot;
use tower::{Service, ServiceExt};

mod idle;
pub mod tls;

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

/// How connections are served: their limits, TLS, HTTP/2 (`Config::limits`, `Config::transport`).
#[derive(Clone)]
pub struct Options {
    pub limits: Limits,
    /// Set: every connection is TLS (handshake within the header read timeout).
    pub tls: Option<TlsAcceptor>,
    /// HTTP/2 as well as HTTP/1.1 (h2c by prior knowledge on plain connections, ALPN on TLS).
    pub http2: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { limits: Limits::default(), tls: None, http2: true }
    }
}

impl Options {
    /// The options `config` asks for: its limits, and its TLS files read (an error names the
    /// file that could not be used).
    pub fn from_config(config: &crate::Config) -> anyhow::Result<Options> {
        let transport = &config.transport;
        let tls = transport.tls.as_ref().map(|files| tls::acceptor(files, transport.http2)).transpose()?;
        Ok(Options { limits: config.limits, tls, http2: transport.http2 })
    }

    /// hyper's builder: HTTP/1.1 with one write per answer and no timer of its own (`idle`
    /// times heads and idleness without a timer reset per request), HTTP/2 unless it is off.
    fn builder(&self) -> auto::Builder<TokioExecutor> {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder.http1().writev(false).header_read_timeout(None);
        if self.http2 {
            builder
        } else {
            builder.http1_only()
        }
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, lets every
/// connection finish the requests it is answering, and returns once all are closed.
pub async fn serve<S>(
    listener: TcpListener,
    app: S,
    options: Options,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let limits = options.limits;
    let builder = Arc::new(options.builder());
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
        let app = app.clone();
        let (builder, tls, watcher) = (builder.clone(), options.tls.clone(), connections.watcher());
        tokio::spawn(async move {
            let served = match tls {
                None => connection(&builder, stream, app, peer, limits, watcher).await,
                Some(tls) => match tokio::time::timeout(limits.header_read_timeout, tls.accept(stream)).await {
                    Ok(Ok(stream)) => connection(&builder, stream, app, peer, limits, watcher).await,
                    Ok(Err(e)) => Err(format!("TLS handshake failed: {e}")),
                    Err(_) => Err("no TLS handshake within the header read timeout".into()),
                },
            };
            if let Err(why) = served {
                tracing::debug!(%peer, "connection closed: {why}");
            }
            drop(slot);
        });
    }
    drop(listener);
    connections.shutdown().await;
    Ok(())
}

/// One connection, plain or TLS, HTTP/1.1 or HTTP/2, until it closes, its deadline passes
/// or the server stops.
async fn connection<I, S>(
    builder: &auto::Builder<TokioExecutor>,
    io: I,
    app: S,
    peer: SocketAddr,
    limits: Limits,
    watcher: Watcher,
) -> Result<(), String>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    let watch = idle::Watch::new();
    let service = Direct::new(idle::track(watch.clone(), app), peer);
    let connection = builder.serve_connection(TokioIo::new(idle::Io::new(io, watch.clone())), service);
    match idle::Watched::new(watcher.watch(connection), watch, limits).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("error: {e}")),
        Err(why) => Err(why.into()),
    }
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
/// connection's own copy of the app (HTTP/2 too: hyper calls the service from the
/// connection's task, one request at a time, and runs the answers' futures apart). hyper calls a service through `&self`, so hyper-util's
/// `TowerToHyperService` cloned the whole app for every request (and dropped the clone after
/// it), touching the router's reference count that every worker thread shares, and wrapped
/// the answer in one more future; under wrk on the quote (perf on the server process) that
/// glue was ~0.5 % of the server's CPU. Small, but on every request of every endpoint. hyper
/// calls `call` from one task, so the `RefCell` is never borrowed twice; the borrow ends when
/// `call` returns, before the answer's future runs.
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
