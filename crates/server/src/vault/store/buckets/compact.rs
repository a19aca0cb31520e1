//! The buckets' compactor: folds the triggers' rows, cuts the buckets grown too large, drops
//! the empty ones (see the parent module for why and under which locks).

use std::collections::BTreeMap;

use super::{push_bound, push_from, push_is, Bucket, Order, BUCKET_ROWS};
use crate::storage::{Database, Dialect, Sql, Tx};

/// The seqs of bucket rows a fold takes in one transaction (as `counted::FOLD_ROWS`).
const FOLD_ROWS: i64 = 20_000;

#[derive(sqlx::FromRow)]
struct Row {
    folder_id: i64,
    sort: i64,
    lo_int: i64,
    lo_text: String,
    lo_name: String,
    n: i64,
}

type Key = (i64, i64, i64, String, String);

impl Row {
    fn key(self) -> (Key, i64) {
        ((self.folder_id, self.sort, self.lo_int, self.lo_text, self.lo_name), self.n)
    }
}

/// Folds the bucket rows added since `after` (a `vault_buckets.seq`; 0 for all), then cuts
/// the buckets they touched that have grown past twice `bucket_rows` and drops the empty ones.
/// Answers the highest seq seen, the next call's `after`.
pub async fn compact(db: &Database, after: i64, bucket_rows: i64) -> sqlx::Result<i64> {
    // Read first, outside a write transaction: a round with nothing new takes no write lock.
    let top = db.acquire().await?.exec().int(&db.sql("SELECT COALESCE(MAX(seq), 0) FROM vault_buckets")).await?;
    let mut done = after;
    while done < top {
        let upto = top.min(done + FOLD_ROWS);
        let Some(due) = fold(db, done, upto, bucket_rows).await? else { return Ok(done) };
        for (folder_id, order, bucket) in due {
            recut(db, folder_id, order, &bucket, bucket_rows).await?;
        }
        done = upto;
    }
    Ok(done.max(top))
}

/// Takes the compactor's turn on PostgreSQL (one instance folds or cuts at a time: a fold and
/// another instance's cut of the same bucket would count it twice); false when another
/// instance has it and `wait` is false.
async fn take_turn(tx: &mut Tx, wait: bool) -> sqlx::Result<bool> {
    if tx.dialect() != Dialect::Postgres {
        return Ok(true);
    }
    let q = if wait {
        "SELECT CAST(1 AS BIGINT) FROM (SELECT pg_advisory_xact_lock(5032)) AS l"
    } else {
        "SELECT CAST(CASE WHEN pg_try_advisory_xact_lock(5032) THEN 1 ELSE 0 END AS BIGINT)"
    };
    Ok(tx.exec().int(&Sql::new(Dialect::Postgres, q)).await? == 1)
}

/// Folds the buckets touched by rows `after < seq <= upto` into one row each (a sum of zero
/// is kept: a bucket's bounds are dropped only under its folder's lock, by [`recut`]), and
/// answers the buckets touched since `after` that need a cut or a drop; None when another
/// instance is compacting.
async fn fold(
    db: &Database,
    after: i64,
    upto: i64,
    bucket_rows: i64,
) -> sqlx::Result<Option<Vec<(i64, Order, Bucket)>>> {
    let mut tx = db.begin().await?;
    if !take_turn(&mut tx, false).await? {
        return Ok(None);
    }
    // Deleted with what they held, which is then summed: exactly what was removed is put back.
    let q = Sql::new(
        tx.dialect(),
        &format!(
            "DELETE FROM vault_buckets WHERE ({GROUP}) IN (SELECT {GROUP} FROM vault_buckets WHERE ({GROUP}) IN \
             (SELECT {GROUP} FROM vault_buckets WHERE seq > ? AND seq <= ?) GROUP BY {GROUP} HAVING COUNT(*) > 1) \
             RETURNING {GROUP}, n"
        ),
    )
    .arg(after)
    .arg(upto);
    let gone: Vec<Row> = tx.exec().rows(&q).await?;
    let mut sums: BTreeMap<Key, i64> = BTreeMap::new();
    for (key, n) in gone.into_iter().map(Row::key) {
        *sums.entry(key).or_default() += n;
    }
    let sums: Vec<(Key, i64)> = sums.into_iter().collect();
    for chunk in sums.chunks(2048) {
        let mut q = Sql::new(tx.dialect(), &format!("INSERT INTO vault_buckets ({GROUP}, n) VALUES "));
        for (i, ((folder_id, sort, lo_int, lo_text, lo_name), n)) in chunk.iter().enumerate() {
            q.push(if i == 0 { "" } else { ", " }).bind_row([
                (*folder_id).into(),
                (*sort).into(),
                (*lo_int).into(),
                lo_text.as_str().into(),
                lo_name.as_str().into(),
                (*n).into(),
            ]);
        }
        tx.exec().execute(&q).await?;
    }
    // Every bucket touched since `after` has a row past it now (its own, or its fold's).
    let due = Sql::new(
        tx.dialect(),
        &format!(
            "SELECT {GROUP}, CAST(SUM(n) AS BIGINT) AS n FROM vault_buckets WHERE ({GROUP}) IN \
             (SELECT {GROUP} FROM vault_buckets WHERE seq > ?) GROUP BY {GROUP} HAVING SUM(n) > ? OR SUM(n) <= 0"
        ),
    )
    .arg(after)
    .arg(2 * bucket_rows);
    let due: Vec<Row> = tx.exec().rows(&due).await?;
    tx.commit_unrecorded().await?;
    Ok(Some(due.into_iter().map(|r| (r.folder_id, Order::from_code(r.sort), bucket_of(r))).collect()))
}

