//! Counted buckets of a folder's files: a page of a folder at any depth costs what the first
//! page costs. Neither SQLite nor PostgreSQL counts B-tree entries, so `OFFSET` costs the index
//! entries it passes (page 10,000 of a million files: 14–20 ms on SQLite, 29–39 ms on
//! PostgreSQL against under 2 ms for page 1; `scripts/bench-lists`).
//!
//! Each order of the listing (by name, by size, by modification) is cut into buckets of about
//! [`BUCKET_ROWS`] files by their first key; `vault_buckets` holds each bucket's count. The
//! folder's total is a sum of counts, and the file at any position a seek to its bucket's first
//! key plus a skip of fewer than two buckets' files (migration 0032).
//!
//! The counts are written by the database: `vault_files`' triggers add a row of `+1` or `-1`
//! to the bucket a file's key lies in, in the writer's transaction, so every path that changes
//! a file (an upload, a new version, a move, the trash, a folder's cascade) counts, and a page
//! and its total agree in a snapshot. [`compact`] folds those rows into one per bucket, cuts a
//! bucket grown past twice [`BUCKET_ROWS`], [`BUCKET_ROWS`] files a transaction off its front,
//! and drops an empty one. Cutting moves bounds, so on PostgreSQL it holds the folder's
//! exclusive advisory lock, which every writer of the folder takes shared in the trigger before
//! it looks for its bucket: no file is counted in a bucket whose bounds are moving. (SQLite's
//! writers take turns already.)

mod compact;

pub use compact::{compact, spawn_compactor};

use moneydesk_model::vault::VaultSortField;

use crate::storage::{Dialect, Sql, Tx};

/// Files a bucket holds after a cut; a bucket is cut when it holds more than twice this. A page
/// costs about (files / BUCKET_ROWS) counts summed plus up to 2 × BUCKET_ROWS index entries
/// skipped: a thousand of each at a million files, as the deposits' buckets.
pub const BUCKET_ROWS: i64 = 1024;

/// An order of the listing: its code in `vault_buckets.sort` and its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    Name,
    Size,
    Modified,
}

impl Order {
    pub(super) fn of(sort: VaultSortField) -> Order {
        match sort {
            VaultSortField::Name => Order::Name,
            VaultSortField::Size => Order::Size,
            VaultSortField::ModifiedAt => Order::Modified,
        }
    }

    fn from_code(code: i64) -> Order {
        match code {
            1 => Order::Size,
            2 => Order::Modified,
            _ => Order::Name,
        }
    }

    fn code(self) -> i64 {
        match self {
            Order::Name => 0,
            Order::Size => 1,
            Order::Modified => 2,
        }
    }

    /// The `vault_files` columns of the order, in `ORDER BY` form.
    pub(super) fn columns(self) -> &'static str {
        match self {
            Order::Name => "name",
            Order::Size => "size, name",
            Order::Modified => "modified_at, name",
        }
    }

    /// A file's key as `vault_buckets` writes it (the triggers' tuple), as a select list.
    fn key_select(self) -> &'static str {
        match self {
            Order::Name => "CAST(0 AS BIGINT) AS lo_int, '' AS lo_text, name AS lo_name",
            Order::Size => "size AS lo_int, '' AS lo_text, name AS lo_name",
            Order::Modified => "CAST(0 AS BIGINT) AS lo_int, modified_at AS lo_text, name AS lo_name",
        }
    }
}

/// A bucket: its first key and its count. The first bucket of an order, (-1, '', ''), starts
/// before every file.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub(super) struct Bucket {
    pub lo_int: i64,
    pub lo_text: String,
    pub lo_name: String,
    pub n: i64,
}

impl Bucket {
    fn is_first(&self) -> bool {
        self.lo_int < 0
    }
}

/// `AND (key) >= (bucket's first key)` for `vault_files` (nothing for the first bucket).
pub(super) fn push_from(q: &mut Sql, order: Order, b: &Bucket) {
    push_bound(q, order, b, ">=");
}

fn push_bound(q: &mut Sql, order: Order, b: &Bucket, op: &str) {
    if b.is_first() {
        return;
    }
    match order {
        Order::Name => q.push(format_args!(" AND name {op} ")).bind(b.lo_name.as_str()),
        Order::Size => q.push(format_args!(" AND (size, name) {op} (")).bind(b.lo_int),
        Order::Modified => q.push(format_args!(" AND (modified_at, name) {op} (")).bind(b.lo_text.as_str()),
    };
    if order != Order::Name {
        q.push(", ").bind(b.lo_name.as_str()).push(")");
    }
}

/// `folder_id = ? AND sort = ? AND (lo_*) = (…)`: one bucket's rows.
fn push_is(q: &mut Sql, folder_id: i64, order: Order, b: &Bucket) {
    q.push(" folder_id = ").bind(folder_id).push(" AND sort = ").bind(order.code());
    q.push(" AND lo_int = ").bind(b.lo_int).push(" AND lo_text = ").bind(b.lo_text.as_str());
    q.push(" AND lo_name = ").bind(b.lo_name.as_str());
}

/// The counts of a folder's buckets of one order, first key first: one row of text from the
/// database. A thousand buckets read as rows cost 3.7 ms a page on SQLite, their running sum
/// by a window function 4 ms, the list of counts 1.5 ms (a million files; `scripts/bench-lists`).
pub(super) async fn counts(tx: &mut Tx, folder_id: i64, order: Order) -> sqlx::Result<Vec<i64>> {
    let list = match tx.dialect() {
        Dialect::Sqlite => "group_concat(n, ',' ORDER BY lo_int, lo_text, lo_name)",
        Dialect::Postgres => "string_agg(CAST(n AS TEXT), ',' ORDER BY lo_int, lo_text, lo_name)",
    };
    let q = Sql::new(
        tx.dialect(),
        &format!(
            "SELECT COALESCE({list}, '') AS counts FROM (SELECT lo_int, lo_text, lo_name, CAST(SUM(n) AS BIGINT) AS n \
             FROM vault_buckets WHERE folder_id = ? AND sort = ? GROUP BY lo_int, lo_text, lo_name) AS b"
        ),
    )
    .arg(folder_id)
    .arg(order.code());
    let (text,): (String,) = tx.exec().row(&q).await?.unwrap_or_default();
    text.split(',')
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().map_err(|e| sqlx::Error::Decode(format!("a bucket's count {n:?}: {e}").into())))
        .collect()
}

/// The `nth` bucket of a folder's order, first key first (the order of [`counts`]; the place
/// `counted::position` finds in them).
pub(super) async fn nth(tx: &mut Tx, folder_id: i64, order: Order, nth: usize) -> sqlx::Result<Option<Bucket>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT lo_int, lo_text, lo_name, CAST(SUM(n) AS BIGINT) AS n FROM vault_buckets WHERE folder_id = ? AND sort = ? \
         GROUP BY lo_int, lo_text, lo_name ORDER BY lo_int, lo_text, lo_name LIMIT 1 OFFSET ?",
    )
    .arg(folder_id)
    .arg(order.code())
    .arg(nth as i64);
    tx.exec().row(&q).await
}
