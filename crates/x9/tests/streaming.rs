//! 10,000 items written as they come to an output that keeps nothing, and read back through
//! a pipe from a writer that is still writing: the file is never held whole.

mod common;

use std::io::{self, Read, Write};
use std::sync::mpsc;

use common::*;
use moneydesk_x9::*;

const ITEMS: u64 = 10_000;
const PER_BUNDLE: u64 = 250;

/// Counts the bytes written to it and keeps none.
struct Counting(u64);

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn write_deposit<W: Write>(out: W, encoding: Encoding) -> W {
    let (front, back) = (vec![0x55; 1500], vec![0xAA; 700]);
    let mut w = Writer::new(out, encoding, &file_header("35")).unwrap();
    w.start_cash_letter(&cash_letter_header("BIG")).unwrap();
    for n in 0..ITEMS {
        if n % PER_BUNDLE == 0 {
            if n > 0 {
                w.finish_bundle().unwrap();
            }
            w.start_bundle(&bundle_header(&format!("B{}", n / PER_BUNDLE))).unwrap();
        }
        // The same two images each time: the writer writes from the caller's buffers.
        let mut it = item(n + 1, n + 1, Vec::new(), Vec::new());
        it.images[0].data.as_mut().unwrap().image_data.clone_from(&front);
        it.images[1].data.as_mut().unwrap().image_data.clone_from(&back);
        w.add_item(&it).unwrap();
    }
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    w.finish(FileControl::default()).unwrap()
}

/// Per item: 25 and 26 (80 + 4 bytes each), two 50 (84 each), two 52 (121 + image each).
fn expected_len() -> u64 {
    let per_item = 4 * 84 + 2 * 121 + 1500 + 700;
    let bundles = ITEMS / PER_BUNDLE;
    ITEMS * per_item + (4 * 84) + bundles * 2 * 84
}

#[test]
fn ten_thousand_items_are_written_to_an_output_that_keeps_nothing() {
    let out = write_deposit(Counting(0), Encoding::Ebcdic);
    assert_eq!(out.0, expected_len());
}

/// The reading end of a pipe whose writing end is another thread.
struct Pipe {
    chunks: mpsc::Receiver<Vec<u8>>,
    current: Vec<u8>,
    at: usize,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            match self.chunks.recv() {
                Ok(chunk) => (self.current, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

struct PipeWriter(mpsc::SyncSender<Vec<u8>>);

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.send(buf.to_vec()).map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn ten_thousand_items_are_read_back_one_record_at_a_time_while_being_written() {
    // At most 4 chunks (of the writer's 64 KiB buffer) in flight: the pipe holds ~256 KiB.
    let (tx, rx) = mpsc::sync_channel(4);
    let producer = std::thread::spawn(move || drop(write_deposit(PipeWriter(tx), Encoding::Ebcdic)));
    let mut reader = Reader::new(Pipe { chunks: rx, current: Vec::new(), at: 0 });
    let (mut items, mut total, mut images, mut bytes) = (0u64, 0u64, 0u64, 0usize);
    while let Some((_, record)) = reader.next_record().unwrap() {
        match record {
            Record::CheckDetail(d) => {
                items += 1;
                total += d.item_amount;
            }
            Record::ImageViewData(d) => {
                images += 1;
                bytes += d.image_data.len();
            }
            _ => {}
        }
        // A streaming viewer shows problems as they come; there are none.
        assert!(reader.take_problems().is_empty());
    }
    producer.join().unwrap();
    assert!(reader.finish().is_empty());
    assert_eq!((items, total, images), (ITEMS, ITEMS * (ITEMS + 1) / 2, 2 * ITEMS));
    assert_eq!(bytes as u64, ITEMS * 2200);
}
