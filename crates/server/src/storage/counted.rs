//! Counted ranges: deep pages of the append-ordered lists (audit records, events, ledger
//! entries) at the cost of the first, and their totals without `count(*)`.
//!
//! Neither SQLite nor PostgreSQL counts B-tree entries, so `count(*)` and `OFFSET` cost the
//! rows they pass. These lists are ordered by a key the database assigns on insert (`id`,
//! `seq`), so their rows can be counted by fixed ranges of that key: `list_counts` holds, for
//! each list, partition (`part`: what a filter narrows to, such as one user's records or one
//! event type; `''` for all) and range of [`WIDTH`] keys (`bucket` = key / WIDTH), how many
//! rows there are. A page's total is the sum of its partitions' counts, and its rows lie
//! between two keys found from the cumulative counts ([`locate`]): the rows query reads only
//! that window, fewer than `WIDTH` entries per partition plus the page, however deep.
//!
//! The counts are written by the database itself: each list's insert and delete triggers add
//! a row of `+1` or `-1` (migration 0028), in the writer's own transaction, so a total and its
//! page always agree in a snapshot and no writer can forget them. Adding rows rather than
//! updating one counter row keeps concurrent writers apart on PostgreSQL (an UPDATE would hold
//! the bucket's row until commit: every audited write would queue behind every other). The
//! added rows are folded into one per range by [`compact`], every few seconds in each
//! instance (one at a time); it deletes and re-inserts exactly what it removed, so counts stay
//! exact while writers keep writing.

use std::collections::BTreeMap;

use super::sql::{Arg, Record};
use super::{Database, Sql, Tx};

/// Keys per range. It appears in the triggers' SQL (`/ 1024`, migration 0028; a test holds
/// the two together). A page costs about (rows / WIDTH) counts summed plus fewer than WIDTH
/// index entries skipped per partition: at a million rows, a thousand of each.
pub const WIDTH: i64 = 1024;

/// The key window a page's rows lie in, and how many of the window's rows to skip in the
/// list's order: `ORDER BY key DESC|ASC LIMIT size OFFSET skip` over `from <= key < to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub from: i64,
    pub to: i64,
    pub skip: i64,
}

/// A page's place in its partitions' counts: the total and, unless the page lies past the
/// end, the window holding its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    pub total: i64,
    pub window: Option<Window>,
}

/// Finds the window of rows `offset .. offset + limit` (in key order, descending when `desc`)
/// from the per-range counts (`(bucket, n)`, any order, no bucket twice).
///
/// ```
/// use moneydesk_server::storage::counted::{locate, Window, WIDTH};
/// // 3 rows in keys 0..1024, 5 in 1024..2048: newest first, rows 4..6 are the second range's
/// // last one and the first range's first two.
/// let spot = locate(&[(0, 3), (1, 5)], 4, 3, true);
/// assert_eq!(spot.total, 8);
/// assert_eq!(spot.window, Some(Window { from: 0, to: 2 * WIDTH, skip: 4 }));
/// assert_eq!(locate(&[(0, 3)], 3, 10, true).window, None);
/// ```
pub fn locate(counts: &[(i64, i64)], offset: i64, limit: i64, desc: bool) -> Spot {
    let mut ranges: Vec<(i64, i64)> = counts.iter().copied().filter(|(_, n)| *n > 0).collect();
    ranges.sort_unstable_by_key(|(b, _)| *b);
    if desc {
        ranges.reverse();
    }
    let total = ranges.iter().map(|(_, n)| n).sum();
    if offset >= total || limit <= 0 {
        return Spot { total, window: None };
    }
    // The first range holding row `offset`, then the range holding the page's last row.
    let mut before = 0;
    let mut first = 0;
    while before + ranges[first].1 <= offset {
        before += ranges[first].1;
        first += 1;
    }
    let skip = offset - before;
    let mut last = first;
    let mut through = before + ranges[first].1;
    while through < offset + limit && last + 1 < ranges.len() {
        last += 1;
        through += ranges[last].1;
    }
    let (lo, hi) = if desc { (ranges[last].0, ranges[first].0) } else { (ranges[first].0, ranges[last].0) };
    Spot { total, window: Some(Window { from: lo * WIDTH, to: (hi + 1) * WIDTH, skip }) }
}

