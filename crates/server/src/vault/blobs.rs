//! Vault contents in the blob store, addressed by SHA-256 (`vault/sha256/<hex>`): stored once
//! however often they recur. An upload streams into `vault/incoming/<uuid>` while it is
//! hashed and counted, is copied to its address, and only then recorded in the database; the
//! incoming object goes after the record. Removal is the sweeper's: after a delete's commit
//! (for the blobs it names) and at start and every hour (for the whole store): a blob no
//! version references and older than the grace period goes, and so does an unfinished upload.
//! The grace period keeps a blob that an upload in flight is about to reference.

use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use object_store::buffered::BufWriter;
use object_store::path::Path as BlobPath;
use object_store::ObjectStore;
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use super::store::VaultStore;
use super::VaultState;
use crate::storage::blobs::{Blobs, VAULT_INCOMING as INCOMING};

const CONTENTS: &str = "vault/sha256";

pub fn content_path(sha256: &str) -> BlobPath {
    BlobPath::from(format!("{CONTENTS}/{sha256}"))
}

/// A finished upload: where it is addressed, and the incoming object to remove once recorded.
pub struct Stored {
    pub sha256: String,
    pub size: u64,
    pub incoming: BlobPath,
}

#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    #[error("the file is larger than the limit of {0} bytes")]
    TooLarge(u64),
    #[error("reading the upload: {0}")]
    Read(String),
    #[error("storing the upload: {0}")]
    Store(#[from] object_store::Error),
}

/// Streams `chunks` into the store (constant memory), hashing and counting; past `limit`
/// bytes the upload is abandoned and its partial object removed.
pub async fn store_upload<S, E>(blobs: &Blobs, mut chunks: S, limit: u64) -> Result<Stored, UploadError>
where
    S: futures_util::Stream<Item = Result<Bytes, E>> + Unpin,
    E: std::fmt::Display,
{
    let incoming = BlobPath::from(format!("{INCOMING}/{}", uuid::Uuid::new_v4()));
    let mut writer = BufWriter::new(blobs.clone(), incoming.clone());
    let mut hash = Sha256::new();
    let mut size = 0u64;
    let failure = loop {
        let chunk = match chunks.next().await {
            None => break None,
            Some(Ok(chunk)) => chunk,
            Some(Err(e)) => break Some(UploadError::Read(e.to_string())),
        };
        size += chunk.len() as u64;
        if size > limit {
            break Some(UploadError::TooLarge(limit));
        }
        hash.update(&chunk);
        if let Err(e) = writer.write_all(&chunk).await {
            break Some(UploadError::Read(e.to_string()));
        }
    };
    if let Some(e) = failure {
        let _ = writer.abort().await;
        let _ = blobs.delete(&incoming).await;
        return Err(e);
    }
    if let Err(e) = writer.shutdown().await {
        let _ = blobs.delete(&incoming).await;
        return Err(UploadError::Read(e.to_string()));
    }
    let sha256 = hex::encode(hash.finalize());
    // Identical contents: the copy replaces the blob with the same bytes (and a fresh
    // modification time, which keeps the sweeper off it until this version is recorded).
    blobs.copy(&incoming, &content_path(&sha256)).await?;
    Ok(Stored { sha256, size, incoming })
}

/// After the version is recorded: make sure its blob is there (a sweep that raced the upload
/// may have removed it), then drop the incoming object.
pub async fn settle(blobs: &Blobs, stored: &Stored) -> Result<(), object_store::Error> {
    let address = content_path(&stored.sha256);
    if let Err(object_store::Error::NotFound { .. }) = blobs.head(&address).await {
        blobs.copy(&stored.incoming, &address).await?;
    }
    crate::storage::blobs::delete_if_present(blobs, &stored.incoming).await
}

