//! The one place that knows there are two databases: a statement is built once as text with
//! its arguments ([`Sql`], placeholders written as the backend wants them), and run on a
//! SQLite or a PostgreSQL connection ([`Exec`]). Stores write each algorithm once and branch
//! on [`Dialect`] only where the SQL differs (index hints, text search, collations).

use std::fmt::Display;

use sqlx::pool::PoolConnection;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, PgConnection, Postgres, Sqlite, SqliteConnection, Transaction};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A bound value. Both backends take 64-bit integers and text; `None` is NULL of that type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    Int(Option<i64>),
    Text(Option<String>),
}

impl From<i64> for Arg {
    fn from(v: i64) -> Arg {
        Arg::Int(Some(v))
    }
}
impl From<Option<i64>> for Arg {
    fn from(v: Option<i64>) -> Arg {
        Arg::Int(v)
    }
}
impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Text(Some(v))
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Text(Some(v.to_string()))
    }
}
impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Arg {
        Arg::Text(v)
    }
}
impl From<Option<&str>> for Arg {
    fn from(v: Option<&str>) -> Arg {
        Arg::Text(v.map(str::to_string))
    }
}

/// A statement being built: text plus arguments, placeholders numbered for PostgreSQL.
#[derive(Debug, Clone)]
pub struct Sql {
    dialect: Dialect,
    text: String,
    args: Vec<Arg>,
}

impl Sql {
    /// A statement whose text uses `?` placeholders (rewritten to `$1, $2, ...` for
    /// PostgreSQL; so no other `?` may appear in the text); give their values with
    /// [`Sql::arg`].
    pub fn new(dialect: Dialect, text: &str) -> Sql {
        let mut sql = Sql { dialect, text: String::with_capacity(text.len() + 64), args: Vec::new() };
        for (n, part) in text.split('?').enumerate() {
            if n > 0 {
                sql.placeholder(n);
            }
            sql.text.push_str(part);
        }
        sql
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn placeholder(&mut self, n: usize) {
        match self.dialect {
            Dialect::Sqlite => self.text.push('?'),
            Dialect::Postgres => {
                self.text.push('$');
                self.text.push_str(&n.to_string());
            }
        }
    }

    /// Appends SQL text (never a value: values go through [`Sql::bind`]).
    pub fn push(&mut self, text: impl Display) -> &mut Sql {
        use std::fmt::Write;
        let _ = write!(self.text, "{text}");
        self
    }

    /// Appends a placeholder for `value`.
    pub fn bind(&mut self, value: impl Into<Arg>) -> &mut Sql {
        self.args.push(value.into());
        self.placeholder(self.args.len());
        self
    }

    /// The value of the next `?` written in [`Sql::new`]'s text.
    pub fn arg(mut self, value: impl Into<Arg>) -> Sql {
        self.args.push(value.into());
        self
    }

    /// Appends `(v1, v2, ...)`: one row of a multi-row `VALUES`.
    pub fn bind_row<const N: usize>(&mut self, values: [Arg; N]) -> &mut Sql {
        self.push("(").bind_list(values).push(")")
    }

    /// Appends `v1, v2, ...` as placeholders.
    pub fn bind_list<A: Into<Arg>>(&mut self, values: impl IntoIterator<Item = A>) -> &mut Sql {
        for (i, v) in values.into_iter().enumerate() {
            if i > 0 {
                self.text.push_str(", ");
            }
            self.bind(v);
        }
        self
    }
}

/// Binds every argument of an [`Sql`] to a sqlx query of either backend.
macro_rules! bound {
    ($query:expr, $sql:expr) => {{
        let mut q = $query;
        for a in &$sql.args {
            q = match a {
                Arg::Int(v) => q.bind(*v),
                Arg::Text(v) => q.bind(v.as_deref()),
            };
        }
        q
    }};
}

/// A row type both backends can decode (a `#[derive(sqlx::FromRow)]` struct of `i64`,
/// `String` and `Option`s of them).
pub trait Record: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin {}
impl<T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin> Record for T {}

/// A connection of either backend, borrowed for one statement.
pub enum Exec<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

impl Exec<'_> {
    pub async fn rows<T: Record>(self, q: &Sql) -> sqlx::Result<Vec<T>> {
        match self {
            Exec::Sqlite(c) => bound!(sqlx::query_as::<Sqlite, T>(&q.text), q).fetch_all(c).await,
            Exec::Postgres(c) => bound!(sqlx::query_as::<Postgres, T>(&q.text), q).fetch_all(c).await,
        }
    }

