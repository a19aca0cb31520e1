//! The search box's state without the DOM: the answer's hits in one keyboard order, the
//! active one moved by the arrow keys, and which answers are stale.

use moneydesk_model::search::{SearchGroup, SearchHit, SearchResult};

/// How long typing must pause before the text is searched.
pub const DEBOUNCE_MS: i32 = 200;

/// The answer shown: groups with hits, in the answer's order, and the hits in that order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shown {
    pub groups: Vec<(SearchGroup, Vec<SearchHit>, bool)>,
    /// Which hit the arrow keys are on (index in reading order).
    pub active: Option<usize>,
}

impl Shown {
    /// The groups that found something (an empty group says nothing worth a heading); the
    /// first hit active, so Enter opens the best match at once.
    pub fn from_result(r: SearchResult) -> Shown {
        let groups: Vec<_> =
            r.groups.into_iter().filter(|g| !g.hits.is_empty()).map(|g| (g.group, g.hits, g.more)).collect();
        let active = (!groups.is_empty()).then_some(0);
        Shown { groups, active }
    }

    pub fn len(&self) -> usize {
        self.groups.iter().map(|(_, h, _)| h.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The hit at reading-order index `i`.
    pub fn hit(&self, i: usize) -> Option<&SearchHit> {
        self.groups.iter().flat_map(|(_, h, _)| h).nth(i)
    }

    /// Down (`+1`) or up (`-1`), wrapping round.
    pub fn step(&mut self, by: isize) {
        let n = self.len() as isize;
        if n == 0 {
            return;
        }
        self.active = Some(match self.active {
            None if by > 0 => 0,
            None => (n - 1) as usize,
            Some(i) => (i as isize + by).rem_euclid(n) as usize,
        });
    }
}

/// The text worth asking the server about: trimmed, and long enough (a number may be one digit).
pub fn askable(text: &str) -> Option<String> {
    let t = text.trim();
    let n = t.chars().count();
    let ok = n >= moneydesk_model::search::MIN_CHARS || (n == 1 && t.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| t.to_string())
}

/// The DOM id of hit `i` (`aria-activedescendant`).
pub fn option_id(i: usize) -> String {
    format!("search-hit-{i}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use moneydesk_model::search::{MatchKind, QueryShape, SearchGroupHits};

    fn hit(id: &str) -> SearchHit {
        SearchHit {
            id: id.into(),
            title: id.into(),
            detail: None,
            matched: MatchKind::Exact,
            field: "id".into(),
            open: format!("/x?open={id}"),
        }
    }

    fn shown() -> Shown {
        Shown::from_result(SearchResult {
            q: "a".into(),
            shape: QueryShape::Text,
            groups: vec![
                SearchGroupHits { group: SearchGroup::Deposits, hits: vec![hit("d1"), hit("d2")], more: false },
                SearchGroupHits { group: SearchGroup::Accounts, hits: vec![], more: false },
                SearchGroupHits { group: SearchGroup::Tokens, hits: vec![hit("t1")], more: true },
            ],
        })
    }

    #[test]
    fn empty_groups_are_left_out_and_the_best_hit_is_active() {
        let s = shown();
        assert_eq!(s.groups.iter().map(|g| g.0).collect::<Vec<_>>(), [SearchGroup::Deposits, SearchGroup::Tokens]);
        assert_eq!(s.active, Some(0));
        assert_eq!(s.hit(2).unwrap().id, "t1", "reading order runs across groups");
    }

    #[test]
    fn the_arrow_keys_wrap_round() {
        let mut s = shown();
        s.step(-1);
        assert_eq!(s.active, Some(2));
        s.step(1);
        assert_eq!(s.active, Some(0));
        let mut none = Shown::default();
        none.step(1);
        assert_eq!(none.active, None);
    }

    #[test]
    fn only_text_the_server_takes_is_asked() {
        assert_eq!(askable("  ab "), Some("ab".into()));
        assert_eq!(askable("7"), Some("7".into()));
        assert_eq!(askable("a"), None);
        assert_eq!(askable("   "), None);
    }
}
