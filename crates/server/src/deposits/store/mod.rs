//! Deposits in the database (both backends): creation with its idempotency key and the
//! duplicate-presentment guard in one transaction, moves of the state machine with their
//! history, and the filtered list.

use moneydesk_model::deposits::{DepositAction, DepositStatus};

mod announce;
mod buckets;
mod create;
mod list;
mod scans;

pub use buckets::BUCKET_ROWS;
pub use list::HourTotal;
pub use scans::ScanRow;

use crate::storage::time::now_text;
use crate::storage::{Database, Sql, Tx};

/// A deposit row as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DepositRow {
    pub id: i64,
    pub service_type: String,
    pub status: String,
    pub is_confirmed: i64,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub created_at: String,
    pub completed_at: Option<String>,
    pub schedule_date: String,
    pub check_date: Option<String>,
    pub check_number: Option<String>,
    pub bank_routing_number: Option<String>,
    pub bank_account_number: Option<String>,
    pub bank_name: Option<String>,
    pub memo: Option<String>,
    pub payee_account_id: String,
    pub payee_user_id: Option<String>,
    pub payee_name: Option<String>,
    pub payee_account_number: Option<String>,
    pub payee_record_type_id: Option<String>,
    pub payer_id: Option<String>,
    pub payer_type: Option<String>,
    pub payment_type: Option<String>,
    pub source: Option<String>,
    pub bank_info_id: Option<String>,
    pub transfer_type: Option<String>,
    pub submitter: String,
    pub front_image: Option<String>,
    pub back_image: Option<String>,
    pub presentment: Option<String>,
    pub duplicate_of: Option<i64>,
    pub override_reason: Option<String>,
    /// The scan whose images the deposit took (a `Check_Scan`).
    pub scan_id: Option<String>,
    /// An electronic deposit's account type (`checking`, `savings`), vendor name and entry
    /// description.
    pub ach_account_type: Option<String>,
    pub ach_vendor_name: Option<String>,
    pub ach_entry_description: Option<String>,
}

const COLUMNS: &str = "id, service_type, status, is_confirmed, amount_cents, fee_cents, created_at, completed_at, \
    schedule_date, check_date, check_number, bank_routing_number, bank_account_number, bank_name, memo, payee_account_id, \
    payee_user_id, payee_name, payee_account_number, payee_record_type_id, payer_id, payer_type, payment_type, source, \
    bank_info_id, transfer_type, submitter, front_image, back_image, presentment, duplicate_of, override_reason, scan_id, \
    ach_account_type, ach_vendor_name, ach_entry_description";

/// One move in a deposit's history.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventRow {
    pub at: String,
    pub actor: String,
    pub action: String,
    pub from_status: Option<String>,
    pub to_status: String,
    pub reason: Option<String>,
}

/// A request's idempotency key: the caller's token, the key, the body's SHA-256, and the
/// time (RFC 3339 UTC) before which a stored key has expired.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub token_id: i64,
    pub key: String,
    pub request_hash: String,
    pub expired_before: String,
}

#[derive(Debug)]
pub enum CreateOutcome {
    Created(DepositRow),
    /// The same key and body came before: that deposit.
    Repeated(DepositRow),
}

#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    #[error("the Idempotency-Key was used for a different request (deposit {0})")]
    KeyReused(i64),
    #[error("this check was already deposited as deposit {0}")]
    Duplicate(i64),
    #[error("this scan was already deposited as deposit {0}")]
    ScanUsed(i64),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    #[error("no deposit {0}")]
    NotFound(i64),
    #[error("{0}")]
    Illegal(moneydesk_model::deposits::IllegalMove),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<crate::ledger::store::PostError> for MoveError {
    fn from(e: crate::ledger::store::PostError) -> MoveError {
        match e {
            crate::ledger::store::PostError::Db(e) => MoveError::Db(e),
            other => MoveError::Db(sqlx::Error::Protocol(format!("ledger: {other}"))),
        }
    }
}

/// What a move reads of the deposit: its state, what the list's counts need, and what the
/// books post.
#[derive(Debug, sqlx::FromRow)]
struct Moving {
    id: i64,
    status: String,
    service_type: String,
    created_at: String,
    amount_cents: i64,
    fee_cents: i64,
    payer_id: Option<String>,
    payee_account_id: String,
}

