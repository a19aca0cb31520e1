//! Putting records into the output: text translated, binary fields as they are, in whole
//! chunks.

use std::io::Write;

use super::{link, Writer};
use crate::error::Error;
use crate::field::Enc;
use crate::records::{encode_fixed, ImageViewData, Record, FIXED_RECORD_LEN};

impl<W: Write> Writer<W> {
    pub(super) fn write_fixed(&mut self, record: &Record) -> Result<(), Error> {
        self.scratch.clear();
        encode_fixed(record, &mut self.scratch);
        debug_assert_eq!(self.scratch.len(), FIXED_RECORD_LEN, "type {}", record.record_type());
        self.encoding.encode_in_place(&mut self.scratch);
        let len = self.scratch.len() as u32;
        let result = (|| {
            self.out.write_all(&len.to_be_bytes())?;
            self.out.write_all(&self.scratch)
        })();
        self.wrote(result)
    }

    /// Type 52: the text fields are translated, the signature and the image data written as
    /// they are, straight from the caller's buffer. `sequence`: the item's sequence number.
    pub(super) fn write_image_data(&mut self, data: &ImageViewData, sequence: &str) -> Result<(), Error> {
        let bundle = self.bundle.as_ref().expect("open");
        self.scratch.clear();
        data.encode_text(&mut Enc { buf: &mut self.scratch }, &link(data, bundle, sequence));
        let head = self.scratch.len();
        Enc { buf: &mut self.scratch }.num(data.image_data.len() as u64, 7);
        self.encoding.encode_in_place(&mut self.scratch);
        let len = (self.scratch.len() + data.digital_signature.len() + data.image_data.len()) as u32;
        let result = (|| {
            self.out.write_all(&len.to_be_bytes())?;
            self.out.write_all(&self.scratch[..head])?;
            self.out.write_all(&data.digital_signature)?;
            self.out.write_all(&self.scratch[head..])?;
            self.out.write_all(&data.image_data)
        })();
        self.wrote(result)
    }

    fn wrote(&mut self, result: std::io::Result<()>) -> Result<(), Error> {
        match result {
            Ok(()) => {
                self.records += 1;
                Ok(())
            }
            Err(e) => {
                self.poisoned = true;
                Err(Error::Io(e))
            }
        }
    }
}

/// Output buffering in whole chunks: every write to the output is exactly `CHUNK` bytes
/// (but the last), so a file's writes stay aligned to its pages however records fall. (A
/// `BufWriter` flushes whatever it holds when the next record does not fit; with 20 KB
/// images that makes every write end mid-page, and writing the file about twice as slow.)
pub(super) struct Chunked<W: Write> {
    inner: W,
    buf: Vec<u8>,
}

const CHUNK: usize = 64 * 1024;

impl<W: Write> Chunked<W> {
    pub(super) fn new(inner: W) -> Self {
        Chunked { inner, buf: Vec::with_capacity(CHUNK) }
    }

    pub(super) fn write_all(&mut self, mut data: &[u8]) -> std::io::Result<()> {
        while !data.is_empty() {
            if self.buf.is_empty() && data.len() >= CHUNK {
                // Whole chunks straight from the caller's buffer.
                let whole = data.len() - data.len() % CHUNK;
                self.inner.write_all(&data[..whole])?;
                data = &data[whole..];
                continue;
            }
            let n = data.len().min(CHUNK - self.buf.len());
            self.buf.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.buf.len() == CHUNK {
                self.inner.write_all(&self.buf)?;
                self.buf.clear();
            }
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> std::io::Result<W> {
        self.inner.write_all(&self.buf)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}