/// The columns that name a bucket in `vault_buckets`.
const GROUP: &str = "folder_id, sort, lo_int, lo_text, lo_name";

fn bucket_of(r: Row) -> Bucket {
    Bucket { lo_int: r.lo_int, lo_text: r.lo_text, lo_name: r.lo_name, n: r.n }
}

/// Cuts bucket `b` of a folder's order, `bucket_rows` files at a time off its front, while it
/// holds more than twice that, or drops it when it holds none. Each cut is its own short
/// transaction (one skip of `bucket_rows` index entries), so a folder counted whole by the
/// upgrade, or filled by one large transaction, is cut without holding the writers off: one
/// transaction cutting a million files held SQLite's write lock for 20 s.
async fn recut(db: &Database, folder_id: i64, order: Order, b: &Bucket, bucket_rows: i64) -> sqlx::Result<()> {
    let mut at = b.clone();
    while let Some(rest) = cut_once(db, folder_id, order, &at, bucket_rows).await? {
        at = rest;
    }
    Ok(())
}

/// One cut, under the compactor's turn and the folder's exclusive lock, with the bucket's count
/// read there (a writer that counted a file in it has committed; another instance may have cut
/// it already): the remainder when it may need another.
async fn cut_once(
    db: &Database,
    folder_id: i64,
    order: Order,
    b: &Bucket,
    bucket_rows: i64,
) -> sqlx::Result<Option<Bucket>> {
    let mut tx = db.begin().await?;
    take_turn(&mut tx, true).await?;
    let d = tx.dialect();
    if d == Dialect::Postgres {
        let lock = Sql::new(
            d,
            "SELECT CAST(1 AS BIGINT) FROM (SELECT pg_advisory_xact_lock(5032, CAST(? % 2147483647 AS INTEGER))) AS l",
        )
        .arg(folder_id);
        tx.exec().int(&lock).await?;
    }
    let mut q = Sql::new(d, "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM vault_buckets WHERE");
    push_is(&mut q, folder_id, order, b);
    let n = tx.exec().int(&q).await?;
    if n > 0 && n <= 2 * bucket_rows {
        return Ok(None);
    }
    let mut del = Sql::new(d, "DELETE FROM vault_buckets WHERE");
    push_is(&mut del, folder_id, order, b);
    tx.exec().execute(&del).await?;
    let rest = if n > 0 {
        // The file `bucket_rows` past the bucket's first key starts the rest; before the next
        // bucket's, or the counts are wrong and the bucket is counted again from the files.
        let mut q = Sql::new(d, "SELECT lo_int, lo_text, lo_name, CAST(0 AS BIGINT) AS n FROM vault_buckets WHERE");
        q.push(" folder_id = ").bind(folder_id).push(" AND sort = ").bind(order.code());
        q.push(" AND (lo_int, lo_text, lo_name) > (").bind(b.lo_int).push(", ").bind(b.lo_text.as_str());
        q.push(", ").bind(b.lo_name.as_str()).push(") ORDER BY lo_int, lo_text, lo_name LIMIT 1");
        let next: Option<Bucket> = tx.exec().row(&q).await?;
        let within = |q: &mut Sql| {
            q.bind(folder_id);
            push_from(q, order, b);
            if let Some(next) = &next {
                push_bound(q, order, next, "<");
            }
        };
        let mut q = Sql::new(
            d,
            &format!("SELECT {}, CAST(0 AS BIGINT) AS n FROM vault_files WHERE folder_id = ", order.key_select()),
        );
        within(&mut q);
        q.push(format_args!(" ORDER BY {} LIMIT 1 OFFSET ", order.columns())).bind(bucket_rows);
        match tx.exec().row::<Bucket>(&q).await? {
            Some(at) => {
                put(
                    &mut tx,
                    folder_id,
                    order,
                    &[Bucket { n: bucket_rows, ..b.clone() }, Bucket { n: n - bucket_rows, ..at.clone() }],
                )
                .await?;
                Some(at)
            }
            None => {
                tracing::warn!(
                    folder_id,
                    ?order,
                    counted = n,
                    "a vault bucket's count disagreed with its files; counted again"
                );
                let mut q = Sql::new(d, "SELECT COUNT(*) FROM vault_files WHERE folder_id = ");
                within(&mut q);
                let files = tx.exec().int(&q).await?;
                put(&mut tx, folder_id, order, &[Bucket { n: files, ..b.clone() }]).await?;
                None
            }
        }
    } else {
        None
    };
    tx.commit_unrecorded().await?;
    Ok(rest)
}

/// Writes buckets with their counts (an empty one is left out: its bounds need no row).
async fn put(tx: &mut Tx, folder_id: i64, order: Order, buckets: &[Bucket]) -> sqlx::Result<()> {
    let mut q =
        Sql::new(tx.dialect(), "INSERT INTO vault_buckets (folder_id, sort, lo_int, lo_text, lo_name, n) VALUES ");
    let mut any = false;
    for b in buckets.iter().filter(|b| b.n > 0) {
        q.push(if any { ", " } else { "" }).bind_row([
            folder_id.into(),
            order.code().into(),
            b.lo_int.into(),
            b.lo_text.as_str().into(),
            b.lo_name.as_str().into(),
            b.n.into(),
        ]);
        any = true;
    }
    if any {
        tx.exec().execute(&q).await?;
    }
    Ok(())
}

/// Compacts every five seconds, in each instance (instances take turns within [`compact`]).
pub fn spawn_compactor(db: Database) {
    let failed = "compacting the vault's buckets failed; pages skip more files until it succeeds";
    crate::storage::counted::spawn_rounds(db, failed, |db, seen| async move { compact(&db, seen, BUCKET_ROWS).await });
}
