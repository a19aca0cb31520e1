//! The returns queue and the cash letters (`LISTS_BENCH_ONLY=returns,cash_letters`): `n`
//! returned items (nine in ten matched, the rest unmatched or dismissed) and `n` letters; page
//! 1, page 10,000 and the last page of all items, of the unmatched ones and of the letters,
//! through the counted ranges (migrations 0035, 0036) and, alternating with it, by count(*)
//! and OFFSET as the lists were read before.

use moneydesk_server::cash_letters::store::LetterRow;
use moneydesk_server::deposits::returns::store::{ItemRow, ReturnStore};
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;

use super::{pages, wants, SIZE};

/// The rows, one for each `i` of `numbers` (the row generator's `WITH` clause).
pub async fn build(db: &Database, numbers: &str) -> anyhow::Result<()> {
    if wants("returns") {
        db.execute(&format!(
            "{numbers} INSERT INTO deposit_return_items (source, state, reason_code, amount_cents, reference, \
             received_at) SELECT 'operator', CASE i % 20 WHEN 0 THEN 'unmatched' WHEN 1 THEN 'unmatched' \
             WHEN 2 THEN 'dismissed' ELSE 'matched' END, 'R01', 100 + i % 9000, 'ref-' || i, \
             '2026-11-30T10:00:00.000Z' FROM n ORDER BY i"
        ))
        .await?;
    }
    if wants("cash_letters") {
        db.execute(&format!(
            "{numbers} INSERT INTO cash_letters (cash_letter_id, business_date, created_at, created_by, item_count, \
             bundle_count, total_cents, file_path, file_bytes, file_sha256) SELECT 'CL' || i, '2026-11-30', \
             '2026-11-30T10:00:00.000Z', 'bench', 1, 1, 100, 'cash-letters/' || i || '.x9', 1000, 'sha' FROM n ORDER BY i"
        ))
        .await?;
    }
    Ok(())
}

pub async fn run(stores: &Stores, runs: usize) -> anyhow::Result<()> {
    let returns = &ReturnStore::new(stores.database.clone());
    for (name, state) in [("returns, every state", None), ("returns, unmatched", Some("unmatched"))] {
        if !wants("returns") {
            continue;
        }
        let total = returns.list(state, 0, 1).await?.0;
        let key: fn(&ItemRow) -> i64 = |r| r.id;
        pages(name, total, runs, key, |o| returns.list(state, o, SIZE), |o| returns.list_by_scanning(state, o, SIZE))
            .await?;
    }
    if wants("cash_letters") {
        let letters = &stores.cash_letters;
        let total = letters.list(0, 1).await?.0;
        let key: fn(&LetterRow) -> i64 = |l| l.id;
        pages("cash letters", total, runs, key, |o| letters.list(o, SIZE), |o| letters.list_by_scanning(o, SIZE))
            .await?;
    }
    Ok(())
}
