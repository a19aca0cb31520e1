//! In-process routing benchmarks with the Fed's full files (../shared/data/routing):
//! FedACH load, exact lookup (and the handler's JSON encoding), name search; then the name
//! search p99 over a mixed query set. Run: `scripts/bench-routing` or
//! `cargo bench -p moneydesk-server --profile server --bench routing_lookup`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::Criterion;
use moneydesk_model::{PageRequest, RoutingNumber};
use moneydesk_server::routing::directory::{load, search, Directory, SearchQuery, Sources};

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

fn full() -> Directory {
    load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) })
        .expect("real files load")
}

const QUERIES: &[&str] = &[
    "bank of america",
    "wells fargo bank na",
    "jpmorgn chase",
    "first natl bk",
    "credit union",
    "state street bank & trust",
    "citibank n.a.",
    "navy federal",
    "farmers",
    "us bank",
];

fn name(q: &str) -> SearchQuery {
    SearchQuery { name: Some(q.into()), ..Default::default() }
}

fn benches(c: &mut Criterion) {
    let fedach = Sources { fedach: Some(data("FedACHdir.txt")), fedwire: None };
    c.bench_function("fedach_load_full_file", |b| b.iter(|| black_box(load::load(&fedach).unwrap())));

    let dir = full();
    let keys: Vec<RoutingNumber> =
        dir.ach.iter().step_by(7).map(|a| RoutingNumber::parse(&a.routing_number).unwrap()).collect();
    let mut i = 0;
    c.bench_function("ach_exact_lookup", |b| {
        b.iter(|| {
            i = (i + 1) % keys.len();
            black_box(dir.ach(&keys[i]))
        })
    });
    c.bench_function("ach_exact_lookup_and_json", |b| {
        b.iter(|| {
            i = (i + 1) % keys.len();
            black_box(serde_json::to_vec(dir.ach(&keys[i]).unwrap()).unwrap())
        })
    });
    let page = PageRequest::default();
    c.bench_function("name_search_bank_of_america", |b| {
        b.iter(|| black_box(search(&dir, &name("bank of america"), page)))
    });
    c.bench_function("name_search_typo_jpmorgn_chase", |b| {
        b.iter(|| black_box(search(&dir, &name("jpmorgn chase"), page)))
    });
    let combo = SearchQuery { name: Some("bank".into()), state: Some("NY".into()), ..Default::default() };
    c.bench_function("name_and_state_search", |b| b.iter(|| black_box(search(&dir, &combo, page))));
    let prefix = SearchQuery { prefix: Some("0210".into()), ..Default::default() };
    c.bench_function("prefix_search_0210", |b| b.iter(|| black_box(search(&dir, &prefix, page))));
}

/// p50 / p99 / max of name search over the query set, 50 rounds.
fn name_search_percentiles() {
    let dir = full();
    let mut times = Vec::new();
    for _ in 0..50 {
        for q in QUERIES {
            let t = Instant::now();
            black_box(search(&dir, &name(q), PageRequest::default()));
            times.push(t.elapsed());
        }
    }
    times.sort();
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "name search over {} queries: p50 {:?}  p99 {:?}  max {:?}",
        times.len(),
        pct(0.50),
        pct(0.99),
        times[times.len() - 1]
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
    name_search_percentiles();
}
