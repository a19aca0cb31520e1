//! The one blob store of the server, for the groups that keep files (vault documents,
//! deposit scans, cash letters): an `object_store` handle, the local filesystem under the
//! data dir (`<data dir>/blobs`) by default. Groups address files by path within it.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use object_store::local::LocalFileSystem;
use object_store::ObjectStore;

/// Shared by every group (cloning is one reference count).
pub type Blobs = Arc<dyn ObjectStore>;

/// The local blob store rooted at `<data_dir>/blobs` (created if missing).
pub fn local(data_dir: &Path) -> anyhow::Result<Blobs> {
    let root = data_dir.join("blobs");
    std::fs::create_dir_all(&root).with_context(|| format!("creating blob dir {}", root.display()))?;
    let store = LocalFileSystem::new_with_prefix(&root)
        .with_context(|| format!("opening blob dir {}", root.display()))?
        // Deleting a group's last file removes its emptied folders too.
        .with_automatic_cleanup(true);
    Ok(Arc::new(store))
}
