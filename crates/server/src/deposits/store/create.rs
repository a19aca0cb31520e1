//! A deposit's creation: its idempotency key, the duplicate-presentment guard, the row, its
//! first history entry and the list's bucket counts, in one transaction.

use moneydesk_model::events::EventType;

use super::{announce, buckets, event, CreateError, CreateOutcome, DepositRow, DepositStore, IdempotencyKey};
use crate::storage::sql::Arg;
use crate::storage::time::now_text;
use crate::storage::{Sql, Tx};

impl DepositStore {
    /// Stores a new deposit (its `id` is ignored) with its first history entry. With a key:
    /// a key seen before answers its deposit (same body) or `KeyReused`. The transaction's
    /// first statement is a write (the key's claim, else the deposit writers' turn; SQLite's
    /// write lock is taken at BEGIN anyway, `Database::begin`): concurrent requests with one
    /// key wait on the key's row and make one deposit. A second
    /// deposit of a presented check breaks the unique `presentment` index: `Duplicate` names
    /// the first. The list's bucket counts are kept in the same transaction, and so is the
    /// `deposit.created` event, its record's times in the default business time zone (see
    /// [`DepositStore::create_in_zone`]).
    pub async fn create(&self, row: &DepositRow, key: Option<&IdempotencyKey>) -> Result<CreateOutcome, CreateError> {
        self.create_in_zone(row, key, crate::config::DEFAULT_BUSINESS_TIME_ZONE).await
    }

    /// [`DepositStore::create`], the event's record written in the business time zone `tz`.
    pub async fn create_in_zone(
        &self,
        row: &DepositRow,
        key: Option<&IdempotencyKey>,
        tz: chrono_tz::Tz,
    ) -> Result<CreateOutcome, CreateError> {
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
        announce::note_created(id, row);
        announce::announce(&mut tx, id, EventType::DepositCreated, tz).await?;
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

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
