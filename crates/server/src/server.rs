//! Building the app (API + portal + the layers around both) and running it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::response::Response;
use moneydesk_model::Scope;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower::{Service, ServiceBuilder};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::http::compress::GzipLayer;
use crate::http::finish::{FrameLayer, X_REQUEST_ID};
use crate::state::Stores;
use crate::{http, seed, static_files, AppState, Config};

/// The whole app for `state`: `/api` plus the portal, with CORS, request ids, logs,
/// compression and the security headers every answer carries.
pub fn app(
    state: AppState,
) -> anyhow::Result<impl Service<Request, Response = Response, Error = Infallible, Future: Send> + Clone + Send + 'static>
{
    let api = http::api(&state)?;
    // Health outside /api, without a token: for load balancers (`http::health`).
    let router = api
        .route("/healthz", axum::routing::get(http::health::healthz))
        .route("/readyz", axum::routing::get(http::health::readyz))
        .fallback(static_files::serve)
        .with_state(state.clone());

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
            // Retry-After and RateLimit-*: an embedding page's portal says when to quote again.
            .expose_headers([
                X_REQUEST_ID,
                header::CONTENT_DISPOSITION,
                header::WWW_AUTHENTICATE,
                header::LOCATION,
                header::RETRY_AFTER,
                HeaderName::from_static("ratelimit-limit"),
                HeaderName::from_static("ratelimit-remaining"),
                HeaderName::from_static("ratelimit-reset"),
            ])
            .max_age(Duration::from_secs(600))
    });

    // Around the whole router, outermost first. (Not `Router::layer`, which wraps every route
    // in each layer's own boxed service, all of them cloned for every request.)
    Ok(ServiceBuilder::new()
        .layer(FrameLayer)
        .layer(tower::util::option_layer(cors))
        // Error answers stay uncompressed: they are small, and `FrameLayer` quotes their text.
        // (The body limit, `MONEYDESK_BODY_LIMIT`, is applied by the guard in `auth`: only
        // guarded handlers read bodies.)
        .layer(GzipLayer)
        .service(router))
}

/// A started server.
pub struct Running {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
    /// The email delivery worker, when this process runs one.
    email_worker: Option<crate::email::outbox::delivery::Worker>,
    /// The inbound webhook worker (with the delivery worker), and the SMTP listener when
    /// `MONEYDESK_INBOUND_SMTP` is set.
    inbound_worker: Option<crate::email::inbound::webhook::Worker>,
    inbound_smtp: Option<crate::email::inbound::smtp::Listener>,
    /// The webhook dispatcher and delivery worker (`MONEYDESK_WEBHOOK_WORKER`).
    webhooks: Option<crate::webhooks::delivery::Delivery>,
    metrics: Option<crate::metrics::Exporter>,
}

impl Running {
    pub fn base_url(&self) -> String {
        format!("{}://{}", self.state.config.transport.scheme(), self.addr)
    }

    /// Where `/metrics` is served, when it is.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics.as_ref().map(|m| m.addr)
    }

    /// Where the inbound SMTP listener listens, when there is one.
    pub fn inbound_smtp_addr(&self) -> Option<SocketAddr> {
        self.inbound_smtp.as_ref().map(|l| l.addr)
    }

    /// Creates a token (for tests and the e2e harness); returns its text.
    pub async fn create_token(&self, name: &str, scopes: &[Scope]) -> anyhow::Result<String> {
        Ok(self.state.stores.tokens.create(name, scopes, None).await?.token)
    }

    /// Creates a token of user `user_id` (whose vault it reaches); returns its text.
    pub async fn create_token_for(&self, name: &str, user_id: &str, scopes: &[Scope]) -> anyhow::Result<String> {
        Ok(self.state.stores.tokens.create_for(name, Some(user_id), scopes, None).await?.token)
    }

    /// Stops accepting connections, lets running requests finish, and waits.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(listener) = self.inbound_smtp.take() {
            listener.stop().await;
        }
        if let Some(m) = self.metrics.take() {
            m.stop();
        }
        if let Some(worker) = self.email_worker.take() {
            worker.stop().await;
        }
        if let Some(worker) = self.inbound_worker.take() {
            worker.stop().await;
        }
        if let Some(webhooks) = self.webhooks.take() {
            webhooks.stop().await;
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
    // TLS files first: a certificate that cannot be used stops the server before anything else.
    let options = crate::serve::Options::from_config(&config)?;
    let stores = Stores::open(&config.database_url).await?;
    stores.tokens.set_cache_ttl(config.token_cache_ttl);
    let listener = TcpListener::bind(config.addr).await.with_context(|| format!("listening on {}", config.addr))?;
    let addr = listener.local_addr()?;
    let seed_demo = config.seed_demo;
    let state = AppState::new(config, stores).await?;
    let app = app(state.clone())?;
    if seed_demo {
        seed::seed_demo(&state, addr).await?;
    }
    // After the seed, whose transactions read before they write (see `spawn_sweeper`).
    let blob_root = state.blob_dir.clone();
    crate::vault::blobs::spawn_sweeper(
        state.blobs.clone(),
        state.stores.vault.clone(),
        state.config.vault_sweep_grace,
        blob_root,
    );
    crate::vault::trash::spawn_purge(
        state.blobs.clone(),
        state.stores.vault.clone(),
        state.config.vault_trash_retention,
        state.config.vault_sweep_grace,
    );
    crate::ledger::jobs::spawn(state.stores.ledger.clone(), state.books.clone());
    crate::deposits::returns::folder::spawn(&state);
    state.stores.accounts.spawn_value_sync(std::time::Duration::from_secs(60));
    crate::deposits::settlement::spawn(state.stores.deposits.clone(), state.books.clone());
    crate::http::idempotency::spawn_sweeper(&state);
    crate::audit::spawn(state.stores.database.clone(), state.config.audit.retention_days);
    crate::storage::counted::spawn_compactor(state.stores.database.clone());
    crate::vault::store::buckets::spawn_compactor(state.stores.database.clone());
    let email_worker =
        if state.config.email.worker { Some(crate::email::outbox::delivery::spawn(state.clone())?) } else { None };
    let inbound_worker =
        if state.config.email.worker { Some(crate::email::inbound::webhook::spawn(state.clone())?) } else { None };
    let webhooks = if state.config.webhooks.worker { Some(crate::webhooks::delivery::spawn(&state)?) } else { None };
    let metrics = match state.config.metrics_addr {
        Some(at) => Some(crate::metrics::start(state.clone(), at).await?),
        None => None,
    };
    let inbound_smtp = match state.config.email.inbound.smtp {
        Some(at) => Some(crate::email::inbound::smtp::start(state.clone(), at).await?),
        None => None,
    };

    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        crate::serve::serve(listener, app, options, async move {
            let _ = rx.await;
        })
        .await
    });
    tracing::info!(%addr, "moneydesk server listening");
    Ok(Running { addr, state, shutdown: Some(tx), task, email_worker, inbound_worker, inbound_smtp, webhooks, metrics })
}
