//! The vault's metadata in the database (both backends): folders keyed by path, files by
//! (folder, name), versions by (file, number). Every change is one transaction, so a crash
//! leaves the old state or the new one. Blob contents are not here (see `vault::blobs`).
//! Folders here; files, versions, the zip's listing and usage in `files`; a folder's page in `list`.

pub mod buckets;
mod files;
mod list;
mod record;
mod restore;
mod trash;

pub use trash::Deleter;

use moneydesk_model::events::EventType;
use moneydesk_model::vault::{FileVersion, FolderRecord, VaultPath};

use self::record::object_id;
use crate::storage::sql::Arg;
use crate::storage::time::now_text;
use crate::storage::{events, trail, Database, Sql, Tx};

#[derive(Debug, thiserror::Error)]
pub enum VaultError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

type Result<T> = std::result::Result<T, VaultError>;

/// A version as stored, with what the zip and the download need.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VersionRow {
    pub version: i64,
    pub sha256: String,
    pub size: i64,
    pub content_type: String,
    pub created_at: String,
    pub uploaded_by: String,
}

impl VersionRow {
    pub fn record(&self) -> FileVersion {
        FileVersion {
            version: self.version as u32,
            size: self.size as u64,
            content_type: self.content_type.clone(),
            sha256: self.sha256.clone(),
            created_at: self.created_at.clone(),
            uploaded_by: self.uploaded_by.clone(),
        }
    }
}

/// A file of a zip: its folder's path, its name, its latest version's blob and size.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ArchiveFile {
    pub folder: String,
    pub name: String,
    pub sha256: String,
    pub size: i64,
}

#[derive(sqlx::FromRow)]
struct EntryRow {
    kind: String,
    name: String,
    size: Option<i64>,
    content_type: Option<String>,
    versions: Option<i64>,
    modified_at: String,
}

#[derive(sqlx::FromRow)]
struct FolderRow {
    path: String,
    name: String,
    created_at: String,
}

