//! Reading the trail: filtered pages, one record, the chains' verification, a day's export,
//! and the retention purge. Writing is `storage::trail`'s (in the change's transaction) and
//! chaining is `seal`'s.

use chrono::NaiveDate;
use moneydesk_model::audit::{AuditActor, AuditChange, AuditOutcome, AuditRecord, AuditVerification, BrokenLink};

use super::seal::{self, genesis, link, Row, COLUMNS};
use crate::storage::{counted, Database, Sql, Tx};

/// What a listing is narrowed to. Times are RFC 3339 texts (`at` compares as text).
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub from: Option<String>,
    pub to: Option<String>,
    pub user_id: Option<String>,
    pub operation: Option<String>,
    pub target_type: Option<String>,
    pub target_id: Option<String>,
    pub outcome: Option<AuditOutcome>,
}

impl Filter {
    /// The counted partition (`storage::counted`, migration 0028) this filter reads, if it is
    /// one: all records, or one user's.
    fn counted_part(&self) -> Option<String> {
        let Filter { from, to, user_id, operation, target_type, target_id, outcome } = self;
        let narrowed = [from, to, operation, target_type, target_id].iter().any(|v| v.is_some());
        if narrowed || outcome.is_some() {
            return None;
        }
        Some(user_id.as_ref().map_or_else(String::new, |u| format!("u:{u}")))
    }

    fn push_where(&self, q: &mut Sql) {
        q.push(" WHERE 1 = 1");
        let mut eq = |column: &str, v: &Option<String>| {
            if let Some(v) = v {
                q.push(format!(" AND {column} = ")).bind(v.as_str());
            }
        };
        eq("user_id", &self.user_id);
        eq("operation", &self.operation);
        eq("target_type", &self.target_type);
        eq("target_id", &self.target_id);
        eq("outcome", &self.outcome.map(|o| o.as_str().to_string()));
        if let Some(from) = &self.from {
            q.push(" AND at >= ").bind(from.as_str());
        }
        if let Some(to) = &self.to {
            q.push(" AND at < ").bind(to.as_str());
        }
    }
}

/// A page of records, newest first, and how many match. Unfiltered or filtered by user only,
/// the page is found through the counted ranges (`storage::counted`), so page 10,000 costs
/// what page 1 does; any other filter is counted and skipped through its index.
pub async fn list(db: &Database, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<AuditRecord>)> {
    let mut tx = db.begin_snapshot().await?;
    let (total, rows) = match f.counted_part() {
        Some(part) => {
            let spot = counted::spot(&mut tx, "audit", &[part.as_str()], offset, limit, true).await?;
            let Some(w) = spot.window else { return Ok((spot.total, Vec::new())) };
            let mut q = db.sql(&format!("SELECT {COLUMNS} FROM audit_records"));
            let table = counted::Table { name: "audit_records", key: "id", part: "user_id", alias: "" };
            let user = f.user_id.as_ref().map(std::slice::from_ref);
            counted::push_page(&mut tx, &mut q, table, user, w, limit).await?;
            (spot.total, tx.exec().rows::<Row>(&q).await?)
        }
        None => scan(&mut tx, f, offset, limit).await?,
    };
    tx.commit().await?;
    Ok((total, rows.into_iter().map(record).collect()))
}

