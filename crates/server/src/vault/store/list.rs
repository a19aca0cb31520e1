//! One page of a folder's children, folders first, from one snapshot (the total and the page
//! agree).

use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind, VaultPath, VaultSortField};

use super::{folder_id, EntryRow, Result, VaultError, VaultStore};
use crate::storage::Sql;

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
        let count = Sql::new(
            tx.dialect(),
            "SELECT (SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND parent = ?) \
                  + (SELECT COUNT(*) FROM vault_files WHERE folder_id = ?)",
        )
        .arg(user)
        .arg(path.as_str())
        .arg(folder_id);
        let total = tx.exec().int(&count).await? as u64;
        let key = match sort {
            VaultSortField::Name => "name",
            VaultSortField::Size => "size",
            VaultSortField::ModifiedAt => "modified_at",
        };
        let dir = match dir {
            SortDir::Asc => "ASC",
            SortDir::Desc => "DESC",
        };
        let q = Sql::new(
            tx.dialect(),
            &format!(
                "SELECT kind, name, size, content_type, versions, modified_at FROM ( \
                   SELECT 'folder' AS kind, name, CAST(NULL AS BIGINT) AS size, CAST(NULL AS TEXT) AS content_type, \
                          CAST(NULL AS BIGINT) AS versions, created_at AS modified_at \
                     FROM vault_folders WHERE user_id = ? AND parent = ? \
                   UNION ALL \
                   SELECT 'file', name, size, content_type, versions, modified_at FROM vault_files WHERE folder_id = ? \
                 ) entries ORDER BY kind DESC, {key} {dir}, name {dir} LIMIT ? OFFSET ?"
            ),
        )
        .arg(user)
        .arg(path.as_str())
        .arg(folder_id)
        .arg(i64::from(limit))
        .arg(offset as i64);
        let rows: Vec<EntryRow> = tx.exec().rows(&q).await?;
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
