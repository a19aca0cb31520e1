//! Directory search: name (typo-tolerant, ranked), routing-number prefix (a true prefix),
//! state, city and zip, in any combination, over the ACH directory, the wire one or both.
//!
//! Ranking: every significant query word (not OF/THE/AND) must match a word of the name —
//! exactly (1.0), as a prefix of it (0.85; words of 3+ letters, or the last word typed), or
//! within 1 edit for 4-7 letters / 2 edits for 8+ (0.7 / 0.5). The score is
//! `90 × mean match quality + 10 × share of the name's words that were matched`, so an exact
//! and complete name scores 100 and shorter names rank above longer ones that match equally.

use moneydesk_model::routing::{RoutingSearchHit, SearchDirectory};
use moneydesk_model::{FieldError, Page, PageRequest, Sort};

use super::index::{Directory, Entry};
use super::text;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchQuery {
    pub name: Option<String>,
    pub prefix: Option<String>,
    pub state: Option<String>,
    pub city: Option<String>,
    /// 1-5 digits (a prefix of the ZIP code) or ZIP+4 as `12345-6789`.
    pub zip: Option<String>,
    pub directory: SearchDirectory,
}

/// Each query word is compared with the whole vocabulary: bound the work one request can ask.
const MAX_NAME_CHARS: usize = 100;
const MAX_NAME_WORDS: usize = 10;

const PARAMS: [&str; 10] = ["name", "prefix", "state", "city", "zip", "directory", "page", "size", "per", "limit"];

impl SearchQuery {
    /// Reads and checks the query parameters; every problem is reported, each naming its
    /// parameter.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<(SearchQuery, PageRequest), Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut q = SearchQuery::default();
        let mut seen: Vec<&str> = Vec::new();
        for (k, v) in pairs {
            let Some(&param) = PARAMS.iter().find(|p| **p == k) else {
                errors.push(FieldError::new(k.clone(), format!("unknown parameter; use {}", PARAMS[..6].join(", "))));
                continue;
            };
            if seen.contains(&param) && !matches!(param, "size" | "per" | "limit") {
                errors.push(FieldError::new(param, "give this parameter once"));
                continue;
            }
            seen.push(param);
            let v = v.trim();
            let val = (!v.is_empty()).then(|| v.to_string());
            match param {
                "name" => q.name = val.filter(|n| !text::words(n).is_empty()),
                "prefix" => q.prefix = val,
                "state" => q.state = val.map(|s| s.to_ascii_uppercase()),
                "city" => q.city = val.filter(|c| !text::key(c).is_empty()),
                "zip" => q.zip = val,
                "directory" => match SearchDirectory::parse(v) {
                    Some(d) => q.directory = d,
                    None => errors.push(FieldError::new("directory", format!("must be ach, wire or both, got {v:?}"))),
                },
                _ => {}
            }
        }
        if let Some(n) = &q.name {
            if n.chars().count() > MAX_NAME_CHARS || text::words(n).len() > MAX_NAME_WORDS {
                errors.push(FieldError::new(
                    "name",
                    format!("at most {MAX_NAME_CHARS} characters and {MAX_NAME_WORDS} words"),
                ));
            }
        }
        if let Some(p) = &q.prefix {
            if !(2..=8).contains(&p.len()) || !p.bytes().all(|b| b.is_ascii_digit()) {
                errors.push(FieldError::new(
                    "prefix",
                    format!("must be 2 to 8 digits (the start of a routing number), got {p:?}"),
                ));
            }
        }
        if let Some(s) = &q.state {
            if s.len() != 2 || !s.bytes().all(|b| b.is_ascii_alphabetic()) {
                errors.push(FieldError::new("state", format!("must be a two-letter state code like NY, got {s:?}")));
            }
        }
        if let Some(z) = &q.zip {
            let ok = (1..=5).contains(&z.len()) && z.bytes().all(|b| b.is_ascii_digit())
                || (z.len() == 10
                    && z.as_bytes()[5] == b'-'
                    && z.bytes().enumerate().all(|(i, b)| i == 5 || b.is_ascii_digit()));
            if !ok {
                errors
                    .push(FieldError::new("zip", format!("must be 1 to 5 digits or ZIP+4 like 10001-1234, got {z:?}")));
            } else if q.directory == SearchDirectory::Wire {
                errors.push(FieldError::new(
                    "zip",
                    "the Fedwire directory has no ZIP codes; search directory=ach or both",
                ));
            }
        }
        let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let page = match page {
            Ok(p) => p,
            Err(e) => {
                errors.push(FieldError::new(e.param(), e.to_string()));
                PageRequest::default()
            }
        };
        if errors.is_empty()
            && q.name.is_none()
            && q.prefix.is_none()
            && q.state.is_none()
            && q.city.is_none()
            && q.zip.is_none()
        {
            errors.push(FieldError::new("name", "give at least one of name, prefix, state, city or zip"));
        }
        if errors.is_empty() {
            Ok((q, page))
        } else {
            Err(errors)
        }
    }
}