impl Moving {
    fn facts(&self) -> crate::ledger::rules::DepositFacts<'_> {
        crate::ledger::rules::DepositFacts {
            id: self.id,
            service_type: &self.service_type,
            amount_cents: self.amount_cents,
            fee_cents: self.fee_cents,
            sleeve: self.payer_id.as_deref().unwrap_or(&self.payee_account_id),
        }
    }
}

fn moving(dialect: crate::storage::Dialect, id: i64) -> Sql {
    Sql::new(
        dialect,
        "SELECT status, service_type, created_at, amount_cents, fee_cents, payer_id, payee_account_id, id FROM deposits WHERE id = ?",
    )
    .arg(id)
}

/// What the list is filtered by (all optional) and how it is ordered.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    pub status: Option<String>,
    pub service_type: Option<String>,
    /// RFC 3339 UTC bounds of `created_at`: from inclusive, to exclusive.
    pub created_from: Option<String>,
    pub created_to: Option<String>,
    pub payee_account_id: Option<String>,
    pub amount_min_cents: Option<i64>,
    pub amount_max_cents: Option<i64>,
    /// `created_at` or `amount_cents`, each with `id` as the tiebreaker.
    pub sort_amount: bool,
    pub desc: bool,
}

#[derive(Clone, Debug)]
pub struct DepositStore {
    db: Database,
    /// Rows per bucket of the list's index (`buckets`): `BUCKET_ROWS`, smaller in tests so
    /// that a few hundred deposits split buckets many times.
    bucket_rows: i64,
    /// Set while a background rebuild of the buckets runs: lists that find the index unbuilt
    /// meanwhile start no second one (each would recount every deposit).
    rebuilding: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl DepositStore {
    pub fn new(db: Database) -> DepositStore {
        DepositStore { db, bucket_rows: BUCKET_ROWS, rebuilding: Default::default() }
    }

    pub fn database(&self) -> &Database {
        &self.db
    }

    /// The same store with buckets of `rows` (at least 2) rows.
    pub fn with_bucket_rows(mut self, rows: i64) -> DepositStore {
        self.bucket_rows = rows.max(2);
        self
    }

    pub async fn get(&self, id: i64) -> sqlx::Result<Option<DepositRow>> {
        self.db.acquire().await?.exec().row(&self.get_query(id)).await
    }

    fn get_query(&self, id: i64) -> Sql {
        self.db.sql(&format!("SELECT {COLUMNS} FROM deposits WHERE id = ?")).arg(id)
    }

    /// A deposit with its history, oldest first, read in one snapshot: read one after the
    /// other, a move committed between the two showed a status its history did not have.
    pub async fn with_history(&self, id: i64) -> sqlx::Result<Option<(DepositRow, Vec<EventRow>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let Some(row): Option<DepositRow> = tx.exec().row(&self.get_query(id)).await? else { return Ok(None) };
        let q = self
            .db
            .sql("SELECT at, actor, action, from_status, to_status, reason FROM deposit_events WHERE deposit_id = ? ORDER BY id")
            .arg(id);
        let events = tx.exec().rows(&q).await?;
        tx.commit().await?;
        Ok(Some((row, events)))
    }

    /// Moves a deposit; the move and its history entry commit together.
    pub async fn apply(
        &self,
        id: i64,
        action: DepositAction,
        actor: &str,
        reason: Option<&str>,
        books: &crate::ledger::Books,
    ) -> Result<DepositRow, MoveError> {
        let mut tx = self.db.begin().await?;
        apply_in(&mut tx, id, action, actor, reason, books).await?;
        tx.commit().await?;
        self.get(id).await?.ok_or(MoveError::NotFound(id))
    }
}

/// Moves a deposit in `tx`, with its history entry, postings and event (the audit record's
/// target is the deposit unless the caller named one first): for another group's transaction
/// that records something with the move (a returned item).
pub(crate) async fn apply_in(
    tx: &mut Tx,
    id: i64,
    action: DepositAction,
    actor: &str,
    reason: Option<&str>,
    books: &crate::ledger::Books,
) -> Result<(), MoveError> {
    // A write first: the deposit writers' turn (SQLite's write lock, a row lock in
    // PostgreSQL) before the state is read, so two moves of one deposit take turns.
    let counted = buckets::take_turn(tx).await?;
    let q = moving(tx.dialect(), id);
    let m: Moving = tx.exec().row(&q).await?.ok_or(MoveError::NotFound(id))?;
    let (service_type, created_at, amount_cents) = (m.service_type.clone(), m.created_at.clone(), m.amount_cents);
    let from = DepositStatus::parse(&m.status).ok_or(MoveError::NotFound(id))?;
    let to = from.apply(action).map_err(MoveError::Illegal)?;
    crate::ledger::rules::on_move(tx, books, &m.facts(), from, action, actor, reason).await?;
    let now = now_text();
    let mut q = Sql::new(tx.dialect(), "UPDATE deposits SET status = ");
    q.bind(to.as_str());
    match action {
        DepositAction::Confirm => {
            q.push(", is_confirmed = 1");
        }
        DepositAction::Reject | DepositAction::Cancel => {
            // The check may be deposited again.
            q.push(", presentment = NULL, completed_at = ").bind(now.as_str());
        }
        DepositAction::Settle | DepositAction::Return => {
            q.push(", completed_at = ").bind(now.as_str());
        }
        DepositAction::Send => {}
    }
    q.push(" WHERE id = ").bind(id);
    tx.exec().execute(&q).await?;
    event(tx, id, actor, action.as_str(), Some(from.as_str()), to.as_str(), reason).await?;
    announce::note_move(id, from.as_str(), to.as_str());
    announce::announce(tx, id, announce::event_of(action), books.time_zone()).await?;
    if counted {
        let c = buckets::Counted {
            id,
            created_at: &created_at,
            amount_cents,
            status: to.as_str(),
            service_type: &service_type,
        };
        buckets::moved(tx, &c, from.as_str()).await?;
    }
    Ok(())
}

/// Takes the deposit writers' turn in `tx` (another group's transaction that moves deposits,
/// the cash letter's); answers whether the list's bucket counts are kept.
pub(crate) async fn take_writers_turn(tx: &mut Tx) -> sqlx::Result<bool> {
    buckets::take_turn(tx).await
}

/// Moves each of `ids` from Confirmed_2 to Sent_3 in `tx` (which took the writers' turn), with
/// its history entry, its event and the list's counts: all of them, or an error naming the
/// first that cannot move. The caller names the audit record's target.
pub(crate) async fn send_all(
    tx: &mut Tx,
    ids: &[i64],
    counted: bool,
    actor: &str,
    reason: &str,
    books: &crate::ledger::Books,
) -> Result<(), MoveError> {
    for &id in ids {
        let q = moving(tx.dialect(), id);
        let m: Moving = tx.exec().row(&q).await?.ok_or(MoveError::NotFound(id))?;
        let (service_type, created_at, amount_cents) = (m.service_type.clone(), m.created_at.clone(), m.amount_cents);
        let from = DepositStatus::parse(&m.status).ok_or(MoveError::NotFound(id))?;
        let to = from.apply(DepositAction::Send).map_err(MoveError::Illegal)?;
        crate::ledger::rules::on_move(tx, books, &m.facts(), from, DepositAction::Send, actor, Some(reason)).await?;
        let q = Sql::new(tx.dialect(), "UPDATE deposits SET status = ? WHERE id = ?").arg(to.as_str()).arg(id);
        tx.exec().execute(&q).await?;
        event(tx, id, actor, DepositAction::Send.as_str(), Some(from.as_str()), to.as_str(), Some(reason)).await?;
        // The audit record's target is the caller's (the cash letter, the ACH file).
        announce::announce(tx, id, announce::event_of(DepositAction::Send), books.time_zone()).await?;
        if counted {
            let c = buckets::Counted {
                id,
                created_at: &created_at,
                amount_cents,
                status: to.as_str(),
                service_type: &service_type,
            };
            buckets::moved(tx, &c, from.as_str()).await?;
        }
    }
    Ok(())
}

async fn event(
    tx: &mut Tx,
    id: i64,
    actor: &str,
    action: &str,
    from: Option<&str>,
    to: &str,
    reason: Option<&str>,
) -> sqlx::Result<()> {
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO deposit_events (deposit_id, at, actor, action, from_status, to_status, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .arg(id)
    .arg(now_text())
    .arg(actor)
    .arg(action)
    .arg(from)
    .arg(to)
    .arg(reason);
    tx.exec().execute(&q).await.map(|_| ())
}
