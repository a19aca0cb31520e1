//! All SQL lives under this module (one file per group), so another database can be added
//! behind the same functions later. Each group file adds `impl Db { ... }` methods.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub mod settings;
pub mod tokens;

pub use tokens::{NewToken, TokenCache, TokenRecord};

#[derive(Clone, Debug)]
pub struct Db {
    pub pool: SqlitePool,
    /// Token checks kept in memory (see `tokens::TokenCache`): one `Arc`, as `Db` is cloned
    /// for every request.
    pub(crate) token_cache: std::sync::Arc<tokens::TokenCache>,
}

impl Db {
    /// Opens (creating if needed) the database, in WAL mode, and applies the migrations.
    pub async fn open(url: &str) -> anyhow::Result<Db> {
        let opts = SqliteConnectOptions::from_str(url)
            .with_context(|| format!("database URL {url:?} is not a SQLite URL (like sqlite://data/moneydesk.db)"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(opts)
            .await
            .with_context(|| format!("opening database {url}"))?;
        sqlx::migrate!("./migrations").run(&pool).await.context("applying database migrations")?;
        Ok(Db { pool, token_cache: Default::default() })
    }
}

/// Now, as the RFC 3339 UTC text the tables store.
pub fn now_text() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}
