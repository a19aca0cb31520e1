//! One test's world: its own server (in-process, temporary SQLite, release portal) and its
//! own browser. `Harness` derefs to [`Browser`] for the page helpers.

use std::ops::Deref;
use std::path::Path;
use std::sync::OnceLock;

use moneydesk_model::Scope;
use moneydesk_server::{Config, Running};
use tokio::sync::{Semaphore, SemaphorePermit};

use crate::browser::Browser;
use crate::paths;

/// At most this many harnesses (server + Chromium) at once, whatever `--test-threads` says:
/// `MONEYDESK_E2E_JOBS`, default 2 (the machines have 2 cores).
fn slots() -> &'static Semaphore {
    static SLOTS: OnceLock<Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let n = std::env::var("MONEYDESK_E2E_JOBS").ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(2);
        Semaphore::new(n)
    })
}

pub struct Harness {
    browser: Option<Browser>,
    /// The API server (tokens are created here; stop/restart act on it).
    server: Option<Running>,
    config: Config,
    /// Only in split mode: a second server that serves the portal, whose "local"
    /// environment points at `server`.
    portal: Option<Running>,
    finished: bool,
    /// The test's name, for its file of API calls (`calls.rs`).
    name: String,
    _tmp: tempfile::TempDir,
    _slot: SemaphorePermit<'static>,
}

impl Harness {
    /// A server serving the release portal on an ephemeral port, and a fresh browser.
    pub async fn start() -> Harness {
        Self::start_with(|_| {}).await
    }

    /// Like [`Harness::start`], with the server's configuration adjusted first
    /// (e.g. `cors_origins` for an embedding test).
    pub async fn start_with(configure: impl FnOnce(&mut Config)) -> Harness {
        Self::start_with_flags(&[], configure).await
    }

    /// Like [`Harness::start_with`], the browser started with these Chromium flags.
    pub async fn start_with_flags(flags: &[String], configure: impl FnOnce(&mut Config)) -> Harness {
        let slot = slots().acquire().await.expect("the harness semaphore is never closed");
        let tmp = tempdir();
        let mut config = Config::for_tests(&tmp.path().join("data"));
        config.dist_dir = Some(paths::dist_dir());
        configure(&mut config);
        // `MONEYDESK_E2E_BACKEND=postgres`: a fresh database on the tests' PostgreSQL cluster
        // for a test that keeps the default (embedded SQLite) database (scripts/test runs a
        // subset so, to prove the portal on both backends).
        if backend_is_postgres() && config.database_url.starts_with("sqlite:") {
            config.database_url = crate::postgres::fresh_database().await;
        }
        crate::calls::count(&mut config);
        let server = start_server(&config).await;
        // Restarts reuse the port the first start got.
        config.addr = server.addr;
        let browser = Browser::start_with_flags(tmp.path(), paths::test_name(), flags).await;
        Harness {
            browser: Some(browser),
            server: Some(server),
            config,
            portal: None,
            finished: false,
            name: paths::test_name(),
            _tmp: tmp,
            _slot: slot,
        }
    }

    /// Split mode: the portal from one server, the API from another (the "local"
    /// environment of the portal's copy of environments.json points at the API server, which
    /// allows the portal's origin by CORS). Stopping the API server leaves the portal
    /// loadable, so a test can see what the portal does while the API is down.
    pub async fn start_split() -> Harness {
        let slot = slots().acquire().await.expect("the harness semaphore is never closed");
        let tmp = tempdir();
        let portal_addr = std::net::SocketAddr::from(([127, 0, 0, 1], crate::chromedriver::free_port()));

        let mut config = Config::for_tests(&tmp.path().join("api-data"));
        config.cors_origins = vec![format!("http://{portal_addr}")];
        crate::calls::count(&mut config);
        let server = start_server(&config).await;
        config.addr = server.addr;

        let dist = tmp.path().join("dist");
        copy_dir(&paths::dist_dir(), &dist);
        point_local_environment_at(&dist.join("environments.json"), &format!("http://{}", server.addr));
        let mut portal_config = Config::for_tests(&tmp.path().join("portal-data"));
        portal_config.addr = portal_addr;
        portal_config.dist_dir = Some(dist);
        let portal = start_server(&portal_config).await;

        let browser = Browser::start(tmp.path(), paths::test_name()).await;
        Harness {
            browser: Some(browser),
            server: Some(server),
            config,
            portal: Some(portal),
            finished: false,
            name: paths::test_name(),
            _tmp: tmp,
            _slot: slot,
        }
    }

    /// The origin the portal is loaded from, e.g. `http://127.0.0.1:41234`.
    pub fn base_url(&self) -> String {
        match &self.portal {
            Some(portal) => portal.base_url(),
            None => self.api_url(),
        }
    }

    /// The API server's origin (the same as `base_url` unless in split mode).
    pub fn api_url(&self) -> String {
        format!("{}://{}", self.config.transport.scheme(), self.config.addr)
    }

