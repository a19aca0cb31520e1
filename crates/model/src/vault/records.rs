//! What the vault answers. The description shows no response bodies for its four folder
//! operations; they answer the envelope with [`FolderRecord`]s (documented in the OpenAPI
//! document), and the extensions answer these records too.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// A folder with what it holds, counted through its whole subtree: what create, move and
/// delete answer (delete: what was removed), and what the delete confirmation shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FolderRecord {
    /// Relative to the vault root, NFC (`""` is the root).
    pub path: String,
    pub name: String,
    /// Folders below it (all depths).
    pub folders: u64,
    /// Files below it (all depths).
    pub files: u64,
    /// Stored versions of those files.
    pub versions: u64,
    /// Bytes of all those versions (each version counted, as a download of them would be).
    pub bytes: u64,
    /// ISO 8601 UTC.
    pub created_at: String,
}

/// One entry of a folder listing (extension): a subfolder or a file with its latest version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VaultEntry {
    pub name: String,
    /// Path relative to the vault root.
    pub path: String,
    pub kind: VaultEntryKind,
    /// Bytes of the latest version, for files.
    pub size: Option<u64>,
    pub content_type: Option<String>,
    /// Number of stored versions, for files.
    pub versions: Option<u32>,
    /// ISO 8601 UTC: the latest version's upload, or the folder's creation.
    pub modified_at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum VaultEntryKind {
    Folder,
    File,
}

vocabulary!(
    /// The orders a folder listing offers (`sort=name,asc`); folders always come before files.
    pub enum VaultSortField {
        Name = "name",
        Size = "size",
        ModifiedAt = "modifiedAt",
    }
    serde: none;
    impl SortField;
);

/// One stored version of a file (extension), newest first in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileVersion {
    /// 1 for the first upload, counting up.
    pub version: u32,
    pub size: u64,
    pub content_type: String,
    /// Lowercase hex SHA-256 of the contents (also the download's strong `ETag`).
    pub sha256: String,
    /// ISO 8601 UTC.
    pub created_at: String,
    /// The name of the token that uploaded it.
    pub uploaded_by: String,
}

/// A file with all its versions (extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileRecord {
    pub path: String,
    pub name: String,
    pub versions: Vec<FileVersion>,
}

/// What a user's vault holds (extension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VaultUsage {
    pub user_id: String,
    pub folders: u64,
    pub files: u64,
    pub versions: u64,
    /// Bytes of every version.
    pub bytes: u64,
    /// Bytes actually stored: identical contents are stored once.
    pub stored_bytes: u64,
}

/// A vault owner's id as the paths carry it: 1 to 128 characters of letters, digits and
/// `-_.@` (the ids of the permissions collection, and token names).
///
/// ```
/// use moneydesk_model::vault::UserId;
/// assert_eq!("usr-001".parse::<UserId>().unwrap().as_str(), "usr-001");
/// assert!("".parse::<UserId>().is_err());
/// assert!("a/b".parse::<UserId>().unwrap_err().to_string().contains("'/'"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(String);

pub const MAX_USER_ID_CHARS: usize = 128;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UserIdError {
    #[error("userId is empty")]
    Empty,
    #[error("userId is {0} characters long; at most 128 are allowed")]
    TooLong(usize),
    #[error("userId has {0:?}; only letters, digits and '-', '_', '.', '@' are allowed")]
    Character(char),
}

impl UserId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for UserId {
    type Err = UserIdError;
    fn from_str(s: &str) -> Result<Self, UserIdError> {
        if s.is_empty() {
            return Err(UserIdError::Empty);
        }
        let n = s.chars().count();
        if n > MAX_USER_ID_CHARS {
            return Err(UserIdError::TooLong(n));
        }
        if let Some(c) = s.chars().find(|c| !(c.is_ascii_alphanumeric() || "-_.@".contains(*c))) {
            return Err(UserIdError::Character(c));
        }
        Ok(UserId(s.to_string()))
    }
}

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A zip archive's file name as the client will save it: the `name` parameter without
/// characters a file name cannot hold on common systems, `.zip` added when missing.
///
/// ```
/// use moneydesk_model::vault::archive_name;
/// assert_eq!(archive_name("Q3 reports"), "Q3 reports.zip");
/// assert_eq!(archive_name("../../etc/passwd"), "etc_passwd.zip");
/// assert_eq!(archive_name("Relevés été.ZIP"), "Relevés été.ZIP");
/// assert_eq!(archive_name("  "), "vault.zip");
/// ```
pub fn archive_name(requested: &str) -> String {
    let cleaned: String =
        requested.chars().map(|c| if c.is_control() || "/\\:*?\"<>|".contains(c) { '_' } else { c }).collect();
    // No leading dots or separators left over (`../x` → `x`), no trailing dots or spaces.
    let trimmed = cleaned.trim_start_matches(['.', '_', ' ']).trim_end_matches(['.', ' ']);
    let mut name: String = trimmed.chars().take(200).collect();
    if name.is_empty() {
        name = "vault".into();
    }
    if !name.to_ascii_lowercase().ends_with(".zip") {
        name.push_str(".zip");
    }
    name
}
