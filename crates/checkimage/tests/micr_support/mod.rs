//! What the MICR tests and the benchmark share: the ground truth in `shared/data/checks` (read
//! from there, never copied), character accuracy, and synthetic lines drawn from the OFL E-13B
//! outlines in `fonts/e13b-ofl-svgs` (test material; the reader's own glyphs are in the crate).
#![allow(dead_code)]

mod fronts;
pub mod lines;
pub mod photo;
pub mod svg;
mod synth;

// Each test binary and the benchmark use a different part of what is shared.
#[allow(unused_imports)]
pub use fronts::{Front, FRONTS};
#[allow(unused_imports)]
pub use synth::{draw, gaussian, ink_line, outlines, random_line, routing, Look};

use std::path::PathBuf;

use image::GrayImage;

pub fn shared(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/checks").join(relative)
}

/// A picture of `shared/data/checks/<relative>` in gray.
pub fn gray(relative: &str) -> GrayImage {
    let bytes = std::fs::read(shared(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"));
    moneydesk_checkimage::decode(
        &bytes,
        moneydesk_checkimage::Limits { min_width: 1, min_height: 1, ..Default::default() },
    )
    .unwrap()
    .image
    .to_luma8()
}

/// The crops of `crops/`: (name, expected line with the Unicode symbols).
pub fn crops() -> Vec<(String, String)> {
    labelled("crops")
}

/// The labelled crops of `shared/data/checks/<dir>`: (name, expected line with the Unicode
/// symbols), by name.
pub fn labelled(dir: &str) -> Vec<(String, String)> {
    let mut names: Vec<String> = std::fs::read_dir(shared(dir))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".gt.txt").map(str::to_string))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let gt = std::fs::read_to_string(shared(&format!("{dir}/{n}.gt.txt"))).unwrap();
            // DoubangoTelecom's letters: A transit, B amount, C on-us, D dash.
            let line = gt.trim().chars().map(|c| match c {
                'A' => '⑆',
                'B' => '⑇',
                'C' => '⑈',
                'D' => '⑉',
                c => c,
            });
            (n, line.collect())
        })
        .collect()
}

/// Levenshtein distance between the characters of `a` and `b`, spaces ignored.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().filter(|c| !c.is_whitespace()).collect();
    let b: Vec<char> = b.chars().filter(|c| !c.is_whitespace()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// 1 − distance / expected length.
pub fn accuracy(expected: &str, read: &str) -> f64 {
    let n = expected.chars().filter(|c| !c.is_whitespace()).count().max(1);
    1.0 - distance(expected, read) as f64 / n as f64
}

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [a, b).
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn digits(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from(b'0' + self.below(10) as u8)).collect()
    }
    /// Between `min` and `min + spread - 1` digits.
    pub fn some_digits(&mut self, min: usize, spread: usize) -> String {
        let n = min + self.below(spread);
        self.digits(n)
    }
    /// A standard normal deviate (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let (u, v) = (self.range(1e-12, 1.0), self.range(0.0, 1.0));
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}
