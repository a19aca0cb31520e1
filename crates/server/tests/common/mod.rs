//! Shared harness: a real server on an ephemeral port with a temporary SQLite file and its
//! blobs on the local filesystem, or (`Backend::Postgres`) the scale-out arrangement: a fresh
//! database on the tests' own PostgreSQL cluster and a fresh bucket on the tests' own S3
//! server (`s3`), so every test run on both backends runs on both blob stores too.
#![allow(dead_code)]

pub mod certificates;
pub mod deposits;
pub mod dns;
pub mod postgres;
pub mod process;
pub mod s3;
pub mod smtp;

use moneydesk_model::Scope;
use moneydesk_server::{start, Config, Running};
use tempfile::TempDir;

pub struct Server {
    pub running: Running,
    pub client: reqwest::Client,
    pub dir: TempDir,
}

/// The database a test runs against; tests that must hold on both take it as a parameter
/// (see [`on_both_backends!`](crate::on_both_backends)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The database URL for a test: a file in `dir`, or a fresh PostgreSQL database.
    pub async fn database_url(self, dir: &std::path::Path) -> String {
        match self {
            Backend::Sqlite => Config::for_tests(dir).database_url,
            Backend::Postgres => postgres::fresh_database().await,
        }
    }
}

/// `on_both_backends!(name, ...)`: for each `async fn name(backend: Backend)`, two tests,
/// `name::on_sqlite` and `name::on_postgres`, running the same body.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn on_sqlite() {
                super::$name($crate::common::Backend::Sqlite).await
            }
            #[tokio::test]
            async fn on_postgres() {
                super::$name($crate::common::Backend::Postgres).await
            }
        }
    )*};
}

impl Server {
    pub async fn start() -> Server {
        Self::start_with(|_| {}).await
    }

    /// Starts on `backend`'s database.
    pub async fn start_on(backend: Backend) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        let url = backend.database_url(dir.path()).await;
        Self::start_in(dir, |c| c.database_url = url).await
    }

    /// Starts with `Config::for_tests` adjusted by `tweak` (dist dir, CORS origins, limits).
    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> Server {
        Self::start_in(tempfile::tempdir().expect("tempdir"), tweak).await
    }

    /// Starts with its data (and SQLite file) in `dir`, `Config::for_tests` adjusted by `tweak`.
    pub async fn start_in_dir(dir: TempDir, tweak: impl FnOnce(&mut Config)) -> Server {
        Self::start_in(dir, tweak).await
    }

    async fn start_in(dir: TempDir, tweak: impl FnOnce(&mut Config)) -> Server {
        let mut config = Config::for_tests(dir.path());
        tweak(&mut config);
        // PostgreSQL goes with an S3 bucket (unless the test chose a blob store itself).
        if config.database_url.starts_with("postgres")
            && config.blobs == moneydesk_server::storage::blobs::BlobConfig::Local
        {
            config.blobs = moneydesk_server::storage::blobs::BlobConfig::S3(s3::fresh_bucket());
        }
        let running = start(config).await.expect("server starts");
        let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Server { running, client, dir }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.running.base_url(), path)
    }

    pub async fn token(&self, scopes: &[Scope]) -> String {
        self.running.create_token("test", scopes).await.expect("token")
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("request")
    }

    pub async fn get_auth(&self, path: &str, token: &str) -> reqwest::Response {
        self.client.get(self.url(path)).bearer_auth(token).send().await.expect("request")
    }
}

/// A request with the token (and a JSON body): its status and JSON body (`null` when the
/// answer is not JSON).
pub async fn call(
    s: &Server,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let mut r = s.client.request(method, s.url(path)).bearer_auth(token);
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(serde_json::Value::Null))
}

/// The response's JSON body (panics with the text when it is not JSON).
pub async fn json(resp: reqwest::Response) -> serde_json::Value {
    let text = resp.text().await.expect("body");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Runs the server binary's CLI against `data_dir` (and `database_url`, when it is not the data
/// dir's default), with nothing inherited from this environment.
///
/// Async, because a test's server runs on the test's own runtime: a blocking wait here stopped
/// that runtime while one of the server's transactions was open, and a `token revoke` waiting
/// for the write lock failed "database is locked" after its 5 s busy timeout (clean-clone CI,
/// stop 63).
pub async fn cli_with(data_dir: &std::path::Path, database_url: Option<&str>, args: &[&str]) -> std::process::Output {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_moneydesk-server"));
    command.args(args).env_clear().env("MONEYDESK_DATA_DIR", data_dir).env("MONEYDESK_LOG", "warn");
    if let Some(url) = database_url {
        command.env("MONEYDESK_DATABASE_URL", url);
    }
    command.output().await.expect("run moneydesk-server")
}

/// [`cli_with`] on the data dir's default database.
pub async fn cli(data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    cli_with(data_dir, None, args).await
}

impl Server {
    /// [`cli_with`] on this server's data dir and database.
    #[allow(dead_code)] // not every test binary runs the CLI
    pub async fn cli(&self, args: &[&str]) -> std::process::Output {
        cli_with(self.dir.path(), Some(&self.running.state.config.database_url), args).await
    }
}

/// A check-shaped 1200 × 550 PNG with some ink, different for each `seed`, as base64 (a
/// deposit's image that converts to G4 for a cash letter).
#[allow(dead_code)] // not every test binary deposits checks
pub fn check_png(seed: u32) -> String {
    use base64::Engine;
    let img = image::GrayImage::from_fn(1200, 550, |x, y| {
        let ink = (x / 7 + y / 5 + seed).is_multiple_of(9) || (y > 480 && y < 510 && x % 40 < 25);
        image::Luma([if ink { 20 } else { 235 }])
    });
    let mut bytes = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut bytes), image::ImageFormat::Png).unwrap();
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Polls an outbox message until it reaches `state` (at most 20 s); its detail.
pub async fn wait_message_state(s: &Server, token: &str, id: &str, state: &str) -> serde_json::Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let d = json(s.get_auth(&moneydesk_model::paths::EMAIL_MESSAGE.replace("{messageId}", id), token).await).await;
        if d["data"]["state"] == state || std::time::Instant::now() > deadline {
            assert_eq!(d["data"]["state"], state, "{d}");
            return d["data"].clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A schedule file (TOML) with one flat standard fee per transfer type from 0: `eft_standard_flat`
/// for EFT, 1.00 for the others.
pub fn schedule_toml(effective_from: &str, eft_standard_flat: &str) -> String {
    let mut toml = format!("effective_from = \"{effective_from}\"\n");
    for (rail, t) in
        [("ach", "EFT"), ("ach", "SAME_DAY_ACH"), ("wire", "DOMESTIC_WIRE"), ("wire", "INTERNATIONAL_WIRE")]
    {
        let flat = if t == "EFT" { eft_standard_flat } else { "1.00" };
        toml.push_str(&format!(
            "[[fees]]\nrail = \"{rail}\"\ntransfer_type = \"{t}\"\nfee_type = \"standard\"\nfrom = \"0\"\nflat = \"{flat}\"\n"
        ));
    }
    toml
}
