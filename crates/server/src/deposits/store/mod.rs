//! Deposits in the database (both backends): creation with its idempotency key and the
//! duplicate-presentment guard in one transaction, moves of the state machine with their
//! history, and the filtered list.

use moneydesk_model::deposits::{DepositAction, DepositStatus};

mod buckets;
mod list;
mod scans;

pub use buckets::BUCKET_ROWS;
pub use list::HourTotal;
pub use scans::ScanRow;

use crate::storage::sql::Arg;
use crate::storage::{now_text, Database, Sql, Tx};

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

    /// The same store with buckets of `rows` (at least 2) rows.
    pub fn with_bucket_rows(mut self, rows: i64) -> DepositStore {
        self.bucket_rows = rows.max(2);
        self
    }

    /// Stores a new deposit (its `id` is ignored) with its first history entry. With a key:
    /// a key seen before answers its deposit (same body) or `KeyReused`. The transaction's
    /// first statement is a write (the key's claim, else the deposit writers' turn), so SQLite
    /// takes its write lock at once, waiting for another writer rather than failing later;
    /// concurrent requests with one key wait on the key's row and make one deposit. A second
    /// deposit of a presented check breaks the unique `presentment` index: `Duplicate` names
    /// the first. The list's bucket counts are kept in the same transaction.
    pub async fn create(&self, row: &DepositRow, key: Option<&IdempotencyKey>) -> Result<CreateOutcome, CreateError> {
        let mut tx = self.db.begin().await?;
        if let Some(k) = key {
            // A key older than the window is forgotten: its claim starts afresh.
            let expired = Sql::new(
                tx.dialect(),
                "DELETE FROM deposit_idempotency WHERE token_id = ? AND key = ? AND created_at < ?",
            )
            .arg(k.token_id)
            .arg(k.key.as_str())
            .arg(k.expired_before.as_str());
            tx.exec().execute(&expired).await?;
            let claim = Sql::new(
                tx.dialect(),
                "INSERT INTO deposit_idempotency (token_id, key, request_hash, deposit_id, created_at) VALUES (?, ?, ?, NULL, ?) \
                 ON CONFLICT (token_id, key) DO NOTHING",
            )
            .arg(k.token_id)
            .arg(k.key.as_str())
            .arg(k.request_hash.as_str())
            .arg(now_text());
            if tx.exec().execute(&claim).await? == 0 {
                drop(tx);
                return self.after_race(row, key).await;
            }
        }
        let counted = buckets::take_turn(&mut tx).await?;
        let id = match insert(&mut tx, row).await {
            Ok(id) => id,
            Err(e) if is_unique_violation(&e) => {
                drop(tx);
                return self.after_race(row, None).await;
            }
            Err(e) => return Err(e.into()),
        };
        if counted {
            let c = buckets::Counted {
                id,
                created_at: &row.created_at,
                amount_cents: row.amount_cents,
                status: &row.status,
                service_type: &row.service_type,
            };
            buckets::added(&mut tx, &c, self.bucket_rows).await?;
        }
        event(&mut tx, id, &row.submitter, "create", None, &row.status, None).await?;
        if let Some(k) = key {
            let q =
                Sql::new(tx.dialect(), "UPDATE deposit_idempotency SET deposit_id = ? WHERE token_id = ? AND key = ?")
                    .arg(id)
                    .arg(k.token_id)
                    .arg(k.key.as_str());
            tx.exec().execute(&q).await?;
        }
        tx.commit().await?;
        let stored = self.get(id).await?.ok_or(sqlx::Error::RowNotFound)?;
        Ok(CreateOutcome::Created(stored))
    }

    /// What a request that lost a race answers: the key's deposit (once its creator committed),
    /// or the check's first deposit.
    async fn after_race(&self, row: &DepositRow, key: Option<&IdempotencyKey>) -> Result<CreateOutcome, CreateError> {
        let mut conn = self.db.acquire().await?;
        if let Some(k) = key {
            let q = self
                .db
                .sql("SELECT request_hash, deposit_id FROM deposit_idempotency WHERE token_id = ? AND key = ?")
                .arg(k.token_id)
                .arg(k.key.as_str());
            let found: Option<(String, Option<i64>)> = conn.exec().row(&q).await?;
            drop(conn);
            return match found {
                Some((hash, Some(id))) => self.repeated(k, &hash, id).await,
                // The creator gave up (its deposit was refused): nothing was made with this key.
                _ => Err(CreateError::Db(sqlx::Error::Protocol(
                    "the request with this Idempotency-Key was refused; send it again".into(),
                ))),
            };
        }
        if let Some(scan) = &row.scan_id {
            let q = self.db.sql("SELECT id FROM deposits WHERE scan_id = ?").arg(scan.as_str());
            if let Some(first) = conn.exec().ints(&q).await?.pop() {
                return Err(CreateError::ScanUsed(first));
            }
        }
        if let Some(p) = &row.presentment {
            let q = self.db.sql("SELECT id FROM deposits WHERE presentment = ?").arg(p.as_str());
            if let Some(first) = conn.exec().ints(&q).await?.pop() {
                return Err(CreateError::Duplicate(first));
            }
        }
        Err(CreateError::Db(sqlx::Error::Protocol("a unique constraint failed, but no row explains it".into())))
    }

    async fn repeated(&self, k: &IdempotencyKey, hash: &str, id: i64) -> Result<CreateOutcome, CreateError> {
        if hash != k.request_hash {
            return Err(CreateError::KeyReused(id));
        }
        let stored = self.get(id).await?.ok_or(sqlx::Error::RowNotFound)?;
        Ok(CreateOutcome::Repeated(stored))
    }

    pub async fn get(&self, id: i64) -> sqlx::Result<Option<DepositRow>> {
        let q = self.db.sql(&format!("SELECT {COLUMNS} FROM deposits WHERE id = ?")).arg(id);
        self.db.acquire().await?.exec().row(&q).await
    }

    /// The deposit's history, oldest first.
    pub async fn events(&self, id: i64) -> sqlx::Result<Vec<EventRow>> {
        let q = self
            .db
            .sql("SELECT at, actor, action, from_status, to_status, reason FROM deposit_events WHERE deposit_id = ? ORDER BY id")
            .arg(id);
        self.db.acquire().await?.exec().rows(&q).await
    }

    /// Moves a deposit; the move and its history entry commit together.
    pub async fn apply(
        &self,
        id: i64,
        action: DepositAction,
        actor: &str,
        reason: Option<&str>,
    ) -> Result<DepositRow, MoveError> {
        let mut tx = self.db.begin().await?;
        // A write first: the deposit writers' turn (SQLite's write lock, a row lock in
        // PostgreSQL) before the state is read, so two moves of one deposit take turns.
        let counted = buckets::take_turn(&mut tx).await?;
        let q =
            Sql::new(tx.dialect(), "SELECT status, service_type, created_at, amount_cents FROM deposits WHERE id = ?")
                .arg(id);
        let (status, service_type, created_at, amount_cents): (String, String, String, i64) =
            tx.exec().row(&q).await?.ok_or(MoveError::NotFound(id))?;
        let from = DepositStatus::parse(&status).ok_or(MoveError::NotFound(id))?;
        let to = from.apply(action).map_err(MoveError::Illegal)?;
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
        event(&mut tx, id, actor, action.as_str(), Some(from.as_str()), to.as_str(), reason).await?;
        if counted {
            let c = buckets::Counted {
                id,
                created_at: &created_at,
                amount_cents,
                status: to.as_str(),
                service_type: &service_type,
            };
            buckets::moved(&mut tx, &c, from.as_str()).await?;
        }
        tx.commit().await?;
        self.get(id).await?.ok_or(MoveError::NotFound(id))
    }
}

