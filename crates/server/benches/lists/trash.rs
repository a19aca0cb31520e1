//! A vault trash (`LISTS_BENCH_ONLY=trash`): `n` trashed files, nine in ten a busy user's and
//! the rest another's; page 1, page 10,000 and the last page of the busy user's trash through
//! the counted ranges (migration 0037) and, alternating with it, by count(*) and OFFSET as the
//! trash was read before.

use moneydesk_model::vault::TrashItem;
use moneydesk_server::state::Stores;
use moneydesk_server::storage::Database;

use super::{pages, SIZE};

/// The rows, one for each `i` of `numbers` (the row generator's `WITH` clause).
pub async fn build(db: &Database, numbers: &str) -> anyhow::Result<()> {
    db.execute(&format!(
        "{numbers} INSERT INTO vault_trash (user_id, kind, path, size, deleted_at, deleted_by, purge_at) \
         SELECT CASE WHEN i % 10 = 0 THEN 'other' ELSE 'bench' END, 'file', 'reports/' || i || '.pdf', i % 100000, \
         '2026-11-30T10:00:00Z', 'bench', '2026-12-30T10:00:00Z' FROM n ORDER BY i"
    ))
    .await?;
    Ok(())
}

pub async fn run(stores: &Stores, runs: usize) -> anyhow::Result<()> {
    let vault = &stores.vault;
    let as_rows = |p: Result<(u64, Vec<TrashItem>), moneydesk_server::vault::store::VaultError>| {
        p.map(|(n, items)| (n as i64, items)).map_err(|e| sqlx::Error::Protocol(e.to_string()))
    };
    let total = as_rows(vault.trash("bench", 0, 1).await)?.0;
    let key: fn(&TrashItem) -> u64 = |t| t.id;
    pages(
        "vault trash, busy user",
        total,
        runs,
        key,
        |o| async move { as_rows(vault.trash("bench", o as u64, SIZE as u32).await) },
        |o| async move { as_rows(vault.trash_by_scanning("bench", o as u64, SIZE as u32).await) },
    )
    .await
}
