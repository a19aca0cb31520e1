//! Search properties over the real directory: prefix is a true prefix, filters always hold,
//! one typo still finds the institution.

use std::path::PathBuf;
use std::sync::OnceLock;

use moneydesk_model::routing::SearchDirectory;
use moneydesk_model::PageRequest;
use moneydesk_server::routing::directory::{load, search, text, Directory, SearchQuery, Sources};
use proptest::prelude::*;

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

fn dir() -> &'static Directory {
    static DIR: OnceLock<Directory> = OnceLock::new();
    DIR.get_or_init(|| {
        load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) }).unwrap()
    })
}

fn all() -> PageRequest {
    PageRequest { index: 0, size: 500 }
}

/// Every routing number in either directory, from the raw files.
fn raw_numbers() -> &'static [String] {
    static NUMBERS: OnceLock<Vec<String>> = OnceLock::new();
    NUMBERS.get_or_init(read_numbers)
}

fn read_numbers() -> Vec<String> {
    let mut v: Vec<String> = ["FedACHdir.txt", "fpddir.txt"]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(data(f))
                .unwrap()
                .lines()
                .filter(|l| l.len() > 9)
                .map(|l| l[..9].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prefix_is_a_true_prefix(p in "[0-9]{2,8}") {
        let q = SearchQuery { prefix: Some(p.clone()), ..Default::default() };
        let mut got = Vec::new();
        let mut page = PageRequest { index: 0, size: 500 };
        loop {
            let r = search(dir(), &q, page);
            got.extend(r.content.iter().map(|h| h.routing_number.clone()));
            if r.last { break; }
            page.index += 1;
        }
        let want: Vec<String> = raw_numbers().iter().filter(|n| n.starts_with(&p)).cloned().collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn every_hit_satisfies_the_filters(i in 0usize..18_198, use_city in any::<bool>(), d in 0u8..3) {
        let a = &dir().ach[i];
        let directory = [SearchDirectory::Ach, SearchDirectory::Wire, SearchDirectory::Both][d as usize];
        let q = SearchQuery {
            state: Some(a.customer_state.clone()),
            city: use_city.then(|| a.customer_city.clone()).filter(|c| !c.is_empty()),
            directory,
            ..Default::default()
        };
        let r = search(dir(), &q, all());
        for h in &r.content {
            prop_assert_eq!(&h.customer_state, &a.customer_state);
            if use_city && !a.customer_city.is_empty() {
                prop_assert_eq!(text::key(&h.customer_city), text::key(&a.customer_city));
            }
            prop_assert!(directory != SearchDirectory::Ach || h.wire.is_none());
            prop_assert!(directory != SearchDirectory::Wire || h.ach.is_none());
        }
        if directory != SearchDirectory::Wire {
            prop_assert!(r.total_elements > 0);
        }
    }
}

/// Swaps two neighbouring letters in the longest word (a typical typo).
fn typo(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split(' ').collect();
    let (i, w) = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.len() >= 5 && w.bytes().all(|b| b.is_ascii_alphabetic()))
        .max_by_key(|(_, w)| w.len())?;
    let mut b = w.as_bytes().to_vec();
    if b[1] == b[2] {
        return None;
    }
    b.swap(1, 2);
    let mut out: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    out[i] = String::from_utf8(b).unwrap();
    Some(out.join(" "))
}

#[test]
fn one_typo_still_finds_the_name() {
    let mut checked = 0;
    for a in dir().ach.iter().step_by(97) {
        let Some(query) = typo(&a.customer_name) else { continue };
        let q = SearchQuery { name: Some(query.clone()), state: Some(a.customer_state.clone()), ..Default::default() };
        let r = search(dir(), &q, PageRequest { index: 0, size: 20 });
        // "BMO HARRIS BANK,N.A." and "BMO HARRIS BANK NA" are the same name.
        assert!(
            r.content.iter().any(|h| text::key(&h.customer_name) == text::key(&a.customer_name)),
            "{query:?} did not find {:?}",
            a.customer_name
        );
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn names_rank_exact_first_and_normalise_punctuation() {
    let q = |n: &str| SearchQuery { name: Some(n.into()), ..Default::default() };
    let r = search(dir(), &q("jpmorgan chase bank na"), PageRequest { index: 0, size: 5 });
    assert!(r.content[0].customer_name.starts_with("JPMORGAN CHASE BANK"), "{:?}", r.content[0].customer_name);
    let a = search(dir(), &q("Bank of America N.A."), all());
    let b = search(dir(), &q("BANK OF AMERICA NA"), all());
    assert_eq!(a.total_elements, b.total_elements);
    assert_eq!(
        a.content.iter().map(|h| &h.routing_number).collect::<Vec<_>>(),
        b.content.iter().map(|h| &h.routing_number).collect::<Vec<_>>()
    );
    // Scores never increase down the list.
    assert!(a.content.windows(2).all(|w| w[0].score >= w[1].score));
}
