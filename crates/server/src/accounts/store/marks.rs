//! Marks: the key of every `MARK_EVERY`-th row of each order, per status/type partition.
//! With them, the row at any position is a seek to the nearest mark plus a skip of fewer
//! than `MARK_EVERY` partition rows of a covering index, so page 50,000 costs what page 1
//! costs. SQLite has no counted B-trees; this is the offset interface's index.

use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row as _, Sqlite, SqliteConnection};

use super::{push_part, AccountSelection, Key, SortKey};

/// Distance between marks.
pub const MARK_EVERY: i64 = 256;

/// Rows read per step of a rebuild, and marks written per INSERT.
const REBUILD_CHUNK: i64 = 20_000;
const MARK_BATCH: usize = 2_000;

/// Whether the marks describe the table as it is now.
pub(super) async fn valid(conn: &mut SqliteConnection) -> sqlx::Result<bool> {
    let (version, marks): (i64, i64) =
        sqlx::query_as("SELECT version, marks_version FROM collection_versions WHERE name = 'accounts'")
            .fetch_one(conn)
            .await?;
    Ok(version == marks)
}

fn push_key(qb: &mut QueryBuilder<'_, Sqlite>, key: Key) {
    match key {
        Key::Int(i) => qb.push_bind(i),
        Key::Text(t) => qb.push_bind(t),
    };
}

fn read_key(row: &SqliteRow, i: usize, sort: SortKey) -> sqlx::Result<Key> {
    Ok(if sort.is_text() { Key::Text(row.try_get(i)?) } else { Key::Int(row.try_get(i)?) })
}

/// `INDEXED BY` for reading `sort`'s order (with the selection's partition filters).
fn source(sort: SortKey, sel: Option<&AccountSelection>) -> String {
    match (sort.index(), sel.and_then(|s| s.status), sel.and_then(|s| s.typ)) {
        (Some(ix), _, _) => format!(" INDEXED BY {ix}"),
        // Insertion order within a status (or type) is that index's (code, seq) order.
        (None, Some(_), _) => " INDEXED BY accounts_by_status".into(),
        (None, None, Some(_)) => " INDEXED BY accounts_by_type".into(),
        (None, None, None) => " NOT INDEXED".into(),
    }
}

/// The seqs at positions [pos, pos + n) of the selection's sort within its partition.
pub(super) async fn seek(
    conn: &mut SqliteConnection,
    sel: &AccountSelection,
    pos: i64,
    n: i64,
) -> sqlx::Result<Vec<i64>> {
    let sort = sel.sort;
    let mark = sqlx::query(
        "SELECT n, sort_key, seq FROM account_marks WHERE sort = ? AND part = ? AND n <= ? ORDER BY n DESC LIMIT 1",
    )
    .bind(sort.code())
    .bind(sel.part())
    .bind(pos)
    .fetch_optional(&mut *conn)
    .await?;
    let col = sort.column();
    let mut qb = QueryBuilder::new("SELECT seq FROM accounts");
    qb.push(source(sort, Some(sel))).push(" WHERE 1");
    let skip = match mark {
        Some(row) => {
            let (at, key, seq): (i64, Key, i64) = (row.try_get(0)?, read_key(&row, 1, sort)?, row.try_get(2)?);
            if sort == SortKey::Seq {
                qb.push(" AND seq >= ").push_bind(seq);
            } else {
                qb.push(format_args!(" AND ({col}, seq) >= ("));
                push_key(&mut qb, key);
                qb.push(", ").push_bind(seq).push(")");
            }
            pos - at
        }
        None => pos,
    };
    push_part(&mut qb, sel);
    qb.push(format_args!(" ORDER BY {col}, seq LIMIT ")).push_bind(n).push(" OFFSET ").push_bind(skip);
    qb.build_query_scalar().fetch_all(conn).await
}

