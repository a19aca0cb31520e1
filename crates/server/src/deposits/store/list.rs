//! The filtered list of deposits and its chart sums. A page filtered by status and service type
//! (and by a range of the order's own key: created dates sorted by date, amounts by amount) is
//! found through the counted buckets (`buckets.rs`), so its cost does not grow with its depth;
//! any other filter (a payee, a range of the other key) is counted and skipped through its
//! index, which is fast while the filtered set is small.

use super::buckets::{self, Bucket, Order};
use super::{DepositRow, DepositStore, ListFilter, COLUMNS};
use crate::storage::sql::Arg;
use crate::storage::{Sql, Tx};

/// What the buckets can answer: an order, a partition, and bounds on the order's key.
struct Plan<'a> {
    order: Order,
    status: Option<&'a str>,
    service_type: Option<&'a str>,
    /// Key texts (as `deposit_buckets` stores them) of the range: from inclusive, to exclusive.
    from: Option<String>,
    to: Option<String>,
}

impl<'a> Plan<'a> {
    fn of(f: &'a ListFilter) -> Option<Plan<'a>> {
        if f.payee_account_id.is_some() {
            return None;
        }
        let (order, from, to) = if f.sort_amount {
            if f.created_from.is_some() || f.created_to.is_some() {
                return None;
            }
            let max = f.amount_max_cents.map(|m| buckets::amount_key(m.saturating_add(1)));
            (Order::Amount, f.amount_min_cents.map(buckets::amount_key), max)
        } else {
            if f.amount_min_cents.is_some() || f.amount_max_cents.is_some() {
                return None;
            }
            (Order::Created, f.created_from.clone(), f.created_to.clone())
        };
        Some(Plan { order, status: f.status.as_deref(), service_type: f.service_type.as_deref(), from, to })
    }
}

impl DepositStore {
    /// One page of the filtered list and the filter's total, in one snapshot.
    pub async fn list(&self, f: &ListFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<DepositRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let answer = match Plan::of(f) {
            Some(plan) if buckets::built(&mut tx).await? => page(&mut tx, &plan, f.desc, offset, limit).await?,
            Some(_) => {
                // Not built yet (the first list after an upgrade): this answer scans, and the
                // rebuild in the background makes the next ones fast.
                self.rebuild_in_background();
                scan(&mut tx, f, offset, limit).await?
            }
            None => scan(&mut tx, f, offset, limit).await?,
        };
        tx.commit().await?;
        Ok(answer)
    }

    /// The same page by `count(*)` and `OFFSET`: what the buckets must agree with (the tests
    /// compare the two), and the answer for filters the buckets do not index.
    pub async fn list_by_scanning(
        &self,
        f: &ListFilter,
        offset: i64,
        limit: i64,
    ) -> sqlx::Result<(i64, Vec<DepositRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let answer = scan(&mut tx, f, offset, limit).await?;
        tx.commit().await?;
        Ok(answer)
    }

    /// Recounts the list's buckets from the table.
    pub async fn rebuild_index(&self) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        buckets::rebuild(&mut tx, self.bucket_rows).await?;
        tx.commit().await
    }

    /// Whether the buckets describe the table (until then every page is a scan).
    pub async fn index_built(&self) -> sqlx::Result<bool> {
        let mut tx = self.db.begin_snapshot().await?;
        let built = buckets::built(&mut tx).await?;
        tx.commit().await?;
        Ok(built)
    }

    fn rebuild_in_background(&self) {
        use std::sync::atomic::Ordering;
        if self.rebuilding.swap(true, Ordering::AcqRel) {
            return;
        }
        let store = self.clone();
        tokio::spawn(async move {
            if let Err(e) = store.rebuild_index().await {
                tracing::warn!(error = %e, "rebuilding the deposit list's index failed; pages are answered by scanning");
            }
            store.rebuilding.store(false, Ordering::Release);
        });
    }
}

/// A page through the buckets: the range's positions from the ranks of its bounds, then the
/// page's rows read ascending from the bucket holding its first position.
async fn page(
    tx: &mut Tx,
    plan: &Plan<'_>,
    desc: bool,
    offset: i64,
    limit: i64,
) -> sqlx::Result<(i64, Vec<DepositRow>)> {
    let part = buckets::part_of(plan.status, plan.service_type);
    let all = buckets::of_part(tx, plan.order, part).await?;
    let start = match &plan.from {
        Some(k) => rank(tx, plan, &all, k).await?,
        None => 0,
    };
    let end = match &plan.to {
        Some(k) => rank(tx, plan, &all, k).await?,
        None => all.iter().map(|b| b.n).sum(),
    };
    let total = (end - start).max(0);
    if offset >= total || limit <= 0 {
        return Ok((total, Vec::new()));
    }
    // Ascending positions [first, last) of the page.
    let (first, last) = if desc {
        ((end - offset - limit).max(start), end - offset)
    } else {
        (start + offset, (start + offset + limit).min(end))
    };
    let Some((bucket, skip)) = buckets::locate(&all, first) else { return Ok((total, Vec::new())) };
    let col = plan.order.column();
    let mut q = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM deposits WHERE TRUE"));
    buckets::push_from(&mut q, plan.order, bucket);
    buckets::push_part(&mut q, plan.status, plan.service_type);
    q.push(format_args!(" ORDER BY {col}, id LIMIT ")).bind(last - first).push(" OFFSET ").bind(skip);
    let mut rows: Vec<DepositRow> = tx.exec().rows(&q).await?;
    if desc {
        rows.reverse();
    }
    Ok((total, rows))
}

