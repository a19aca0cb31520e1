//! Counted buckets: the offset interface's index for deposits. Neither SQLite nor PostgreSQL
//! counts B-tree entries, so `count(*)` and `OFFSET` cost the rows they pass (at 1,000,000
//! deposits: a count read every row, page 40,000 skipped 999,975). Here each order of the list
//! (created, amount) is cut into buckets of about `BUCKET_ROWS` rows by their first key; each
//! bucket counts its rows per partition (all, a status, a service type, both). The total is a
//! sum of bucket counts, the row at any position a seek to its bucket's first key plus a skip
//! of fewer than `2 × BUCKET_ROWS` entries of the partition's index — so page 40,000 costs
//! what page 1 costs (`scripts/bench-deposits`).
//!
//! Unlike the accounts' marks (rebuilt after each import), deposits are written one at a time,
//! so the counts are kept current by every write in its own transaction: +1 in the new row's
//! bucket, a move from one status's count to another's, and a split of a bucket that has grown
//! to twice the size (new rows of the created order all land in the last bucket). Writers take
//! turns on `deposit_index_state` first: a split counts its half from the table, which must not
//! miss a row another writer has inserted but not yet counted.

use moneydesk_model::deposits::{DepositStatus, ServiceType};

use crate::storage::{Sql, Tx};

/// Rows per bucket after a split; a bucket splits when it holds twice this. The cost of a
/// page is about (rows / BUCKET_ROWS) bucket counts summed plus BUCKET_ROWS entries skipped:
/// a thousand balances the two at a million deposits.
pub const BUCKET_ROWS: i64 = 1024;

/// An order of the list: its code in `deposit_buckets.sort` and its key column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    Created,
    Amount,
}

impl Order {
    pub(super) const ALL: [Order; 2] = [Order::Created, Order::Amount];

    fn code(self) -> i64 {
        match self {
            Order::Created => 0,
            Order::Amount => 1,
        }
    }

    pub(super) fn column(self) -> &'static str {
        match self {
            Order::Created => "created_at",
            Order::Amount => "amount_cents",
        }
    }
}

/// A key of an order as `deposit_buckets` stores it: `created_at` as stored (RFC 3339 UTC,
/// fixed width), an amount as 19 zero-padded digits of cents (amounts are positive), so the
/// text order is the key order.
pub(super) fn key_text(order: Order, created_at: &str, amount_cents: i64) -> String {
    match order {
        Order::Created => created_at.to_string(),
        Order::Amount => amount_key(amount_cents),
    }
}

pub(super) fn amount_key(cents: i64) -> String {
    format!("{:019}", cents.max(0))
}

/// A bucket's first key; the first bucket of an order starts before every row.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub(super) struct Bucket {
    pub lo_key: String,
    pub lo_id: i64,
    pub n: i64,
}

impl Bucket {
    fn is_first(&self) -> bool {
        self.lo_key.is_empty() && self.lo_id == 0
    }
}

/// `AND (col, id) >= (lo)` (nothing for the first bucket), with the key bound as its type.
pub(super) fn push_from(q: &mut Sql, order: Order, b: &Bucket) {
    if b.is_first() {
        return;
    }
    q.push(format_args!(" AND ({}, id) >= (", order.column()));
    push_key(q, order, &b.lo_key);
    q.push(", ").bind(b.lo_id).push(")");
}

fn push_key(q: &mut Sql, order: Order, key: &str) {
    match order {
        Order::Created => q.bind(key),
        Order::Amount => q.bind(key.parse::<i64>().unwrap_or(0)),
    };
}

/// The partitions a deposit counts in: all (0), its status (100 + s), its service type
/// (200 + t), both (1000 + 10 s + t). An unknown value counts in a partition no filter reads.
pub(super) fn parts(status: &str, service_type: &str) -> [i64; 4] {
    let s = DepositStatus::ALL.iter().position(|v| v.as_str() == status).unwrap_or(90) as i64;
    let t = ServiceType::ALL.iter().position(|v| v.as_str() == service_type).unwrap_or(9) as i64;
    [0, 100 + s, 200 + t, 1000 + 10 * s + t]
}

/// The partition a list filter reads.
pub(super) fn part_of(status: Option<&str>, service_type: Option<&str>) -> i64 {
    let [_, s, t, both] = parts(status.unwrap_or(""), service_type.unwrap_or(""));
    match (status, service_type) {
        (None, None) => 0,
        (Some(_), None) => s,
        (None, Some(_)) => t,
        (Some(_), Some(_)) => both,
    }
}

/// `AND status = ? AND service_type = ?` for the filters given.
pub(super) fn push_part(q: &mut Sql, status: Option<&str>, service_type: Option<&str>) {
    if let Some(s) = status {
        q.push(" AND status = ").bind(s);
    }
    if let Some(t) = service_type {
        q.push(" AND service_type = ").bind(t);
    }
}