/// Which of a list of counts (buckets in key order) holds ascending position `pos` (0-based),
/// and how many of its rows come before that position: the search every counted index (the
/// deposits' buckets, the vault's) makes once its counts are read.
///
/// ```
/// use moneydesk_server::storage::counted::position;
/// // Buckets of 3, 0 and 5 rows: position 4 is the third bucket's second row.
/// let counts = [3, 0, 5];
/// assert_eq!(position(counts, 0), Some((0, 0)));
/// assert_eq!(position(counts, 2), Some((0, 2)));
/// assert_eq!(position(counts, 3), Some((2, 0)));
/// assert_eq!(position(counts, 4), Some((2, 1)));
/// assert_eq!(position(counts, 7), Some((2, 4)));
/// assert_eq!(position(counts, 8), None);
/// assert_eq!(position([], 0), None);
/// ```
pub fn position(counts: impl IntoIterator<Item = i64>, pos: i64) -> Option<(usize, i64)> {
    let mut before = 0;
    for (i, n) in counts.into_iter().enumerate() {
        if pos < before + n {
            return Some((i, pos - before));
        }
        before += n;
    }
    None
}

#[derive(sqlx::FromRow)]
struct Count {
    bucket: i64,
    n: i64,
}

/// The per-range counts of a list's partitions (summed over the partitions), in the
/// transaction's snapshot.
pub async fn counts(tx: &mut Tx, list: &str, parts: &[&str]) -> sqlx::Result<Vec<(i64, i64)>> {
    if parts.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = Sql::new(
        tx.dialect(),
        "SELECT bucket, CAST(SUM(n) AS BIGINT) AS n FROM list_counts WHERE list = ? AND part IN (",
    )
    .arg(list);
    q.bind_list(parts.iter().copied()).push(") GROUP BY bucket");
    let rows: Vec<Count> = tx.exec().rows(&q).await?;
    Ok(rows.into_iter().map(|c| (c.bucket, c.n)).collect())
}

/// [`counts`] then [`locate`]: where a page of a list's partitions is.
pub async fn spot(tx: &mut Tx, list: &str, parts: &[&str], offset: i64, limit: i64, desc: bool) -> sqlx::Result<Spot> {
    Ok(locate(&counts(tx, list, parts).await?, offset, limit, desc))
}

/// A page of a list, newest first, and its total, in `tx`'s snapshot: [`spot`] over the
/// partitions `parts`, then `select` (`SELECT … FROM` the table) narrowed by [`push_page`] to
/// the window (`values`: the partition values the rows are read by, `None` for every row of the
/// window).
#[allow(clippy::too_many_arguments)]
pub async fn page<T: Record, A: Into<Arg> + Clone>(
    tx: &mut Tx,
    list: &str,
    parts: &[&str],
    select: &str,
    table: Table<'_>,
    values: Option<&[A]>,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(i64, Vec<T>)> {
    let spot = spot(tx, list, parts, offset, limit, true).await?;
    let Some(w) = spot.window else { return Ok((spot.total, Vec::new())) };
    let mut q = Sql::new(tx.dialect(), select);
    push_page(tx, &mut q, table, values, w, limit).await?;
    Ok((spot.total, tx.exec().rows(&q).await?))
}

/// Where a list's rows are, for [`push_page`]: its table, its key, the column its partitions
/// are values of, and how the rows query names the table (`""`, or an alias such as `"e."`).
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    pub name: &'a str,
    pub key: &'a str,
    pub part: &'a str,
    pub alias: &'a str,
}

/// Appends to a rows query (`SELECT … FROM` the table) the `WHERE` and `ORDER BY` of the page
/// in window `w` found by [`locate`], newest first: every row of the window (`values` None),
/// the rows of one partition value (one ordered read of its index, skipped to the page), or of
/// several. Several are read one index at a time in key order, at most `skip + limit` entries
/// each, and merged into the page's keys: a single `IN (...)` over several values cannot be
/// read from one index in key order, so it sorted the whole window (at 20,000 events of five
/// types, page 1,000 cost 5× page 1; `scripts/bench-lists`).
pub async fn push_page<A: Into<Arg> + Clone>(
    tx: &mut Tx,
    q: &mut Sql,
    table: Table<'_>,
    values: Option<&[A]>,
    w: Window,
    limit: i64,
) -> sqlx::Result<()> {
    let Table { key, part, alias, .. } = table;
    q.push(" WHERE ");
    match values {
        Some(many @ [_, _, ..]) => {
            let keys = page_keys(tx, table, many, w, limit).await?;
            if keys.is_empty() {
                // PostgreSQL refuses an empty `IN ()`.
                q.push("1 = 0");
            } else {
                q.push(format_args!("{alias}{key} IN (")).bind_list(keys).push(")");
            }
            q.push(format_args!(" ORDER BY {alias}{key} DESC"));
            return Ok(());
        }
        Some([]) => {
            q.push("1 = 0");
            return Ok(());
        }
        _ => {}
    }
    // The window's rows are skipped in the key's index alone (the partition's, or the table's
    // key), and only the page's rows are read whole; skipped in the rows query itself, each of
    // up to 1,023 rows passed was a row read (on PostgreSQL a heap fetch). On PostgreSQL at a
    // million rows the trash's last page went from 8.9 to 5.9 ms and the webhook log's from
    // 9.2 to 6.6 ms; last pages of the densest partitions still cost 2.3–3.0× page 1
    // (bench/results/lists.md, "push_page skips in the index").
    let name = table.name;
    q.push(format_args!("{alias}{key} IN (SELECT {key} FROM {name} WHERE "));
    if let Some([one]) = values {
        q.push(format_args!("{part} = ")).bind(one.clone()).push(" AND ");
    }
    q.push(format_args!("{key} >= ")).bind(w.from).push(format_args!(" AND {key} < ")).bind(w.to);
    q.push(format_args!(" ORDER BY {key} DESC LIMIT ")).bind(limit).push(" OFFSET ").bind(w.skip);
    q.push(format_args!(") ORDER BY {alias}{key} DESC"));
    Ok(())
}

