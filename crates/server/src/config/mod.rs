//! Configuration: documented defaults, an optional TOML file (`MONEYDESK_CONFIG`), then
//! environment variables, which win. See the crate's README for the list.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context};
use serde::Deserialize;

pub mod ach;
pub mod audit;
pub mod cash_letters;
pub mod email;
pub mod inbound;
pub mod ledger;
pub mod returns;
pub mod schedule;
pub mod transport;
pub mod values;
pub mod verify;
pub mod webhooks;

use values::{duration, normalise_origin, parse_bool, positive, size};

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATA_DIR: &str = "./data";
pub const DEFAULT_DIST: &str = "./dist";
pub const DEFAULT_BODY_LIMIT: usize = 32 * 1024 * 1024;
pub const DEFAULT_BUSINESS_TIME_ZONE: chrono_tz::Tz = chrono_tz::America::New_York;
pub const DEFAULT_LOG: &str = "info,sqlx=warn,tower_http=info";
pub const DEFAULT_TOKEN_CACHE_TTL: Duration = Duration::from_secs(2);
pub const DEFAULT_VAULT_UPLOAD_LIMIT: u64 = 1024 * 1024 * 1024;
pub const DEFAULT_VAULT_SWEEP_GRACE: Duration = Duration::from_secs(600);
pub const DEFAULT_VAULT_TRASH_RETENTION: Duration = Duration::from_secs(30 * 24 * 3600);

#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen (`MONEYDESK_ADDR`).
    pub addr: SocketAddr,
    /// sqlx URL of the database (`MONEYDESK_DATABASE_URL`): `sqlite://FILE` or `postgres://...`;
    /// default `sqlite://<data_dir>/moneydesk.db`. The URL picks the backend of every store.
    pub database_url: String,
    /// Where the server keeps its files (`MONEYDESK_DATA_DIR`).
    pub data_dir: PathBuf,
    /// The built portal (`MONEYDESK_DIST`); `None` serves no portal at all.
    pub dist_dir: Option<PathBuf>,
    /// Origins allowed to call the API and load the portal's assets from a browser
    /// (`MONEYDESK_CORS_ORIGINS`, comma separated). None by default.
    pub cors_origins: Vec<String>,
    /// Seed demo data and print a demo admin token on first start (`MONEYDESK_SEED_DEMO`).
    pub seed_demo: bool,
    /// Largest request body in bytes (`MONEYDESK_BODY_LIMIT`, e.g. `33554432`, `32MiB`).
    pub body_limit: usize,
    /// tracing filter (`MONEYDESK_LOG`, falls back to `RUST_LOG`).
    pub log: String,
    /// The Fed's FedACH directory file (`MONEYDESK_FEDACH_FILE`); with neither routing file
    /// set, the embedded demo directory is served.
    pub fedach_file: Option<PathBuf>,
    /// The Fed's Fedwire Funds directory file (`MONEYDESK_FEDWIRE_FILE`).
    pub fedwire_file: Option<PathBuf>,
    /// Daily routing directory reload (`MONEYDESK_ROUTING_REFRESH`, e.g. `06:30 America/New_York`,
    /// or `off`).
    pub routing_refresh: Option<schedule::Schedule>,
    /// The fee API's per-token rate limit (`MONEYDESK_FEES_RATE_PER_SECOND`, default 10, and
    /// `MONEYDESK_FEES_RATE_BURST`, default 20). Kept per instance: with N instances behind a
    /// load balancer, give each 1/N of the rate wanted in all.
    pub fees_rate: crate::rate_limit::Quota,
    /// The business time zone (`MONEYDESK_BUSINESS_TIME_ZONE`, an IANA name, default
    /// `America/New_York`): which day "today" is for deposit dates, and the zone deposit times
    /// are written in (CONTRACT.md point 14).
    pub business_time_zone: chrono_tz::Tz,
    /// How long an `Idempotency-Key` is remembered, a deposit's and every other write's
    /// (`MONEYDESK_IDEMPOTENCY_HOURS`, default 24): a retry within it answers the first
    /// answer; after it the key is new.
    pub idempotency_hours: u32,
    /// Who cash letters are from and to, and their bundle size (`MONEYDESK_CASH_LETTER_*`).
    pub cash_letters: cash_letters::CashLetterConfig,
    /// Who the day's ACH file of electronic deposits is from and to (`MONEYDESK_ACH_*`).
    pub ach: ach::AchConfig,
    /// Header-read timeout, idle keep-alive timeout and connection cap
    /// (`MONEYDESK_HEADER_READ_TIMEOUT`, `MONEYDESK_KEEP_ALIVE_TIMEOUT`, `MONEYDESK_MAX_CONNECTIONS`).
    pub limits: crate::serve::Limits,
    /// TLS terminated here and HTTP/2 (`MONEYDESK_TLS_CERT`, `MONEYDESK_TLS_KEY`,
    /// `MONEYDESK_HTTP2`; see `config::transport`).
    pub transport: transport::TransportConfig,
    /// How long a checked token is trusted without reading the table again
    /// (`MONEYDESK_TOKEN_CACHE_TTL`): a revoke by another process takes effect within it.
    pub token_cache_ttl: Duration,
    /// Largest vault file upload in bytes (`MONEYDESK_VAULT_UPLOAD_LIMIT`, e.g. `1GiB`; the
    /// body limit does not apply to uploads, which are streamed to the blob store).
    pub vault_upload_limit: u64,
    /// How old an unreferenced vault blob or an unfinished upload must be before the sweeper
    /// removes it (`MONEYDESK_VAULT_SWEEP_GRACE`, default 10m): an upload under way in this
    /// or another instance is younger.
    pub vault_sweep_grace: Duration,
    /// How long a deleted vault file or folder stays in its owner's trash before the purge
    /// removes it for good (`MONEYDESK_VAULT_TRASH_RETENTION`, default 30 days: `720h`).
    pub vault_trash_retention: Duration,
    /// The relay, senders, retries and the rest of the email group's settings
    /// (`MONEYDESK_SMTP_URL`, `MONEYDESK_EMAIL_*`; see `config::email`).
    pub email: email::EmailConfig,
    /// Where blobs live: `<data dir>/blobs`, or an S3-compatible bucket (`MONEYDESK_S3_*`;
    /// see `storage::blobs`).
    pub blobs: crate::storage::blobs::BlobConfig,
    /// Where Prometheus metrics are served (`MONEYDESK_METRICS_ADDR`, e.g. `127.0.0.1:9464`);
    /// off by default (see `metrics`).
    pub metrics_addr: Option<SocketAddr>,
    /// The ledger's calendar, hold policy, returned-item fee, settlement and clock
    /// (`MONEYDESK_HOLIDAYS`, `MONEYDESK_HOLD_*`, …; see `config::ledger`).
    pub ledger: ledger::LedgerConfig,
    /// The folder return files are dropped in (`MONEYDESK_RETURNS_DIR`; see `config::returns`).
    pub returns: returns::ReturnsConfig,
    /// The audit trail's retention and export key (`MONEYDESK_AUDIT_*`; see `config::audit`).
    pub audit: audit::AuditConfig,
    /// Webhook delivery: the URL allow-list, retries, auto-disable (`MONEYDESK_WEBHOOK_*`;
    /// see `config::webhooks`).
    pub webhooks: webhooks::WebhookConfig,
}