/// Removes those of `shas` that no version references and that are older than `grace`.
/// Returns how many went.
pub async fn sweep_these(blobs: &Blobs, store: &VaultStore, shas: &[String], grace: Duration) -> anyhow::Result<usize> {
    let cutoff = chrono::Utc::now() - chrono::Duration::from_std(grace)?;
    let mut removed = 0;
    for sha in store.unreferenced(shas).await? {
        let path = content_path(&sha);
        match blobs.head(&path).await {
            Ok(meta) if meta.last_modified <= cutoff => {
                blobs.delete(&path).await?;
                removed += 1;
            }
            Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(removed)
}

/// Walks the whole vault area of the store: unreferenced blobs and unfinished uploads older
/// than `grace` are removed (what a crash between a step and the next left behind); so are
/// the other groups' unfinished writes (`storage::blobs::sweep_incoming`: a cash letter's
/// file stopped mid-way). `local_root`: the local store's directory (see there).
pub async fn sweep_all(
    blobs: &Blobs,
    store: &VaultStore,
    grace: Duration,
    local_root: Option<&std::path::Path>,
) -> anyhow::Result<usize> {
    let cutoff = chrono::Utc::now() - chrono::Duration::from_std(grace)?;
    let mut removed = crate::storage::blobs::sweep_incoming(blobs, cutoff, local_root).await?;
    let mut batch = Vec::new();
    let mut contents = blobs.list(Some(&BlobPath::from(CONTENTS)));
    while let Some(meta) = contents.next().await.transpose()? {
        if let Some(sha) = meta.location.filename() {
            batch.push(sha.to_string());
        }
        if batch.len() == 500 {
            removed += sweep_these(blobs, store, &std::mem::take(&mut batch), grace).await?;
        }
    }
    removed += sweep_these(blobs, store, &batch, grace).await?;
    Ok(removed)
}

/// The sweep: a first pass as soon as the instance starts (what a crash of this instance left
/// behind; it only reads the database), then once an hour across all instances sharing the
/// database (`storage::queue::schedule`: each asks every minute whether it is due; the first
/// to claim it runs it). The first ask comes a minute in, the instance having just swept. (It
/// was also kept off startup because on SQLite a write landing between another transaction's
/// read and its first write made that one fail; write transactions now take the lock at
/// BEGIN, `Database::begin`, so that no longer happens.)
pub fn spawn_sweeper(blobs: Blobs, store: VaultStore, grace: Duration, local_root: Option<std::path::PathBuf>) {
    use crate::storage::queue::schedule::{self, Every};
    let when = Every { every: Duration::from_secs(3600), ask: Duration::from_secs(60) };
    let db = store.db.clone();
    let sweep = move || {
        let (blobs, store, local_root) = (blobs.clone(), store.clone(), local_root.clone());
        async move {
            match sweep_all(&blobs, &store, grace, local_root.as_deref()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(removed = n, "vault sweeper removed unreferenced blobs"),
                Err(e) => tracing::warn!(error = %e, "vault sweeper failed; it runs again in an hour"),
            }
        }
    };
    tokio::spawn(async move {
        sweep().await;
        schedule::spawn(db, "vault-sweep", when, |_| crate::metrics::taken_over("job", 1), sweep);
    });
}

/// Bytes read at a time: one read (or one ranged GET of an S3 store) each. The local store's
/// own stream reads 8 KiB at a time, which held a 256 MiB download to 154–188 MB/s in
/// `scripts/bench-vault`.
const PIECE: u64 = 4 * 1024 * 1024;

/// The object's bytes (all, or `range` of its `size` bytes) as a stream of pieces of up to
/// 4 MiB: memory stays bounded by a piece whatever the file's size.
pub fn read(
    blobs: &Blobs,
    sha256: &str,
    size: u64,
    range: Option<std::ops::Range<u64>>,
) -> futures_util::stream::BoxStream<'static, object_store::Result<Bytes>> {
    let range = range.unwrap_or(0..size);
    let (blobs, path) = (blobs.clone(), content_path(sha256));
    futures_util::stream::unfold(Some(range.start), move |at| {
        let (blobs, path, end) = (blobs.clone(), path.clone(), range.end);
        async move {
            let at = at?;
            if at >= end {
                return None;
            }
            let to = (at + PIECE).min(end);
            match blobs.get_range(&path, at..to).await {
                Ok(bytes) => Some((Ok(bytes), Some(to))),
                // The error ends the stream (the client sees a truncated body).
                Err(e) => Some((Err(e), None)),
            }
        }
    })
    .boxed()
}

/// Used by tests to count what the store holds.
pub async fn count(blobs: &Blobs) -> anyhow::Result<(usize, usize)> {
    let incoming = blobs.list(Some(&BlobPath::from(INCOMING))).count().await;
    let contents = blobs.list(Some(&BlobPath::from(CONTENTS))).count().await;
    Ok((incoming, contents))
}

/// Removes the blobs a delete left unreferenced, after its commit (the hourly sweep catches
/// what this misses: a crash, or a blob younger than the grace period).
pub(crate) fn sweep_later(state: &VaultState, shas: Vec<String>) {
    if shas.is_empty() {
        return;
    }
    let (blobs, store, grace) = (state.blobs().clone(), state.vault().clone(), state.config().vault_sweep_grace);
    tokio::spawn(async move {
        if let Err(e) = sweep_these(&blobs, &store, &shas, grace).await {
            tracing::warn!(error = %e, "removing deleted vault contents failed; the sweeper will retry");
        }
    });
}