/// Takes the deposit writers' turn in `tx` (another group's transaction that moves deposits,
/// the cash letter's); answers whether the list's bucket counts are kept.
pub(crate) async fn take_writers_turn(tx: &mut Tx) -> sqlx::Result<bool> {
    buckets::take_turn(tx).await
}

/// Moves each of `ids` from Confirmed_2 to Sent_3 in `tx` (which took the writers' turn), with
/// its history entry and the list's counts: all of them, or an error naming the first that
/// cannot move.
pub(crate) async fn send_all(
    tx: &mut Tx,
    ids: &[i64],
    counted: bool,
    actor: &str,
    reason: &str,
) -> Result<(), MoveError> {
    for &id in ids {
        let q =
            Sql::new(tx.dialect(), "SELECT status, service_type, created_at, amount_cents FROM deposits WHERE id = ?")
                .arg(id);
        let (status, service_type, created_at, amount_cents): (String, String, String, i64) =
            tx.exec().row(&q).await?.ok_or(MoveError::NotFound(id))?;
        let from = DepositStatus::parse(&status).ok_or(MoveError::NotFound(id))?;
        let to = from.apply(DepositAction::Send).map_err(MoveError::Illegal)?;
        let q = Sql::new(tx.dialect(), "UPDATE deposits SET status = ? WHERE id = ?").arg(to.as_str()).arg(id);
        tx.exec().execute(&q).await?;
        event(tx, id, actor, DepositAction::Send.as_str(), Some(from.as_str()), to.as_str(), Some(reason)).await?;
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

async fn insert(tx: &mut Tx, r: &DepositRow) -> sqlx::Result<i64> {
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO deposits (service_type, status, is_confirmed, amount_cents, fee_cents, created_at, completed_at, \
         schedule_date, check_date, check_number, bank_routing_number, bank_account_number, bank_name, memo, \
         payee_account_id, payee_user_id, payee_name, payee_account_number, payee_record_type_id, payer_id, payer_type, \
         payment_type, source, bank_info_id, transfer_type, submitter, front_image, back_image, presentment, \
         duplicate_of, override_reason, scan_id, ach_account_type, ach_vendor_name, ach_entry_description) VALUES ",
    );
    let values: [Arg; 35] = [
        r.service_type.clone().into(),
        r.status.clone().into(),
        r.is_confirmed.into(),
        r.amount_cents.into(),
        r.fee_cents.into(),
        r.created_at.clone().into(),
        r.completed_at.clone().into(),
        r.schedule_date.clone().into(),
        r.check_date.clone().into(),
        r.check_number.clone().into(),
        r.bank_routing_number.clone().into(),
        r.bank_account_number.clone().into(),
        r.bank_name.clone().into(),
        r.memo.clone().into(),
        r.payee_account_id.clone().into(),
        r.payee_user_id.clone().into(),
        r.payee_name.clone().into(),
        r.payee_account_number.clone().into(),
        r.payee_record_type_id.clone().into(),
        r.payer_id.clone().into(),
        r.payer_type.clone().into(),
        r.payment_type.clone().into(),
        r.source.clone().into(),
        r.bank_info_id.clone().into(),
        r.transfer_type.clone().into(),
        r.submitter.clone().into(),
        r.front_image.clone().into(),
        r.back_image.clone().into(),
        r.presentment.clone().into(),
        r.duplicate_of.into(),
        r.override_reason.clone().into(),
        r.scan_id.clone().into(),
        r.ach_account_type.clone().into(),
        r.ach_vendor_name.clone().into(),
        r.ach_entry_description.clone().into(),
    ];
    q.bind_row(values).push(" RETURNING id");
    tx.exec().ints(&q).await?.pop().ok_or(sqlx::Error::RowNotFound)
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

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
