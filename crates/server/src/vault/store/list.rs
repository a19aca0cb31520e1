//! One page of a folder's children, folders first, from one snapshot (the total and the page
//! agree).

use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind, VaultPath, VaultSortField};

use super::{folder_id, EntryRow, Result, VaultError, VaultStore};
use crate::storage::{counted, Dialect, Sql};

impl VaultStore {
    /// One page of a folder's children: folders first, then files, in the order asked.
    pub async fn list(
        &self,
        user: &str,
        path: &VaultPath,
        sort: VaultSortField,
        dir: SortDir,
        offset: u64,
        limit: u32,
    ) -> Result<(u64, Vec<VaultEntry>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let Some(folder_id) = folder_id(&mut tx, user, path).await? else {
            if path.is_root() {
                return Ok((0, Vec::new()));
            }
            return Err(VaultError::NotFound(format!("path: no folder {path}")));
        };
        // Folders first, then files: each table read through its own index in the order asked
        // (never the whole folder sorted for one page), from the page's offset into it. The
        // files' count is kept by the database (migration 0030), so a page of a folder of a
        // million files neither counts nor sorts them.
        let folders = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND parent = ?")
            .arg(user)
            .arg(path.as_str());
        let folders = tx.exec().int(&folders).await?;
        let files = counted::counts(&mut tx, "vault", &[folder_id.to_string().as_str()]).await?;
        let files: i64 = files.iter().map(|(_, n)| n).sum();
        let dir = match dir {
            SortDir::Asc => "ASC",
            SortDir::Desc => "DESC",
        };
        let (offset, limit) = (offset.min(i64::MAX as u64) as i64, i64::from(limit));
        let mut rows: Vec<EntryRow> = Vec::new();
        if offset < folders {
            // A folder has no size, and its modification time is its creation.
            let key = match sort {
                VaultSortField::Name | VaultSortField::Size => "",
                VaultSortField::ModifiedAt => "created_at {dir}, ",
            };
            let q = Sql::new(
                tx.dialect(),
                &format!(
                    "SELECT 'folder' AS kind, name, CAST(NULL AS BIGINT) AS size, CAST(NULL AS TEXT) AS content_type, \
                       CAST(NULL AS BIGINT) AS versions, created_at AS modified_at \
                     FROM vault_folders WHERE user_id = ? AND parent = ? ORDER BY {} name {dir} LIMIT ? OFFSET ?",
                    key.replace("{dir}", dir)
                ),
            )
            .arg(user)
            .arg(path.as_str())
            .arg(limit)
            .arg(offset);
            rows = tx.exec().rows(&q).await?;
        }
        let wanted = limit - rows.len() as i64;
        if wanted > 0 && offset + (rows.len() as i64) < folders + files {
            let key = match sort {
                VaultSortField::Name => "",
                VaultSortField::Size => "size {dir}, ",
                VaultSortField::ModifiedAt => "modified_at {dir}, ",
            };
            let order = format!("{} name {dir}", key.replace("{dir}", dir));
            let skip = (offset - folders).max(0);
            let q = match tx.dialect() {
                // SQLite skips through the order's index without reading the rows it passes.
                Dialect::Sqlite => Sql::new(
                    Dialect::Sqlite,
                    &format!(
                        "SELECT 'file' AS kind, name, size, content_type, versions, modified_at FROM vault_files \
                         WHERE folder_id = ? ORDER BY {order} LIMIT ? OFFSET ?"
                    ),
                )
                .arg(folder_id)
                .arg(wanted)
                .arg(skip),
                // PostgreSQL's OFFSET over the rows read each skipped row from the table (page
                // 10,000 of a million files 369 ms, `scripts/bench-lists`): the page's names
                // first, through the order's index alone (it holds every column the order
                // reads), then their rows. On SQLite the same query scanned the whole index for
                // the outer order (244 ms for page 1 by size).
                Dialect::Postgres => Sql::new(
                    Dialect::Postgres,
                    &format!(
                        "SELECT 'file' AS kind, name, size, content_type, versions, modified_at FROM vault_files \
                         WHERE folder_id = ? AND name IN (SELECT name FROM vault_files WHERE folder_id = ? \
                         ORDER BY {order} LIMIT ? OFFSET ?) ORDER BY {order}"
                    ),
                )
                .arg(folder_id)
                .arg(folder_id)
                .arg(wanted)
                .arg(skip),
            };
            rows.extend(tx.exec().rows::<EntryRow>(&q).await?);
        }
        let total = (folders + files) as u64;
        let entries = rows
            .into_iter()
            .map(|r| {
                let entry_path = if path.is_root() { r.name.clone() } else { format!("{}/{}", path.as_str(), r.name) };
                VaultEntry {
                    kind: if r.kind == "folder" { VaultEntryKind::Folder } else { VaultEntryKind::File },
                    path: entry_path,
                    name: r.name,
                    size: r.size.map(|s| s as u64),
                    content_type: r.content_type,
                    versions: r.versions.map(|v| v as u32),
                    modified_at: r.modified_at,
                }
            })
            .collect();
        Ok((total, entries))
    }
}
