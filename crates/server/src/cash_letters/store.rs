//! Cash letters in the database (both backends): the deposits a letter may hold, and the
//! letter recorded with its items in the transaction that moves its deposits to Sent_3.

use moneydesk_model::cash_letters::{CashLetter, CashLetterItem};
use moneydesk_model::events::EventType;

use crate::deposits::store::{send_all, take_writers_turn, MoveError};
use crate::storage::{counted, events, trail, Database, Sql, Tx};

/// A deposit as a cash letter reads it, with its scan's G4 images when it was scanned.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Candidate {
    pub id: i64,
    pub status: String,
    pub service_type: String,
    pub amount_cents: i64,
    pub bank_routing_number: Option<String>,
    pub bank_account_number: Option<String>,
    pub check_number: Option<String>,
    pub payee_name: Option<String>,
    pub front_image: Option<String>,
    pub back_image: Option<String>,
    pub front_g4: Option<String>,
    pub rear_g4: Option<String>,
}

const CANDIDATE: &str = "SELECT d.id, d.status, d.service_type, d.amount_cents, d.bank_routing_number, \
    d.bank_account_number, d.check_number, d.payee_name, d.front_image, d.back_image, s.front_g4, s.rear_g4 \
    FROM deposits d LEFT JOIN deposit_scans s ON s.id = d.scan_id";

/// A cash letter as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LetterRow {
    pub id: i64,
    pub cash_letter_id: String,
    pub business_date: String,
    pub created_at: String,
    pub created_by: String,
    pub item_count: i64,
    pub bundle_count: i64,
    pub total_cents: i64,
    pub file_path: String,
    pub file_bytes: i64,
    pub file_sha256: String,
}

const LETTER: &str =
    "id, cash_letter_id, business_date, created_at, created_by, item_count, bundle_count, total_cents, \
    file_path, file_bytes, file_sha256";

/// One item as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ItemRow {
    pub deposit_id: i64,
    pub bundle: i64,
    pub sequence_number: String,
    pub routing_number: String,
    pub on_us: String,
    pub amount_cents: i64,
}

#[derive(Clone, Debug)]
pub struct CashLetterStore {
    db: Database,
}

/// Rows per INSERT of items (8 binds each).
const ITEM_BATCH: usize = 500;

impl CashLetterStore {
    pub fn new(db: Database) -> CashLetterStore {
        CashLetterStore { db }
    }

    /// The confirmed check deposits scheduled on or before `day` (`YYYY-MM-DD`), oldest first.
    pub async fn due_by(&self, day: &str) -> sqlx::Result<Vec<Candidate>> {
        let q = self
            .db
            .sql(&format!(
                "{CANDIDATE} WHERE d.status = 'Confirmed_2' AND d.service_type IN ('Check', 'Check_Scan') \
                 AND d.schedule_date <= ? ORDER BY d.id"
            ))
            .arg(day);
        self.db.acquire().await?.exec().rows(&q).await
    }

    /// The deposits named (whatever their state; the caller says what is wrong with each).
    pub async fn named(&self, ids: &[i64]) -> sqlx::Result<Vec<Candidate>> {
        let mut out = Vec::with_capacity(ids.len());
        let mut conn = self.db.acquire().await?;
        for chunk in ids.chunks(ITEM_BATCH) {
            let mut q = self.db.sql(&format!("{CANDIDATE} WHERE d.id IN ("));
            q.bind_list(chunk.iter().copied()).push(") ORDER BY d.id");
            out.extend(conn.exec().rows::<Candidate>(&q).await?);
        }
        Ok(out)
    }

