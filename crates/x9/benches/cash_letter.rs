//! Writing and reading back an image cash letter of 10,000 items with real-size images
//! (≈ 20 KB a side, like a G4 TIFF of a check at 200 dpi), through a temp file, against
//! copying the same number of bytes (write them to a file, read them back: the I/O limit),
//! in alternating rounds of one run. Target: >= 50 % of the copy rate.
//! Then the peak RSS growth of writing and of reading 1,000 and 10,000 items: it must not
//! grow with the item count (the writer keeps running totals, the reader one record).
//!
//! Run: `scripts/bench-x9` (or `cargo bench -p moneydesk-x9 --profile server --bench cash_letter`).
//! `X9_BENCH_ITEMS` (default 10000) and `X9_BENCH_ROUNDS` (default 5) change the run.
//! Needs about twice 400 MB of free disk under $TMPDIR (page cache, mostly); it deletes its
//! files.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use moneydesk_x9::*;

const FRONT: usize = 20_480;
const BACK: usize = 19_600;
const PER_BUNDLE: u64 = 100;
const DEST: &str = "061000146";
const ORIGIN: &str = "026073150";
const DATE: &str = "20240102";

fn status_kb(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    text.lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Runs `f` and returns its result with the growth of the peak RSS over the RSS before it, in KiB.
fn peak_growth<T>(f: impl FnOnce() -> T) -> (T, u64) {
    // `5` resets VmHWM to the current RSS (Linux).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = status_kb("VmRSS:");
    let out = f();
    (out, status_kb("VmHWM:").saturating_sub(before))
}

/// Pseudo-random bytes (incompressible, like G4 data), xorshift.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp(name: &str) -> TempFile {
    TempFile(std::env::temp_dir().join(format!("x9-bench-{}-{name}", std::process::id())))
}

/// Writes a cash letter of `items` items to `path`; its size in bytes.
fn write_x9(path: &Path, items: u64, front: &[u8], back: &[u8]) -> u64 {
    let file = write_x9_to(File::create(path).unwrap(), items, front, back);
    file.metadata().unwrap().len()
}

/// Writes a cash letter of `items` items to `out`.
fn write_x9_to<W: Write>(out: W, items: u64, front: &[u8], back: &[u8]) -> W {
    let header = FileHeader {
        immediate_destination_routing_number: DEST.into(),
        immediate_origin_routing_number: ORIGIN.into(),
        file_creation_date: DATE.into(),
        file_creation_time: "0930".into(),
        ..FileHeader::default()
    };
    let mut w = Writer::new(out, Encoding::Ebcdic, &header).unwrap();
    w.start_cash_letter(&CashLetterHeader {
        destination_routing_number: DEST.into(),
        ece_institution_routing_number: ORIGIN.into(),
        cash_letter_business_date: DATE.into(),
        cash_letter_creation_date: DATE.into(),
        cash_letter_creation_time: "0930".into(),
        cash_letter_id: "BENCH".into(),
        ..CashLetterHeader::default()
    })
    .unwrap();
    // One item reused: its images are the caller's buffers, as a server's deposit would hold.
    let mut detail = CheckDetail { on_us: "1211-1234-56789/".into(), ..CheckDetail::default() };
    detail.set_payor_bank_routing("122000661");
    let addendum = CheckDetailAddendumA {
        bofd_routing_number: ORIGIN.into(),
        bofd_business_date: DATE.into(),
        payee_name: "MONEYDESK".into(),
        ..CheckDetailAddendumA::default()
    };
    let mut item = Item {
        detail,
        addenda: vec![addendum],
        images: vec![
            Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, false), ImageViewData::new(front.to_vec())),
            Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, true), ImageViewData::new(back.to_vec())),
        ],
        ..Item::default()
    };
    for n in 0..items {
        if n % PER_BUNDLE == 0 {
            if n > 0 {
                w.finish_bundle().unwrap();
            }
            w.start_bundle(&BundleHeader {
                destination_routing_number: DEST.into(),
                ece_institution_routing_number: ORIGIN.into(),
                bundle_business_date: DATE.into(),
                bundle_creation_date: DATE.into(),
                bundle_id: format!("{}", n / PER_BUNDLE),
                ..BundleHeader::default()
            })
            .unwrap();
        }
        item.detail.item_amount = 1 + n % 100_000;
        item.detail.ece_institution_item_sequence_number = format!("{:015}", n + 1);
        w.add_item(&item).unwrap();
    }
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    w.finish(FileControl::default()).unwrap()
}

/// Reads it back, validating; the item count and the image bytes seen.
fn read_x9(path: &Path) -> (u64, u64) {
    read_x9_from(File::open(path).unwrap())
}

fn read_x9_from<R: Read>(input: R) -> (u64, u64) {
    let mut reader = Reader::new(input);
    let (mut items, mut image_bytes) = (0, 0);
    while let Some((_, record)) = reader.next_record().unwrap() {
        match record {
            Record::CheckDetail(_) => items += 1,
            Record::ImageViewData(d) => image_bytes += d.image_data.len() as u64,
            _ => {}
        }
    }
    let problems = reader.finish();
    assert!(problems.is_empty(), "{problems:?}");
    (items, image_bytes)
}

/// The I/O limit: `len` bytes written to a file in 64 KiB writes, then read back.
fn copy_write(path: &Path, len: u64, chunk: &[u8]) {
    let mut f = File::create(path).unwrap();
    let mut left = len;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        f.write_all(&chunk[..n]).unwrap();
        left -= n as u64;
    }
}

