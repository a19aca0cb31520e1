//! Return files and returned items in the database (both backends, `0018_deposit_returns`):
//! a file recorded once by its SHA-256, each item once per (file, record), and what a matching
//! reads of the deposits (the cash letter's sequence numbers, the ACH file's trace numbers).

use moneydesk_model::ledger::{ReturnFileError, ReturnItem, ReturnItemState, ReturnSource};

use crate::deposits::money;
use crate::storage::sql::Arg;
use crate::storage::time::now_text;
use crate::storage::{counted, Database, Sql, Tx};

/// A return file as recorded.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FileRow {
    pub id: i64,
    pub format: String,
    pub file_name: Option<String>,
    pub sha256: String,
    pub item_count: i64,
    /// `[ReturnFileError]` as JSON.
    pub errors: String,
}

impl FileRow {
    pub fn errors(&self) -> Vec<ReturnFileError> {
        serde_json::from_str(&self.errors).unwrap_or_default()
    }
}

/// A returned item as stored (amounts in cents).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ItemRow {
    pub id: i64,
    pub source: String,
    pub state: String,
    pub file_id: Option<i64>,
    pub record_number: Option<i64>,
    pub reason_code: String,
    pub reason: Option<String>,
    pub amount_cents: i64,
    pub reference: Option<String>,
    pub deposit_id: Option<i64>,
    pub corrected_data: Option<String>,
    pub received_at: String,
    pub note: Option<String>,
}

const ITEM_COLUMNS: &str = "id, source, state, file_id, record_number, reason_code, reason, amount_cents, reference, \
    deposit_id, corrected_data, received_at, note";

impl ItemRow {
    pub fn wire(&self) -> ReturnItem {
        ReturnItem {
            id: self.id,
            source: ReturnSource::parse(&self.source).unwrap_or(ReturnSource::Operator),
            state: ReturnItemState::parse(&self.state).unwrap_or(ReturnItemState::Unmatched),
            file_id: self.file_id,
            record_number: self.record_number,
            reason_code: self.reason_code.clone(),
            reason: self.reason.clone(),
            amount: money(self.amount_cents),
            reference: self.reference.clone(),
            deposit_id: self.deposit_id,
            corrected_data: self.corrected_data.clone(),
            received_at: self.received_at.clone(),
            note: self.note.clone(),
        }
    }
}

/// An item to record (its id and time are given on insert).
#[derive(Debug, Clone)]
pub struct NewItem {
    pub source: ReturnSource,
    pub state: ReturnItemState,
    pub file_id: Option<i64>,
    pub record_number: Option<i64>,
    pub reason_code: String,
    pub reason: Option<String>,
    pub amount_cents: i64,
    pub reference: Option<String>,
    pub deposit_id: Option<i64>,
    pub corrected_data: Option<String>,
    pub note: Option<String>,
}

/// What a matching needs of a deposit.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Candidate {
    pub id: i64,
    pub status: String,
    pub amount_cents: i64,
}

#[derive(Debug, Clone)]
pub struct ReturnStore {
    db: Database,
}

impl ReturnStore {
    pub fn new(db: Database) -> ReturnStore {
        ReturnStore { db }
    }

    pub fn database(&self) -> &Database {
        &self.db
    }

    pub async fn file_by_sha(&self, sha256: &str) -> sqlx::Result<Option<FileRow>> {
        let q = self
            .db
            .sql("SELECT id, format, file_name, sha256, item_count, errors FROM deposit_return_files WHERE sha256 = ?")
            .arg(sha256);
        self.db.acquire().await?.exec().row(&q).await
    }

    /// Records a file; `None` when a file of the same SHA-256 is recorded already.
    pub async fn insert_file(
        &self,
        format: ReturnSource,
        file_name: Option<&str>,
        sha256: &str,
        actor: &str,
        item_count: i64,
        errors: &[ReturnFileError],
    ) -> sqlx::Result<Option<i64>> {
        let mut q = self.db.sql(
            "INSERT INTO deposit_return_files (format, file_name, sha256, received_at, received_by, item_count, errors) VALUES ",
        );
        q.bind_row([
            Arg::from(format.as_str()),
            Arg::from(file_name),
            Arg::from(sha256),
            Arg::from(now_text()),
            Arg::from(actor),
            Arg::from(item_count),
            Arg::from(serde_json::to_string(errors).unwrap_or_else(|_| "[]".into())),
        ]);
        q.push(" ON CONFLICT DO NOTHING RETURNING id");
        let mut tx = self.db.begin().await?;
        let Some(id) = tx.exec().ints(&q).await?.into_iter().next() else { return Ok(None) };
        // The upload's audit record goes with the file's: its first change.
        crate::storage::trail::target("return_file", id);
        crate::storage::trail::change("items", None::<&str>, Some(item_count));
        tx.commit().await?;
        Ok(Some(id))
    }