    /// Records the letter and its items and moves its deposits to Sent_3, in one transaction
    /// with their events (`deposit.sent` each, then `cash_letter.created` and `.sent`) and the
    /// audit record's target: a deposit another letter took meanwhile (or that moved) fails the
    /// whole of it.
    pub async fn record(
        &self,
        letter: &LetterRow,
        items: &[ItemRow],
        books: &crate::ledger::Books,
    ) -> Result<i64, MoveError> {
        let mut tx = self.db.begin().await?;
        let counted = take_writers_turn(&mut tx).await?;
        let ids: Vec<i64> = items.iter().map(|i| i.deposit_id).collect();
        let reason = format!("in cash letter {}", letter.cash_letter_id);
        send_all(&mut tx, &ids, counted, &letter.created_by, &reason, books).await?;
        let mut q = Sql::new(
            tx.dialect(),
            "INSERT INTO cash_letters (cash_letter_id, business_date, created_at, created_by, item_count, bundle_count, \
             total_cents, file_path, file_bytes, file_sha256) VALUES ",
        );
        q.bind_row([
            letter.cash_letter_id.as_str().into(),
            letter.business_date.as_str().into(),
            letter.created_at.as_str().into(),
            letter.created_by.as_str().into(),
            letter.item_count.into(),
            letter.bundle_count.into(),
            letter.total_cents.into(),
            letter.file_path.as_str().into(),
            letter.file_bytes.into(),
            letter.file_sha256.as_str().into(),
        ])
        .push(" RETURNING id");
        let id = tx.exec().ints(&q).await?.pop().ok_or(sqlx::Error::RowNotFound)?;
        for (n, chunk) in items.chunks(ITEM_BATCH).enumerate() {
            let mut q = Sql::new(
                tx.dialect(),
                "INSERT INTO cash_letter_items (cash_letter, position, deposit_id, bundle, sequence_number, routing_number, \
                 on_us, amount_cents) VALUES ",
            );
            for (i, item) in chunk.iter().enumerate() {
                q.push(if i == 0 { "" } else { ", " }).bind_row([
                    id.into(),
                    ((n * ITEM_BATCH + i + 1) as i64).into(),
                    item.deposit_id.into(),
                    item.bundle.into(),
                    item.sequence_number.as_str().into(),
                    item.routing_number.as_str().into(),
                    item.on_us.as_str().into(),
                    item.amount_cents.into(),
                ]);
            }
            tx.exec().execute(&q).await?;
        }
        announce(&mut tx, &LetterRow { id, ..letter.clone() }, items).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The letters, newest first, and how many there are: through the counted ranges
    /// (`storage::counted`, migration 0036), so page 10,000 costs what page 1 does and the
    /// total is no count(*).
    pub async fn list(&self, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<LetterRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let select = format!("SELECT {LETTER} FROM cash_letters");
        let table = counted::Table { name: "cash_letters", key: "id", part: "", alias: "" };
        let page =
            counted::page::<_, &str>(&mut tx, "cash_letters", &[""], &select, table, None, offset, limit).await?;
        tx.commit().await?;
        Ok(page)
    }

    /// The same page by count(*) and OFFSET, as the list read it before its counts (the
    /// tests' yardstick).
    pub async fn list_by_scanning(&self, offset: i64, limit: i64) -> sqlx::Result<(i64, Vec<LetterRow>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let count = Sql::new(tx.dialect(), "SELECT count(*) FROM cash_letters");
        let total = tx.exec().int(&count).await?;
        let q = Sql::new(tx.dialect(), &format!("SELECT {LETTER} FROM cash_letters ORDER BY id DESC LIMIT ? OFFSET ?"))
            .arg(limit)
            .arg(offset);
        let rows = tx.exec().rows(&q).await?;
        tx.commit().await?;
        Ok((total, rows))
    }

    pub async fn get(&self, id: i64) -> sqlx::Result<Option<(LetterRow, Vec<ItemRow>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let q = Sql::new(tx.dialect(), &format!("SELECT {LETTER} FROM cash_letters WHERE id = ?")).arg(id);
        let Some(letter) = tx.exec().row::<LetterRow>(&q).await? else { return Ok(None) };
        let q = Sql::new(
            tx.dialect(),
            "SELECT deposit_id, bundle, sequence_number, routing_number, on_us, amount_cents FROM cash_letter_items \
             WHERE cash_letter = ? ORDER BY position",
        )
        .arg(id);
        let items = tx.exec().rows(&q).await?;
        tx.commit().await?;
        Ok(Some((letter, items)))
    }
}

/// The letter's events — made and sent at once, as its GET answers it — and what its audit
/// record notes.
async fn announce(tx: &mut Tx, letter: &LetterRow, items: &[ItemRow]) -> sqlx::Result<()> {
    trail::target("cash_letter", letter.id);
    trail::change("cashLetterId", None::<&str>, Some(&letter.cash_letter_id));
    trail::change("itemCount", None::<&str>, Some(letter.item_count));
    trail::change("totalAmount", None::<&str>, Some(crate::deposits::money(letter.total_cents)));
    let deposits: Vec<String> = items.iter().map(|i| i.deposit_id.to_string()).collect();
    trail::change("deposits", None::<&str>, Some(deposits.join(", ")));
    let answer = answer(letter, items);
    events::append(tx, EventType::CashLetterCreated, "cash_letter", letter.id, &answer).await?;
    events::append(tx, EventType::CashLetterSent, "cash_letter", letter.id, &answer).await?;
    Ok(())
}

pub fn answer(letter: &LetterRow, items: &[ItemRow]) -> CashLetter {
    let money = crate::deposits::money;
    CashLetter {
        id: letter.id,
        cash_letter_id: letter.cash_letter_id.clone(),
        business_date: letter.business_date.clone(),
        created_at: Some(letter.created_at.clone()),
        created_by: Some(letter.created_by.clone()),
        item_count: letter.item_count.max(0) as u64,
        bundle_count: letter.bundle_count.max(0) as u64,
        total_amount: money(letter.total_cents),
        file_bytes: Some(letter.file_bytes.max(0) as u64),
        file_sha256: Some(letter.file_sha256.clone()),
        items: items
            .iter()
            .map(|i| CashLetterItem {
                deposit_id: i.deposit_id,
                bundle: i.bundle.max(0) as u32,
                sequence_number: i.sequence_number.clone(),
                routing_number: i.routing_number.clone(),
                on_us: i.on_us.clone(),
                amount: money(i.amount_cents),
            })
            .collect(),
    }
}