/// The keys of the page, from each value's index read in key order and merged.
async fn page_keys<A: Into<Arg> + Clone>(
    tx: &mut Tx,
    table: Table<'_>,
    values: &[A],
    w: Window,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    let Table { name, key, part, .. } = table;
    let mut q = Sql::new(tx.dialect(), "");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            q.push(" UNION ALL ");
        }
        q.push(format_args!("SELECT k FROM (SELECT {key} AS k FROM {name} WHERE {part} = "));
        q.bind(v.clone()).push(format_args!(" AND {key} >= ")).bind(w.from);
        q.push(format_args!(" AND {key} < ")).bind(w.to);
        q.push(format_args!(" ORDER BY {key} DESC LIMIT ")).bind(w.skip + limit).push(format_args!(") AS p{i}"));
    }
    q.push(" ORDER BY k DESC LIMIT ").bind(limit).push(" OFFSET ").bind(w.skip);
    tx.exec().ints(&q).await
}

#[derive(sqlx::FromRow)]
struct Gone {
    list: String,
    part: String,
    bucket: i64,
    n: i64,
}

/// Count rows a fold's transaction reads at most (about a fifth of a second of SQLite's one
/// write lock, at the 10 µs a row the bench's fold of five million took): a burst of writes
/// is folded in turns, never in one transaction that would keep other writers waiting past
/// their busy timeout.
const FOLD_ROWS: i64 = 20_000;

/// Folds the counts added since `after` (a `list_counts.seq`; 0 for all) into one row per
/// range, [`FOLD_ROWS`] at a time, each its own transaction. Answers the highest seq folded,
/// the next call's `after`. A row added below `after` by a transaction still open then
/// (PostgreSQL hands out sequence values before commit) is folded the next time its range is.
pub async fn compact(db: &Database, after: i64) -> sqlx::Result<i64> {
    compact_by(db, after, FOLD_ROWS).await
}

/// [`compact`], `rows` count rows a transaction (tests fold in many small turns).
pub async fn compact_by(db: &Database, after: i64, rows: i64) -> sqlx::Result<i64> {
    // Read first, outside a write transaction: a round with nothing new never waits for (or
    // holds) SQLite's one write lock.
    let top = db.acquire().await?.exec().int(&db.sql("SELECT COALESCE(MAX(seq), 0) FROM list_counts")).await?;
    let mut done = after;
    while done < top {
        let upto = top.min(done + rows.max(1));
        if !fold(db, done, upto).await? {
            return Ok(done);
        }
        done = upto;
    }
    Ok(done.max(top))
}

/// Folds the ranges touched by the count rows `after < seq <= upto`; false when another
/// instance is folding.
async fn fold(db: &Database, after: i64, upto: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    // One folder at a time on PostgreSQL (two DELETEs of the same rows in different orders
    // could deadlock); another instance folding now leaves this round to it. SQLite's writers
    // take turns already.
    if db.dialect() == super::Dialect::Postgres {
        let q = db.sql("SELECT CAST(CASE WHEN pg_try_advisory_xact_lock(5028) THEN 1 ELSE 0 END AS BIGINT)");
        if tx.exec().int(&q).await? == 0 {
            return Ok(false);
        }
    }
    // The ranges touched that hold more than one row; deleted with what they held, which is
    // then summed: exactly what was removed is put back.
    let q = db
        .sql(
            "DELETE FROM list_counts WHERE (list, part, bucket) IN (SELECT list, part, bucket FROM list_counts \
             WHERE (list, part, bucket) IN (SELECT list, part, bucket FROM list_counts WHERE seq > ? AND seq <= ?) \
             GROUP BY list, part, bucket HAVING COUNT(*) > 1) RETURNING list, part, bucket, n",
        )
        .arg(after)
        .arg(upto);
    let gone: Vec<Gone> = tx.exec().rows(&q).await?;
    let mut sums: BTreeMap<(String, String, i64), i64> = BTreeMap::new();
    for g in gone {
        *sums.entry((g.list, g.part, g.bucket)).or_default() += g.n;
    }
    let kept: Vec<_> = sums.into_iter().filter(|(_, n)| *n != 0).collect();
    // Bound parameters per statement: SQLite allows 32,766, PostgreSQL 65,535.
    for chunk in kept.chunks(4096) {
        let mut q = db.sql("INSERT INTO list_counts (list, part, bucket, n) VALUES ");
        for (i, ((list, part, bucket), n)) in chunk.iter().enumerate() {
            if i > 0 {
                q.push(", ");
            }
            q.bind_row([list.as_str().into(), part.as_str().into(), (*bucket).into(), (*n).into()]);
        }
        tx.exec().execute(&q).await?;
    }
    tx.commit_unrecorded().await?;
    Ok(true)
}