/// The optional TOML file: every key optional, same meaning as the variables.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    addr: Option<String>,
    data_dir: Option<PathBuf>,
    database_url: Option<String>,
    dist: Option<PathBuf>,
    cors_origins: Option<Vec<String>>,
    seed_demo: Option<bool>,
    body_limit: Option<toml::Value>,
    log: Option<String>,
    fedach_file: Option<PathBuf>,
    fedwire_file: Option<PathBuf>,
    routing_refresh: Option<String>,
    fees_rate_per_second: Option<u32>,
    fees_rate_burst: Option<u32>,
    business_time_zone: Option<String>,
    idempotency_hours: Option<u32>,
    header_read_timeout: Option<toml::Value>,
    keep_alive_timeout: Option<toml::Value>,
    max_connections: Option<usize>,
    token_cache_ttl: Option<toml::Value>,
    vault_upload_limit: Option<toml::Value>,
    vault_sweep_grace: Option<toml::Value>,
    vault_trash_retention: Option<toml::Value>,
}

impl Config {
    /// Reads `MONEYDESK_CONFIG` (if set) and the `MONEYDESK_*` variables.
    pub fn from_env() -> anyhow::Result<Config> {
        Self::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
    }

    /// `from_env` over any variable source (unit tests pass a map).
    pub fn from_lookup(var: impl Fn(&str) -> Option<String>) -> anyhow::Result<Config> {
        let (file, email_file) = match var("MONEYDESK_CONFIG") {
            Some(path) => {
                let text =
                    std::fs::read_to_string(&path).with_context(|| format!("reading MONEYDESK_CONFIG file {path}"))?;
                let mut table: toml::Table =
                    toml::from_str(&text).with_context(|| format!("parsing MONEYDESK_CONFIG file {path}"))?;
                let email = email::FileKeys::take(&mut table);
                let file = toml::Value::Table(table)
                    .try_into::<FileConfig>()
                    .with_context(|| format!("parsing MONEYDESK_CONFIG file {path}"))?;
                (file, email)
            }
            None => Default::default(),
        };

        let addr_text = var("MONEYDESK_ADDR").or(file.addr).unwrap_or_else(|| DEFAULT_ADDR.into());
        let addr: SocketAddr = addr_text.parse().with_context(|| {
            format!("MONEYDESK_ADDR must be host:port with an IP address, like 127.0.0.1:8080; got {addr_text:?}")
        })?;
        let data_dir =
            var("MONEYDESK_DATA_DIR").map(PathBuf::from).or(file.data_dir).unwrap_or_else(|| DEFAULT_DATA_DIR.into());
        let database_url = var("MONEYDESK_DATABASE_URL").or(file.database_url).unwrap_or_else(|| sqlite_url(&data_dir));
        let dist_dir =
            Some(var("MONEYDESK_DIST").map(PathBuf::from).or(file.dist).unwrap_or_else(|| DEFAULT_DIST.into()));
        let cors_origins = match var("MONEYDESK_CORS_ORIGINS") {
            Some(list) => list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect(),
            None => file.cors_origins.unwrap_or_default(),
        };
        let cors_origins = cors_origins.iter().map(|o| normalise_origin(o)).collect::<anyhow::Result<Vec<_>>>()?;
        let seed_demo = match var("MONEYDESK_SEED_DEMO") {
            Some(v) => parse_bool("MONEYDESK_SEED_DEMO", &v)?,
            None => file.seed_demo.unwrap_or(true),
        };
        let body_limit = size(&var, "MONEYDESK_BODY_LIMIT", file.body_limit)?.unwrap_or(DEFAULT_BODY_LIMIT);
        let log = var("MONEYDESK_LOG").or_else(|| var("RUST_LOG")).or(file.log).unwrap_or_else(|| DEFAULT_LOG.into());
        let fedach_file = var("MONEYDESK_FEDACH_FILE").map(PathBuf::from).or(file.fedach_file);
        let fedwire_file = var("MONEYDESK_FEDWIRE_FILE").map(PathBuf::from).or(file.fedwire_file);
        let routing_refresh = match var("MONEYDESK_ROUTING_REFRESH").or(file.routing_refresh) {
            Some(v) => schedule::Schedule::parse_setting(&v).context("MONEYDESK_ROUTING_REFRESH")?,
            None => Some(schedule::Schedule::default()),
        };
        let default_rate = crate::rate_limit::Quota::DEFAULT;
        let fees_rate = crate::rate_limit::Quota {
            per_second: positive(
                var("MONEYDESK_FEES_RATE_PER_SECOND"),
                file.fees_rate_per_second,
                default_rate.per_second,
            )
            .context("MONEYDESK_FEES_RATE_PER_SECOND")?,
            burst: positive(var("MONEYDESK_FEES_RATE_BURST"), file.fees_rate_burst, default_rate.burst)
                .context("MONEYDESK_FEES_RATE_BURST")?,
        };
        let business_time_zone = match var("MONEYDESK_BUSINESS_TIME_ZONE").or(file.business_time_zone) {
            Some(name) => name.trim().parse::<chrono_tz::Tz>().map_err(|_| {
                anyhow::anyhow!("MONEYDESK_BUSINESS_TIME_ZONE {name:?} is not an IANA time zone like America/New_York")
            })?,
            None => DEFAULT_BUSINESS_TIME_ZONE,
        };
        let idempotency_hours = positive(var("MONEYDESK_IDEMPOTENCY_HOURS"), file.idempotency_hours, 24)
            .context("MONEYDESK_IDEMPOTENCY_HOURS")?;
        let defaults = crate::serve::Limits::default();
        let limits = crate::serve::Limits {
            header_read_timeout: duration(&var, "MONEYDESK_HEADER_READ_TIMEOUT", file.header_read_timeout)?
                .unwrap_or(defaults.header_read_timeout),
            keep_alive_timeout: duration(&var, "MONEYDESK_KEEP_ALIVE_TIMEOUT", file.keep_alive_timeout)?
                .unwrap_or(defaults.keep_alive_timeout),
            max_connections: match var("MONEYDESK_MAX_CONNECTIONS") {
                Some(v) => v.trim().parse::<usize>().ok().filter(|n| *n > 0).with_context(|| {
                    format!("MONEYDESK_MAX_CONNECTIONS must be a positive number of connections, got {v:?}")
                })?,
                None => match file.max_connections {
                    Some(0) => bail!("max_connections in MONEYDESK_CONFIG must be positive"),
                    Some(n) => n,
                    None => defaults.max_connections,
                },
            },
        };
        let token_cache_ttl =
            duration(&var, "MONEYDESK_TOKEN_CACHE_TTL", file.token_cache_ttl)?.unwrap_or(DEFAULT_TOKEN_CACHE_TTL);
        let vault_upload_limit = size(&var, "MONEYDESK_VAULT_UPLOAD_LIMIT", file.vault_upload_limit)?
            .map_or(DEFAULT_VAULT_UPLOAD_LIMIT, |n| n as u64);
        let vault_sweep_grace = match var("MONEYDESK_VAULT_SWEEP_GRACE") {
            // 0 is allowed here (tests: sweep everything unreferenced at once).
            Some(v) if v.trim() == "0" => Duration::ZERO,
            _ => duration(&var, "MONEYDESK_VAULT_SWEEP_GRACE", file.vault_sweep_grace)?
                .unwrap_or(DEFAULT_VAULT_SWEEP_GRACE),
        };
        let vault_trash_retention = duration(&var, "MONEYDESK_VAULT_TRASH_RETENTION", file.vault_trash_retention)?
            .unwrap_or(DEFAULT_VAULT_TRASH_RETENTION);
        let email = email::EmailConfig::from_env(&|name: &str| var(name).or_else(|| email_file.get(name)))
            .with_context(|| match email_file.keys() {
                keys if keys.is_empty() => "email settings".to_string(),
                keys => format!("email settings (the variables, or {} in MONEYDESK_CONFIG)", keys.join(", ")),
            })?;
        let blobs = crate::storage::blobs::BlobConfig::from_env(&var)?;
        let metrics_addr =
            match var("MONEYDESK_METRICS_ADDR").map(|v| v.trim().to_string()).filter(|v| !v.is_empty() && v != "off") {
                Some(v) => Some(v.parse().with_context(|| {
                    format!("MONEYDESK_METRICS_ADDR must be an address and port like 127.0.0.1:9464; got {v:?}")
                })?),
                None => None,
            };
        let cash_letters = cash_letters::CashLetterConfig::from_env(&var)?;
        let ach = ach::AchConfig::from_env(&var)?;
        let ledger = ledger::LedgerConfig::from_env(&var)?;
        let returns = returns::ReturnsConfig::from_env(&var)?;
        let audit = audit::AuditConfig::from_env(&var)?;
        let webhooks = webhooks::WebhookConfig::from_env(&var)?;
        let transport = transport::TransportConfig::from_env(&var)?;
        Ok(Config {
            transport,
            webhooks,
            ach,
            ledger,
            returns,
            audit,
            cash_letters,
            metrics_addr,
            email,
            blobs,
            vault_upload_limit,
            vault_sweep_grace,
            vault_trash_retention,
            idempotency_hours,
            addr,
            database_url,
            data_dir,
            dist_dir,
            cors_origins,
            seed_demo,
            body_limit,
            log,
            fedach_file,
            fedwire_file,
            routing_refresh,
            fees_rate,
            business_time_zone,
            limits,
            token_cache_ttl,
        })
    }

