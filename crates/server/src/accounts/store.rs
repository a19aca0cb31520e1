//! Accounts: writing them (counts and marks kept current in the same transaction) and
//! answering a page by position at any depth. See `migrations/0002_collections.sql`.
//!
//! A page is found in two steps: the seqs of the page's rows from a covering index (seeking
//! to the nearest mark, see `marks.rs`), then the rows themselves by seq. The same queries
//! run on SQLite and PostgreSQL (migrations side by side); they differ in index hints (SQLite
//! only) and the `name` filter (SQLite's FTS5 trigram index, PostgreSQL's `pg_trgm`).

use std::collections::HashMap;

use crate::storage::{Database, Dialect, Sql, Tx};
use moneydesk_model::accounts::{Account, AccountStatus, AccountType};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::{Page, Sort};

mod marks;
mod selection;
mod values;
mod writer;

pub use marks::MARK_EVERY;
use selection::{push_filters, push_part, trigram_phrase};
pub use selection::{status_code, trigram_searchable, type_code, value_key, AccountSelection, Key, SortKey};
pub use writer::AccountsWriter;

/// The accounts group's store.
#[derive(Clone, Debug)]
pub struct AccountStore {
    db: Database,
    /// One marks rebuild at a time: two at once (the background one after an import and an
    /// explicit one) both delete and insert the marks, and on PostgreSQL the second fails on
    /// the first's rows (seen once in the accounts filter tests on PostgreSQL).
    rebuilding: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl AccountStore {
    pub fn new(db: Database) -> AccountStore {
        AccountStore { db, rebuilding: Default::default() }
    }

    /// One page of accounts. Totals come from the counts table (or from marks for a
    /// createTime range); rows are found by seeking to the nearest mark, except with a
    /// `name` filter (the names the trigram index finds; a scan for terms under three
    /// characters) or a createTime range under another sort, which scans.
    pub async fn list(&self, sel: &AccountSelection) -> sqlx::Result<Page<Account>> {
        // One read transaction: the total and the rows come from the same snapshot.
        let mut tx = self.db.begin_snapshot().await?;
        let marks_ok = marks::valid(&mut tx).await?;
        if !marks_ok {
            // Changed behind our back (not through a writer): answer by scanning, and
            // rebuild the marks in the background so the next answers are fast again.
            self.rebuild_marks_in_background();
        }
        let fast = marks_ok && sel.name.is_none() && (!sel.has_range() || sel.sort == SortKey::Create);

        let (total, base) = if marks_ok && sel.name.is_none() && sel.has_range() {
            let from = match sel.from_ms {
                Some(f) => marks::rank_create(&mut tx, sel.part(), sel, f).await?,
                None => 0,
            };
            let to = match sel.to_ms {
                Some(t) => marks::rank_create(&mut tx, sel.part(), sel, t).await?,
                None => partition_count(&mut tx, sel).await?,
            };
            ((to - from).max(0), from)
        } else if sel.name.is_none() && !sel.has_range() {
            (partition_count(&mut tx, sel).await?, 0)
        } else {
            (count_scan(&mut tx, sel).await?, 0)
        };

        let request = sel.page;
        let offset = request.offset().min(i64::MAX as u64) as i64;
        let n = (request.size as i64).min(total - offset).max(0);
        let mut seqs = Vec::new();
        if n > 0 {
            // A descending page is the mirror of an ascending one.
            let asc = if sel.desc { total - offset - n } else { offset };
            seqs = if fast {
                marks::seek(&mut tx, sel, base + asc, n).await?
            } else {
                scan_seqs(&mut tx, sel, asc, n).await?
            };
            if sel.desc {
                seqs.reverse();
            }
        }
        let content = rows_by_seq(&mut tx, &seqs).await?;
        // A read: never the change a write is recorded with.
        tx.commit_unrecorded().await?;
        let sort = if sel.sorted { Sort::SORTED } else { Sort::UNSORTED };
        Ok(Page::build(request, total as u64, content, sort))
    }

    /// One account by its id (other groups check the accounts a request names).
    pub async fn get(&self, id: &str) -> sqlx::Result<Option<Account>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM accounts WHERE id = ?")).arg(id);
        let row: Option<Row> = self.db.acquire().await?.exec().row(&q).await?;
        Ok(row.map(Row::into_account))
    }

    /// Starts a write: insert in as many batches as needed, then `commit` (which rebuilds
    /// the marks). Dropping the writer without committing rolls everything back.
    pub async fn writer(&self) -> sqlx::Result<AccountsWriter> {
        Ok(AccountsWriter { tx: self.db.begin().await? })
    }

    pub async fn total(&self) -> sqlx::Result<i64> {
        self.db.acquire().await?.exec().int(&self.db.sql(TOTAL)).await
    }

    /// Rebuilds the marks (after out-of-band changes to the table).
    pub async fn rebuild_marks(&self) -> sqlx::Result<()> {
        let _one_at_a_time = self.rebuilding.lock().await;
        self.rebuild_marks_locked().await
    }

    async fn rebuild_marks_locked(&self) -> sqlx::Result<()> {
        let mut tx = self.db.begin().await?;
        marks::rebuild(&mut tx).await?;
        tx.commit().await
    }

    /// At most one background rebuild per store, and none while another rebuild runs: the
    /// store's own lock, not a process-wide flag (several servers in one process, as the
    /// tests run them, each rebuild their own marks; a task cancelled with its runtime
    /// releases the lock with it).
    fn rebuild_marks_in_background(&self) {
        let Ok(guard) = self.rebuilding.clone().try_lock_owned() else { return };
        let db = self.clone();
        tokio::spawn(async move {
            let _guard = guard;
            if let Err(e) = db.rebuild_marks_locked().await {
                tracing::warn!(error = %e, "rebuilding the account marks failed; pages are answered by scanning");
            }
        });
    }
}

