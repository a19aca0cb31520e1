//! Serving connections: what `axum::serve` does (accept, hand each connection to hyper, stop
//! gracefully), through hyper's HTTP/1.1 builder directly, for the setting `axum::serve` does
//! not offer: an answer's head and body go out in one `write` (API answers are small; hyper's
//! default is a `writev` of both). Also `TCP_NODELAY`. HTTP/1.1 only, as before (axum's
//! `http2` feature was never enabled); no protocol upgrades (nothing here uses them).

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::{Service, ServiceExt};

/// Serves `app` on `listener` until `shutdown` completes; then stops accepting, lets every
/// connection finish the request it is answering, and returns once all are closed.
pub async fn serve<S>(listener: TcpListener, app: S, shutdown: impl Future<Output = ()>) -> io::Result<()>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send,
{
    let connections = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
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
        let service = app.clone().map_request(|req: Request<Incoming>| req.map(Body::new));
        // No header read timeout (it needs hyper's timer on every request), as with axum::serve.
        let connection = http1::Builder::new()
            .writev(false)
            .header_read_timeout(None)
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = connections.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, error = %e, "connection closed with an error");
            }
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