    /// For tests: an ephemeral port on 127.0.0.1, a SQLite file in `data_dir`, no portal,
    /// no CORS origins, no demo seed.
    pub fn for_tests(data_dir: &Path) -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: sqlite_url(data_dir),
            data_dir: data_dir.to_path_buf(),
            dist_dir: None,
            cors_origins: Vec::new(),
            seed_demo: false,
            body_limit: DEFAULT_BODY_LIMIT,
            log: DEFAULT_LOG.into(),
            fedach_file: None,
            fedwire_file: None,
            routing_refresh: Some(schedule::Schedule::default()),
            fees_rate: crate::rate_limit::Quota::DEFAULT,
            business_time_zone: DEFAULT_BUSINESS_TIME_ZONE,
            idempotency_hours: 24,
            cash_letters: Default::default(),
            ach: Default::default(),
            ledger: Default::default(),
            returns: Default::default(),
            audit: Default::default(),
            limits: crate::serve::Limits::default(),
            transport: Default::default(),
            token_cache_ttl: DEFAULT_TOKEN_CACHE_TTL,
            vault_upload_limit: DEFAULT_VAULT_UPLOAD_LIMIT,
            vault_sweep_grace: DEFAULT_VAULT_SWEEP_GRACE,
            vault_trash_retention: DEFAULT_VAULT_TRASH_RETENTION,
            email: email::EmailConfig { worker: false, ..Default::default() },
            blobs: Default::default(),
            metrics_addr: None,
            webhooks: webhooks::WebhookConfig { worker: false, ..Default::default() },
        }
    }
}

fn sqlite_url(data_dir: &Path) -> String {
    format!("sqlite://{}", data_dir.join("moneydesk.db").display())
}

#[cfg(test)]
mod tests;