/// One query word's match quality against every vocabulary word (0 = no match).
struct Word {
    quality: Vec<f32>,
}

fn word_matches(dir: &Directory, w: &str, last: bool) -> Word {
    let max = text::allowed_edits(w.len());
    let may_prefix = w.len() >= 3 || (last && w.len() >= 2);
    let quality = dir
        .vocab
        .iter()
        .map(|v| {
            if **v == *w {
                1.0
            } else if may_prefix && v.starts_with(w) {
                0.85
            } else if max == 0 {
                0.0
            } else {
                match text::osa_within(w.as_bytes(), v.as_bytes(), max) {
                    Some(1) => 0.7,
                    Some(2) => 0.5,
                    _ => 0.0,
                }
            }
        })
        .collect();
    Word { quality }
}

struct NameQuery {
    required: Vec<Word>,
}

impl NameQuery {
    fn new(dir: &Directory, name: &str) -> NameQuery {
        let words = text::words(name);
        let significant: Vec<&String> = words.iter().filter(|w| !text::is_stop_word(w)).collect();
        // A query of stop words only ("THE") must match them.
        let chosen: Vec<&String> = if significant.is_empty() { words.iter().collect() } else { significant };
        let n = chosen.len();
        NameQuery { required: chosen.into_iter().enumerate().map(|(i, w)| word_matches(dir, w, i + 1 == n)).collect() }
    }

    /// The score of a name (as word ids), or `None` when a required word is missing.
    fn score(&self, dir: &Directory, name: &[u32]) -> Option<f32> {
        let mut sum = 0.0;
        let mut matched = 0usize;
        let mut used = 0u64;
        for w in &self.required {
            let (best, at) = name
                .iter()
                .enumerate()
                .map(|(i, id)| (w.quality[*id as usize], i))
                .fold((0.0f32, 0), |a, b| if b.0 > a.0 { b } else { a });
            if best == 0.0 {
                return None;
            }
            sum += best;
            if at < 64 && used & (1 << at) == 0 {
                used |= 1 << at;
                matched += 1;
            }
        }
        let significant = name.iter().filter(|id| !text::is_stop_word(&dir.vocab[**id as usize])).count().max(1);
        let coverage = (matched as f32 / significant as f32).min(1.0);
        let score = 90.0 * sum / self.required.len() as f32 + 10.0 * coverage;
        Some((score * 10.0).round() / 10.0)
    }
}

/// Which of an entry's records matched, and how well.
#[derive(Clone, Copy)]
struct Hit {
    entry: Entry,
    score: Option<f32>,
    /// The wire record matched better than the ACH one (or alone): the summary shows it.
    by_wire: bool,
}

fn max_score(a: Option<f32>, b: Option<f32>) -> Option<f32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

fn zip_matches(zip: &str, want: &str, ext: &str) -> bool {
    match want.split_once('-') {
        Some((z, e)) => zip == z && ext == e,
        None => zip.starts_with(want),
    }
}