/// Takes the deposit writers' turn (the first write of a transaction that writes deposits),
/// and answers whether the buckets are built (when not, writes leave them to the rebuild).
pub(super) async fn take_turn(tx: &mut Tx) -> sqlx::Result<bool> {
    let q = Sql::new(tx.dialect(), "UPDATE deposit_index_state SET writes = writes + 1 WHERE id = 1");
    tx.exec().execute(&q).await?;
    built(tx).await
}

pub(super) async fn built(tx: &mut Tx) -> sqlx::Result<bool> {
    let q = Sql::new(tx.dialect(), "SELECT built FROM deposit_index_state WHERE id = 1");
    Ok(tx.exec().int(&q).await? == 1)
}

/// The keys of a deposit that the buckets count.
#[derive(Debug, Clone)]
pub(super) struct Counted<'a> {
    pub id: i64,
    pub created_at: &'a str,
    pub amount_cents: i64,
    pub status: &'a str,
    pub service_type: &'a str,
}

/// Counts a new deposit (after its insert, in its transaction), splitting a bucket that has
/// grown to twice `bucket_rows`.
pub(super) async fn added(tx: &mut Tx, d: &Counted<'_>, bucket_rows: i64) -> sqlx::Result<()> {
    for order in Order::ALL {
        let b = bucket_of(tx, order, d).await?;
        let changes: Vec<(i64, i64)> = parts(d.status, d.service_type).into_iter().map(|p| (p, 1)).collect();
        add(tx, order, &b, &changes).await?;
        if b.n + 1 > 2 * bucket_rows {
            split(tx, order, &b, bucket_rows).await?;
        }
    }
    Ok(())
}

/// Moves a deposit's counts from its old status to its new one.
pub(super) async fn moved(tx: &mut Tx, d: &Counted<'_>, from_status: &str) -> sqlx::Result<()> {
    if from_status == d.status {
        return Ok(());
    }
    let [_, old_s, _, old_both] = parts(from_status, d.service_type);
    let [_, new_s, _, new_both] = parts(d.status, d.service_type);
    let changes = [(old_s, -1), (old_both, -1), (new_s, 1), (new_both, 1)];
    for order in Order::ALL {
        let b = bucket_of(tx, order, d).await?;
        add(tx, order, &b, &changes).await?;
    }
    Ok(())
}

/// The bucket (of partition 0, with its count) a row of `order` lies in.
async fn bucket_of(tx: &mut Tx, order: Order, d: &Counted<'_>) -> sqlx::Result<Bucket> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT lo_key, lo_id, n FROM deposit_buckets WHERE sort = ? AND part = 0 AND (lo_key, lo_id) <= (?, ?) \
         ORDER BY lo_key DESC, lo_id DESC LIMIT 1",
    )
    .arg(order.code())
    .arg(key_text(order, d.created_at, d.amount_cents))
    .arg(d.id);
    // The rebuild always writes the first bucket, so a built index has one for every row.
    tx.exec().row(&q).await?.ok_or(sqlx::Error::RowNotFound)
}

/// Adds `delta` to the bucket's count in each partition (a count not yet kept starts at 0).
async fn add(tx: &mut Tx, order: Order, b: &Bucket, changes: &[(i64, i64)]) -> sqlx::Result<()> {
    let mut q = Sql::new(tx.dialect(), "INSERT INTO deposit_buckets (sort, part, lo_key, lo_id, n) VALUES ");
    for (i, (part, delta)) in changes.iter().enumerate() {
        q.push(if i == 0 { "" } else { ", " }).bind_row([
            order.code().into(),
            (*part).into(),
            b.lo_key.as_str().into(),
            b.lo_id.into(),
            (*delta).into(),
        ]);
    }
    q.push(" ON CONFLICT (sort, part, lo_key, lo_id) DO UPDATE SET n = deposit_buckets.n + excluded.n");
    tx.exec().execute(&q).await.map(|_| ())
}

