//! Which of wasm-split's modules go into one file.
//!
//! wasm-split gives each page its own module and cuts the code pages share into one chunk per
//! set of pages sharing it: 96 chunks for 9 pages, most under 1 KB, so /accounts loaded 27
//! files and /deposits 68. A file costs more than its bytes: a request (on the benchmark's slow
//! network, 150 ms round trips through the browser's six connections to a host, ~25 ms a file,
//! what 5 KB cost at 1.6 Mbps) and an instantiation (~1.7 ms a module in a cold /accounts
//! trace, 27 of them 45 ms). Merging two modules saves each page that loads both a file, and
//! makes each page that loads only one of them load the other's bytes too; [`plan`] merges,
//! largest saving first, while a merge saves more than it costs, pricing a file at
//! [`FILE_COST`] bytes of gzip. A page's own module is never merged with another page's, so a
//! file holds at most one page's entry and is named after it (`split_accounts.wasm`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::{compress, loader, merge};

/// The build's page files after [`bundle`].
pub struct Bundled {
    /// Each split page's files (stems in the build directory).
    pub pages: BTreeMap<String, Vec<String>>,
    pub files: Vec<PathBuf>,
    /// How many modules wasm-split made.
    pub modules: usize,
}

/// Replaces wasm-split's modules in `dir` (`prefetch_map`: each page's modules, as
/// `SplitWasm` gives them) with the files [`plan`] makes of them and writes the loader
/// `__wasm_split.js` for those; `main` is the main module wasm-split wrote (it must export
/// what they import), `main_js` the path the loader imports it from.
pub fn bundle(dir: &Path, prefetch_map: &HashMap<String, Vec<String>>, main: &[u8], main_js: &str) -> Result<Bundled> {
    let mut stems: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (page, modules) in prefetch_map {
        for m in modules {
            stems.entry(m).or_default().insert(page.clone());
        }
    }
    let mut bytes = HashMap::new();
    let mut modules = Vec::new();
    for (stem, pages) in stems {
        let path = dir.join(format!("{stem}.wasm"));
        let wasm = fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        fs::remove_file(&path)?;
        modules.push(Bundle::module(stem, pages, compress::gzip(&wasm)?.len() as u64));
        bytes.insert(stem.to_string(), wasm);
    }
    let count = modules.len();
    let bundles = plan(modules);
    let names = loader::shared_names(bytes.values().map(Vec::as_slice), main)?;
    let mut files = Vec::new();
    for b in &bundles {
        let parts: Vec<&[u8]> = b.modules.iter().map(|m| bytes[m].as_slice()).collect();
        let wasm = merge::merge(&parts).with_context(|| format!("merging {} into {}", b.modules.join(", "), b.stem))?;
        let path = dir.join(format!("{}.wasm", b.stem));
        fs::write(&path, wasm)?;
        files.push(path);
    }
    let pages: BTreeMap<String, Vec<String>> = prefetch_map
        .keys()
        .map(|page| (page.clone(), bundles.iter().filter(|b| b.pages.contains(page)).map(|b| b.stem.clone()).collect()))
        .collect();
    fs::write(dir.join("__wasm_split.js"), loader::script(main_js, &names, &pages))?;
    Ok(Bundled { pages, files, modules: count })
}

/// What one more file costs a page, in gzip bytes of code: 2 KB, below the ~5 KB a file costs
/// on the slow network, so a page loads little it does not need: /accounts loads 6 files
/// instead of 27, and no page more than 3.4 % more bytes (merged modules compress better).
pub const FILE_COST: u64 = 2_000;

/// One file: the modules merged into it (their file stems), the pages that load it, its size
/// in gzip bytes and whose entry it holds, if a page's.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    pub stem: String,
    pub modules: Vec<String>,
    pub pages: BTreeSet<String>,
    pub gzip: u64,
    entry_of: Option<String>,
}

impl Bundle {
    /// One of wasm-split's modules as a file of its own: `chunk_12`, or `split_accounts`, the
    /// entry of the page it is named after.
    pub fn module(stem: &str, pages: BTreeSet<String>, gzip: u64) -> Bundle {
        let entry_of = stem.strip_prefix("split_").filter(|p| pages.contains(*p)).map(str::to_string);
        Bundle { stem: stem.to_string(), modules: vec![stem.to_string()], pages, gzip, entry_of }
    }
}

/// What merging `a` and `b` changes in the pages' total cost (negative: it saves).
fn merge_cost(a: &Bundle, b: &Bundle) -> i64 {
    let both = a.pages.intersection(&b.pages).count() as i64;
    let only_a = a.pages.difference(&b.pages).count() as i64;
    let only_b = b.pages.difference(&a.pages).count() as i64;
    only_a * b.gzip as i64 + only_b * a.gzip as i64 - both * FILE_COST as i64
}