    pub async fn items_of_file(&self, file_id: i64) -> sqlx::Result<Vec<ItemRow>> {
        let q = self
            .db
            .sql(&format!(
                "SELECT {ITEM_COLUMNS} FROM deposit_return_items WHERE file_id = ? ORDER BY record_number, id"
            ))
            .arg(file_id);
        self.db.acquire().await?.exec().rows(&q).await
    }

    pub async fn item(&self, id: i64) -> sqlx::Result<Option<ItemRow>> {
        let q = self.db.sql(&format!("SELECT {ITEM_COLUMNS} FROM deposit_return_items WHERE id = ?")).arg(id);
        self.db.acquire().await?.exec().row(&q).await
    }

    /// A page of items (of one state, if given), newest first, with the total; one snapshot.
    /// Found through the counted ranges (`storage::counted`, migration 0035: all items, and
    /// each state's), so page 10,000 costs what page 1 does and the total is no count(*).
    pub async fn list(&self, state: Option<&str>, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<ItemRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let select = format!("SELECT {ITEM_COLUMNS} FROM deposit_return_items");
        let table = counted::Table { name: "deposit_return_items", key: "id", part: "state", alias: "" };
        let states = state.map(|s| [s]);
        let values = states.as_ref().map(|s| &s[..]);
        let page =
            counted::page(&mut tx, "returns", &[state.unwrap_or("")], &select, table, values, offset, limit).await?;
        tx.commit().await?;
        Ok(page)
    }

    /// The same page by count(*) and OFFSET, as the list read it before its counts (what the
    /// counted page must agree with: the tests' yardstick).
    pub async fn list_by_scanning(
        &self,
        state: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> sqlx::Result<(i64, Vec<ItemRow>)> {
        let filter = |q: &mut Sql| {
            if let Some(s) = state {
                q.push(" WHERE state = ").bind(s);
            }
        };
        let mut count = self.db.sql("SELECT COUNT(*) FROM deposit_return_items");
        filter(&mut count);
        let mut page = self.db.sql(&format!("SELECT {ITEM_COLUMNS} FROM deposit_return_items"));
        filter(&mut page);
        page.push(" ORDER BY id DESC LIMIT ").bind(limit).push(" OFFSET ").bind(offset);
        let mut tx = self.db.begin_snapshot().await?;
        let total = tx.exec().int(&count).await?;
        let rows = tx.exec().rows(&page).await?;
        tx.commit().await?;
        Ok((total, rows))
    }
}

/// Records an item in `tx`; `None` when that record of that file is recorded already (or the
/// deposit was returned meanwhile under the same reference): then nothing is to be done.
pub async fn insert_item(tx: &mut Tx, item: &NewItem) -> sqlx::Result<Option<i64>> {
    let mut q = Sql::new(
        tx.dialect(),
        "INSERT INTO deposit_return_items (source, state, file_id, record_number, reason_code, reason, amount_cents, \
         reference, deposit_id, corrected_data, received_at, note) VALUES ",
    );
    q.bind_row([
        Arg::from(item.source.as_str()),
        Arg::from(item.state.as_str()),
        Arg::from(item.file_id),
        Arg::from(item.record_number),
        Arg::from(item.reason_code.as_str()),
        Arg::from(item.reason.as_deref()),
        Arg::from(item.amount_cents),
        Arg::from(item.reference.as_deref()),
        Arg::from(item.deposit_id),
        Arg::from(item.corrected_data.as_deref()),
        Arg::from(now_text()),
        Arg::from(item.note.as_deref()),
    ]);
    q.push(" ON CONFLICT DO NOTHING RETURNING id");
    Ok(tx.exec().ints(&q).await?.into_iter().next())
}

/// Whether the record of the file is recorded already.
pub async fn recorded(tx: &mut Tx, file_id: i64, record_number: i64) -> sqlx::Result<bool> {
    let q = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM deposit_return_items WHERE file_id = ? AND record_number = ?")
        .arg(file_id)
        .arg(record_number);
    Ok(tx.exec().int(&q).await? > 0)
}

/// An item read for an operator's act, in `tx` (after the writers' turn).
pub async fn item_in(tx: &mut Tx, id: i64) -> sqlx::Result<Option<ItemRow>> {
    let q = Sql::new(tx.dialect(), &format!("SELECT {ITEM_COLUMNS} FROM deposit_return_items WHERE id = ?")).arg(id);
    tx.exec().row(&q).await
}

/// An operator's act on an unmatched item: its new state, deposit and note.
pub async fn settle_item(
    tx: &mut Tx,
    id: i64,
    state: ReturnItemState,
    deposit_id: Option<i64>,
    note: Option<&str>,
) -> sqlx::Result<u64> {
    let q = Sql::new(
        tx.dialect(),
        "UPDATE deposit_return_items SET state = ?, deposit_id = COALESCE(?, deposit_id), note = ? \
         WHERE id = ? AND state = 'unmatched'",
    )
    .arg(state.as_str())
    .arg(deposit_id)
    .arg(note)
    .arg(id);
    tx.exec().execute(&q).await
}

/// The deposit a cash letter sent with this item sequence number, if any.
pub async fn by_sequence(tx: &mut Tx, sequence: &str) -> sqlx::Result<Option<Candidate>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT d.id, d.status, d.amount_cents FROM cash_letter_items c JOIN deposits d ON d.id = c.deposit_id \
         WHERE c.sequence_number = ?",
    )
    .arg(sequence);
    tx.exec().row(&q).await
}

