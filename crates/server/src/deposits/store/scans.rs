//! Scans of checks in the database (both backends): one row a scan, written once; the images
//! themselves are in the blob store.

use super::DepositStore;
use crate::storage::Sql;

/// A scan as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ScanRow {
    /// `scn_` and 32 hex digits.
    pub id: String,
    pub sma_sfid: String,
    pub amount_cents: i64,
    pub created_at: String,
    pub submitter: String,
    /// Blob paths of the grayscale JPEG and the G4 TIFF of each side.
    pub front_gray: String,
    pub front_g4: String,
    pub rear_gray: String,
    pub rear_g4: String,
    pub micr_line: Option<String>,
    /// The scan's answer (`CheckScan` as JSON).
    pub answer: String,
}

const COLUMNS: &str =
    "id, sma_sfid, amount_cents, created_at, submitter, front_gray, front_g4, rear_gray, rear_g4, micr_line, answer";

impl DepositStore {
    /// Stores a scan, with its audit record when a write request makes it.
    pub async fn insert_scan(&self, s: &ScanRow) -> sqlx::Result<()> {
        let mut q = self.db.sql(&format!("INSERT INTO deposit_scans ({COLUMNS}) VALUES "));
        q.bind_row([
            s.id.as_str().into(),
            s.sma_sfid.as_str().into(),
            s.amount_cents.into(),
            s.created_at.as_str().into(),
            s.submitter.as_str().into(),
            s.front_gray.as_str().into(),
            s.front_g4.as_str().into(),
            s.rear_gray.as_str().into(),
            s.rear_g4.as_str().into(),
            s.micr_line.as_deref().into(),
            s.answer.as_str().into(),
        ]);
        // In a transaction of its own, which carries the scan's audit record.
        let mut tx = self.db.begin().await?;
        tx.exec().execute(&q).await?;
        crate::storage::trail::target("check_scan", &s.id);
        crate::storage::trail::change("amount", None::<&str>, Some(crate::deposits::money(s.amount_cents)));
        tx.commit().await
    }

    pub async fn scan(&self, id: &str) -> sqlx::Result<Option<ScanRow>> {
        let q: Sql = self.db.sql(&format!("SELECT {COLUMNS} FROM deposit_scans WHERE id = ?")).arg(id);
        self.db.acquire().await?.exec().row(&q).await
    }
}
