//! Resident memory of the loaded routing index: VmRSS (from /proc/self/status) before and
//! after loading the Fed's full FedACH and Fedwire files, and the load times.
//! Run: `cargo bench -p moneydesk-server --profile server --bench routing_memory`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use moneydesk_server::routing::directory::{load, Sources};

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

fn vm_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS line");
    line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("VmRSS value")
}

fn main() {
    let before = vm_rss_kib();
    let t = Instant::now();
    let dir = load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) })
        .expect("real files load");
    let both = t.elapsed();
    let after = vm_rss_kib();
    println!(
        "routing index: {} ACH + {} wire records, {} routing numbers, {} words",
        dir.ach.len(),
        dir.wire.len(),
        dir.entries.len(),
        dir.vocab.len()
    );
    println!(
        "VmRSS before {before} KiB, after {after} KiB: the loaded index holds {:.1} MiB resident",
        (after - before) as f64 / 1024.0
    );
    black_box(&dir);

    // FedACH alone, best of 5 (first run warms the page cache).
    let fedach = Sources { fedach: Some(data("FedACHdir.txt")), fedwire: None };
    let mut best = std::time::Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        black_box(load::load(&fedach).unwrap());
        best = best.min(t.elapsed());
    }
    println!("load both files (cold-ish, first): {both:?}; FedACH alone, best of 5: {best:?}");
}
