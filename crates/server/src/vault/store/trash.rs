//! The trash (issue 46): a delete moves a folder's rows (or a file's) to an owner no user can
//! be, `<user>/trash/<id>` (user ids have no '/'), and writes a `vault_trash` row; a restore
//! moves them back. Each is one transaction, so a crash leaves the item in the vault or in the
//! trash, never half of it. The versions stay where they are: while trashed they still
//! reference their contents, so the sweeper's one reference count (`unreferenced`) keeps them.

use std::time::Duration;

use moneydesk_model::events::EventType;
use moneydesk_model::vault::{FileRecord, FolderRecord, TrashItem, VaultEntryKind, VaultPath};

use super::record::object_id;
use super::{file_id, folder_record, subtree, Result, VaultError, VaultStore};
use crate::storage::time::seconds;
use crate::storage::{counted, events, trail, Sql, Tx};

/// The owner a trashed item's rows belong to while trashed.
pub(super) fn trash_owner(user: &str, id: i64) -> String {
    format!("{user}/trash/{id}")
}

#[derive(sqlx::FromRow)]
pub(super) struct TrashRow {
    pub id: i64,
    pub user_id: String,
    pub kind: String,
    pub path: String,
    pub size: i64,
    pub deleted_at: String,
    pub deleted_by: String,
    pub purge_at: String,
}

impl TrashRow {
    pub fn item(&self) -> TrashItem {
        TrashItem {
            id: self.id as u64,
            name: self.path.rsplit('/').next().unwrap_or_default().to_string(),
            path: self.path.clone(),
            kind: if self.kind == "folder" { VaultEntryKind::Folder } else { VaultEntryKind::File },
            size: self.size.max(0) as u64,
            deleted_at: self.deleted_at.clone(),
            deleted_by: self.deleted_by.clone(),
            purge_at: self.purge_at.clone(),
        }
    }

    fn owner(&self) -> String {
        trash_owner(&self.user_id, self.id)
    }
}

const TRASH_COLUMNS: &str = "id, user_id, kind, path, size, deleted_at, deleted_by, purge_at";

/// Who deleted, and for how long the trash keeps it.
#[derive(Debug, Clone)]
pub struct Deleter<'a> {
    pub by: &'a str,
    pub retention: Duration,
}

impl VaultStore {
    /// Moves the folders (each with everything below it) to the trash, in one transaction:
    /// any path missing, nothing moves (404). The root's contents go item by item (each
    /// top-level folder and file its own trash item); the root stays. Answers each folder as
    /// it was, as the permanent delete does.
    pub async fn trash_folders(&self, user: &str, paths: &[VaultPath], who: &Deleter<'_>) -> Result<Vec<FolderRecord>> {
        let mut tx = self.db.begin().await?;
        // The write lock first (see `move_folder`).
        let touch =
            Sql::new(tx.dialect(), "UPDATE vault_folders SET name = name WHERE user_id = ? AND path = ''").arg(user);
        tx.exec().execute(&touch).await?;
        let mut gone = Vec::new();
        for path in paths {
            let record = folder_record(&mut tx, user, path)
                .await?
                .ok_or_else(|| VaultError::NotFound(format!("paths: no folder {path}")))?;
            if path.is_root() {
                trash_root(&mut tx, user, who).await?;
            } else {
                let id = trash_row(&mut tx, user, "folder", path, record.bytes as i64, who).await?;
                let mut q = Sql::new(tx.dialect(), "UPDATE vault_folders SET user_id = ? WHERE user_id = ? AND ")
                    .arg(trash_owner(user, id))
                    .arg(user);
                subtree(&mut q, "vault_folders", path, true);
                tx.exec().execute(&q).await?;
                trail::change("trash", None::<&str>, Some(id));
            }
            trail::target("vault_folder", object_id(user, path));
            trail::change("path", Some(path.as_str()), None::<&str>);
            let oid = object_id(user, path);
            events::append(&mut tx, EventType::VaultFolderDeleted, "vault_folder", oid, &record).await?;
            gone.push(record);
        }
        tx.commit().await?;
        Ok(gone)
    }

    /// Moves a file (all its versions) to the trash; answers it as it was.
    pub async fn trash_file(&self, user: &str, path: &VaultPath, who: &Deleter<'_>) -> Result<FileRecord> {
        let (_, record, _) =
            self.file(user, path).await?.ok_or_else(|| VaultError::NotFound(format!("path: no file {path}")))?;
        let mut tx = self.db.begin().await?;
        let Some(file) = file_id(&mut tx, user, path).await? else {
            return Err(VaultError::NotFound(format!("path: no file {path}")));
        };
        trash_one_file(&mut tx, user, file, path, who).await?;
        let id = object_id(user, path);
        trail::target("vault_file", &id);
        trail::change("versions", Some(record.versions.len()), None::<usize>);
        events::append(&mut tx, EventType::VaultFileDeleted, "vault_file", id, &record).await?;
        tx.commit().await?;
        Ok(record)
    }

