//! The database behind every group's store: SQLite (the default) or PostgreSQL, chosen by
//! the URL (`MONEYDESK_DATABASE_URL`). The floor of the server: it imports no group. Each
//! group builds its own store on the one [`Database`]; the composition root (`state.rs`)
//! assembles them. SQL is written through `sql` (one text, either
//! dialect); migrations are `migrations/sqlite/` and `migrations/postgres/`, side by side.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};

pub mod blobs;
pub mod counted;
pub mod events;
pub mod queue;
pub mod settings;
pub mod sql;
pub mod time;
pub mod trail;

pub use settings::SettingStore;
pub use sql::{Dialect, Sql, Tx};

/// The connection pool of either backend (cheap to clone: the pools are shared handles).
#[derive(Clone, Debug)]
pub enum Database {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Database {
    /// Opens the database the URL names, `sqlite://...` (created if missing, WAL) or
    /// `postgres://...` (the database must exist), and applies that backend's migrations.
    pub async fn open(url: &str) -> anyhow::Result<Database> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let opts = PgConnectOptions::from_str(url).with_context(|| "database URL is not a PostgreSQL URL")?;
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .connect_with(opts)
                .await
                .with_context(|| format!("connecting to PostgreSQL at {}", redacted(url)))?;
            sqlx::migrate!("./migrations/postgres").run(&pool).await.context("applying database migrations")?;
            return Ok(Database::Postgres(pool));
        }
        let opts = SqliteConnectOptions::from_str(url)
            .with_context(|| {
                format!("database URL {url:?} is neither SQLite (sqlite://data/moneydesk.db) nor PostgreSQL (postgres://...)")
            })?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            // No ping before a connection is lent: a file's connection does not go stale, and
            // the ping was one more round trip to sqlx's SQLite thread per transaction (one
            // in five of those the email worker made per outcome, `scripts/bench-email`).
            .test_before_acquire(false)
            .connect_with(opts)
            .await
            .with_context(|| format!("opening database {url}"))?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await.context("applying database migrations")?;
        Ok(Database::Sqlite(pool))
    }

    pub fn dialect(&self) -> Dialect {
        match self {
            Database::Sqlite(_) => Dialect::Sqlite,
            Database::Postgres(_) => Dialect::Postgres,
        }
    }

    /// A statement for this backend (`?` placeholders, see [`Sql::new`]).
    pub fn sql(&self, text: &str) -> Sql {
        Sql::new(self.dialect(), text)
    }

    pub async fn acquire(&self) -> sqlx::Result<sql::Conn> {
        Ok(match self {
            Database::Sqlite(p) => sql::Conn::Sqlite(p.acquire().await?),
            Database::Postgres(p) => sql::Conn::Postgres(p.acquire().await?),
        })
    }

    pub async fn begin(&self) -> sqlx::Result<Tx> {
        Ok(match self {
            // IMMEDIATE: a deferred transaction that reads, then writes while another connection
            // writes cannot take the write lock and fails at once with SQLITE_BUSY (the busy
            // timeout does not apply to that upgrade): a 500 "database is locked" under
            // concurrent folder creation. Taken at BEGIN, the lock waits.
            Database::Sqlite(p) => Tx::Sqlite(p.begin_with("BEGIN IMMEDIATE").await?),
            Database::Postgres(p) => Tx::Postgres(p.begin().await?),
        })
    }

    /// A transaction whose reads all see one snapshot (a total and its page agree).
    /// SQLite's read transactions do already; PostgreSQL needs REPEATABLE READ, asked for in
    /// the BEGIN itself: a separate SET TRANSACTION was one more round trip of the eight a
    /// page of accounts took (scripts/bench-scale: PostgreSQL pages 2.3–2.7× SQLite's).
    pub async fn begin_snapshot(&self) -> sqlx::Result<Tx> {
        Ok(match self {
            Database::Sqlite(p) => Tx::Read(Box::new(Tx::Sqlite(p.begin().await?))),
            Database::Postgres(p) => {
                Tx::Read(Box::new(Tx::Postgres(p.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY").await?)))
            }
        })
    }

    /// Runs one statement outside a transaction: for tests and tools that change data
    /// behind the stores' back.
    pub async fn execute(&self, text: &str) -> sqlx::Result<u64> {
        self.acquire().await?.exec().execute(&self.sql(text)).await
    }
}

/// The URL without its password, for messages.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}
