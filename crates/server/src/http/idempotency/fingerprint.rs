//! What identifies a request's body: its SHA-256, computed as the handler reads it (a vault
//! upload is never held in memory for it). A multipart body is hashed without its boundary,
//! which the client draws at random for every send: a retry of the same form is the same
//! request.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};

use axum::body::{Body, Bytes};
use hyper::body::{Frame, SizeHint};
use sha2::{Digest, Sha256};

/// The running hash of one request's body.
#[derive(Debug)]
pub struct Fingerprint {
    sha: Sha256,
    /// A multipart body's boundary, removed from what is hashed.
    boundary: Option<Vec<u8>>,
    /// The last bytes seen, which may be the start of a boundary split across two reads.
    pending: Vec<u8>,
    /// Whether the whole body went through.
    complete: bool,
}

impl Fingerprint {
    /// A body of this `Content-Type` (its media type is part of the request; its parameters
    /// are not, the boundary being drawn at random).
    pub fn new(content_type: Option<&str>) -> Fingerprint {
        let content_type = content_type.unwrap_or_default();
        let mut parts = content_type.split(';');
        let media = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let boundary = (media == "multipart/form-data")
            .then(|| {
                parts.find_map(|p| {
                    let (name, value) = p.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("boundary")
                        .then(|| value.trim().trim_matches('"').as_bytes().to_vec())
                })
            })
            .flatten()
            .filter(|b| !b.is_empty());
        let mut sha = Sha256::new();
        sha.update(media.as_bytes());
        sha.update(b"\n");
        Fingerprint { sha, boundary, pending: Vec::new(), complete: false }
    }

    pub fn update(&mut self, data: &[u8]) {
        let Some(b) = &self.boundary else {
            self.sha.update(data);
            return;
        };
        self.pending.extend_from_slice(data);
        let (mut start, mut i) = (0, 0);
        while i + b.len() <= self.pending.len() {
            if self.pending[i] == b[0] && self.pending[i..i + b.len()] == b[..] {
                self.sha.update(&self.pending[start..i]);
                i += b.len();
                start = i;
            } else {
                i += 1;
            }
        }
        // What cannot be the start of a boundary any more is hashed now.
        let keep_from = start.max(self.pending.len().saturating_sub(b.len() - 1));
        self.sha.update(&self.pending[start..keep_from]);
        self.pending.drain(..keep_from);
    }

    /// The body's SHA-256 (hex), once the whole body went through.
    pub fn digest(&self) -> Option<String> {
        self.complete.then(|| {
            let mut sha = self.sha.clone();
            sha.update(&self.pending);
            hex::encode(sha.finalize())
        })
    }
}

pin_project_lite::pin_project! {
    /// A request body that feeds its [`Fingerprint`] as it is read; everything else (its
    /// length, its end) is the inner body's.
    pub struct Hashed {
        #[pin]
        inner: Body,
        fingerprint: Arc<Mutex<Fingerprint>>,
    }
}

impl Hashed {
    pub fn new(inner: Body, fingerprint: Arc<Mutex<Fingerprint>>) -> Hashed {
        if hyper::body::Body::is_end_stream(&inner) {
            mark_complete(&fingerprint);
        }
        Hashed { inner, fingerprint }
    }
}

fn mark_complete(f: &Mutex<Fingerprint>) {
    if let Ok(mut f) = f.lock() {
        f.complete = true;
    }
}

impl hyper::body::Body for Hashed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let mut this = self.project();
        let polled = ready!(this.inner.as_mut().poll_frame(cx));
        match &polled {
            Some(Ok(frame)) => {
                if let (Some(data), Ok(mut f)) = (frame.data_ref(), this.fingerprint.lock()) {
                    f.update(data);
                }
                if this.inner.is_end_stream() {
                    mark_complete(this.fingerprint);
                }
            }
            None => mark_complete(this.fingerprint),
            Some(Err(_)) => {}
        }
        Poll::Ready(polled)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::Fingerprint;

    fn digest(content_type: &str, chunks: &[&[u8]]) -> String {
        let mut f = Fingerprint::new(Some(content_type));
        chunks.iter().for_each(|c| f.update(c));
        f.complete = true;
        f.digest().unwrap()
    }

    #[test]
    fn a_multipart_body_is_the_same_whatever_its_boundary_and_reads() {
        let a = b"--AAA\r\nname=\"file\"\r\n\r\nhello\r\n--AAA--\r\n";
        let b = b"--Bb9\r\nname=\"file\"\r\n\r\nhello\r\n--Bb9--\r\n";
        let whole = digest("multipart/form-data; boundary=AAA", &[a]);
        assert_eq!(whole, digest("multipart/form-data; boundary=\"Bb9\"", &[b]));
        assert_eq!(whole, digest("multipart/form-data; boundary=AAA", &[&a[..3], &a[3..4], &a[4..30], &a[30..]]));
        let other = b"--AAA\r\nname=\"file\"\r\n\r\nhellO\r\n--AAA--\r\n";
        assert_ne!(whole, digest("multipart/form-data; boundary=AAA", &[other]));
    }

    #[test]
    fn the_media_type_is_part_of_the_request() {
        assert_ne!(digest("application/json", &[b"{}"]), digest("text/plain", &[b"{}"]));
        assert_eq!(digest("application/json", &[b"{}"]), digest("Application/JSON; charset=utf-8", &[b"{", b"}"]));
    }
}
