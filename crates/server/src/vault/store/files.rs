//! Files and their versions, the zip's listing, usage, and which contents are still referenced.

use moneydesk_model::events::EventType;
use moneydesk_model::vault::{FileRecord, VaultEntry, VaultEntryKind, VaultPath};

use super::record::object_id;
use super::{
    ensure_folders, file_id, folder_id, is_unique_violation, subtree, ArchiveFile, EntryRow, IdVersion, Result,
    VaultError, VaultStore, VersionRow,
};
use crate::storage::{events, trail, Sql};

impl VaultStore {
    /// Records a new version of `folder/name` (the blob is stored already). The folder must
    /// exist; a folder of that name is a conflict.
    pub async fn add_version(&self, user: &str, folder: &VaultPath, name: &str, v: &VersionRow) -> Result<VaultEntry> {
        self.add_version_as(user, folder, name, v, EventType::VaultFileUploaded).await
    }

    /// [`VaultStore::add_version`], told as `event` (an upload, or an older version restored).
    pub(super) async fn add_version_as(
        &self,
        user: &str,
        folder: &VaultPath,
        name: &str,
        v: &VersionRow,
        event: EventType,
    ) -> Result<VaultEntry> {
        let path = folder.join(name).map_err(|e| VaultError::Invalid(format!("file name: {e}")))?;
        let mut tx = self.db.begin().await?;
        let claim = Sql::new(tx.dialect(), "UPDATE vault_folders SET name = name WHERE user_id = ? AND path = ?")
            .arg(user)
            .arg(folder.as_str());
        let found = tx.exec().execute(&claim).await?;
        let folder_id = match (found, folder.is_root()) {
            (0, true) => ensure_folders(&mut tx, user, folder).await?,
            (0, false) => return Err(VaultError::NotFound(format!("path: no folder {folder}"))),
            _ => folder_id(&mut tx, user, folder).await?.expect("the folder was just touched"),
        };
        let clash = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND path = ?")
            .arg(user)
            .arg(path.as_str());
        if tx.exec().int(&clash).await? > 0 {
            return Err(VaultError::Conflict(format!(
                "A folder named {name:?} exists in {folder}; a file cannot take its name"
            )));
        }
        let upsert = Sql::new(
            tx.dialect(),
            "INSERT INTO vault_files (folder_id, name, size, content_type, modified_at, versions) VALUES (?, ?, ?, ?, ?, 1) \
             ON CONFLICT (folder_id, name) DO UPDATE SET size = excluded.size, content_type = excluded.content_type, \
             modified_at = excluded.modified_at, versions = vault_files.versions + 1 RETURNING id, versions",
        )
        .arg(folder_id)
        .arg(path.name())
        .arg(v.size)
        .arg(v.content_type.as_str())
        .arg(v.created_at.as_str());
        let (file_id, version): (i64, i64) =
            tx.exec().row(&upsert).await?.map(|r: IdVersion| (r.id, r.versions)).expect("RETURNING");
        let insert = Sql::new(
            tx.dialect(),
            "INSERT INTO vault_versions (file_id, version, sha256, size, content_type, created_at, uploaded_by) \
             VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .arg(file_id)
        .arg(version)
        .arg(v.sha256.as_str())
        .arg(v.size)
        .arg(v.content_type.as_str())
        .arg(v.created_at.as_str())
        .arg(v.uploaded_by.as_str());
        tx.exec().execute(&insert).await?;
        let entry = VaultEntry {
            name: path.name().to_string(),
            path: path.as_str().to_string(),
            kind: VaultEntryKind::File,
            size: Some(v.size as u64),
            content_type: Some(v.content_type.clone()),
            versions: Some(version as u32),
            modified_at: v.created_at.clone(),
        };
        let id = object_id(user, &path);
        trail::target("vault_file", &id);
        trail::change("version", (version > 1).then_some(version - 1), Some(version));
        trail::change("sha256", None::<&str>, Some(v.sha256.as_str()));
        events::append(&mut tx, event, "vault_file", id, &entry).await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// The file at `path` with its versions, newest first.
    pub async fn file(&self, user: &str, path: &VaultPath) -> Result<Option<(i64, FileRecord, Vec<VersionRow>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let Some(file_id) = file_id(&mut tx, user, path).await? else { return Ok(None) };
        let q = Sql::new(
            tx.dialect(),
            "SELECT version, sha256, size, content_type, created_at, uploaded_by FROM vault_versions \
             WHERE file_id = ? ORDER BY version DESC",
        )
        .arg(file_id);
        let rows: Vec<VersionRow> = tx.exec().rows(&q).await?;
        let record = FileRecord {
            path: path.as_str().to_string(),
            name: path.name().to_string(),
            versions: rows.iter().map(VersionRow::record).collect(),
        };
        Ok(Some((file_id, record, rows)))
    }

    /// Deletes a file with all its versions; answers it and its blobs (for the sweeper).
    pub async fn delete_file(&self, user: &str, path: &VaultPath) -> Result<(FileRecord, Vec<String>)> {
        let (file_id, record, rows) =
            self.file(user, path).await?.ok_or_else(|| VaultError::NotFound(format!("path: no file {path}")))?;
        let mut tx = self.db.begin().await?;
        let del = Sql::new(tx.dialect(), "DELETE FROM vault_files WHERE id = ?").arg(file_id);
        if tx.exec().execute(&del).await? == 0 {
            return Err(VaultError::NotFound(format!("path: no file {path}")));
        }
        let id = object_id(user, path);
        trail::target("vault_file", &id);
        trail::change("versions", Some(record.versions.len()), None::<usize>);
        events::append(&mut tx, EventType::VaultFileDeleted, "vault_file", id, &record).await?;
        tx.commit().await?;
        let mut blobs: Vec<String> = rows.into_iter().map(|r| r.sha256).collect();
        blobs.sort();
        blobs.dedup();
        Ok((record, blobs))
    }

    /// Moves or renames a file (its versions go with it). The target folder must exist.
    pub async fn move_file(&self, user: &str, from: &VaultPath, to: &VaultPath) -> Result<VaultEntry> {
        let (Some(to_folder), false) = (to.parent(), to.is_root()) else {
            return Err(VaultError::Invalid("newPath: give the file's new path, not the vault root".into()));
        };
        let mut tx = self.db.begin().await?;
        let Some(target_folder) = folder_id(&mut tx, user, &to_folder).await? else {
            return Err(VaultError::NotFound(format!("newPath: no folder {to_folder}")));
        };
        let clash = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND path = ?")
            .arg(user)
            .arg(to.as_str());
        if tx.exec().int(&clash).await? > 0 {
            return Err(VaultError::Conflict(format!("newPath: a folder {to} exists")));
        }
        let Some(id) = file_id(&mut tx, user, from).await? else {
            return Err(VaultError::NotFound(format!("path: no file {from}")));
        };
        let q = Sql::new(tx.dialect(), "UPDATE vault_files SET folder_id = ?, name = ? WHERE id = ?")
            .arg(target_folder)
            .arg(to.name())
            .arg(id);
        match tx.exec().execute(&q).await {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                return Err(VaultError::Conflict(format!("newPath: a file {to} exists")))
            }
            Err(e) => return Err(e.into()),
        }
        let entry = Sql::new(
            tx.dialect(),
            "SELECT 'file' AS kind, name, size, content_type, versions, modified_at FROM vault_files WHERE id = ?",
        )
        .arg(id);
        let row: EntryRow = tx.exec().row(&entry).await?.expect("the file was just moved");
        trail::target("vault_file", object_id(user, from));
        trail::change("path", Some(from.as_str()), Some(to.as_str()));
        tx.commit().await?;
        Ok(VaultEntry {
            name: row.name,
            path: to.as_str().to_string(),
            kind: VaultEntryKind::File,
            size: row.size.map(|s| s as u64),
            content_type: row.content_type,
            versions: row.versions.map(|v| v as u32),
            modified_at: row.modified_at,
        })
    }

    /// Every file below the folders (latest versions) and every folder, for a zip: read in one
    /// snapshot; a missing folder is a 404 before any byte of the archive is sent.
    pub async fn archive(
        &self,
        user: &str,
        paths: &[VaultPath],
    ) -> Result<Vec<(VaultPath, Vec<String>, Vec<ArchiveFile>)>> {
        let mut tx = self.db.begin_snapshot().await?;
        let mut out = Vec::new();
        for path in paths {
            if folder_id(&mut tx, user, path).await?.is_none() && !path.is_root() {
                return Err(VaultError::NotFound(format!("paths: no folder {path}")));
            }
            let mut folders =
                Sql::new(tx.dialect(), "SELECT f.path FROM vault_folders f WHERE f.user_id = ? AND ").arg(user);
            subtree(&mut folders, "f", path, false);
            folders.push(" ORDER BY f.path");
            let folder_paths = tx.exec().texts(&folders).await?;
            let mut files = Sql::new(
                tx.dialect(),
                "SELECT f.path AS folder, fi.name, v.sha256, v.size FROM vault_files fi \
                 JOIN vault_folders f ON f.id = fi.folder_id \
                 JOIN vault_versions v ON v.file_id = fi.id AND v.version = fi.versions \
                 WHERE f.user_id = ? AND ",
            )
            .arg(user);
            subtree(&mut files, "f", path, true);
            files.push(" ORDER BY f.path, fi.name");
            out.push((path.clone(), folder_paths, tx.exec().rows(&files).await?));
        }
        Ok(out)
    }

    /// Folders, files, versions and bytes of a user's vault, and bytes stored once per content.
    pub async fn usage(&self, user: &str) -> Result<(u64, u64, u64, u64, u64)> {
        let mut tx = self.db.begin_snapshot().await?;
        let q = |text: &str| Sql::new(tx.dialect(), text).arg(user);
        let folders = q("SELECT COUNT(*) FROM vault_folders WHERE user_id = ? AND path <> ''");
        let files =
            q("SELECT COUNT(*) FROM vault_files fi JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ?");
        let versions = q("SELECT COUNT(*) FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
                          JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ?");
        let bytes = q("SELECT CAST(COALESCE(SUM(v.size), 0) AS BIGINT) FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
                       JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ?");
        let stored = q("SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) FROM (SELECT DISTINCT v.sha256, v.size FROM vault_versions v \
                        JOIN vault_files fi ON fi.id = v.file_id JOIN vault_folders f ON f.id = fi.folder_id \
                        WHERE f.user_id = ?) s");
        let mut n = Vec::new();
        for s in [folders, files, versions, bytes, stored] {
            n.push(tx.exec().int(&s).await?.max(0) as u64);
        }
        Ok((n[0], n[1], n[2], n[3], n[4]))
    }

    /// Of these blobs, those no version references (any user's: contents are shared).
    pub async fn unreferenced(&self, shas: &[String]) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for chunk in shas.chunks(500) {
            let mut q = Sql::new(self.db.dialect(), "SELECT DISTINCT sha256 FROM vault_versions WHERE sha256 IN (");
            q.bind_list(chunk.iter().map(String::as_str)).push(")");
            let used = self.db.acquire().await?.exec().texts(&q).await?;
            out.extend(chunk.iter().filter(|s| !used.contains(s)).cloned());
        }
        Ok(out)
    }
}