    /// `path` on the portal's server (`/fees` → `http://127.0.0.1:41234/fees`).
    pub fn page_url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url())
    }

    /// Loads `path` of the portal (a full page load, like typing it in the address bar).
    pub async fn goto(&self, path: &str) {
        self.open(&self.page_url(path)).await;
    }

    /// A new API token with these scopes.
    pub async fn token(&self, scopes: &[Scope]) -> String {
        let server = self.server.as_ref().expect("the server is stopped");
        match server.create_token("e2e", scopes).await {
            Ok(t) => t,
            Err(e) => panic!("creating a token with {scopes:?}: {e:#}"),
        }
    }

    /// Fills in the sign-in form (environment "local", `token`) and submits it, without
    /// waiting for the outcome. Opens `/signin` first unless the browser is already there.
    pub async fn submit_sign_in(&self, token: &str) {
        if self.url().await.path() != "/signin" {
            self.goto("/signin").await;
        }
        self.wait_for("select#signin-environment option[value=local]").await;
        self.select("select#signin-environment", "local").await;
        self.type_into("textarea#signin-token", token).await;
        self.click("button#signin-submit").await;
    }

    /// Signs in through the sign-in page and waits until the portal shows the signed-in layout.
    pub async fn sign_in(&self, token: &str) {
        self.submit_sign_in(token).await;
        self.wait_for("button#signout").await;
    }

    /// Stops the server (the browser stays): for server-down tests. The API calls answered
    /// so far are written down first (`MONEYDESK_E2E_CALLS`).
    pub async fn stop_server(&mut self) {
        if let Some(server) = self.server.take() {
            crate::calls::write(&server, &self.name).await;
            server.stop().await;
        }
    }

    /// Starts the server again on the same address and database.
    pub async fn restart_server(&mut self) {
        self.stop_server().await;
        self.server = Some(start_server(&self.config).await);
    }

    /// The running server, e.g. for its `state`.
    pub fn server(&self) -> &Running {
        self.server.as_ref().expect("the server is stopped")
    }

    /// Ends the test: fails on any unexpected console error, then closes the browser and
    /// stops the server. Every test calls it last.
    pub async fn finish(mut self) {
        self.finished = true;
        let browser = self.browser.take().expect("finish runs once");
        browser.check_console().await;
        browser.close().await;
        self.stop_server().await;
        if let Some(portal) = self.portal.take() {
            portal.stop().await;
        }
    }
}

impl Deref for Harness {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        self.browser.as_ref().expect("the browser is closed")
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            panic!("a test ended without `h.finish().await`, so its console errors were never checked");
        }
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("moneydesk-e2e-").tempdir().expect("creating a temporary dir")
}

async fn start_server(config: &Config) -> Running {
    moneydesk_server::start(config.clone())
        .await
        .unwrap_or_else(|e| panic!("starting the server on {}: {e:#}", config.addr))
}

fn copy_dir(from: &Path, to: &Path) {
    copy_build(from, to, &mut |_, _, _| true);
}

/// Copies a release build `from` into `to`: every directory, and each file for which
/// `keep(its name, its path, its copy's path)` says so (a test that needs a build with a file
/// missing or changed writes it itself and says no).
pub fn copy_build(from: &Path, to: &Path, keep: &mut dyn FnMut(&str, &Path, &Path) -> bool) {
    std::fs::create_dir_all(to).expect("creating a dist copy");
    for entry in std::fs::read_dir(from).expect("reading dist") {
        let entry = entry.expect("reading dist");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_build(&entry.path(), &target, keep);
        } else if keep(&entry.file_name().to_string_lossy(), &entry.path(), &target) {
            std::fs::copy(entry.path(), &target).expect("copying dist");
        }
    }
}

/// Rewrites the "local" environment's `baseUrl` in a copy of environments.json.
fn point_local_environment_at(file: &Path, base_url: &str) {
    let text = std::fs::read_to_string(file).expect("dist has environments.json");
    let mut json: serde_json::Value = serde_json::from_str(&text).expect("environments.json is JSON");
    let local = json["environments"]
        .as_array_mut()
        .and_then(|list| list.iter_mut().find(|e| e["id"] == "local"))
        .expect("environments.json has a \"local\" environment");
    local["baseUrl"] = serde_json::Value::from(base_url);
    std::fs::write(file, json.to_string()).expect("writing environments.json");
}

/// Whether the e2e tests run on PostgreSQL (`MONEYDESK_E2E_BACKEND=postgres`; otherwise SQLite,
/// the embedded default).
fn backend_is_postgres() -> bool {
    match std::env::var("MONEYDESK_E2E_BACKEND").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") | Err(_) => false,
        Ok(other) => panic!("MONEYDESK_E2E_BACKEND is {other:?}: sqlite or postgres"),
    }
}
