//! The routing directory (in memory): a routing number or its start, or a bank's name through
//! the directory's own ranked name search.

use moneydesk_model::routing::RoutingSearchHit;
use moneydesk_model::search::{MatchKind, Query, QueryShape, SearchHit};
use moneydesk_model::PageRequest;

use super::matching::{hit, open, ranked, Matcher};
use crate::routing::directory::{search as directory_search, Directory, SearchQuery};

/// Name searches look at this many of the directory's best-scored names (the ranking here
/// then puts exact and prefix names first).
const NAME_POOL: u32 = 50;

pub fn search(dir: &Directory, q: &Query, limit: u32) -> (Vec<SearchHit>, bool) {
    let limit = limit as usize;
    let t = q.text.as_str();
    let (query, size) = match q.shape {
        // The directory's prefix is 2 to 8 digits; a full number is its first 8, then kept
        // only when whole.
        QueryShape::Number | QueryShape::RoutingNumber if (2..=9).contains(&t.len()) => {
            (SearchQuery { prefix: Some(t[..t.len().min(8)].to_string()), ..Default::default() }, limit as u32 + 10)
        }
        QueryShape::Text if t.chars().any(char::is_alphabetic) => {
            (SearchQuery { name: Some(t.to_string()), ..Default::default() }, NAME_POOL.max(limit as u32 + 1))
        }
        _ => return (Vec::new(), false),
    };
    let page =
        directory_search(dir, &query, PageRequest { index: 0, size: size.min(moneydesk_model::page::MAX_PAGE_SIZE) });
    let m = Matcher::new(t);
    let mut hits: Vec<SearchHit> = page
        .content
        .iter()
        .filter_map(|h| {
            let (matched, field) = if query.prefix.is_some() {
                (m.text(&h.routing_number).filter(|k| *k != MatchKind::Contains)?, "routingNumber")
            } else {
                (m.text(&h.customer_name).unwrap_or(MatchKind::Contains), "customerName")
            };
            Some(one(h, matched, field))
        })
        .collect();
    let more = hits.len() > limit || page.total_elements > page.content.len() as u64;
    hits = ranked(hits);
    hits.truncate(limit);
    (hits, more)
}

fn one(h: &RoutingSearchHit, matched: MatchKind, field: &'static str) -> SearchHit {
    let detail = format!(
        "{}, {} · {}",
        h.customer_city,
        h.customer_state,
        if h.in_ach && h.in_wire {
            "ACH and wire"
        } else if h.in_wire {
            "wire"
        } else {
            "ACH"
        }
    );
    let link = open("/routing", &[("number", &h.routing_number)]);
    hit(
        h.routing_number.clone(),
        format!("{} · {}", h.routing_number, h.customer_name),
        Some(detail),
        (matched, field),
        link,
    )
}
