//! Marks: the key of every `MARK_EVERY`-th row of each order, per status/type partition.
//! With them, the row at any position is a seek to the nearest mark plus a skip of fewer
//! than `MARK_EVERY` partition rows of a covering index, so page 50,000 costs what page 1
//! costs. Neither SQLite nor PostgreSQL has counted B-trees; this is the offset interface's
//! index. A mark's key is one BLOB-affinity column in SQLite (an integer or a text, as
//! bound) and two typed columns in PostgreSQL (`key_int`, `key_text`).

use super::{push_part, AccountSelection, Key, SortKey};
use crate::storage::sql::Arg;
use crate::storage::{Dialect, Sql, Tx};

/// Distance between marks.
pub const MARK_EVERY: i64 = 256;

/// Rows read per step of a rebuild, and marks written per INSERT.
const REBUILD_CHUNK: i64 = 20_000;
const MARK_BATCH: usize = 2_000;

/// Whether the marks describe the table as it is now.
pub(super) async fn valid(tx: &mut Tx) -> sqlx::Result<bool> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT CAST(version - marks_version AS BIGINT) FROM collection_versions WHERE name = 'accounts'",
    );
    Ok(tx.exec().int(&q).await? == 0)
}

fn push_key(qb: &mut Sql, key: Key) {
    match key {
        Key::Int(i) => qb.bind(i),
        Key::Text(t) => qb.bind(t),
    };
}

/// A key as read: `key_int` or `key_text`, by the order's type.
#[derive(sqlx::FromRow)]
struct KeyRow {
    n: i64,
    key_int: Option<i64>,
    key_text: Option<String>,
    seq: i64,
}

fn key_of(key_int: Option<i64>, key_text: Option<String>, sort: SortKey) -> Key {
    if sort.is_text() {
        Key::Text(key_text.unwrap_or_default())
    } else {
        Key::Int(key_int.unwrap_or_default())
    }
}

/// The `key_int, key_text` select list of a mark (`account_marks`'s key columns).
fn mark_key_columns(d: Dialect, sort: SortKey) -> &'static str {
    match (d, sort.is_text()) {
        (Dialect::Postgres, _) => "key_int, key_text",
        (Dialect::Sqlite, true) => "CAST(NULL AS BIGINT) AS key_int, sort_key AS key_text",
        (Dialect::Sqlite, false) => "sort_key AS key_int, CAST(NULL AS TEXT) AS key_text",
    }
}

/// The `key_int, key_text` select list of an accounts row's key in `sort`'s order.
fn row_key_columns(sort: SortKey) -> String {
    let col = sort.column();
    if sort.is_text() {
        format!("CAST(NULL AS BIGINT) AS key_int, {col} AS key_text")
    } else {
        format!("{col} AS key_int, CAST(NULL AS TEXT) AS key_text")
    }
}

/// `INDEXED BY` for reading `sort`'s order (with the selection's partition filters). SQLite
/// only: PostgreSQL's planner picks the (key, seq) index from the ORDER BY.
fn source(d: Dialect, sort: SortKey, sel: Option<&AccountSelection>) -> String {
    if d == Dialect::Postgres {
        return String::new();
    }
    match (sort.index(), sel.and_then(|s| s.status), sel.and_then(|s| s.typ)) {
        (Some(ix), _, _) => format!(" INDEXED BY {ix}"),
        // Insertion order within a status (or type) is that index's (code, seq) order.
        (None, Some(_), _) => " INDEXED BY accounts_by_status".into(),
        (None, None, Some(_)) => " INDEXED BY accounts_by_type".into(),
        (None, None, None) => " NOT INDEXED".into(),
    }
}

/// The seqs at positions [pos, pos + n) of the selection's sort within its partition.
pub(super) async fn seek(tx: &mut Tx, sel: &AccountSelection, pos: i64, n: i64) -> sqlx::Result<Vec<i64>> {
    let d = tx.dialect();
    let sort = sel.sort;
    let mark = Sql::new(
        d,
        &format!(
            "SELECT n, {}, seq FROM account_marks WHERE sort = ? AND part = ? AND n <= ? ORDER BY n DESC LIMIT 1",
            mark_key_columns(d, sort)
        ),
    )
    .arg(sort.code())
    .arg(sel.part())
    .arg(pos);
    let mark: Option<KeyRow> = tx.exec().row(&mark).await?;
    let col = sort.column();
    let mut qb = Sql::new(d, "SELECT seq FROM accounts");
    qb.push(source(d, sort, Some(sel))).push(" WHERE TRUE");
    let skip = match mark {
        Some(m) => {
            if sort == SortKey::Seq {
                qb.push(" AND seq >= ").bind(m.seq);
            } else {
                qb.push(format_args!(" AND ({col}, seq) >= ("));
                push_key(&mut qb, key_of(m.key_int, m.key_text, sort));
                qb.push(", ").bind(m.seq).push(")");
            }
            pos - m.n
        }
        None => pos,
    };
    push_part(&mut qb, sel);
    qb.push(format_args!(" ORDER BY {col}, seq LIMIT ")).bind(n).push(" OFFSET ").bind(skip);
    tx.exec().ints(&qb).await
}