/// `path = P or below P` (with `self_too`) or only below P, for the `path` column of
/// `vault_folders` aliased `alias`: one index range (`'0'` is the character after `'/'`).
fn subtree(q: &mut Sql, alias: &str, p: &VaultPath, self_too: bool) {
    if p.is_root() {
        match self_too {
            true => q.push("1 = 1"),
            false => q.push(format!("{alias}.path <> ''")),
        };
        return;
    }
    q.push("(");
    if self_too {
        q.push(format!("{alias}.path = ")).bind(p.as_str()).push(" OR ");
    }
    q.push(format!("({alias}.path >= ")).bind(format!("{}/", p.as_str()));
    q.push(format!(" AND {alias}.path < ")).bind(format!("{}0", p.as_str())).push("))");
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

#[derive(Clone, Debug)]
pub struct VaultStore {
    pub(crate) db: Database,
}

impl VaultStore {
    pub fn new(db: Database) -> VaultStore {
        VaultStore { db }
    }

    /// Creates `parent/name`, and `parent` with its missing ancestors (like `mkdir -p`).
    pub async fn create_folder(&self, user: &str, parent: &VaultPath, name: &str) -> Result<FolderRecord> {
        let path = parent.join(name).map_err(|e| VaultError::Invalid(format!("name: {e}")))?;
        let mut tx = self.db.begin().await?;
        let parent_id = ensure_folders(&mut tx, user, parent).await?;
        refuse_file_named(&mut tx, parent_id, path.name(), &path).await?;
        match insert_folder(&mut tx, user, &path).await {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                return Err(VaultError::Conflict(format!(
                    "A folder named {:?} already exists in {parent}",
                    path.name()
                )))
            }
            Err(e) => return Err(e.into()),
        }
        trail::target("vault_folder", object_id(user, &path));
        trail::change("path", None::<&str>, Some(path.as_str()));
        tx.commit().await?;
        self.folder(user, &path).await?.ok_or_else(|| VaultError::NotFound(format!("No folder {path}")))
    }

    /// Moves the folder `from` (with everything in it) to `to`; missing parents of `to` are
    /// created. One statement rewrites the moved folders' paths: files keep their folder's id,
    /// so the cost does not depend on how many files move. The first statement is the write,
    /// so SQLite takes its lock at once and a concurrent move of the same folder, waiting for
    /// it, then finds nothing at `from` (404): exactly one wins (PostgreSQL re-checks the
    /// updated rows the same way).
    pub async fn move_folder(&self, user: &str, from: &VaultPath, to: &VaultPath) -> Result<FolderRecord> {
        if from.is_root() {
            return Err(VaultError::Invalid("path: the vault root cannot be moved".into()));
        }
        if to.is_root() {
            return Err(VaultError::Conflict("newPath: the vault root exists already".into()));
        }
        if to.is_within(from) {
            return Err(VaultError::Conflict(format!(
                "newPath: {to} is inside {from}; a folder cannot move into itself"
            )));
        }
        let mut tx = self.db.begin().await?;
        let cut = from.as_str().chars().count() as i64 + 1;
        let new_parent = to.parent().unwrap_or_default();
        let mut q = Sql::new(
            tx.dialect(),
            "UPDATE vault_folders SET \
                parent = CASE WHEN path = ? THEN ? ELSE ? || substr(parent, CAST(? AS INTEGER)) END, \
                name = CASE WHEN path = ? THEN ? ELSE name END, \
                path = ? || substr(path, CAST(? AS INTEGER)) \
             WHERE user_id = ? AND ",
        )
        .arg(from.as_str())
        .arg(new_parent.as_str())
        .arg(to.as_str())
        .arg(cut)
        .arg(from.as_str())
        .arg(to.name())
        .arg(to.as_str())
        .arg(cut)
        .arg(user);
        subtree(&mut q, "vault_folders", from, true);
        let moved = match tx.exec().execute(&q).await {
            Ok(n) => n,
            Err(e) if is_unique_violation(&e) => {
                return Err(VaultError::Conflict(format!("newPath: {to} exists already")))
            }
            Err(e) => return Err(e.into()),
        };
        if moved == 0 {
            return Err(VaultError::NotFound(format!("path: no folder {from}")));
        }
        let parent_id = ensure_folders(&mut tx, user, &new_parent).await?;
        refuse_file_named(&mut tx, parent_id, to.name(), to).await?;
        // Read in the move's transaction: the event tells of the folder as the answer shows it.
        let record =
            folder_record(&mut tx, user, to).await?.ok_or_else(|| VaultError::NotFound(format!("No folder {to}")))?;
        trail::target("vault_folder", object_id(user, from));
        trail::change("path", Some(from.as_str()), Some(to.as_str()));
        events::append(&mut tx, EventType::VaultFolderMoved, "vault_folder", object_id(user, to), &record).await?;
        tx.commit().await?;
        Ok(record)
    }

    /// The folder at `path` with what its subtree holds; `None` when there is none (the root
    /// always exists).
    pub async fn folder(&self, user: &str, path: &VaultPath) -> Result<Option<FolderRecord>> {
        let mut tx = self.db.begin_snapshot().await?;
        folder_record(&mut tx, user, path).await
    }

    /// Deletes the folders (each with everything below it, all versions) in one transaction;
    /// answers what went and the blobs that may no longer be referenced (for the sweeper).
    /// Any path missing: nothing is deleted (404).
    pub async fn delete_folders(&self, user: &str, paths: &[VaultPath]) -> Result<(Vec<FolderRecord>, Vec<String>)> {
        let mut tx = self.db.begin().await?;
        // The write lock first (see `move_folder`): a touch of the user's rows.
        let touch =
            Sql::new(tx.dialect(), "UPDATE vault_folders SET name = name WHERE user_id = ? AND path = ''").arg(user);
        tx.exec().execute(&touch).await?;
        let mut gone = Vec::new();
        let mut blobs = Vec::new();
        for path in paths {
            let record = folder_record(&mut tx, user, path)
                .await?
                .ok_or_else(|| VaultError::NotFound(format!("paths: no folder {path}")))?;
            let mut shas = Sql::new(
                tx.dialect(),
                "SELECT DISTINCT v.sha256 FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
                 JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ? AND ",
            )
            .arg(user);
            subtree(&mut shas, "f", path, true);
            blobs.extend(tx.exec().texts(&shas).await?);
            // Files and versions go with their folders (ON DELETE CASCADE). The root itself
            // stays (emptied).
            let mut del = Sql::new(tx.dialect(), "DELETE FROM vault_folders WHERE user_id = ? AND ").arg(user);
            subtree(&mut del, "vault_folders", path, !path.is_root());
            tx.exec().execute(&del).await?;
            if path.is_root() {
                let files = Sql::new(
                    tx.dialect(),
                    "DELETE FROM vault_files WHERE folder_id IN (SELECT id FROM vault_folders WHERE user_id = ? AND path = '')",
                )
                .arg(user);
                tx.exec().execute(&files).await?;
            }
            trail::target("vault_folder", object_id(user, path));
            trail::change("path", Some(path.as_str()), None::<&str>);
            let id = object_id(user, path);
            events::append(&mut tx, EventType::VaultFolderDeleted, "vault_folder", id, &record).await?;
            gone.push(record);
        }
        tx.commit().await?;
        blobs.sort();
        blobs.dedup();
        Ok((gone, blobs))
    }
}

#[derive(sqlx::FromRow)]
struct IdVersion {
    id: i64,
    versions: i64,
}

