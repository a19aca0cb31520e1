//! One loaded directory: both record lists sorted by routing number (exact lookup is a binary
//! search over packed keys), and the search index (every name as word ids, cities in
//! comparable form). Built whole and never changed: a refresh builds a new one and swaps it in.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::SystemTime;

use bytes::Bytes;
use chrono::{DateTime, NaiveDate, Utc};
use moneydesk_model::routing::{
    AchParticipant, AsOfSource, DirectoryFormat, DirectoryPart, DirectorySource, WireParticipant,
};
use moneydesk_model::RoutingNumber;

use super::text;
use super::validate::{ach_date, wire_date};

/// A routing number as a number (nine digits fit in a u32), the lookup key.
pub fn key_of(rn: &RoutingNumber) -> u32 {
    rn.digits().iter().fold(0u32, |k, d| k * 10 + *d as u32)
}

fn key_of_str(s: &str) -> u32 {
    s.bytes().fold(0u32, |k, b| k * 10 + (b - b'0') as u32)
}

/// Where `rn` sits in a sorted key list.
fn position(keys: &[u32], rn: &RoutingNumber) -> Option<usize> {
    keys.binary_search(&key_of(rn)).ok()
}

fn render<T: serde::Serialize>(record: &T) -> Bytes {
    // Plain structs of strings: serialising them cannot fail.
    serde_json::to_vec(record).expect("a directory record serialises").into()
}

/// Where a directory came from (for the status answer).
#[derive(Debug, Clone)]
pub struct PartInfo {
    pub format: DirectoryFormat,
    pub file: Option<String>,
    pub modified: Option<SystemTime>,
    /// 16 hex digits of the SHA-256 of the bytes loaded.
    pub sha256: Option<String>,
}

/// One routing number and its records in either directory.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub key: u32,
    pub ach: Option<u32>,
    pub wire: Option<u32>,
}

#[derive(Debug)]
pub struct Directory {
    pub ach: Vec<AchParticipant>,
    pub wire: Vec<WireParticipant>,
    ach_keys: Vec<u32>,
    wire_keys: Vec<u32>,
    /// Every routing number in either directory, ascending.
    pub entries: Vec<Entry>,
    /// Distinct normalised words; names refer to them by index.
    pub vocab: Vec<Box<str>>,
    pub ach_names: Vec<Box<[u32]>>,
    pub wire_names: Vec<Box<[u32]>>,
    pub wire_telegraphic: Vec<Box<[u32]>>,
    pub ach_cities: Vec<Box<str>>,
    pub wire_cities: Vec<Box<str>>,
    /// Each record's exact-lookup answer, rendered on its first lookup and kept with this
    /// directory (so a refresh drops them): the lookup then serves shared bytes.
    ach_json: Box<[OnceLock<Bytes>]>,
    wire_json: Box<[OnceLock<Bytes>]>,
    pub source: DirectorySource,
    pub ach_info: PartInfo,
    pub wire_info: PartInfo,
    pub ach_newest: Option<NaiveDate>,
    pub wire_newest: Option<NaiveDate>,
    pub loaded_at: DateTime<Utc>,
}

/// Records with the same routing number twice: the line-numbered error is the loader's job.
pub fn duplicate<T>(records: &[T], rn: impl Fn(&T) -> &str) -> Option<(usize, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        if let Some(first) = seen.insert(rn(r), i) {
            return Some((first, i));
        }
    }
    None
}

