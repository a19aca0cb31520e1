//! One page of a folder's children, folders first, from one snapshot (the total and the page
//! agree).

use moneydesk_model::collections::SortDir;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind, VaultPath, VaultSortField};

use super::buckets::{self, Bucket, Order};
use super::{folder_id, EntryRow, Result, VaultError, VaultStore};
use crate::storage::{counted, Dialect, Sql, Tx};

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
        // (never the whole folder sorted for one page). The files are counted by buckets of
        // each order (`buckets.rs`), so a page of a folder of a million files, at any depth,
        // neither counts them nor skips more than two buckets of them.
        let folders = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND parent = ?")
            .arg(user)
            .arg(path.as_str());
        let folders = tx.exec().int(&folders).await?;
        let order = Order::of(sort);
        let counts = buckets::counts(&mut tx, folder_id, order).await?;
        let files: i64 = counts.iter().sum();
        let desc = dir == SortDir::Desc;
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
        // The files' part of the page as ascending positions [first, last) of the order.
        let skip = (offset - folders).max(0);
        let wanted = (limit - rows.len() as i64).min(files - skip);
        if wanted > 0 {
            let first = if desc { files - skip - wanted } else { skip };
            let found = match counted::position(counts.iter().copied(), first) {
                Some((nth, skip)) => buckets::nth(&mut tx, folder_id, order, nth).await?.map(|b| (b, skip)),
                None => None,
            };
            if let Some((bucket, skip)) = found {
                let mut page = files_from(&mut tx, folder_id, order, &bucket, skip, wanted).await?;
                if desc {
                    page.reverse();
                }
                rows.extend(page);
            }
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

/// `count` files of a folder in ascending `order`, from the `skip`-th file of `bucket`.
async fn files_from(
    tx: &mut Tx,
    folder_id: i64,
    order: Order,
    bucket: &Bucket,
    skip: i64,
    count: i64,
) -> sqlx::Result<Vec<EntryRow>> {
    const COLUMNS: &str = "'file' AS kind, name, size, content_type, versions, modified_at";
    let columns = order.columns();
    let d = tx.dialect();
    let mut q = Sql::new(d, &format!("SELECT {COLUMNS} FROM vault_files WHERE folder_id = "));
    q.bind(folder_id);
    match d {
        // SQLite skips through the order's index without reading the rows it passes.
        Dialect::Sqlite => {
            buckets::push_from(&mut q, order, bucket);
            q.push(format_args!(" ORDER BY {columns} LIMIT ")).bind(count).push(" OFFSET ").bind(skip);
        }
        // PostgreSQL's OFFSET over the rows reads each skipped row from the table: the page's
        // names first, through the order's index alone (it holds every column the order
        // reads), then their rows (page 10,000 of a million files by name was 369 ms, then
        // 29 ms; `scripts/bench-lists`). On SQLite the same query let the planner scan the
        // whole size index for the outer order.
        Dialect::Postgres => {
            q.push(" AND name IN (SELECT name FROM vault_files WHERE folder_id = ").bind(folder_id);
            buckets::push_from(&mut q, order, bucket);
            q.push(format_args!(" ORDER BY {columns} LIMIT ")).bind(count).push(" OFFSET ").bind(skip);
            q.push(format_args!(") ORDER BY {columns}"));
        }
    }
    tx.exec().rows(&q).await
}