/// Every account (a sum is NUMERIC in PostgreSQL, hence the cast).
const TOTAL: &str = "SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM account_counts";

async fn partition_count(tx: &mut Tx, sel: &AccountSelection) -> sqlx::Result<i64> {
    let mut qb = Sql::new(tx.dialect(), TOTAL);
    qb.push(" WHERE TRUE");
    push_part(&mut qb, sel);
    tx.exec().int(&qb).await
}

async fn count_scan(tx: &mut Tx, sel: &AccountSelection) -> sqlx::Result<i64> {
    let name_only = sel.status.is_none() && sel.typ.is_none() && !sel.has_range();
    if let Some(n) = sel.name.as_ref().filter(|n| name_only && trigram_searchable(n) && tx.dialect() == Dialect::Sqlite)
    {
        // The index alone counts the matches (no row is read).
        let q =
            Sql::new(Dialect::Sqlite, "SELECT count(*) FROM accounts_name_trigram WHERE accounts_name_trigram MATCH ?")
                .arg(trigram_phrase(n));
        return tx.exec().int(&q).await;
    }
    let mut qb = Sql::new(tx.dialect(), "SELECT count(*) FROM accounts WHERE TRUE");
    push_filters(&mut qb, sel);
    tx.exec().int(&qb).await
}

/// The seqs at ascending positions [asc, asc + n) of the filtered order, by scanning.
async fn scan_seqs(tx: &mut Tx, sel: &AccountSelection, asc: i64, n: i64) -> sqlx::Result<Vec<i64>> {
    let mut qb = Sql::new(tx.dialect(), "SELECT seq FROM accounts WHERE TRUE");
    push_filters(&mut qb, sel);
    qb.push(format_args!(" ORDER BY {}, seq LIMIT ", sel.sort.column()));
    qb.bind(n).push(" OFFSET ").bind(asc);
    tx.exec().ints(&qb).await
}

const COLUMNS: &str = "seq, id, account_name, type_code, business_entity_type, account_email, sub_routing_number, \
    sub_routing_name, parent_account_id, account_number, status_code, tin, record_type_id, billing_street, billing_city, \
    billing_state, billing_postal_code, billing_country, mailing_street, mailing_city, mailing_state, mailing_postal_code, \
    mailing_country, market_value, create_ms, \
    (SELECT l.balance FROM ledger_accounts l WHERE l.code = 'sma:' || accounts.id || ':posted') AS posted_units";

#[derive(sqlx::FromRow)]
struct Row {
    seq: i64,
    id: String,
    account_name: String,
    type_code: i64,
    business_entity_type: Option<String>,
    account_email: Option<String>,
    sub_routing_number: Option<String>,
    sub_routing_name: Option<String>,
    parent_account_id: Option<String>,
    account_number: Option<String>,
    status_code: i64,
    tin: Option<String>,
    record_type_id: Option<String>,
    billing_street: Option<String>,
    billing_city: Option<String>,
    billing_state: Option<String>,
    /// The zipcode columns keep their first names (no migration); the record says `*Zipcode`.
    billing_postal_code: Option<String>,
    billing_country: Option<String>,
    mailing_street: Option<String>,
    mailing_city: Option<String>,
    mailing_state: Option<String>,
    mailing_postal_code: Option<String>,
    mailing_country: Option<String>,
    market_value: Option<String>,
    create_ms: i64,
    /// The posted balance in the ledger (ten-thousandths), when the account has one: its
    /// marketValue (the value it was imported with opened it).
    posted_units: Option<i64>,
}

impl Row {
    fn into_account(self) -> Account {
        Account {
            id: self.id,
            account_name: self.account_name,
            account_type: AccountType::ALL[self.type_code.clamp(0, 4) as usize],
            business_entity_type: self.business_entity_type,
            account_email: self.account_email,
            sub_routing_number: self.sub_routing_number,
            sub_routing_name: self.sub_routing_name,
            parent_account_id: self.parent_account_id,
            account_number: self.account_number,
            account_status: AccountStatus::ALL[self.status_code.clamp(0, 4) as usize],
            tin: self.tin,
            record_type_id: self.record_type_id,
            billing_street: self.billing_street,
            billing_city: self.billing_city,
            billing_state: self.billing_state,
            billing_zipcode: self.billing_postal_code,
            billing_country: self.billing_country,
            mailing_street: self.mailing_street,
            mailing_city: self.mailing_city,
            mailing_state: self.mailing_state,
            mailing_zipcode: self.mailing_postal_code,
            mailing_country: self.mailing_country,
            // The books' posted balance; else the value as imported (written by us from a
            // Decimal; unreadable text would be a stored-data bug).
            market_value: match self.posted_units {
                Some(units) => Some(moneydesk_model::ledger::money_of_units(units).decimal()),
                None => self.market_value.and_then(|v| v.parse().ok()),
            },
            create_time: LocalDateTime::from_millis(self.create_ms),
        }
    }
}

/// The rows with these seqs, in the given order.
async fn rows_by_seq(tx: &mut Tx, seqs: &[i64]) -> sqlx::Result<Vec<Account>> {
    if seqs.is_empty() {
        return Ok(Vec::new());
    }
    let mut qb = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM accounts WHERE seq IN ("));
    qb.bind_list(seqs.iter().copied()).push(")");
    let rows: Vec<Row> = tx.exec().rows(&qb).await?;
    let mut by_seq: HashMap<i64, Row> = rows.into_iter().map(|r| (r.seq, r)).collect();
    Ok(seqs.iter().filter_map(|s| by_seq.remove(s)).map(Row::into_account).collect())
}
