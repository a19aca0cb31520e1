//! Per-connection watch: a request head that does not complete in time, or a keep-alive
//! connection idle too long, closes the connection. (HTTP/2 has no heads between requests to
//! time — its frames flow both ways while idle — so there only idleness counts.) The socket
//! wrapper ([`Io`]) notes when a head's first bytes arrive and when answer bytes leave; the
//! service wrapper ([`track`]) notes requests in flight; [`Watched`] turns that into one deadline and drops the
//! connection when it passes. Everything happens inside the connection's own task (hyper polls
//! the service's future there too), so the deadline is recomputed after every poll; its timer
//! is only moved earlier at once, and later when it fires (no timer reset per request).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::http::{Request, Version};
use pin_project_lite::pin_project;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;
use tower::Service;

use super::Limits;

/// What one connection is doing; times are nanoseconds since `opened`.
#[derive(Debug)]
pub struct Watch {
    opened: Instant,
    in_flight: AtomicU32,
    /// A request was received on this connection (later heads may wait for the idle timeout).
    served: AtomicBool,
    /// The connection speaks HTTP/2: bytes read between requests are not a request head
    /// begun (a client's WINDOW_UPDATE, PING or SETTINGS ack after an answer would otherwise
    /// cut its keep-alive to the header read timeout), and an idle one waits for the
    /// keep-alive timeout.
    http2: AtomicBool,
    /// When the first bytes of the next head arrived (+1; 0 = none yet).
    head_started: AtomicU64,
    /// The last answer bytes written or request finished: idle since then.
    last_active: AtomicU64,
}

impl Watch {
    pub fn new() -> Arc<Watch> {
        Arc::new(Watch {
            opened: Instant::now(),
            in_flight: AtomicU32::new(0),
            served: AtomicBool::new(false),
            http2: AtomicBool::new(false),
            head_started: AtomicU64::new(0),
            last_active: AtomicU64::new(0),
        })
    }

    fn now(&self) -> u64 {
        self.opened.elapsed().as_nanos() as u64
    }

    /// When the connection must be closed and why; `None` while a request is in flight.
    fn deadline(&self, limits: &Limits) -> Option<(Instant, &'static str)> {
        if self.in_flight.load(Relaxed) > 0 {
            return None;
        }
        let at = |nanos: u64, d: Duration| self.opened + Duration::from_nanos(nanos) + d;
        if !self.served.load(Relaxed) {
            return Some((
                at(0, limits.header_read_timeout),
                "no complete request head within the header read timeout",
            ));
        }
        match self.head_started.load(Relaxed) {
            0 => Some((
                at(self.last_active.load(Relaxed), limits.keep_alive_timeout),
                "idle beyond the keep-alive timeout",
            )),
            started => Some((
                at(started - 1, limits.header_read_timeout),
                "request head not complete within the header read timeout",
            )),
        }
    }
}

pin_project! {
    /// The socket, noting the first bytes of a head and every write.
    pub struct Io<T> {
        #[pin]
        inner: T,
        watch: Arc<Watch>,
    }
}

impl<T> Io<T> {
    pub fn new(inner: T, watch: Arc<Watch>) -> Self {
        Io { inner, watch }
    }
}

impl<T: AsyncRead> AsyncRead for Io<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let before = buf.filled().len();
        let result = this.inner.poll_read(cx, buf);
        let w = this.watch;
        if buf.filled().len() > before
            && w.in_flight.load(Relaxed) == 0
            && w.head_started.load(Relaxed) == 0
            && !w.http2.load(Relaxed)
        {
            w.head_started.store(w.now() + 1, Relaxed);
        }
        result
    }
}

impl<T: AsyncWrite> AsyncWrite for Io<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.project();
        let result = this.inner.poll_write(cx, buf);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            this.watch.last_active.store(this.watch.now(), Relaxed);
        }
        result
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.project();
        let result = this.inner.poll_write_vectored(cx, bufs);
        if matches!(result, Poll::Ready(Ok(n)) if n > 0) {
            this.watch.last_active.store(this.watch.now(), Relaxed);
        }
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.project().inner.poll_shutdown(cx)
    }
}

/// The service, noting each request from its head until its answer is ready.
pub fn track<S>(watch: Arc<Watch>, service: S) -> Tracked<S> {
    Tracked { watch, service }
}

#[derive(Clone)]
pub struct Tracked<S> {
    watch: Arc<Watch>,
    service: S,
}

impl<S: Service<Request<B>>, B> Service<Request<B>> for Tracked<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = InFlight<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.service.poll_ready(cx)
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let w = &self.watch;
        w.in_flight.fetch_add(1, Relaxed);
        if req.version() == Version::HTTP_2 {
            w.http2.store(true, Relaxed);
        }
        w.served.store(true, Relaxed);
        w.head_started.store(0, Relaxed);
        InFlight { inner: self.service.call(req), guard: Done(self.watch.clone()) }
    }
}

pin_project! {
    pub struct InFlight<F> {
        #[pin]
        inner: F,
        guard: Done,
    }
}

impl<F: Future> Future for InFlight<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.project().inner.poll(cx)
    }
}

/// Ends a request in flight when its future is dropped (answered or abandoned).
struct Done(Arc<Watch>);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.last_active.store(self.0.now(), Relaxed);
        self.0.in_flight.fetch_sub(1, Relaxed);
    }
}

pin_project! {
    /// The connection, dropped (closing its socket) when its deadline passes.
    pub struct Watched<F> {
        #[pin]
        connection: F,
        watch: Arc<Watch>,
        limits: Limits,
        timer: Option<Pin<Box<Sleep>>>,
    }
}

impl<F> Watched<F> {
    pub fn new(connection: F, watch: Arc<Watch>, limits: Limits) -> Self {
        Watched { connection, watch, limits, timer: None }
    }
}

impl<F: Future> Future for Watched<F> {
    /// The connection's own result, or why it was closed.
    type Output = Result<F::Output, &'static str>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        if let Poll::Ready(out) = this.connection.poll(cx) {
            return Poll::Ready(Ok(out));
        }
        loop {
            let Some((deadline, why)) = this.watch.deadline(this.limits) else { return Poll::Pending };
            let deadline = tokio::time::Instant::from_std(deadline);
            match this.timer {
                None => *this.timer = Some(Box::pin(tokio::time::sleep_until(deadline))),
                Some(timer) if deadline < timer.deadline() => timer.as_mut().reset(deadline),
                Some(_) => {}
            }
            let timer = this.timer.as_mut().expect("set above");
            if timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            if tokio::time::Instant::now() >= deadline {
                return Poll::Ready(Err(why));
            }
            // Fired for an earlier deadline that has since moved later.
            timer.as_mut().reset(deadline);
        }
    }
}
