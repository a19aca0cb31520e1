//! The chains: each day's records hashed one after another (SHA-256), in the order the sealer
//! finds them committed. A record's hash covers its every field and its place (`seq`) and the
//! hash before it, so editing, reordering or removing a record breaks the link after it.
//!
//! Sealing is a pass of its own rather than part of each write: chaining in the write would
//! make every write of every instance wait on the one chain head until its transaction ends.
//! A pass takes the chain lock (PostgreSQL: a transaction-scoped advisory lock; SQLite: the
//! write lock every transaction takes), reads the records not chained yet in id order, and
//! chains them; a record committed meanwhile with a lower id is chained by the next pass, after
//! them (the order is the chain's, not the ids').

use sha2::{Digest, Sha256};

use crate::storage::{Database, Dialect, Sql};

/// Records one pass chains at most: a pass holds the chain lock (on SQLite the one write lock
/// every write waits on), and its one UPDATE grows with it (scripts/bench-audit: passes of
/// 1,000 row-by-row updates held SQLite's lock 100–400 ms; see bench/results/audit.md).
pub const BATCH: i64 = 200;
/// On SQLite, the wait between two passes of one round: the writers that queued behind a pass
/// (each sleeping in SQLite's busy handler, up to 100 ms a turn) get the lock before the next.
pub const PAUSE: std::time::Duration = std::time::Duration::ZERO;
/// The advisory lock's key on PostgreSQL ("audit" in ASCII).
const CHAIN_LOCK: i64 = 0x6175_6469_74;

/// The columns a record is read with, in [`Row`]'s order.
pub const COLUMNS: &str = "id, at, day, token_id, user_id, token_name, client_address, user_agent, operation, \
     method, path, target_type, target_id, outcome, request_id, changes, seq, prev_hash, hash";

/// A record as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Row {
    pub id: i64,
    pub at: String,
    pub day: String,
    pub token_id: Option<i64>,
    pub user_id: Option<String>,
    pub token_name: Option<String>,
    pub client_address: Option<String>,
    pub user_agent: Option<String>,
    pub operation: String,
    pub method: Option<String>,
    pub path: Option<String>,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
    pub outcome: String,
    pub request_id: Option<String>,
    pub changes: String,
    pub seq: Option<i64>,
    pub prev_hash: Option<String>,
    pub hash: Option<String>,
}

/// The hash a day's chain starts from.
///
/// ```
/// use moneydesk_server::audit::seal::genesis;
/// assert_eq!(genesis("2026-11-29").len(), 64);
/// assert_ne!(genesis("2026-11-29"), genesis("2026-11-30"));
/// ```
pub fn genesis(day: &str) -> String {
    hex::encode(Sha256::digest(format!("moneydesk-audit {day}").as_bytes()))
}

/// A record's hash at place `seq` after `prev`: SHA-256 of the previous hash, a newline and
/// the record's canonical text (a JSON array of its fields in a fixed order).
pub fn link(prev: &str, row: &Row, seq: i64) -> String {
    let canonical = serde_json::json!([
        row.id,
        row.at,
        row.day,
        row.token_id,
        row.user_id,
        row.token_name,
        row.client_address,
        row.user_agent,
        row.operation,
        row.method,
        row.path,
        row.target_type,
        row.target_id,
        row.outcome,
        row.request_id,
        row.changes,
        seq
    ]);
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(b"\n");
    h.update(canonical.to_string().as_bytes());
    hex::encode(h.finalize())
}

/// Chains every record not chained yet (in passes of [`BATCH`]); how many.
pub async fn seal(db: &Database) -> sqlx::Result<u64> {
    seal_with(db, BATCH, PAUSE).await
}

/// [`seal`] in passes of `batch` records, `pause` between them (the benchmark's knobs).
pub async fn seal_with(db: &Database, batch: i64, pause: std::time::Duration) -> sqlx::Result<u64> {
    // Most passes find nothing: asked outside a transaction, so an idle pass takes no lock.
    let q = db.sql("SELECT COUNT(*) FROM (SELECT 1 FROM audit_records WHERE hash IS NULL LIMIT 1) t");
    if db.acquire().await?.exec().int(&q).await? == 0 {
        return Ok(0);
    }
    let mut sealed = 0;
    loop {
        let n = seal_batch(db, batch).await?;
        sealed += n;
        if n < batch as u64 {
            return Ok(sealed);
        }
        if db.dialect() == Dialect::Sqlite && !pause.is_zero() {
            tokio::time::sleep(pause).await;
        }
    }
}

async fn seal_batch(db: &Database, batch: i64) -> sqlx::Result<u64> {
    let mut tx = db.begin().await?;
    if db.dialect() == Dialect::Postgres {
        tx.exec().execute(&db.sql("SELECT pg_advisory_xact_lock(?)").arg(CHAIN_LOCK)).await?;
    }
    let q = db.sql(&format!("SELECT {COLUMNS} FROM audit_records WHERE hash IS NULL ORDER BY id LIMIT ?")).arg(batch);
    let rows: Vec<Row> = tx.exec().rows(&q).await?;
    // Each day's head, read once a pass and then carried along.
    let mut heads: Vec<(String, i64, String)> = Vec::new();
    let mut links = Vec::with_capacity(rows.len());
    for row in &rows {
        let head = match heads.iter().position(|h| h.0 == row.day) {
            Some(i) => i,
            None => {
                let q = Sql::new(
                    tx.dialect(),
                    "SELECT seq, hash FROM audit_records WHERE day = ? AND hash IS NOT NULL ORDER BY seq DESC LIMIT 1",
                )
                .arg(row.day.as_str());
                let head: Option<(i64, String)> = tx.exec().row(&q).await?;
                let (seq, hash) = head.unwrap_or_else(|| (0, genesis(&row.day)));
                heads.push((row.day.clone(), seq, hash));
                heads.len() - 1
            }
        };
        let (_, seq, prev) = &heads[head];
        let (seq, prev) = (seq + 1, prev.clone());
        let hash = link(&prev, row, seq);
        links.push((row.id, seq, prev, hash.clone()));
        heads[head].1 = seq;
        heads[head].2 = hash;
    }
    if !links.is_empty() {
        // One statement for the pass: the rows' places and hashes as a VALUES table.
        let mut q = Sql::new(
            tx.dialect(),
            "UPDATE audit_records SET seq = v.column2, prev_hash = v.column3, hash = v.column4 FROM (VALUES ",
        );
        for (i, (id, seq, prev, hash)) in links.into_iter().enumerate() {
            if i > 0 {
                q.push(", ");
            }
            q.bind_row([id.into(), seq.into(), prev.into(), hash.into()]);
        }
        q.push(") AS v WHERE audit_records.id = v.column1 AND audit_records.hash IS NULL");
        tx.exec().execute(&q).await?;
    }
    tx.commit_unrecorded().await?;
    Ok(rows.len() as u64)
}