/// The electronic deposits whose entry had this trace number (oldest first).
pub async fn by_trace(tx: &mut Tx, trace: &str) -> sqlx::Result<Vec<Candidate>> {
    let q = Sql::new(
        tx.dialect(),
        "SELECT id, status, amount_cents FROM deposits WHERE ach_trace_number = ? \
         AND service_type = 'Electronic_Deposit' ORDER BY id",
    )
    .arg(trace);
    tx.exec().rows(&q).await
}

/// A deposit by id, for a match by hand.
pub async fn deposit(tx: &mut Tx, id: i64) -> sqlx::Result<Option<Candidate>> {
    let q = Sql::new(tx.dialect(), "SELECT id, status, amount_cents FROM deposits WHERE id = ?").arg(id);
    tx.exec().row(&q).await
}

/// Writes each electronic deposit's trace number in the day's ACH file: kept once the deposit
/// is sent (the file that went out), written again before.
pub async fn stamp_traces(db: &Database, traces: &[(i64, String)]) -> sqlx::Result<()> {
    if traces.is_empty() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    for (id, trace) in traces {
        let q = Sql::new(
            tx.dialect(),
            "UPDATE deposits SET ach_trace_number = ? WHERE id = ? \
             AND (ach_trace_number IS NULL OR status IN ('In_Progress_1', 'Confirmed_2'))",
        )
        .arg(trace.as_str())
        .arg(*id);
        tx.exec().execute(&q).await?;
    }
    tx.commit().await
}

/// The payer's bank details a notification of change corrects.
#[derive(Debug, Clone, Default)]
pub struct BankDetails {
    pub routing_number: Option<String>,
    pub account_number: Option<String>,
    /// `checking` or `savings`.
    pub account_type: Option<String>,
    pub name: Option<String>,
}

/// The deposit's bank details now: routing, account, account type, vendor name.
pub async fn bank_details(tx: &mut Tx, id: i64) -> sqlx::Result<Option<BankDetails>> {
    type Row = (Option<String>, Option<String>, Option<String>, Option<String>);
    let q = Sql::new(
        tx.dialect(),
        "SELECT bank_routing_number, bank_account_number, ach_account_type, ach_vendor_name FROM deposits WHERE id = ?",
    )
    .arg(id);
    let row: Option<Row> = tx.exec().row(&q).await?;
    Ok(row.map(|(routing_number, account_number, account_type, name)| BankDetails {
        routing_number,
        account_number,
        account_type,
        name,
    }))
}

/// Writes the corrected details (those given) and the history entry saying what changed.
pub async fn correct(
    tx: &mut Tx,
    id: i64,
    status: &str,
    to: &BankDetails,
    actor: &str,
    said: &str,
) -> sqlx::Result<()> {
    let q = Sql::new(
        tx.dialect(),
        "UPDATE deposits SET bank_routing_number = COALESCE(?, bank_routing_number), \
         bank_account_number = COALESCE(?, bank_account_number), ach_account_type = COALESCE(?, ach_account_type), \
         ach_vendor_name = COALESCE(?, ach_vendor_name) WHERE id = ?",
    )
    .arg(to.routing_number.as_deref())
    .arg(to.account_number.as_deref())
    .arg(to.account_type.as_deref())
    .arg(to.name.as_deref())
    .arg(id);
    tx.exec().execute(&q).await?;
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO deposit_events (deposit_id, at, actor, action, from_status, to_status, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .arg(id)
    .arg(now_text())
    .arg(actor)
    .arg("correct")
    .arg(status)
    .arg(status)
    .arg(said);
    tx.exec().execute(&q).await.map(drop)
}