/// Runs the query; pages are 1-based in the request, 0-based in the answer (CONTRACT 3).
pub fn search(dir: &Directory, q: &SearchQuery, page: PageRequest) -> Page<RoutingSearchHit> {
    let name = q.name.as_deref().map(|n| NameQuery::new(dir, n));
    let state = q.state.as_ref().map(|s| s.to_ascii_uppercase());
    let city = q.city.as_deref().map(text::key);
    let entries: &[Entry] = match &q.prefix {
        Some(p) => dir.prefix_range(p),
        None => &dir.entries,
    };
    let (use_ach, use_wire) = match q.directory {
        SearchDirectory::Ach => (true, false),
        SearchDirectory::Wire => (false, true),
        SearchDirectory::Both => (true, true),
    };

    let mut hits: Vec<Hit> = Vec::new();
    for e in entries {
        let mut best: Option<Option<f32>> = None;
        let mut by_wire = false;
        if let (true, Some(i)) = (use_ach, e.ach) {
            let (i, r) = (i as usize, &dir.ach[i as usize]);
            let ok = state.as_ref().is_none_or(|s| r.customer_state == *s)
                && city.as_ref().is_none_or(|c| *dir.ach_cities[i] == **c)
                && q.zip.as_ref().is_none_or(|z| zip_matches(&r.customer_zip, z, &r.customer_zip_ext));
            if ok {
                best = match &name {
                    Some(n) => n.score(dir, &dir.ach_names[i]).map(Some),
                    None => Some(None),
                };
            }
        }
        if let (true, Some(i)) = (use_wire, e.wire) {
            let (i, r) = (i as usize, &dir.wire[i as usize]);
            let ok = state.as_ref().is_none_or(|s| r.customer_state == *s)
                && city.as_ref().is_none_or(|c| *dir.wire_cities[i] == **c)
                && q.zip.is_none();
            if ok {
                let s = match &name {
                    Some(n) => {
                        max_score(n.score(dir, &dir.wire_names[i]), n.score(dir, &dir.wire_telegraphic[i])).map(Some)
                    }
                    None => Some(None),
                };
                if let Some(w) = s {
                    if best.is_none_or(|a| w.unwrap_or(0.0) > a.unwrap_or(0.0)) {
                        best = Some(w);
                        by_wire = true;
                    }
                }
            }
        }
        if let Some(score) = best {
            hits.push(Hit { entry: *e, score, by_wire });
        }
    }

    // Entries are in routing-number order already; a stable sort keeps it for equal scores.
    if name.is_some() {
        hits.sort_by(|a, b| b.score.unwrap_or(0.0).total_cmp(&a.score.unwrap_or(0.0)));
    }
    let total = hits.len() as u64;
    let start = page.offset().min(total) as usize;
    let end = (start + page.size as usize).min(hits.len());
    let content = hits[start..end].iter().map(|h| to_hit(dir, h, use_ach, use_wire)).collect();
    Page::build(page, total, content, Sort::SORTED)
}

fn to_hit(dir: &Directory, h: &Hit, use_ach: bool, use_wire: bool) -> RoutingSearchHit {
    let ach = h.entry.ach.filter(|_| use_ach).map(|i| dir.ach[i as usize].clone());
    let wire = h.entry.wire.filter(|_| use_wire).map(|i| dir.wire[i as usize].clone());
    let (name, city, state, zip) = match (&ach, &wire) {
        (Some(a), _) if !h.by_wire => {
            (a.customer_name.clone(), a.customer_city.clone(), a.customer_state.clone(), a.customer_zip.clone())
        }
        (_, Some(w)) => (w.customer_name.clone(), w.customer_city.clone(), w.customer_state.clone(), String::new()),
        (Some(a), None) => {
            (a.customer_name.clone(), a.customer_city.clone(), a.customer_state.clone(), a.customer_zip.clone())
        }
        (None, None) => Default::default(),
    };
    RoutingSearchHit {
        routing_number: format!("{:09}", h.entry.key),
        customer_name: name,
        customer_city: city,
        customer_state: state,
        customer_zip: zip,
        score: h.score,
        in_ach: h.entry.ach.is_some(),
        in_wire: h.entry.wire.is_some(),
        ach,
        wire,
    }
}