/// The same page by `COUNT(*)` and `OFFSET`: what the counted ranges must agree with (the
/// tests and `scripts/bench-lists` compare the two).
pub async fn list_by_scanning(
    db: &Database,
    f: &Filter,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(i64, Vec<AuditRecord>)> {
    let mut tx = db.begin_snapshot().await?;
    let (total, rows) = scan(&mut tx, f, offset, limit).await?;
    tx.commit().await?;
    Ok((total, rows.into_iter().map(record).collect()))
}

async fn scan(tx: &mut Tx, f: &Filter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<Row>)> {
    let mut q = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM audit_records");
    f.push_where(&mut q);
    let total = tx.exec().int(&q).await?;
    let mut q = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM audit_records"));
    f.push_where(&mut q);
    q.push(" ORDER BY id DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
    Ok((total, tx.exec().rows(&q).await?))
}

pub async fn get(db: &Database, id: i64) -> sqlx::Result<Option<AuditRecord>> {
    let q = db.sql(&format!("SELECT {COLUMNS} FROM audit_records WHERE id = ?")).arg(id);
    Ok(db.acquire().await?.exec().row::<Row>(&q).await?.map(record))
}

/// A stored row as the API answers it.
pub fn record(r: Row) -> AuditRecord {
    let changes: Vec<AuditChange> = serde_json::from_str(&r.changes).unwrap_or_default();
    AuditRecord {
        id: r.id,
        at: r.at,
        actor: AuditActor { token_id: r.token_id, user_id: r.user_id, token_name: r.token_name },
        client_address: r.client_address,
        user_agent: r.user_agent,
        operation: r.operation,
        method: r.method,
        path: r.path,
        target_type: r.target_type.filter(|t| !t.is_empty()),
        target_id: r.target_id,
        outcome: AuditOutcome::parse(&r.outcome).unwrap_or(AuditOutcome::Succeeded),
        request_id: r.request_id,
        changes,
        seq: r.seq,
        prev_hash: r.prev_hash,
        hash: r.hash,
    }
}

/// Records a pass of [`verify`] reads at a time.
const CHUNK: i64 = 5_000;

/// Walks the chains of the days from `from` to `to` (every day when both are `None`),
/// chaining what is not chained yet first, and names the first link that does not hold.
pub async fn verify(db: &Database, from: Option<NaiveDate>, to: Option<NaiveDate>) -> sqlx::Result<AuditVerification> {
    seal::seal(db).await?;
    let mut q = db.sql("SELECT DISTINCT day FROM audit_records WHERE 1 = 1");
    if let Some(from) = from {
        q.push(" AND day >= ").bind(from.to_string());
    }
    if let Some(to) = to {
        q.push(" AND day <= ").bind(to.to_string());
    }
    q.push(" ORDER BY day");
    let days = db.acquire().await?.exec().texts(&q).await?;
    let unsealed =
        db.acquire().await?.exec().int(&db.sql("SELECT COUNT(*) FROM audit_records WHERE hash IS NULL")).await?;
    let purged_days = db.acquire().await?.exec().int(&db.sql("SELECT COUNT(*) FROM audit_purges")).await?;
    let mut v = AuditVerification {
        ok: true,
        from: days.first().cloned(),
        to: days.last().cloned(),
        days: days.len() as i64,
        records: 0,
        unsealed,
        purged_days,
        broken: None,
    };
    for day in &days {
        if let Some(broken) = verify_day(db, day, &mut v.records).await? {
            v.ok = false;
            v.broken = Some(broken);
            break;
        }
    }
    Ok(v)
}

/// One day's chain: places 1, 2, 3… each linked to the one before; the first break.
async fn verify_day(db: &Database, day: &str, checked: &mut i64) -> sqlx::Result<Option<BrokenLink>> {
    let (mut prev, mut expected) = (genesis(day), 1i64);
    loop {
        let q = db
            .sql(&format!(
                "SELECT {COLUMNS} FROM audit_records WHERE day = ? AND hash IS NOT NULL AND seq >= ? ORDER BY seq LIMIT ?"
            ))
            .arg(day)
            .arg(expected)
            .arg(CHUNK);
        let rows: Vec<Row> = db.acquire().await?.exec().rows(&q).await?;
        let n = rows.len() as i64;
        for row in rows {
            let seq = row.seq.unwrap_or_default();
            let broken = |reason: String| Some(BrokenLink { day: day.to_string(), record_id: row.id, seq, reason });
            if seq != expected {
                return Ok(broken(format!(
                    "place {expected} of the day's chain is missing (the next record is at {seq})"
                )));
            }
            if row.prev_hash.as_deref() != Some(prev.as_str()) {
                return Ok(broken("its previous hash is not the hash of the record before it".into()));
            }
            if row.hash.as_deref() != Some(link(&prev, &row, seq).as_str()) {
                return Ok(broken("its content does not match its hash: the record was changed".into()));
            }
            prev = row.hash.clone().unwrap_or_default();
            expected += 1;
            *checked += 1;
        }
        if n < CHUNK {
            return Ok(None);
        }
    }
}

/// A day's chained records, in chain order, one JSON object a line, and the day's last hash.
/// How many records an export reads at a time: its memory is one page, whatever the day holds.
pub const EXPORT_PAGE: i64 = 2000;

/// One page of a day's sealed records in chain order: those after `after` (a `seq`) up to
/// `through`, each as its JSON line; and the last one's `seq` and hash.
pub async fn export_page(
    db: &Database,
    day: NaiveDate,
    after: i64,
    through: i64,
) -> sqlx::Result<(String, Option<(i64, String)>)> {
    let q = db
        .sql(&format!(
            "SELECT {COLUMNS} FROM audit_records WHERE day = ? AND hash IS NOT NULL AND seq > ? AND seq <= ? \
             ORDER BY seq LIMIT ?"
        ))
        .arg(day.to_string())
        .arg(after)
        .arg(through)
        .arg(EXPORT_PAGE);
    let rows: Vec<Row> = db.acquire().await?.exec().rows(&q).await?;
    let last = rows.last().and_then(|r| Some((r.seq?, r.hash.clone()?)));
    let mut out = String::new();
    for row in rows {
        out.push_str(&serde_json::to_string(&record(row)).unwrap_or_default());
        out.push('\n');
    }
    Ok((out, last))
}

/// Seals what is waiting, then walks a day's sealed records page by page, handing each page's
/// lines to `each`: the export signs them in this walk and streams the same records (those up
/// to the last `seq` walked) in a second, never holding the day. The last `seq` and hash walked
/// (`None` for an empty day).
pub async fn export_walk(
    db: &Database,
    day: NaiveDate,
    mut each: impl FnMut(&str),
) -> sqlx::Result<Option<(i64, String)>> {
    seal::seal(db).await?;
    let (mut after, mut last, through) = (0, None, i64::MAX);
    loop {
        let (lines, page_last) = export_page(db, day, after, through).await?;
        each(&lines);
        match page_last {
            Some(l) => {
                after = l.0;
                last = Some(l);
            }
            None => return Ok(last),
        }
    }
}

/// Removes the days before `before` (whole days: their purge row first, with the count and
/// the last hash, which the delete trigger asks for); how many days.
pub async fn purge(db: &Database, before: NaiveDate) -> sqlx::Result<u64> {
    let q = db.sql("SELECT DISTINCT day FROM audit_records WHERE day < ? ORDER BY day").arg(before.to_string());
    let days = db.acquire().await?.exec().texts(&q).await?;
    for day in &days {
        seal::seal(db).await?;
        let mut tx = db.begin().await?;
        let q = Sql::new(
            tx.dialect(),
            "INSERT INTO audit_purges (day, purged_at, records, last_hash) \
             SELECT ?, ?, COUNT(*), (SELECT hash FROM audit_records WHERE day = ? AND hash IS NOT NULL ORDER BY seq DESC LIMIT 1) \
             FROM audit_records WHERE day = ? ON CONFLICT (day) DO NOTHING",
        )
        .arg(day.as_str())
        .arg(crate::storage::time::now_text())
        .arg(day.as_str())
        .arg(day.as_str());
        tx.exec().execute(&q).await?;
        let q = Sql::new(tx.dialect(), "DELETE FROM audit_records WHERE day = ?").arg(day.as_str());
        tx.exec().execute(&q).await?;
        tx.commit_unrecorded().await?;
    }
    Ok(days.len() as u64)
}