/// Splits bucket `b` at its `bucket_rows`-th row: the upper half becomes a bucket of its own,
/// counted per partition from the table (fewer than `2 × bucket_rows` rows of an index).
async fn split(tx: &mut Tx, order: Order, b: &Bucket, bucket_rows: i64) -> sqlx::Result<()> {
    let col = order.column();
    let d = tx.dialect();
    let mut q = Sql::new(d, &format!("SELECT {col}, id FROM deposits WHERE TRUE"));
    push_from(&mut q, order, b);
    q.push(format_args!(" ORDER BY {col}, id LIMIT 1 OFFSET ")).bind(bucket_rows);
    let at: Option<(String, i64)> = match order {
        Order::Created => tx.exec().row(&q).await?,
        Order::Amount => tx.exec().row::<(i64, i64)>(&q).await?.map(|(k, id)| (amount_key(k), id)),
    };
    let Some((key, id)) = at else { return Ok(()) };
    let upper = Bucket { lo_key: key, lo_id: id, n: 0 };
    let next = Sql::new(
        d,
        "SELECT lo_key, lo_id, n FROM deposit_buckets WHERE sort = ? AND part = 0 AND (lo_key, lo_id) > (?, ?) \
         ORDER BY lo_key, lo_id LIMIT 1",
    )
    .arg(order.code())
    .arg(b.lo_key.as_str())
    .arg(b.lo_id);
    let next: Option<Bucket> = tx.exec().row(&next).await?;
    let mut count = Sql::new(d, "SELECT status, service_type, count(*) FROM deposits WHERE TRUE");
    push_from(&mut count, order, &upper);
    if let Some(next) = &next {
        count.push(format_args!(" AND ({col}, id) < ("));
        push_key(&mut count, order, &next.lo_key);
        count.push(", ").bind(next.lo_id).push(")");
    }
    count.push(" GROUP BY status, service_type");
    let groups: Vec<(String, String, i64)> = tx.exec().rows(&count).await?;
    let mut per_part: Vec<(i64, i64)> = Vec::new();
    for (status, service_type, n) in groups {
        for p in parts(&status, &service_type) {
            match per_part.iter_mut().find(|(q, _)| *q == p) {
                Some((_, total)) => *total += n,
                None => per_part.push((p, n)),
            }
        }
    }
    add(tx, order, &upper, &per_part).await?;
    let lower: Vec<(i64, i64)> = per_part.iter().map(|&(p, n)| (p, -n)).collect();
    add(tx, order, b, &lower).await
}

/// Recounts every bucket from the table and marks the index built (after an upgrade, or when
/// the counts are doubted). Takes the writers' turn, so no write is counted twice or missed.
pub(super) async fn rebuild(tx: &mut Tx, bucket_rows: i64) -> sqlx::Result<()> {
    let d = tx.dialect();
    take_turn(tx).await?;
    tx.exec().execute(&Sql::new(d, "DELETE FROM deposit_buckets")).await?;
    for order in Order::ALL {
        let col = order.column();
        let mut bucket = Bucket { lo_key: String::new(), lo_id: 0, n: 0 };
        let mut counts: Vec<(i64, i64)> = vec![(0, 0)];
        let mut after: Option<(String, i64)> = None;
        loop {
            let mut q = Sql::new(d, &format!("SELECT {col}, id, status, service_type FROM deposits WHERE TRUE"));
            if let Some((key, id)) = after.take() {
                q.push(format_args!(" AND ({col}, id) > ("));
                push_key(&mut q, order, &key);
                q.push(", ").bind(id).push(")");
            }
            q.push(format_args!(" ORDER BY {col}, id LIMIT {REBUILD_CHUNK}"));
            let rows: Vec<(String, i64, String, String)> = match order {
                Order::Created => tx.exec().rows(&q).await?,
                Order::Amount => tx
                    .exec()
                    .rows::<(i64, i64, String, String)>(&q)
                    .await?
                    .into_iter()
                    .map(|(k, id, s, t)| (amount_key(k), id, s, t))
                    .collect(),
            };
            let read = rows.len() as i64;
            for (key, id, status, service_type) in rows {
                if bucket.n == bucket_rows {
                    add(tx, order, &bucket, &counts).await?;
                    bucket = Bucket { lo_key: key.clone(), lo_id: id, n: 0 };
                    counts.clear();
                }
                bucket.n += 1;
                for p in parts(&status, &service_type) {
                    match counts.iter_mut().find(|(q, _)| *q == p) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((p, 1)),
                    }
                }
                after = Some((key, id));
            }
            if read < REBUILD_CHUNK {
                break;
            }
        }
        add(tx, order, &bucket, &counts).await?;
    }
    let done = Sql::new(d, "UPDATE deposit_index_state SET built = 1 WHERE id = 1");
    tx.exec().execute(&done).await.map(|_| ())
}

/// Rows read per step of a rebuild.
const REBUILD_CHUNK: i64 = 20_000;

/// The buckets of one partition in one order, first key first (empty counts left out).
pub(super) async fn of_part(tx: &mut Tx, order: Order, part: i64) -> sqlx::Result<Vec<Bucket>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT lo_key, lo_id, n FROM deposit_buckets WHERE sort = ? AND part = ? AND n > 0 ORDER BY lo_key, lo_id",
    )
    .arg(order.code())
    .arg(part);
    tx.exec().rows(&q).await
}

/// The bucket holding position `pos` (0-based, ascending) of a partition, and how many of the
/// partition's rows in it come before that position.
pub(super) fn locate(buckets: &[Bucket], pos: i64) -> Option<(&Bucket, i64)> {
    crate::storage::counted::position(buckets.iter().map(|b| b.n), pos).map(|(i, skip)| (&buckets[i], skip))
}
