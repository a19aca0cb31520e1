//! What the vault puts on record besides its changes: the ids its audit records and events
//! name, and the download of an archive (a read, but one an auditor asks about: who took a
//! copy of which folders).

use moneydesk_model::vault::VaultPath;

use super::{Result, VaultStore};
use crate::storage::trail;

/// A folder's or file's id on the trail and in events: its owner and its path
/// (`usr_0001/docs/a.pdf`; the root is `usr_0001/`). Owner ids have no `/`.
pub(crate) fn object_id(user: &str, path: &VaultPath) -> String {
    format!("{user}/{}", path.as_str())
}

impl VaultStore {
    /// Puts the download of an archive of `paths` on record: a transaction of its own,
    /// holding only the record (the open recording's, `storage::trail`).
    pub async fn record_download(&self, user: &str, paths: &[VaultPath]) -> Result<()> {
        if let Some(first) = paths.first() {
            trail::target("vault_folder", object_id(user, first));
        }
        let list: Vec<String> = paths.iter().map(ToString::to_string).collect();
        trail::change("downloaded", None::<&str>, Some(list.join(", ")));
        self.db.begin().await?.commit().await?;
        Ok(())
    }
}