    pub async fn row<T: Record>(self, q: &Sql) -> sqlx::Result<Option<T>> {
        match self {
            Exec::Sqlite(c) => bound!(sqlx::query_as::<Sqlite, T>(&q.text), q).fetch_optional(c).await,
            Exec::Postgres(c) => bound!(sqlx::query_as::<Postgres, T>(&q.text), q).fetch_optional(c).await,
        }
    }

    /// The first column of every row, as integers.
    pub async fn ints(self, q: &Sql) -> sqlx::Result<Vec<i64>> {
        match self {
            Exec::Sqlite(c) => bound!(sqlx::query_scalar::<Sqlite, i64>(&q.text), q).fetch_all(c).await,
            Exec::Postgres(c) => bound!(sqlx::query_scalar::<Postgres, i64>(&q.text), q).fetch_all(c).await,
        }
    }

    /// The first column of every row, as text.
    pub async fn texts(self, q: &Sql) -> sqlx::Result<Vec<String>> {
        match self {
            Exec::Sqlite(c) => bound!(sqlx::query_scalar::<Sqlite, String>(&q.text), q).fetch_all(c).await,
            Exec::Postgres(c) => bound!(sqlx::query_scalar::<Postgres, String>(&q.text), q).fetch_all(c).await,
        }
    }

    /// The one integer a statement answers (a count, a sum).
    pub async fn int(self, q: &Sql) -> sqlx::Result<i64> {
        match self {
            Exec::Sqlite(c) => bound!(sqlx::query_scalar::<Sqlite, i64>(&q.text), q).fetch_one(c).await,
            Exec::Postgres(c) => bound!(sqlx::query_scalar::<Postgres, i64>(&q.text), q).fetch_one(c).await,
        }
    }

    /// Runs a statement; the number of rows it changed.
    pub async fn execute(self, q: &Sql) -> sqlx::Result<u64> {
        match self {
            Exec::Sqlite(c) => Ok(bound!(sqlx::query::<Sqlite>(&q.text), q).execute(c).await?.rows_affected()),
            Exec::Postgres(c) => Ok(bound!(sqlx::query::<Postgres>(&q.text), q).execute(c).await?.rows_affected()),
        }
    }
}

/// A pooled connection of either backend.
pub enum Conn {
    Sqlite(PoolConnection<Sqlite>),
    Postgres(PoolConnection<Postgres>),
}

impl Conn {
    pub fn exec(&mut self) -> Exec<'_> {
        match self {
            Conn::Sqlite(c) => Exec::Sqlite(c),
            Conn::Postgres(c) => Exec::Postgres(c),
        }
    }

    /// Closes the connection when it is dropped rather than lending it again (its state is
    /// not known, say a transaction that could not be rolled back).
    pub fn close_on_drop(&mut self) {
        match self {
            Conn::Sqlite(c) => c.close_on_drop(),
            Conn::Postgres(c) => c.close_on_drop(),
        }
    }
}

/// A transaction of either backend; dropped without [`Tx::commit`], it rolls back.
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
    /// A read ([`Database::begin_snapshot`](super::Database::begin_snapshot)): its commit
    /// never carries a write's audit record (on PostgreSQL it is READ ONLY and could not).
    Read(Box<Tx>),
}

impl Tx {
    pub fn exec(&mut self) -> Exec<'_> {
        match self {
            Tx::Sqlite(t) => Exec::Sqlite(t),
            Tx::Postgres(t) => Exec::Postgres(t),
            Tx::Read(t) => t.exec(),
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self {
            Tx::Sqlite(_) => Dialect::Sqlite,
            Tx::Postgres(_) => Dialect::Postgres,
            Tx::Read(t) => t.dialect(),
        }
    }

    /// Commits, with the open audit recording's record if this is the first write
    /// transaction its request commits (`storage::trail`).
    pub async fn commit(mut self) -> sqlx::Result<()> {
        if !matches!(self, Tx::Read(_)) {
            if let Some(record) = super::trail::pending_record(self.dialect()) {
                self.exec().execute(&record).await?;
            }
        }
        self.commit_unrecorded().await
    }

    /// Commits bookkeeping that is not the change a write request is recorded for (a claim, an
    /// idempotency key kept before the work): the recording waits for the change's commit.
    pub async fn commit_unrecorded(self) -> sqlx::Result<()> {
        let tx = match self {
            Tx::Read(t) => *t,
            t => t,
        };
        match tx {
            Tx::Sqlite(t) => t.commit().await,
            Tx::Postgres(t) => t.commit().await,
            Tx::Read(_) => unreachable!("a read transaction is not nested"),
        }
    }
}
