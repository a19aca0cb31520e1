//! Building the app (API + portal + the layers around both) and running it.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderName, HeaderValue, Method, Request};
use axum::{middleware, Router};
use moneydesk_model::Scope;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower::ServiceBuilder;
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::storage::Db;
use crate::{http, seed, static_files, AppState, Config};

const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole app for `state`: `/api` plus the portal, with CORS, request ids, logs,
/// compression and the security headers every answer carries.
pub fn app(state: AppState) -> anyhow::Result<Router> {
    let api = http::api(&state)?;
    let router = api.fallback(static_files::serve).with_state(state.clone());

    let origins: Vec<HeaderValue> = state
        .config
        .cors_origins
        .iter()
        .map(|o| HeaderValue::from_str(o))
        .collect::<Result<_, _>>()
        .context("CORS origin")?;
    // No credentials: the token travels in the Authorization header, never in a cookie.
    // Without configured origins there is no CORS layer at all (nor its Vary and
    // Access-Control-* headers on every answer): browsers then refuse cross-origin calls.
    let cors = (!origins.is_empty()).then(|| {
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins))
            .allow_methods([Method::GET, Method::HEAD, Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT, X_REQUEST_ID])
            .expose_headers([X_REQUEST_ID, header::CONTENT_DISPOSITION, header::WWW_AUTHENTICATE, header::LOCATION])
            .max_age(Duration::from_secs(600))
    });

    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &Request<_>| {
            let id = req.headers().get(X_REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
            // The path only: query strings may carry personal data; headers (the token) never logged.
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id = %id)
        })
        .on_response(DefaultOnResponse::new().level(Level::INFO));

    // Around the whole router, outermost first. (Not `Router::layer`, which wraps every route
    // in each layer's own boxed service, all of them cloned for every request.)
    let layered = ServiceBuilder::new()
        .layer(SetRequestIdLayer::new(X_REQUEST_ID, RandomRequestId))
        .layer(trace)
        .layer(PropagateRequestIdLayer::new(X_REQUEST_ID))
        .layer(tower::util::option_layer(cors))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        // `/api` answers: errors in the path's body shape (the portal's files pass through).
        .layer(middleware::from_fn(http::finish::finish))
        // The body limit is ours (`MONEYDESK_BODY_LIMIT`), not axum's 2 MB default.
        .layer(RequestBodyLimitLayer::new(state.config.body_limit))
        .layer(DefaultBodyLimit::disable())
        .service(router);
    Ok(Router::new().fallback_service(layered))
}

/// Request ids: 16 random hex digits, unless the client sent a usable one.
#[derive(Clone, Copy)]
struct RandomRequestId;

impl MakeRequestId for RandomRequestId {
    fn make_request_id<B>(&mut self, _req: &Request<B>) -> Option<RequestId> {
        let n: u64 = rand::random();
        HeaderValue::from_str(&format!("{n:016x}")).ok().map(RequestId::new)
    }
}

/// A started server.
pub struct Running {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Creates a token (for tests and the e2e harness); returns its text.
    pub async fn create_token(&self, name: &str, scopes: &[Scope]) -> anyhow::Result<String> {
        Ok(self.state.db.create_token(name, scopes, None).await?.token)
    }

    /// Stops accepting connections, lets running requests finish, and waits.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        match (&mut self.task).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(error = %e, "server stopped with an error"),
            Err(e) => tracing::error!(error = %e, "server task failed"),
        }
    }
}

/// Opens and migrates the database, seeds demo data when asked (first start only), binds,
/// and serves in the background.
pub async fn start(config: Config) -> anyhow::Result<Running> {
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let db = Db::open(&config.database_url).await?;
    let listener = TcpListener::bind(config.addr).await.with_context(|| format!("listening on {}", config.addr))?;
    let addr = listener.local_addr()?;
    let seed_demo = config.seed_demo;
    let state = AppState::new(config, db).await?;
    let app = app(state.clone())?;
    if seed_demo {
        seed::seed_demo(&state, addr).await?;
    }

    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = rx.await;
            })
            .await
    });
    tracing::info!(%addr, "moneydesk server listening");
    Ok(Running { addr, state, shutdown: Some(tx), task })
}