/// How many rows of the plan's partition have a key before `bound`: the buckets that start
/// before it, whole but the last, and that last one's rows counted up to the bound (fewer
/// than two buckets' worth of the partition's index).
async fn rank(tx: &mut Tx, plan: &Plan<'_>, all: &[Bucket], bound: &str) -> sqlx::Result<i64> {
    let Some(last) = all.iter().rposition(|b| b.lo_key.as_str() < bound) else { return Ok(0) };
    let before: i64 = all[..last].iter().map(|b| b.n).sum();
    let col = plan.order.column();
    let mut q = Sql::new(tx.dialect(), "SELECT count(*) FROM deposits WHERE TRUE");
    buckets::push_from(&mut q, plan.order, &all[last]);
    buckets::push_part(&mut q, plan.status, plan.service_type);
    q.push(format_args!(" AND {col} < "));
    match plan.order {
        Order::Created => q.bind(bound),
        Order::Amount => q.bind(bound.parse::<i64>().unwrap_or(i64::MAX)),
    };
    Ok(before + tx.exec().int(&q).await?)
}

/// The plain page: `count(*)` of the filter and `OFFSET` into its order.
async fn scan(tx: &mut Tx, f: &ListFilter, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<DepositRow>)> {
    let mut count = Sql::new(tx.dialect(), "SELECT count(*) FROM deposits");
    filter(&mut count, f);
    let total = tx.exec().int(&count).await?;
    let mut q = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM deposits"));
    filter(&mut q, f);
    let dir = if f.desc { "DESC" } else { "ASC" };
    let key = if f.sort_amount { "amount_cents" } else { "created_at" };
    q.push(format!(" ORDER BY {key} {dir}, id {dir} LIMIT ")).bind(limit).push(" OFFSET ").bind(offset);
    let rows = tx.exec().rows(&q).await?;
    Ok((total, rows))
}

impl DepositStore {
    /// The electronic deposits (ACH pulls) effective on `day` that are still to be collected
    /// (in progress, confirmed or sent), oldest first: the day's NACHA file.
    pub async fn electronic_on(&self, day: &str) -> sqlx::Result<Vec<DepositRow>> {
        let q = self
            .db
            .sql(&format!(
                "SELECT {COLUMNS} FROM deposits WHERE service_type = 'Electronic_Deposit' AND schedule_date = ? \
                 AND status IN ('In_Progress_1', 'Confirmed_2', 'Sent_3') ORDER BY id"
            ))
            .arg(day);
        self.db.acquire().await?.exec().rows(&q).await
    }
}

/// Deposits of one UTC hour in one status: how many, and their sum.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HourTotal {
    /// `YYYY-MM-DDTHH` of `created_at` (UTC).
    pub hour: String,
    pub status: String,
    pub count: i64,
    pub amount_cents: i64,
}

impl DepositStore {
    /// The filtered deposits summed per UTC hour and status (the caller folds hours into the
    /// business time zone's days: an hour lies in one day for every whole-hour offset). Sums
    /// are exact integers of cents (CAST: PostgreSQL sums BIGINT as NUMERIC).
    pub async fn hourly_totals(&self, f: &ListFilter) -> sqlx::Result<Vec<HourTotal>> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut q = Sql::new(
            tx.dialect(),
            "SELECT substr(created_at, 1, 13) AS hour, status, count(*) AS count, \
             CAST(sum(amount_cents) AS BIGINT) AS amount_cents FROM deposits",
        );
        filter(&mut q, f);
        q.push(" GROUP BY substr(created_at, 1, 13), status ORDER BY 1, 2");
        let rows = tx.exec().rows(&q).await?;
        tx.commit().await?;
        Ok(rows)
    }
}

fn filter(q: &mut Sql, f: &ListFilter) {
    let mut first = true;
    let mut and = |q: &mut Sql, clause: &str, v: Arg| {
        q.push(if first { " WHERE " } else { " AND " }).push(clause).bind(v);
        first = false;
    };
    if let Some(v) = &f.status {
        and(q, "status = ", v.clone().into());
    }
    if let Some(v) = &f.service_type {
        and(q, "service_type = ", v.clone().into());
    }
    if let Some(v) = &f.created_from {
        and(q, "created_at >= ", v.clone().into());
    }
    if let Some(v) = &f.created_to {
        and(q, "created_at < ", v.clone().into());
    }
    if let Some(v) = &f.payee_account_id {
        and(q, "payee_account_id = ", v.clone().into());
    }
    if let Some(v) = f.amount_min_cents {
        and(q, "amount_cents >= ", v.into());
    }
    if let Some(v) = f.amount_max_cents {
        and(q, "amount_cents <= ", v.into());
    }
}