impl Directory {
    /// Builds the index. Records must already be validated and free of duplicates.
    pub fn build(
        source: DirectorySource,
        mut ach: Vec<AchParticipant>,
        mut wire: Vec<WireParticipant>,
        ach_info: PartInfo,
        wire_info: PartInfo,
    ) -> Directory {
        ach.sort_unstable_by(|a, b| a.routing_number.cmp(&b.routing_number));
        wire.sort_unstable_by(|a, b| a.routing_number.cmp(&b.routing_number));
        let ach_keys: Vec<u32> = ach.iter().map(|r| key_of_str(&r.routing_number)).collect();
        let wire_keys: Vec<u32> = wire.iter().map(|r| key_of_str(&r.routing_number)).collect();

        // Merge the two sorted key lists into one entry per routing number.
        let mut entries = Vec::with_capacity(ach.len() + wire.len());
        let (mut i, mut j) = (0, 0);
        while i < ach_keys.len() || j < wire_keys.len() {
            let (a, w) = (ach_keys.get(i).copied(), wire_keys.get(j).copied());
            let key = match (a, w) {
                (Some(a), Some(w)) => a.min(w),
                (Some(a), None) => a,
                (None, Some(w)) => w,
                (None, None) => break,
            };
            let e =
                Entry { key, ach: (a == Some(key)).then_some(i as u32), wire: (w == Some(key)).then_some(j as u32) };
            i += usize::from(e.ach.is_some());
            j += usize::from(e.wire.is_some());
            entries.push(e);
        }

        let mut words: HashMap<String, u32> = HashMap::new();
        let mut vocab: Vec<Box<str>> = Vec::new();
        let mut ids = |s: &str| -> Box<[u32]> {
            text::words(s)
                .into_iter()
                .map(|w| {
                    *words.entry(w).or_insert_with_key(|w| {
                        vocab.push(w.as_str().into());
                        (vocab.len() - 1) as u32
                    })
                })
                .collect()
        };
        let ach_names = ach.iter().map(|r| ids(&r.customer_name)).collect();
        let wire_names = wire.iter().map(|r| ids(&r.customer_name)).collect();
        let wire_telegraphic = wire.iter().map(|r| ids(&r.telegraphic_name)).collect();
        let ach_cities = ach.iter().map(|r| text::key(&r.customer_city).into()).collect();
        let wire_cities = wire.iter().map(|r| text::key(&r.customer_city).into()).collect();
        let ach_newest = ach.iter().filter_map(|r| ach_date(&r.change_date)).max();
        let wire_newest = wire.iter().filter_map(|r| wire_date(&r.change_date)).max();

        Directory {
            ach_json: ach.iter().map(|_| OnceLock::new()).collect(),
            wire_json: wire.iter().map(|_| OnceLock::new()).collect(),
            ach,
            wire,
            ach_keys,
            wire_keys,
            entries,
            vocab,
            ach_names,
            wire_names,
            wire_telegraphic,
            ach_cities,
            wire_cities,
            source,
            ach_info,
            wire_info,
            ach_newest,
            wire_newest,
            loaded_at: Utc::now(),
        }
    }

    pub fn ach(&self, rn: &RoutingNumber) -> Option<&AchParticipant> {
        position(&self.ach_keys, rn).map(|i| &self.ach[i])
    }

    pub fn wire(&self, rn: &RoutingNumber) -> Option<&WireParticipant> {
        position(&self.wire_keys, rn).map(|i| &self.wire[i])
    }

    /// [`Directory::ach`] as its JSON answer.
    pub fn ach_json(&self, rn: &RoutingNumber) -> Option<Bytes> {
        position(&self.ach_keys, rn).map(|i| self.ach_json[i].get_or_init(|| render(&self.ach[i])).clone())
    }

    /// [`Directory::wire`] as its JSON answer.
    pub fn wire_json(&self, rn: &RoutingNumber) -> Option<Bytes> {
        position(&self.wire_keys, rn).map(|i| self.wire_json[i].get_or_init(|| render(&self.wire[i])).clone())
    }

    /// The entries whose routing number starts with `prefix` (2 to 8 digits): a key range.
    pub fn prefix_range(&self, prefix: &str) -> &[Entry] {
        let scale = 10u32.pow(9 - prefix.len() as u32);
        let lo = key_of_str(prefix) * scale;
        let hi = lo + scale;
        let start = self.entries.partition_point(|e| e.key < lo);
        let end = self.entries.partition_point(|e| e.key < hi);
        &self.entries[start..end]
    }

    /// The as-of date: the newest change date in either directory, else the newest file
    /// modification time.
    pub fn as_of(&self) -> (Option<NaiveDate>, AsOfSource) {
        if let Some(d) = self.ach_newest.max(self.wire_newest) {
            return (Some(d), AsOfSource::NewestChangeDate);
        }
        let modified = self.ach_info.modified.max(self.wire_info.modified);
        match modified {
            Some(t) => (Some(DateTime::<Utc>::from(t).date_naive()), AsOfSource::FileModified),
            None => (None, AsOfSource::None),
        }
    }

    pub fn parts(&self) -> (DirectoryPart, DirectoryPart) {
        let part = |n: usize, info: &PartInfo, newest: Option<NaiveDate>| DirectoryPart {
            records: n as u64,
            format: info.format,
            file: info.file.clone(),
            newest_change_date: newest.map(|d| d.to_string()),
            sha256: info.sha256.clone(),
        };
        (
            part(self.ach.len(), &self.ach_info, self.ach_newest),
            part(self.wire.len(), &self.wire_info, self.wire_newest),
        )
    }
}
