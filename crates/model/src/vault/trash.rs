//! The vault's trash and a file's versions compared (issue 46): what a deleted file or folder
//! is while it can still be restored, and what a compare of two versions answers.

use serde::{Deserialize, Serialize};

use super::{FileVersion, VaultEntryKind};

/// A file or folder in its owner's trash: restorable until `purgeAt`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TrashItem {
    /// The trashed item's id (`trashId` in its paths).
    pub id: u64,
    /// The path it had, relative to the vault root: where a restore puts it back.
    pub path: String,
    pub name: String,
    pub kind: VaultEntryKind,
    /// Bytes of all its versions (a folder: of everything in it).
    pub size: u64,
    /// ISO 8601 UTC.
    pub deleted_at: String,
    /// The name of the token that deleted it.
    pub deleted_by: String,
    /// ISO 8601 UTC: when the purge removes it for good.
    pub purge_at: String,
}

/// Two versions of a file side by side: their sizes and SHA-256 hashes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VersionComparison {
    pub path: String,
    pub from: FileVersion,
    pub to: FileVersion,
    /// Whether the two hold the same bytes (equal hashes).
    pub same_contents: bool,
    /// `to`'s size minus `from`'s, in bytes.
    pub size_difference: i64,
}