/// How many rows of the selection's partition have createTime before `before_ms`.
pub(super) async fn rank_create(
    conn: &mut SqliteConnection,
    part: i64,
    sel: &AccountSelection,
    before_ms: i64,
) -> sqlx::Result<i64> {
    let mark: Option<(i64, i64, i64)> = sqlx::query_as(
        "SELECT n, sort_key, seq FROM account_marks WHERE sort = ? AND part = ? AND sort_key < ? \
         ORDER BY sort_key DESC, seq DESC LIMIT 1",
    )
    .bind(SortKey::Create.code())
    .bind(part)
    .bind(before_ms)
    .fetch_optional(&mut *conn)
    .await?;
    // No mark before the bound: the partition's first row is not before it either.
    let Some((at, key, seq)) = mark else { return Ok(0) };
    let mut qb =
        QueryBuilder::new("SELECT count(*) FROM accounts INDEXED BY accounts_by_create WHERE (create_ms, seq) >= (");
    qb.push_bind(key).push(", ").push_bind(seq).push(") AND create_ms < ").push_bind(before_ms);
    push_part(&mut qb, sel);
    let after: i64 = qb.build_query_scalar().fetch_one(conn).await?;
    Ok(at + after)
}

fn parts(status: i64, typ: i64) -> [usize; 4] {
    [0, 100 + status as usize, 200 + typ as usize, 1000 + 10 * status as usize + typ as usize]
}

/// Recomputes every mark from the table and records the version they describe.
pub(super) async fn rebuild(conn: &mut SqliteConnection) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM account_marks").execute(&mut *conn).await?;
    let mut pending: Vec<(i64, i64, i64, Key, i64)> = Vec::new();
    for sort in SortKey::ALL {
        let col = sort.column();
        let mut counters = vec![0i64; 1100];
        let mut after: Option<(Key, i64)> = None;
        loop {
            let mut qb = QueryBuilder::new(format!("SELECT {col}, seq, status_code, type_code FROM accounts"));
            qb.push(source(sort, None)).push(" WHERE 1");
            if let Some((key, seq)) = after.take() {
                if sort == SortKey::Seq {
                    qb.push(" AND seq > ").push_bind(seq);
                } else {
                    qb.push(format_args!(" AND ({col}, seq) > ("));
                    push_key(&mut qb, key);
                    qb.push(", ").push_bind(seq).push(")");
                }
            }
            qb.push(format_args!(" ORDER BY {col}, seq LIMIT {REBUILD_CHUNK}"));
            let rows = qb.build().fetch_all(&mut *conn).await?;
            for row in &rows {
                let key = read_key(row, 0, sort)?;
                let (seq, status, typ): (i64, i64, i64) = (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?);
                for p in parts(status, typ) {
                    if counters[p] % MARK_EVERY == 0 {
                        pending.push((sort.code(), p as i64, counters[p], key.clone(), seq));
                    }
                    counters[p] += 1;
                }
                after = Some((key, seq));
            }
            if pending.len() >= MARK_BATCH {
                write_marks(conn, &mut pending).await?;
            }
            if (rows.len() as i64) < REBUILD_CHUNK {
                break;
            }
        }
    }
    write_marks(conn, &mut pending).await?;
    sqlx::query("UPDATE collection_versions SET marks_version = version WHERE name = 'accounts'")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn write_marks(conn: &mut SqliteConnection, pending: &mut Vec<(i64, i64, i64, Key, i64)>) -> sqlx::Result<()> {
    for chunk in pending.chunks(MARK_BATCH) {
        let mut qb = QueryBuilder::new("INSERT INTO account_marks (sort, part, n, sort_key, seq) ");
        qb.push_values(chunk, |mut b, (sort, part, n, key, seq)| {
            b.push_bind(*sort).push_bind(*part).push_bind(*n);
            match key {
                Key::Int(i) => b.push_bind(*i),
                Key::Text(t) => b.push_bind(t.clone()),
            };
            b.push_bind(*seq);
        });
        qb.build().execute(&mut *conn).await?;
    }
    pending.clear();
    Ok(())
}