/// How many count rows a list has: what its pages sum (a benchmark's and a test's view).
pub async fn rows_of(db: &Database, list: &str) -> sqlx::Result<i64> {
    let q = db.sql("SELECT COUNT(*) FROM list_counts WHERE list = ?").arg(list);
    db.acquire().await?.exec().int(&q).await
}

/// Folds the counts every five seconds, in each instance: instances take turns within
/// [`compact`] (no claim across instances to write), and a round with nothing new takes no
/// write lock. Under a thousand
/// writes a second, five seconds of them is at most ten thousand rows for a page to sum (a few
/// milliseconds) before they are folded.
pub fn spawn_compactor(db: Database) {
    spawn_rounds(db, "folding the list counts failed; pages sum more rows until it succeeds", |db, seen| async move {
        compact(&db, seen).await
    });
}

/// Runs `round(db, seen)` every five seconds, in this instance, each round given the seq the
/// last one answered (0 first); a failure is logged as `failed` and the next round starts from
/// the same seq. The loop of every compactor of counts (these, the vault's buckets).
pub fn spawn_rounds<F, Fut>(db: Database, failed: &'static str, round: F)
where
    F: Fn(Database, i64) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = sqlx::Result<i64>> + Send,
{
    let every = std::time::Duration::from_secs(5);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut seen = 0;
        loop {
            tick.tick().await;
            match round(db.clone(), seen).await {
                Ok(top) => seen = top,
                Err(e) => tracing::warn!(error = %e, "{failed}"),
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row position agrees with a plain walk over the same rows, both directions.
    #[test]
    fn every_window_holds_its_page() {
        // Keys of rows, one partition: sparse, dense, gaps of empty ranges.
        let keys: Vec<i64> = (0..40).map(|i| i * 37 % 5000 + (i / 7) * 3000).collect();
        let mut counts: BTreeMap<i64, i64> = BTreeMap::new();
        for k in &keys {
            *counts.entry(k / WIDTH).or_default() += 1;
        }
        let counts: Vec<(i64, i64)> = counts.into_iter().collect();
        for desc in [true, false] {
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            if desc {
                sorted.reverse();
            }
            for offset in 0..45 {
                for limit in [1, 3, 10, 50] {
                    let spot = locate(&counts, offset, limit, desc);
                    assert_eq!(spot.total, keys.len() as i64);
                    let want: Vec<i64> = sorted.iter().copied().skip(offset as usize).take(limit as usize).collect();
                    let Some(w) = spot.window else {
                        assert!(want.is_empty(), "offset {offset}: no window but rows {want:?}");
                        continue;
                    };
                    let got: Vec<i64> = sorted
                        .iter()
                        .copied()
                        .filter(|k| (w.from..w.to).contains(k))
                        .skip(w.skip as usize)
                        .take(limit as usize)
                        .collect();
                    assert_eq!(got, want, "offset {offset} limit {limit} desc {desc}: {w:?}");
                }
            }
        }
    }

    /// The triggers count by the same width as `locate` reads.
    #[test]
    fn the_triggers_count_by_the_width() {
        for backend in ["sqlite", "postgres"] {
            let dir = format!("{}/migrations/{backend}", env!("CARGO_MANIFEST_DIR"));
            let mut divisions = Vec::new();
            for entry in std::fs::read_dir(&dir).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                if text.contains("INSERT INTO list_counts") {
                    divisions.extend(text.match_indices(" / ").map(|(i, _)| text[i + 3..i + 7].to_string()));
                }
            }
            assert!(divisions.len() >= 10, "{dir}: the triggers divide keys into ranges");
            assert!(divisions.iter().all(|d| *d == WIDTH.to_string()), "{dir}: {divisions:?}");
        }
    }
}