/// The files to make of `modules` (each a [`Bundle::module`]): `split_<page>` for the one
/// holding a page's entry, `chunk_<n>` for the others, each listing its modules in the order
/// given.
pub fn plan(mut bundles: Vec<Bundle>) -> Vec<Bundle> {
    loop {
        let mut best: Option<(i64, usize, usize)> = None;
        for i in 0..bundles.len() {
            for j in i + 1..bundles.len() {
                if bundles[i].entry_of.is_some() && bundles[j].entry_of.is_some() {
                    continue;
                }
                let cost = merge_cost(&bundles[i], &bundles[j]);
                if cost < 0 && best.is_none_or(|(c, _, _)| cost < c) {
                    best = Some((cost, i, j));
                }
            }
        }
        let Some((_, i, j)) = best else { break };
        let b = bundles.remove(j);
        let a = &mut bundles[i];
        a.modules.extend(b.modules);
        a.pages.extend(b.pages);
        a.gzip += b.gzip;
        a.entry_of = a.entry_of.take().or(b.entry_of);
    }
    let mut n = 0;
    for b in &mut bundles {
        b.stem = match &b.entry_of {
            Some(page) => format!("split_{page}"),
            None => {
                n += 1;
                format!("chunk_{n}")
            }
        };
    }
    bundles
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(stem: &str, pages: &[&str], gzip: u64) -> Bundle {
        Bundle::module(stem, pages.iter().map(|p| p.to_string()).collect(), gzip)
    }

    fn files_of<'b>(bundles: &'b [Bundle], page: &str) -> Vec<&'b str> {
        bundles.iter().filter(|b| b.pages.contains(page)).map(|b| b.stem.as_str()).collect()
    }

    #[test]
    fn small_chunks_two_pages_share_go_into_one_file_with_a_page_entry_but_never_two_entries() {
        let modules = [
            module("split_a", &["a"], 30_000),
            module("split_b", &["b"], 30_000),
            module("chunk_1", &["a", "b"], 300),
            module("chunk_2", &["a", "b"], 200),
            module("chunk_3", &["a"], 0),
        ];
        let bundles = plan(modules.to_vec());
        // The two shared chunks become one file; each page loads it and its own.
        assert_eq!(files_of(&bundles, "a"), ["split_a", "chunk_1"]);
        assert_eq!(files_of(&bundles, "b"), ["split_b", "chunk_1"]);
        let shared = bundles.iter().find(|b| b.stem == "chunk_1").unwrap();
        assert_eq!(shared.modules, ["chunk_1", "chunk_2"]);
        assert_eq!(shared.gzip, 500);
        // Every module is in exactly one file.
        let mut all: Vec<&String> = bundles.iter().flat_map(|b| &b.modules).collect();
        all.sort();
        assert_eq!(all, ["chunk_1", "chunk_2", "chunk_3", "split_a", "split_b"]);
    }

    #[test]
    fn a_large_chunk_one_page_does_not_need_stays_a_file_of_its_own() {
        let modules = [
            module("split_a", &["a"], 1_000),
            module("split_b", &["b"], 1_000),
            module("chunk_1", &["a", "b"], 1_000),
            module("chunk_2", &["a", "b", "c"], 1_000),
            module("split_c", &["c"], 1_000),
            module("chunk_3", &["b", "c"], 50_000),
        ];
        let bundles = plan(modules.to_vec());
        // Page a never loads chunk_3's 50 KB to save a file.
        let a: u64 = bundles.iter().filter(|b| b.pages.contains("a")).map(|b| b.gzip).sum();
        assert!(a < 10_000, "{bundles:#?}");
        assert!(files_of(&bundles, "a").len() < 4, "{bundles:#?}");
    }

    #[test]
    fn a_chunk_joins_the_file_where_it_costs_least_and_stays_apart_when_no_merge_saves() {
        let modules =
            [module("split_a", &["a"], 90_000), module("chunk_1", &["a", "b"], 9_000), module("split_b", &["b"], 1)];
        // chunk_1 into split_b would cost page a 1 byte and save page b a file: merged.
        // Into split_a it would cost page b 90 KB.
        let bundles = plan(modules.to_vec());
        assert_eq!(bundles.len(), 2, "{bundles:#?}");
        assert_eq!(files_of(&bundles, "a"), ["split_a", "split_b"]);
        let modules = [
            module("split_a", &["a"], 90_000),
            module("chunk_1", &["a", "b"], 9_000),
            module("split_b", &["b"], 9_000),
        ];
        assert_eq!(plan(modules.to_vec()).len(), 3);
    }
}
