//! The one blob store of the server, for the groups that keep files (vault documents, email
//! attachments and inbound messages, deposit scans, cash letters): an `object_store` handle.
//! The local filesystem under the data dir (`<data dir>/blobs`) by default; an S3-compatible
//! bucket when `MONEYDESK_S3_BUCKET` is set, so several instances share one store. Groups
//! address files by path within it and never know which it is.
//!
//! S3 settings (environment variables):
//! - `MONEYDESK_S3_BUCKET`: the bucket (it must exist); setting it selects S3.
//! - `MONEYDESK_S3_PREFIX`: a folder inside the bucket for this deployment's objects.
//! - `MONEYDESK_S3_ENDPOINT`: the server of an S3-compatible store (`http://minio:9000`);
//!   unset: AWS itself. An `http://` endpoint is allowed (a private network).
//! - `MONEYDESK_S3_REGION` (default `us-east-1`), `MONEYDESK_S3_PATH_STYLE` (default on with
//!   an endpoint, off without: `bucket.host` virtual-hosted requests on AWS).
//! - Credentials the usual way: `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//!   `AWS_SESSION_TOKEN`, or the instance's role (`object_store`'s `from_env`).
//!
//! Large objects are written in parts (`object_store`'s `BufWriter` switches to a multipart
//! upload past its buffer, 10 MiB): the vault streams uploads and reads downloads and zips in
//! constant memory on either store.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::prefix::PrefixStore;
use object_store::ObjectStore;

/// Shared by every group (cloning is one reference count).
pub type Blobs = Arc<dyn ObjectStore>;

/// Where blobs live (`MONEYDESK_S3_*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum BlobConfig {
    /// `<data dir>/blobs`.
    #[default]
    Local,
    S3(S3Config),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Config {
    pub bucket: String,
    pub prefix: Option<String>,
    pub endpoint: Option<String>,
    pub region: String,
    pub path_style: bool,
    /// Credentials given here win over the environment's (tests; the variables are the way
    /// for operators).
    pub access_key: Option<(String, String)>,
}

impl BlobConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<BlobConfig> {
        let Some(bucket) = var("MONEYDESK_S3_BUCKET").map(|b| b.trim().to_string()).filter(|b| !b.is_empty()) else {
            return Ok(BlobConfig::Local);
        };
        if bucket.contains('/') {
            anyhow::bail!("MONEYDESK_S3_BUCKET is a bucket name alone ({bucket:?} has a '/'): put the folder in MONEYDESK_S3_PREFIX");
        }
        let endpoint =
            var("MONEYDESK_S3_ENDPOINT").map(|e| e.trim().trim_end_matches('/').to_string()).filter(|e| !e.is_empty());
        if let Some(e) = &endpoint {
            let url = url::Url::parse(e)
                .with_context(|| format!("MONEYDESK_S3_ENDPOINT must be a URL like http://minio:9000; got {e:?}"))?;
            if !matches!(url.scheme(), "http" | "https") {
                anyhow::bail!("MONEYDESK_S3_ENDPOINT must be http or https; got {e:?}");
            }
        }
        let path_style = match var("MONEYDESK_S3_PATH_STYLE") {
            Some(v) => matches!(v.trim(), "on" | "1" | "true" | "yes"),
            None => endpoint.is_some(),
        };
        Ok(BlobConfig::S3(S3Config {
            bucket,
            prefix: var("MONEYDESK_S3_PREFIX")
                .map(|p| p.trim().trim_matches('/').to_string())
                .filter(|p| !p.is_empty()),
            endpoint,
            region: var("MONEYDESK_S3_REGION").filter(|r| !r.trim().is_empty()).unwrap_or_else(|| "us-east-1".into()),
            path_style,
            access_key: None,
        }))
    }

    /// In words, for the startup log and `/readyz` (no credentials).
    pub fn describe(&self, data_dir: &Path) -> String {
        match self {
            BlobConfig::Local => format!("local {}", data_dir.join("blobs").display()),
            BlobConfig::S3(s) => format!(
                "s3://{}/{} at {}",
                s.bucket,
                s.prefix.as_deref().unwrap_or(""),
                s.endpoint.as_deref().unwrap_or("AWS")
            ),
        }
    }
}

/// Where files are streamed under a fresh name before they have their address (their SHA-256,
/// known only once written): what a crash leaves half-done is there, and only there, for the
/// sweeper (`sweep_incoming`) to remove.
pub const VAULT_INCOMING: &str = "vault/incoming";
pub const CASH_LETTERS_INCOMING: &str = "cash-letters/incoming";
const INCOMING_AREAS: [&str; 2] = [VAULT_INCOMING, CASH_LETTERS_INCOMING];

/// Deletes `path`; one already gone counts as deleted (a small write that never finished never
/// made its object; a sweep may have come first).
pub async fn delete_if_present(blobs: &Blobs, path: &object_store::path::Path) -> object_store::Result<()> {
    match blobs.delete(path).await {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Removes unfinished writes older than `cutoff` from every incoming area. `local_root`: the
/// local store's directory, whose half-written parts (`<name>#<n>`, which the store's listing
/// hides) are removed too; an S3 bucket's are its lifecycle rule's.
pub async fn sweep_incoming(
    blobs: &Blobs,
    cutoff: chrono::DateTime<chrono::Utc>,
    local_root: Option<&Path>,
) -> anyhow::Result<usize> {
    use futures_util::StreamExt;
    let mut removed = 0;
    for area in INCOMING_AREAS {
        if let Some(dir) = local_root.map(|r| r.join(area)) {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let old = entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .map(|t| chrono::DateTime::<chrono::Utc>::from(t) <= cutoff);
                if old.unwrap_or(false) && std::fs::remove_file(entry.path()).is_ok() {
                    removed += 1;
                }
            }
        }
        let mut incoming = blobs.list(Some(&object_store::path::Path::from(area)));
        while let Some(meta) = incoming.next().await.transpose()? {
            if meta.last_modified <= cutoff {
                blobs.delete(&meta.location).await?;
                removed += 1;
            }
        }
    }
    Ok(removed)
}

/// Opens the configured store; for the local one also its directory (the vault sweeper
/// removes half-written parts there, which the store's listing hides).
pub fn open(config: &BlobConfig, data_dir: &Path) -> anyhow::Result<(Blobs, Option<PathBuf>)> {
    match config {
        BlobConfig::Local => Ok((local(data_dir)?, Some(data_dir.join("blobs")))),
        BlobConfig::S3(s) => Ok((s3(s)?, None)),
    }
}

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

/// An S3 bucket (with its prefix).
pub fn s3(c: &S3Config) -> anyhow::Result<Blobs> {
    let mut b = AmazonS3Builder::from_env()
        .with_bucket_name(&c.bucket)
        .with_region(&c.region)
        .with_virtual_hosted_style_request(!c.path_style);
    if let Some(e) = &c.endpoint {
        b = b.with_endpoint(e).with_allow_http(e.starts_with("http://"));
    }
    if let Some((id, secret)) = &c.access_key {
        b = b.with_access_key_id(id).with_secret_access_key(secret);
    }
    let store = b.build().with_context(|| format!("opening the S3 bucket {}", c.bucket))?;
    Ok(match &c.prefix {
        Some(p) => Arc::new(PrefixStore::new(store, p.as_str())),
        None => Arc::new(store),
    })
}