fn copy_read(path: &Path) -> u64 {
    let mut f = File::open(path).unwrap();
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0;
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            return total;
        }
        total += n as u64;
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let items: u64 = std::env::var("X9_BENCH_ITEMS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let rounds: usize = std::env::var("X9_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let (front, back) = (noise(FRONT, 1), noise(BACK, 2));
    let chunk = noise(64 * 1024, 3);
    let (x9, copy) = (temp("cash-letter.x937"), temp("copy.bin"));

    println!("peak RSS growth over the RSS before (VmHWM - VmRSS, /proc/self/status), fresh process:");
    println!("{:<12} {:>22} {:>22} {:>16}", "items", "write: peak RSS growth", "read: peak RSS growth", "VmHWM after");
    let mut growth = Vec::new();
    for n in [items / 10, items] {
        let (_, w) = peak_growth(|| write_x9(&x9.0, n, &front, &back));
        let (_, r) = peak_growth(|| read_x9(&x9.0));
        println!("{:<12} {:>18} KiB {:>18} KiB {:>12} KiB", n, w, r, status_kb("VmHWM:"));
        growth.push((w, r));
    }
    let flat = growth[1].0 <= growth[0].0 + 1024 && growth[1].1 <= growth[0].1 + 1024;
    println!(
        "target: memory flat in the item count (within 1 MiB from 10x fewer items): {}",
        if flat { "met" } else { "NOT met" }
    );
    println!();
    println!("X9 cash letter: {items} items, images {FRONT} + {BACK} bytes, EBCDIC, {rounds} alternating rounds");
    let mut rates: [Vec<f64>; 6] = Default::default();
    let mut size = 0;
    let mut ratios: [Vec<f64>; 3] = Default::default();
    for round in 0..rounds {
        // Deleting last round's 400 MB (freeing its page cache) is no part of either timing.
        let _ = std::fs::remove_file(&x9.0);
        let _ = std::fs::remove_file(&copy.0);
        let t = Instant::now();
        size = write_x9(&x9.0, items, &front, &back);
        let x9_write = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let (read_items, image_bytes) = read_x9(&x9.0);
        let x9_read = t.elapsed().as_secs_f64();
        assert_eq!((read_items, image_bytes), (items, items * (FRONT + BACK) as u64));

        let t = Instant::now();
        copy_write(&copy.0, size, &chunk);
        let copy_write_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        assert_eq!(copy_read(&copy.0), size);
        let copy_read_s = t.elapsed().as_secs_f64();

        let mb = size as f64 / 1e6;
        let r = [mb / x9_write, mb / x9_read, mb / (x9_write + x9_read)];
        let c = [mb / copy_write_s, mb / copy_read_s, mb / (copy_write_s + copy_read_s)];
        println!(
            "  round {}: x9 write {:>6.0} read {:>6.0} both {:>6.0} MB/s | copy write {:>6.0} read {:>6.0} both {:>6.0} MB/s",
            round + 1,
            r[0],
            r[1],
            r[2],
            c[0],
            c[1],
            c[2]
        );
        for (ratio, (x, c)) in ratios.iter_mut().zip(r.iter().zip(&c)) {
            ratio.push(x / c);
        }
        for (i, v) in r.into_iter().chain(c).enumerate() {
            rates[i].push(v);
        }
    }
    let m: Vec<f64> = rates.iter().map(|v| median(v.clone())).collect();
    println!();
    println!("file: {:.1} MB ({size} bytes)", size as f64 / 1e6);
    // The machine's I/O rate drifts (other work, dirty page write-back): a round's X9 figure
    // is compared with the copy measured right after it, and the median of those ratios kept.
    println!("{:<24} {:>12} {:>12} {:>22}", "median of rounds", "X9 (MB/s)", "copy (MB/s)", "X9/copy (same round)");
    let r: Vec<f64> = ratios.iter().map(|v| median(v.clone())).collect();
    for (i, what) in ["write", "read back (validated)", "write + read"].iter().enumerate() {
        println!("{:<24} {:>12.0} {:>12.0} {:>20.0} %", what, m[i], m[i + 3], 100.0 * r[i]);
    }
    let ratio = r[2];
    println!("target: write + read >= 50 % of the copy rate: {}", if ratio >= 0.5 { "met" } else { "NOT met" });

    // The format's own CPU cost, without the file system: to and from memory.
    let in_memory = (items / 4).max(1);
    let t = Instant::now();
    write_x9_to(std::io::sink(), in_memory, &front, &back);
    let write_s = t.elapsed().as_secs_f64();
    let bytes = write_x9_to(Vec::new(), in_memory, &front, &back);
    let t = Instant::now();
    assert_eq!(read_x9_from(bytes.as_slice()).0, in_memory);
    let read_s = t.elapsed().as_secs_f64();
    let mb = bytes.len() as f64 / 1e6;
    println!();
    println!(
        "CPU only, {in_memory} items ({mb:.0} MB) written to io::sink, read from memory: write {:.0} MB/s ({:.1} us/item), read {:.0} MB/s ({:.1} us/item)",
        mb / write_s,
        write_s * 1e6 / in_memory as f64,
        mb / read_s,
        read_s * 1e6 / in_memory as f64
    );
}
