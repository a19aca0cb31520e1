//! The cash letter's file, written into the blob store as the checks come: memory holds one
//! check's pictures and the upload's buffers (1 MiB here, 10 MiB in `object_store`'s) however
//! many checks the letter has (it used to be built whole in memory, then stored: every check's
//! G4 sides, then the file, then its copy for the store). The bytes stream
//! into `cash-letters/incoming/<uuid>` while they are hashed and counted (`object_store`'s
//! `BufWriter`: one request below 10 MiB, a multipart upload above), are copied to their
//! address `cash-letters/<sha256>.x937`, and the incoming object goes. A failure on the way
//! (a picture that does not decode, the store) aborts the upload; a crash leaves only an
//! incoming object, which the blob sweeper removes (`storage::blobs::sweep_incoming`).

use std::io::Write;

use object_store::buffered::BufWriter;
use object_store::path::Path;
use sha2::{Digest, Sha256};
use tokio::runtime::Handle;
use tokio_util::io::SyncIoBridge;

use super::file::{self, Check, Letter, WriteError};
use super::store::{Candidate, ItemRow};
use crate::cash_letters::CashLettersState;
use crate::deposits::images;
use crate::error::Error;
use crate::storage::blobs::{delete_if_present, Blobs, CASH_LETTERS_INCOMING};

/// The stored file: its address and what the letter records of it.
pub struct Stored {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// Bytes handed to the store at a time: the X9 writer writes record by record (80-byte
/// records, each image in one write), and each write through the bridge waits on the runtime.
const BUFFER: usize = 1 << 20;

/// Writes the letter of `candidates` and stores it. Runs on a blocking thread (`spawn_blocking`):
/// the X9 writer is synchronous; the pictures are fetched and the store written through
/// `handle`.
pub fn write_and_store(
    handle: &Handle,
    state: &CashLettersState,
    letter: &Letter<'_>,
    candidates: Vec<Candidate>,
) -> Result<(Stored, Vec<ItemRow>, u32), Error> {
    let blobs = state.blobs();
    let incoming = Path::from(format!("{CASH_LETTERS_INCOMING}/{}", uuid::Uuid::new_v4()));
    let upload = SyncIoBridge::new_with_handle(BufWriter::new(blobs.clone(), incoming.clone()), handle.clone());
    let mut out = Hashing { inner: std::io::BufWriter::with_capacity(BUFFER, upload), hash: Sha256::new(), bytes: 0 };
    let checks = candidates.into_iter().map(|c| handle.block_on(check_of(state, c)));
    let written = file::write(&mut out, letter, checks).map(|(_, items, bundles)| (items, bundles));
    let Hashing { inner, hash, bytes } = out;
    let (items, bundles) = match written {
        Ok(written) => written,
        Err(e) => {
            abort(handle, blobs, &incoming, inner.into_parts().0);
            return Err(match e {
                WriteError::Check(e) => e,
                WriteError::File(e) => Error::internal(format_args!("the cash letter does not write: {e}")),
            });
        }
    };
    let finished = inner.into_inner().map_err(|e| e.into_error()).and_then(|mut upload| upload.shutdown());
    if let Err(e) = finished {
        handle.block_on(forget(blobs, &incoming));
        return Err(Error::internal(format_args!("storing the cash letter file: {e}")));
    }
    let sha256 = hex::encode(hash.finalize());
    let path = format!("cash-letters/{sha256}.x937");
    handle.block_on(async {
        blobs
            .copy(&incoming, &Path::from(path.as_str()))
            .await
            .map_err(|e| Error::internal(format_args!("storing the cash letter file: {e}")))?;
        forget(blobs, &incoming).await;
        Ok::<_, Error>(())
    })?;
    Ok((Stored { path, bytes, sha256 }, items, bundles))
}

/// Ends an upload that will not finish: its parts and its incoming object go.
fn abort(handle: &Handle, blobs: &Blobs, incoming: &Path, upload: SyncIoBridge<BufWriter>) {
    let mut upload = upload.into_inner();
    handle.block_on(async {
        if let Err(e) = upload.abort().await {
            tracing::warn!(error = %e, "aborting a cash letter's upload; the sweeper removes what is left");
        }
        forget(blobs, incoming).await;
    });
}

/// Removes the incoming object; what fails here is the sweeper's to remove.
async fn forget(blobs: &Blobs, incoming: &Path) {
    if let Err(e) = delete_if_present(blobs, incoming).await {
        tracing::warn!(error = %e, %incoming, "removing a cash letter's incoming object");
    }
}

/// Counts and hashes what passes through.
struct Hashing<W> {
    inner: W,
    hash: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A deposit with both sides as G4 TIFFs: its scan's, or made from its stored pictures.
async fn check_of(state: &CashLettersState, c: Candidate) -> Result<Check, Error> {
    let (front_g4, back_g4) = match (&c.front_g4, &c.rear_g4) {
        (Some(f), Some(r)) => (images::load(&state.blobs(), f).await?.0, images::load(&state.blobs(), r).await?.0),
        _ => {
            let front = images::load(&state.blobs(), c.front_image.as_deref().unwrap_or_default()).await?.0;
            let back = images::load(&state.blobs(), c.back_image.as_deref().unwrap_or_default()).await?.0;
            let id = c.id;
            tokio::task::spawn_blocking(move || Ok::<_, Error>((g4_of(id, &front)?, g4_of(id, &back)?)))
                .await
                .map_err(|e| Error::internal(format_args!("converting deposit {id}'s images stopped: {e}")))??
        }
    };
    Ok(Check {
        routing_number: c.bank_routing_number.clone().unwrap_or_default(),
        on_us: file::on_us(&c),
        deposit: c,
        front_g4,
        back_g4,
    })
}

fn g4_of(id: i64, stored: &[u8]) -> Result<Vec<u8>, Error> {
    let limits = moneydesk_checkimage::Limits {
        max_bytes: images::MAX_IMAGE_BYTES,
        max_side: images::MAX_SIDE,
        ..Default::default()
    };
    let decoded = moneydesk_checkimage::decode(stored, limits).map_err(|e| {
        let mut err = Error::conflict(format!(
            "deposit {id}'s stored image does not decode ({e}); it cannot go in a cash letter"
        ));
        err.reason = "deposits_refused".into();
        err
    })?;
    Ok(moneydesk_checkimage::side::prepare(&decoded.image).g4_tiff)
}
