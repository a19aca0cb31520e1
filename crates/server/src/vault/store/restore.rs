//! Restores (issue 46): a trashed item back to where it was or to a chosen path, in one
//! transaction (its rows move back to the user, as a folder move rewrites paths); and an older
//! version of a file made the newest (a new version with its bytes: history is kept).

use moneydesk_model::events::EventType;
use moneydesk_model::vault::{VaultEntry, VaultEntryKind, VaultPath};

use super::record::object_id;
use super::trash::{trash_item, TrashRow};
use super::{
    ensure_folders, folder_id, is_unique_violation, refuse_file_named, EntryRow, Result, VaultError, VaultStore,
    VersionRow,
};
use crate::storage::time::now_text;
use crate::storage::{events, trail, Sql, Tx};

impl VaultStore {
    /// Puts the trashed item `id` back at `to`, or where it was. Missing parent folders are
    /// made again (like `mkdir -p`); a file or folder at the place is a 409 naming it (give
    /// another `to`).
    pub async fn restore(&self, user: &str, id: i64, to: Option<&VaultPath>) -> Result<VaultEntry> {
        let mut tx = self.db.begin().await?;
        let row = trash_item(&mut tx, user, id).await?;
        let from = VaultPath::parse(&row.path).map_err(|e| VaultError::Invalid(e.to_string()))?;
        let target = to.cloned().unwrap_or_else(|| from.clone());
        let Some(parent) = target.parent().filter(|_| !target.is_root()) else {
            return Err(VaultError::Invalid("path: give the item's new path, not the vault root".into()));
        };
        let taken = |what: &str| {
            VaultError::Conflict(format!(
                "path: a {what} {target} exists; restore to another path (the `path` parameter)"
            ))
        };
        if folder_id(&mut tx, user, &target).await?.is_some() {
            return Err(taken("folder"));
        }
        let parent_id = ensure_folders(&mut tx, user, &parent).await?;
        let owner = super::trash::trash_owner(user, id);
        let entry = if row.kind == "folder" {
            refuse_file_named(&mut tx, parent_id, target.name(), &target).await.map_err(|e| match e {
                VaultError::Conflict(_) => taken("file"),
                e => e,
            })?;
            folder_back(&mut tx, user, &owner, &from, &target).await.map_err(|e| match e {
                VaultError::Db(e) if is_unique_violation(&e) => taken("folder"),
                e => e,
            })?
        } else {
            file_back(&mut tx, &owner, parent_id, &target).await.map_err(|e| match e {
                VaultError::Db(e) if is_unique_violation(&e) => taken("file"),
                e => e,
            })?
        };
        let del = Sql::new(tx.dialect(), "DELETE FROM vault_trash WHERE id = ?").arg(id);
        tx.exec().execute(&del).await?;
        restored_on_record(&mut tx, user, &row, &target, &entry).await?;
        tx.commit().await?;
        Ok(entry)
    }

    /// Makes version `version` of the file the newest: a new version with its contents (which
    /// are stored, referenced by that version), the history kept.
    pub async fn restore_version(&self, user: &str, path: &VaultPath, version: i64, by: &str) -> Result<VaultEntry> {
        let (_, _, rows) =
            self.file(user, path).await?.ok_or_else(|| VaultError::NotFound(format!("path: no file {path}")))?;
        let old = rows
            .iter()
            .find(|r| r.version == version)
            .ok_or_else(|| VaultError::NotFound(format!("version: file {path} has no version {version}")))?;
        let v = VersionRow { version: 0, created_at: now_text(), uploaded_by: by.to_string(), ..old.clone() };
        trail::change("restoredFrom", None::<&str>, Some(version));
        let folder = path.parent().unwrap_or_default();
        self.add_version_as(user, &folder, path.name(), &v, EventType::VaultFileVersionRestored).await
    }
}