    /// One page of the user's trash, newest first, and how many it holds: through the counted
    /// ranges (`storage::counted`, migration 0037: one partition a user), so page 10,000 costs
    /// what page 1 does and the total is no count(*).
    pub async fn trash(&self, user: &str, offset: u64, limit: u32) -> Result<(u64, Vec<TrashItem>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let (offset, limit) = (offset.min(i64::MAX as u64) as i64, i64::from(limit));
        let select = format!("SELECT {TRASH_COLUMNS} FROM vault_trash");
        let table = counted::Table { name: "vault_trash", key: "id", part: "user_id", alias: "" };
        let (total, rows): (i64, Vec<TrashRow>) =
            counted::page(&mut tx, "vault_trash", &[user], &select, table, Some(&[user]), offset, limit).await?;
        Ok((total.max(0) as u64, rows.iter().map(TrashRow::item).collect()))
    }

    /// The same page by count(*) and OFFSET, as the trash was read before its counts (the
    /// tests' yardstick).
    pub async fn trash_by_scanning(&self, user: &str, offset: u64, limit: u32) -> Result<(u64, Vec<TrashItem>)> {
        let mut tx = self.db.begin_snapshot().await?;
        let count = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_trash WHERE user_id = ?").arg(user);
        let total = tx.exec().int(&count).await?.max(0) as u64;
        let q = Sql::new(
            tx.dialect(),
            &format!("SELECT {TRASH_COLUMNS} FROM vault_trash WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?"),
        )
        .arg(user)
        .arg(i64::from(limit))
        .arg(offset as i64);
        let rows: Vec<TrashRow> = tx.exec().rows(&q).await?;
        Ok((total, rows.iter().map(TrashRow::item).collect()))
    }

    /// Removes one trashed item for good; answers it and the blobs it referenced (for the
    /// sweeper, which removes those nothing else references).
    pub async fn purge(&self, user: &str, id: i64) -> Result<(TrashItem, Vec<String>)> {
        let mut tx = self.db.begin().await?;
        let row = trash_item(&mut tx, user, id).await?;
        let shas = purge_row(&mut tx, &row).await?;
        trail::target("vault_trash_item", row.owner());
        trail::change("path", Some(row.path.as_str()), None::<&str>);
        tx.commit().await?;
        Ok((row.item(), shas))
    }

    /// Empties the user's trash in one transaction; answers what went and their blobs.
    pub async fn empty_trash(&self, user: &str) -> Result<(Vec<TrashItem>, Vec<String>)> {
        let mut tx = self.db.begin().await?;
        let q =
            Sql::new(tx.dialect(), &format!("SELECT {TRASH_COLUMNS} FROM vault_trash WHERE user_id = ? ORDER BY id"))
                .arg(user);
        let rows: Vec<TrashRow> = tx.exec().rows(&q).await?;
        let mut shas = Vec::new();
        for row in &rows {
            shas.extend(purge_row(&mut tx, row).await?);
        }
        trail::target("vault_trash", user);
        trail::change("emptied", None::<&str>, Some(rows.len()));
        tx.commit().await?;
        shas.sort();
        shas.dedup();
        Ok((rows.iter().map(TrashRow::item).collect(), shas))
    }

    /// The trashed items whose `purge_at` has passed (any user's), oldest first: the purge
    /// job's work, each then removed by [`VaultStore::purge`].
    pub async fn due_for_purge(&self, now: chrono::DateTime<chrono::Utc>, limit: u32) -> Result<Vec<(String, i64)>> {
        #[derive(sqlx::FromRow)]
        struct Due {
            user_id: String,
            id: i64,
        }
        let q = Sql::new(
            self.db.dialect(),
            "SELECT user_id, id FROM vault_trash WHERE purge_at <= ? ORDER BY purge_at, id LIMIT ?",
        )
        .arg(seconds(now))
        .arg(i64::from(limit));
        let rows: Vec<Due> = self.db.acquire().await?.exec().rows(&q).await?;
        Ok(rows.into_iter().map(|d| (d.user_id, d.id)).collect())
    }
}

/// The user's trashed item `id`, or 404 (another user's is not found either).
pub(super) async fn trash_item(tx: &mut Tx, user: &str, id: i64) -> Result<TrashRow> {
    let q = Sql::new(tx.dialect(), &format!("SELECT {TRASH_COLUMNS} FROM vault_trash WHERE id = ? AND user_id = ?"))
        .arg(id)
        .arg(user);
    tx.exec().row(&q).await?.ok_or_else(|| VaultError::NotFound(format!("trashId: no item {id} in the trash")))
}