async fn folder_id(tx: &mut Tx, user: &str, path: &VaultPath) -> sqlx::Result<Option<i64>> {
    let q = Sql::new(tx.dialect(), "SELECT id FROM vault_folders WHERE user_id = ? AND path = ?")
        .arg(user)
        .arg(path.as_str());
    Ok(tx.exec().ints(&q).await?.first().copied())
}

async fn file_id(tx: &mut Tx, user: &str, path: &VaultPath) -> sqlx::Result<Option<i64>> {
    let (Some(folder), false) = (path.parent(), path.is_root()) else { return Ok(None) };
    let q = Sql::new(
        tx.dialect(),
        "SELECT fi.id FROM vault_files fi JOIN vault_folders f ON f.id = fi.folder_id \
         WHERE f.user_id = ? AND f.path = ? AND fi.name = ?",
    )
    .arg(user)
    .arg(folder.as_str())
    .arg(path.name());
    Ok(tx.exec().ints(&q).await?.first().copied())
}

async fn insert_folder(tx: &mut Tx, user: &str, path: &VaultPath) -> sqlx::Result<i64> {
    let parent: Option<String> = path.parent().map(|p| p.as_str().to_string());
    let q = Sql::new(
        tx.dialect(),
        "INSERT INTO vault_folders (user_id, path, parent, name, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    )
    .arg(user)
    .arg(path.as_str())
    .arg(Arg::Text(parent))
    .arg(path.name())
    .arg(now_text());
    Ok(tx.exec().ints(&q).await?[0])
}

/// The folder at `path`, created with its missing ancestors (the root included); its id.
async fn ensure_folders(tx: &mut Tx, user: &str, path: &VaultPath) -> Result<i64> {
    if let Some(id) = folder_id(tx, user, path).await? {
        return Ok(id);
    }
    let mut at = VaultPath::root();
    let mut id = match folder_id(tx, user, &at).await? {
        Some(id) => id,
        None => insert_folder(tx, user, &at).await?,
    };
    for segment in path.segments().map(str::to_string).collect::<Vec<_>>() {
        let next = at.join(&segment).map_err(|e| VaultError::Invalid(e.to_string()))?;
        id = match folder_id(tx, user, &next).await? {
            Some(id) => id,
            None => {
                refuse_file_named(tx, id, &segment, &next).await?;
                insert_folder(tx, user, &next).await?
            }
        };
        at = next;
    }
    Ok(id)
}

/// A folder cannot take the name of a file beside it.
async fn refuse_file_named(tx: &mut Tx, folder_id: i64, name: &str, path: &VaultPath) -> Result<()> {
    let q = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_files WHERE folder_id = ? AND name = ?")
        .arg(folder_id)
        .arg(name);
    if tx.exec().int(&q).await? > 0 {
        return Err(VaultError::Conflict(format!("A file {path} exists; a folder cannot take its name")));
    }
    Ok(())
}

async fn folder_record(tx: &mut Tx, user: &str, path: &VaultPath) -> Result<Option<FolderRecord>> {
    let q = Sql::new(tx.dialect(), "SELECT path, name, created_at FROM vault_folders WHERE user_id = ? AND path = ?")
        .arg(user)
        .arg(path.as_str());
    let row: Option<FolderRow> = tx.exec().row(&q).await?;
    let row = match row {
        Some(r) => r,
        None if path.is_root() => FolderRow { path: String::new(), name: String::new(), created_at: now_text() },
        None => return Ok(None),
    };
    let mut folders = Sql::new(tx.dialect(), "SELECT COUNT(*) FROM vault_folders f WHERE f.user_id = ? AND ").arg(user);
    subtree(&mut folders, "f", path, false);
    let mut files = Sql::new(
        tx.dialect(),
        "SELECT COUNT(*) FROM vault_files fi JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ? AND ",
    )
    .arg(user);
    subtree(&mut files, "f", path, true);
    let mut versions = Sql::new(
        tx.dialect(),
        "SELECT COUNT(*) FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
         JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ? AND ",
    )
    .arg(user);
    subtree(&mut versions, "f", path, true);
    let mut bytes = Sql::new(
        tx.dialect(),
        "SELECT CAST(COALESCE(SUM(v.size), 0) AS BIGINT) FROM vault_versions v JOIN vault_files fi ON fi.id = v.file_id \
         JOIN vault_folders f ON f.id = fi.folder_id WHERE f.user_id = ? AND ",
    )
    .arg(user);
    subtree(&mut bytes, "f", path, true);
    Ok(Some(FolderRecord {
        path: row.path,
        name: row.name,
        folders: tx.exec().int(&folders).await? as u64,
        files: tx.exec().int(&files).await? as u64,
        versions: tx.exec().int(&versions).await? as u64,
        bytes: tx.exec().int(&bytes).await?.max(0) as u64,
        created_at: row.created_at,
    }))
}