/// Moves a trashed folder's rows back to `user`, from `from` to `target` (the rewrite of
/// `move_folder`); the folder as a listing shows it.
async fn folder_back(tx: &mut Tx, user: &str, owner: &str, from: &VaultPath, target: &VaultPath) -> Result<VaultEntry> {
    let cut = from.as_str().chars().count() as i64 + 1;
    let new_parent = target.parent().unwrap_or_default();
    let q = Sql::new(
        tx.dialect(),
        "UPDATE vault_folders SET user_id = ?, \
            parent = CASE WHEN path = ? THEN ? ELSE ? || substr(parent, CAST(? AS INTEGER)) END, \
            name = CASE WHEN path = ? THEN ? ELSE name END, \
            path = ? || substr(path, CAST(? AS INTEGER)) \
         WHERE user_id = ?",
    )
    .arg(user)
    .arg(from.as_str())
    .arg(new_parent.as_str())
    .arg(target.as_str())
    .arg(cut)
    .arg(from.as_str())
    .arg(target.name())
    .arg(target.as_str())
    .arg(cut)
    .arg(owner);
    tx.exec().execute(&q).await?;
    let q = Sql::new(tx.dialect(), "SELECT created_at FROM vault_folders WHERE user_id = ? AND path = ?")
        .arg(user)
        .arg(target.as_str());
    let created = tx.exec().texts(&q).await?.pop().unwrap_or_default();
    Ok(VaultEntry {
        name: target.name().to_string(),
        path: target.as_str().to_string(),
        kind: VaultEntryKind::Folder,
        size: None,
        content_type: None,
        versions: None,
        modified_at: created,
    })
}

/// Moves a trashed file back into the folder `parent_id` as `target`'s name; drops the folder
/// row that held it in the trash.
async fn file_back(tx: &mut Tx, owner: &str, parent_id: i64, target: &VaultPath) -> Result<VaultEntry> {
    let holder = Sql::new(tx.dialect(), "SELECT id FROM vault_folders WHERE user_id = ?").arg(owner);
    let holder = tx
        .exec()
        .ints(&holder)
        .await?
        .first()
        .copied()
        .ok_or_else(|| VaultError::NotFound(format!("trashId: the trashed file {target} holds nothing")))?;
    let q = Sql::new(tx.dialect(), "UPDATE vault_files SET folder_id = ?, name = ? WHERE folder_id = ?")
        .arg(parent_id)
        .arg(target.name())
        .arg(holder);
    tx.exec().execute(&q).await?;
    let del = Sql::new(tx.dialect(), "DELETE FROM vault_folders WHERE id = ?").arg(holder);
    tx.exec().execute(&del).await?;
    let q = Sql::new(
        tx.dialect(),
        "SELECT 'file' AS kind, name, size, content_type, versions, modified_at FROM vault_files \
         WHERE folder_id = ? AND name = ?",
    )
    .arg(parent_id)
    .arg(target.name());
    let row: EntryRow = tx.exec().row(&q).await?.ok_or_else(|| VaultError::NotFound(format!("No file {target}")))?;
    Ok(VaultEntry {
        name: row.name,
        path: target.as_str().to_string(),
        kind: VaultEntryKind::File,
        size: row.size.map(|s| s as u64),
        content_type: row.content_type,
        versions: row.versions.map(|v| v as u32),
        modified_at: row.modified_at,
    })
}

async fn restored_on_record(
    tx: &mut Tx,
    user: &str,
    row: &TrashRow,
    target: &VaultPath,
    entry: &VaultEntry,
) -> Result<()> {
    let kind = if row.kind == "folder" { "vault_folder" } else { "vault_file" };
    trail::target(kind, object_id(user, target));
    trail::change("trash", Some(row.id), None::<i64>);
    trail::change("path", None::<&str>, Some(target.as_str()));
    events::append(tx, EventType::VaultItemRestored, kind, object_id(user, target), entry).await?;
    Ok(())
}