/// How many rows of the selection's partition have createTime before `before_ms`.
pub(super) async fn rank_create(tx: &mut Tx, part: i64, sel: &AccountSelection, before_ms: i64) -> sqlx::Result<i64> {
    let d = tx.dialect();
    let key = match d {
        Dialect::Sqlite => "sort_key",
        Dialect::Postgres => "key_int",
    };
    let mark = Sql::new(
        d,
        &format!(
            "SELECT n, {}, seq FROM account_marks WHERE sort = ? AND part = ? AND {key} < ? \
             ORDER BY {key} DESC, seq DESC LIMIT 1",
            mark_key_columns(d, SortKey::Create)
        ),
    )
    .arg(SortKey::Create.code())
    .arg(part)
    .arg(before_ms);
    // No mark before the bound: the partition's first row is not before it either.
    let Some(m): Option<KeyRow> = tx.exec().row(&mark).await? else { return Ok(0) };
    let mut qb = Sql::new(d, "SELECT count(*) FROM accounts");
    qb.push(source(d, SortKey::Create, None)).push(" WHERE (create_ms, seq) >= (");
    qb.bind(m.key_int).push(", ").bind(m.seq).push(") AND create_ms < ").bind(before_ms);
    push_part(&mut qb, sel);
    let after = tx.exec().int(&qb).await?;
    Ok(m.n + after)
}

fn parts(status: i64, typ: i64) -> [usize; 4] {
    [0, 100 + status as usize, 200 + typ as usize, 1000 + 10 * status as usize + typ as usize]
}

/// One row of an order, as a rebuild reads it.
#[derive(sqlx::FromRow)]
struct OrderRow {
    key_int: Option<i64>,
    key_text: Option<String>,
    seq: i64,
    status_code: i64,
    type_code: i64,
}

/// Recomputes every mark from the table and records the version they describe.
pub(super) async fn rebuild(tx: &mut Tx) -> sqlx::Result<()> {
    let d = tx.dialect();
    tx.exec().execute(&Sql::new(d, "DELETE FROM account_marks")).await?;
    let mut pending: Vec<(i64, i64, i64, Key, i64)> = Vec::new();
    for sort in SortKey::ALL {
        let col = sort.column();
        let mut counters = vec![0i64; 1100];
        let mut after: Option<(Key, i64)> = None;
        loop {
            let mut qb =
                Sql::new(d, &format!("SELECT {}, seq, status_code, type_code FROM accounts", row_key_columns(sort)));
            qb.push(source(d, sort, None)).push(" WHERE TRUE");
            if let Some((key, seq)) = after.take() {
                if sort == SortKey::Seq {
                    qb.push(" AND seq > ").bind(seq);
                } else {
                    qb.push(format_args!(" AND ({col}, seq) > ("));
                    push_key(&mut qb, key);
                    qb.push(", ").bind(seq).push(")");
                }
            }
            qb.push(format_args!(" ORDER BY {col}, seq LIMIT {REBUILD_CHUNK}"));
            let rows: Vec<OrderRow> = tx.exec().rows(&qb).await?;
            let read = rows.len() as i64;
            for row in rows {
                let key = key_of(row.key_int, row.key_text, sort);
                for p in parts(row.status_code, row.type_code) {
                    if counters[p] % MARK_EVERY == 0 {
                        pending.push((sort.code(), p as i64, counters[p], key.clone(), row.seq));
                    }
                    counters[p] += 1;
                }
                after = Some((key, row.seq));
            }
            if pending.len() >= MARK_BATCH {
                write_marks(tx, &mut pending).await?;
            }
            if read < REBUILD_CHUNK {
                break;
            }
        }
    }
    write_marks(tx, &mut pending).await?;
    let done = Sql::new(d, "UPDATE collection_versions SET marks_version = version WHERE name = 'accounts'");
    tx.exec().execute(&done).await?;
    Ok(())
}

async fn write_marks(tx: &mut Tx, pending: &mut Vec<(i64, i64, i64, Key, i64)>) -> sqlx::Result<()> {
    let d = tx.dialect();
    for chunk in pending.chunks(MARK_BATCH) {
        let mut qb = Sql::new(
            d,
            match d {
                Dialect::Sqlite => "INSERT INTO account_marks (sort, part, n, sort_key, seq) VALUES ",
                Dialect::Postgres => "INSERT INTO account_marks (sort, part, n, key_int, key_text, seq) VALUES ",
            },
        );
        for (i, (sort, part, n, key, seq)) in chunk.iter().enumerate() {
            qb.push(if i == 0 { "(" } else { ", (" });
            qb.bind(*sort).push(", ").bind(*part).push(", ").bind(*n).push(", ");
            match (d, key) {
                (Dialect::Sqlite, Key::Int(k)) => qb.bind(*k),
                (Dialect::Sqlite, Key::Text(k)) => qb.bind(k.as_str()),
                (Dialect::Postgres, Key::Int(k)) => qb.bind(*k).push(", ").bind(Arg::Text(None)),
                (Dialect::Postgres, Key::Text(k)) => qb.bind(Arg::Int(None)).push(", ").bind(k.as_str()),
            };
            qb.push(", ").bind(*seq).push(")");
        }
        tx.exec().execute(&qb).await?;
    }
    pending.clear();
    Ok(())
}
