//! The watched folder (`MONEYDESK_RETURNS_DIR`): every minute each file dropped in it is read
//! as an upload by `returns-folder`, then moved to `processed/`, or to `failed/` with a
//! `.error.txt` beside it when it cannot be read. A file the database could not take (a 5xx) is
//! left where it is for the next run. Several instances watching one folder: the job runs once
//! across them, and a file's SHA-256 makes a second reading a no-op anyway. Write a file under a
//! name starting with `.` and rename it when whole: such names are not read.

use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::extract::FromRef;

use crate::deposits::DepositsState;
use crate::AppState;

/// The actor a dropped file's returns are recorded by.
pub const ACTOR: &str = "returns-folder";

/// What one run did: files processed, files refused.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub processed: usize,
    pub failed: usize,
}

/// Reads every file in `dir` now (see the module's description).
pub async fn sweep(state: &DepositsState, dir: &Path) -> std::io::Result<Swept> {
    let (processed, failed) = (dir.join("processed"), dir.join("failed"));
    tokio::fs::create_dir_all(&processed).await?;
    tokio::fs::create_dir_all(&failed).await?;
    let mut names = Vec::new();
    let mut entries = tokio::fs::read_dir(dir).await?;
    while let Some(e) = entries.next_entry().await? {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().await?.is_file() && !name.starts_with('.') {
            names.push(name);
        }
    }
    names.sort();
    let mut swept = Swept::default();
    for name in names {
        let path = dir.join(&name);
        // Gone meanwhile: another instance took it.
        let Ok(bytes) = tokio::fs::read(&path).await else { continue };
        // On the audit trail as the server's: one record per file.
        let upload = super::process::upload(state, &bytes, Some(&name), ACTOR);
        match crate::storage::trail::job("deposit-returns-folder", upload).await {
            Ok((_, result)) => {
                tracing::info!(file = %name, file_id = result.file_id, items = result.items.len(), "return file read");
                move_to(&path, &processed, &name).await?;
                swept.processed += 1;
            }
            Err(e) if e.status.is_client_error() => {
                tracing::warn!(file = %name, error = %e.message, "return file refused");
                let to = move_to(&path, &failed, &name).await?;
                let mut note = to.into_os_string();
                note.push(".error.txt");
                tokio::fs::write(PathBuf::from(note), format!("{}\n", e.message)).await?;
                swept.failed += 1;
            }
            Err(e) => {
                tracing::warn!(file = %name, error = %e.message, "return file not read; the next run tries again")
            }
        }
    }
    Ok(swept)
}

/// Moves `from` into `dir` under its name (with `.1`, `.2`… when taken); where it went.
async fn move_to(from: &Path, dir: &Path, name: &str) -> std::io::Result<PathBuf> {
    let mut to = dir.join(name);
    let mut n = 0;
    while tokio::fs::try_exists(&to).await? {
        n += 1;
        to = dir.join(format!("{name}.{n}"));
    }
    match tokio::fs::rename(from, &to).await {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(to),
        other => other.map(|_| to),
    }
}

/// Watches `MONEYDESK_RETURNS_DIR`, if set: now, then every minute, once across the instances.
pub fn spawn(state: &AppState) {
    let Some(dir) = state.config.returns.dir.clone() else { return };
    use crate::storage::queue::schedule::{self, Every};
    let when = Every { every: Duration::from_secs(60), ask: Duration::from_secs(15) };
    let deposits = DepositsState::from_ref(state);
    let db = state.stores.deposits.database().clone();
    let run = move || {
        let (deposits, dir) = (deposits.clone(), dir.clone());
        async move {
            match sweep(&deposits, &dir).await {
                Ok(Swept { processed: 0, failed: 0 }) => {}
                Ok(s) => tracing::info!(processed = s.processed, failed = s.failed, "returns folder read"),
                Err(e) => tracing::warn!(error = %e, dir = %dir.display(), "reading the returns folder failed"),
            }
        }
    };
    tokio::spawn(async move {
        run().await;
        schedule::spawn(db, "deposit-returns-folder", when, |_| crate::metrics::taken_over("job", 1), run);
    });
}