/// Deletes a trashed item's rows (files and versions go with their folders) and its trash row;
/// the blobs its versions referenced.
async fn purge_row(tx: &mut Tx, row: &TrashRow) -> Result<Vec<String>> {
    let owner = row.owner();
    let shas = Sql::new(
        tx.dialect(),
        "SELECT DISTINCT v.sha256 FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
         JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ?",
    )
    .arg(owner.as_str());
    let shas = tx.exec().texts(&shas).await?;
    let del = Sql::new(tx.dialect(), "DELETE FROM vault_folders WHERE user_id = ?").arg(owner.as_str());
    tx.exec().execute(&del).await?;
    let del = Sql::new(tx.dialect(), "DELETE FROM vault_trash WHERE id = ?").arg(row.id);
    tx.exec().execute(&del).await?;
    events::append(tx, EventType::VaultItemPurged, "vault_trash_item", owner, &row.item()).await?;
    Ok(shas)
}

/// Writes the trash row of an item; its id.
async fn trash_row(tx: &mut Tx, user: &str, kind: &str, path: &VaultPath, size: i64, who: &Deleter<'_>) -> Result<i64> {
    let now = chrono::Utc::now();
    let purge_at = now + chrono::Duration::from_std(who.retention).unwrap_or(chrono::Duration::days(30));
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO vault_trash (user_id, kind, path, size, deleted_at, deleted_by, purge_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .arg(user)
    .arg(kind)
    .arg(path.as_str())
    .arg(size)
    .arg(seconds(now))
    .arg(who.by)
    .arg(seconds(purge_at));
    let id = tx.exec().ints(&q).await?[0];
    let item = TrashRow {
        id,
        user_id: user.to_string(),
        kind: kind.to_string(),
        path: path.as_str().to_string(),
        size,
        deleted_at: seconds(now),
        deleted_by: who.by.to_string(),
        purge_at: seconds(purge_at),
    };
    events::append(tx, EventType::VaultItemTrashed, "vault_trash_item", trash_owner(user, id), &item.item()).await?;
    Ok(id)
}

/// Moves the file `file` (at `path`) to the trash: one folder row of the trash owner, at the
/// path of the folder it was in, holds it.
async fn trash_one_file(tx: &mut Tx, user: &str, file: i64, path: &VaultPath, who: &Deleter<'_>) -> Result<i64> {
    let size =
        Sql::new(tx.dialect(), "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM vault_versions WHERE file_id = ?")
            .arg(file);
    let size = tx.exec().int(&size).await?;
    let id = trash_row(tx, user, "file", path, size, who).await?;
    let folder = path.parent().unwrap_or_default();
    let holder = super::insert_folder(tx, &trash_owner(user, id), &folder).await?;
    let q = Sql::new(tx.dialect(), "UPDATE vault_files SET folder_id = ? WHERE id = ?").arg(holder).arg(file);
    tx.exec().execute(&q).await?;
    trail::change("trash", None::<&str>, Some(id));
    Ok(id)
}

/// The root's contents, each top-level folder and file its own trash item.
async fn trash_root(tx: &mut Tx, user: &str, who: &Deleter<'_>) -> Result<()> {
    let q = Sql::new(tx.dialect(), "SELECT path FROM vault_folders WHERE user_id = ? AND parent = '' ORDER BY path")
        .arg(user);
    for folder in tx.exec().texts(&q).await? {
        let path = VaultPath::parse(&folder).map_err(|e| VaultError::Invalid(e.to_string()))?;
        let record = folder_record(tx, user, &path).await?.map(|r| r.bytes as i64).unwrap_or(0);
        let id = trash_row(tx, user, "folder", &path, record, who).await?;
        let mut mv = Sql::new(tx.dialect(), "UPDATE vault_folders SET user_id = ? WHERE user_id = ? AND ")
            .arg(trash_owner(user, id))
            .arg(user);
        subtree(&mut mv, "vault_folders", &path, true);
        tx.exec().execute(&mv).await?;
    }
    #[derive(sqlx::FromRow)]
    struct RootFile {
        id: i64,
        name: String,
    }
    let q = Sql::new(
        tx.dialect(),
        "SELECT fi.id, fi.name FROM vault_files fi JOIN vault_folders f ON f.id = fi.folder_id \
         WHERE f.user_id = ? AND f.path = '' ORDER BY fi.name",
    )
    .arg(user);
    let files: Vec<RootFile> = tx.exec().rows(&q).await?;
    for f in files {
        let path = VaultPath::root().join(&f.name).map_err(|e| VaultError::Invalid(e.to_string()))?;
        trash_one_file(tx, user, f.id, &path, who).await?;
    }
    Ok(())
}
