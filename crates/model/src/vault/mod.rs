//! Document vault (description 2.8, 4.2; CONTRACT.md point 12): paths, the folder record the
//! four operations answer, and the records of the extensions the Vault page uses (a folder's
//! contents, a file's versions, a user's usage).

mod params;
mod path;
mod records;
mod trash;

pub use params::{Entry, Folder, Owner, VaultParams, VaultTarget, ENTRY_PATTERN, FOLDER_PATTERN, USER_ID_PATTERN};
pub use path::{is_within, VaultPath, VaultPathError, MAX_PATH_BYTES, MAX_SEGMENT_BYTES};
pub use records::*;
pub use trash::{TrashItem, VersionComparison};
