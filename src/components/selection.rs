//! Which records of a list are selected for a bulk action: pure state (no Leptos, no DOM), so
//! the data table's bulk bar and the lists that are not data tables (the outbox, inbound
//! messages, the vault) share it and its tests.
//!
//! A selection is either some ids (ticked one by one, by a shift-click range, or a whole page
//! at a time; kept across pages) or "every record matching the filter": then the request
//! sends the filter, not ids, and the server applies the action to what matches when it runs.

use std::collections::{BTreeMap, BTreeSet};

use moneydesk_model::bulk::BulkSelect;

/// The selected records of one list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// The ids ticked (the page's ids as well when `all_matching`).
    pub ids: BTreeSet<String>,
    /// The row (index on the page) last clicked: where a shift-click range starts.
    pub anchor: Option<usize>,
    /// Every record matching the list's filter, on every page.
    pub all_matching: bool,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        !self.all_matching && self.ids.is_empty()
    }

    /// Whether the record is selected (every record is, when all matching are).
    pub fn contains(&self, id: &str) -> bool {
        self.all_matching || self.ids.contains(id)
    }

    /// A click on row `i` (record `id`): ticks or unticks it, and it becomes the anchor.
    /// Unticking a row leaves "all matching" for the ids still ticked.
    pub fn toggle(&mut self, i: usize, id: &str) {
        if self.ids.contains(id) {
            self.ids.remove(id);
            self.all_matching = false;
        } else {
            self.ids.insert(id.to_string());
        }
        self.anchor = Some(i);
    }

    /// A shift-click on row `i`: every row from the anchor to `i` (either direction) takes
    /// the anchor row's state (ticked, or unticked), as mail clients do; without an anchor
    /// (or one beyond this page) it is a click. Row `i` becomes the anchor.
    pub fn range_to(&mut self, i: usize, ids_of_page: &[String]) {
        let Some(anchor) = self.anchor.filter(|a| *a < ids_of_page.len()) else {
            if let Some(id) = ids_of_page.get(i) {
                self.toggle(i, id);
            }
            return;
        };
        let i = i.min(ids_of_page.len().saturating_sub(1));
        let on = self.ids.contains(&ids_of_page[anchor]);
        let (from, to) = if anchor <= i { (anchor, i) } else { (i, anchor) };
        for id in &ids_of_page[from..=to] {
            if on {
                self.ids.insert(id.clone());
            } else {
                self.ids.remove(id);
            }
        }
        if !on {
            self.all_matching = false;
        }
        self.anchor = Some(i);
    }

    /// The header's box: ticks (or unticks) every row of the page; unticking leaves "all
    /// matching".
    pub fn set_page(&mut self, ids: &[String], on: bool) {
        for id in ids {
            if on {
                self.ids.insert(id.clone());
            } else {
                self.ids.remove(id);
            }
        }
        if !on {
            self.all_matching = false;
        }
    }

    /// The header box's state for a page: (every row ticked, some but not all ticked).
    pub fn page_state(&self, ids: &[String]) -> (bool, bool) {
        let ticked = ids.iter().filter(|id| self.contains(id)).count();
        (!ids.is_empty() && ticked == ids.len(), ticked > 0 && ticked < ids.len())
    }

    /// Every record matching the filter, on every page (the page's ids stay ticked).
    pub fn select_all_matching(&mut self) {
        self.all_matching = true;
    }

    pub fn clear(&mut self) {
        *self = Selection::default();
    }

    /// Another page is shown: the anchor was an index on the previous one.
    pub fn new_page(&mut self) {
        self.anchor = None;
    }

    /// How many records an action would apply to, `total` being the filter's count.
    pub fn count(&self, total: u64) -> u64 {
        if self.all_matching {
            total
        } else {
            self.ids.len() as u64
        }
    }

    /// What a bulk request names: the filter (the list's filter params, as the list endpoint
    /// takes them) when all matching are selected, else the ids.
    pub fn to_select(&self, filter_params: &[(String, String)]) -> BulkSelect {
        if self.all_matching {
            let filter: BTreeMap<String, String> = filter_params.iter().cloned().collect();
            BulkSelect { ids: None, filter: Some(filter) }
        } else {
            BulkSelect { ids: Some(self.ids.iter().cloned().collect()), filter: None }
        }
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn page(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    fn ticked(s: &Selection) -> Vec<&str> {
        s.ids.iter().map(String::as_str).collect()
    }

    #[wasm_bindgen_test]
    fn a_click_ticks_a_row_and_a_second_click_unticks_it() {
        let mut s = Selection::default();
        assert!(s.is_empty());
        s.toggle(2, "c");
        assert_eq!((ticked(&s), s.anchor), (vec!["c"], Some(2)));
        assert!(s.contains("c") && !s.contains("a"));
        s.toggle(2, "c");
        assert!(s.is_empty());
        assert_eq!(s.anchor, Some(2), "the anchor is the row last clicked either way");
    }

    #[wasm_bindgen_test]
    fn a_shift_click_ticks_the_range_from_the_anchor_in_either_direction() {
        let rows = page(&["a", "b", "c", "d", "e", "f"]);
        let mut s = Selection::default();
        s.toggle(1, "b");
        s.range_to(4, &rows);
        assert_eq!(ticked(&s), vec!["b", "c", "d", "e"]);
        assert_eq!(s.anchor, Some(4));
        // Upwards from the new anchor, over rows already ticked.
        s.range_to(0, &rows);
        assert_eq!(ticked(&s), vec!["a", "b", "c", "d", "e"]);
        // From an unticked anchor the range is unticked.
        s.toggle(2, "c");
        s.range_to(4, &rows);
        assert_eq!(ticked(&s), vec!["a", "b"]);
    }

    #[wasm_bindgen_test]
    fn a_shift_click_without_an_anchor_is_a_click() {
        let rows = page(&["a", "b", "c"]);
        let mut s = Selection::default();
        s.range_to(1, &rows);
        assert_eq!((ticked(&s), s.anchor), (vec!["b"], Some(1)));
        // An anchor from a longer page than this one is no anchor either.
        let mut s = Selection { anchor: Some(40), ..Selection::default() };
        s.range_to(2, &rows);
        assert_eq!(ticked(&s), vec!["c"]);
        s.new_page();
        assert_eq!(s.anchor, None);
        s.range_to(9, &rows);
        assert_eq!(ticked(&s), vec!["c"], "a row past the page's end ticks nothing");
    }

    #[wasm_bindgen_test]
    fn the_header_box_ticks_the_page_and_shows_a_partial_page() {
        let one = page(&["a", "b", "c"]);
        let two = page(&["d", "e"]);
        let mut s = Selection::default();
        assert_eq!(s.page_state(&one), (false, false));
        s.toggle(0, "a");
        assert_eq!(s.page_state(&one), (false, true), "some: the box is indeterminate");
        s.set_page(&one, true);
        assert_eq!(s.page_state(&one), (true, false));
        // Ticks are kept across pages.
        s.set_page(&two, true);
        assert_eq!(s.count(1000), 5);
        s.set_page(&one, false);
        assert_eq!(ticked(&s), vec!["d", "e"]);
        assert_eq!(s.page_state(&[]), (false, false), "an empty page is never all ticked");
    }

    #[wasm_bindgen_test]
    fn all_matching_counts_the_filters_total_and_sends_the_filter_not_ids() {
        let rows = page(&["a", "b"]);
        let filter = vec![("state".to_string(), "Pending".to_string()), ("accountId".to_string(), "7".to_string())];
        let mut s = Selection::default();
        s.set_page(&rows, true);
        assert_eq!(s.to_select(&filter), BulkSelect { ids: Some(rows.clone()), filter: None });
        s.select_all_matching();
        assert_eq!(s.count(137), 137);
        assert!(s.contains("zz"), "a row of another page is selected too");
        let sent = s.to_select(&filter);
        assert_eq!(sent.ids, None);
        assert_eq!(sent.filter, Some(filter.iter().cloned().collect::<BTreeMap<_, _>>()));
        // Unticking a row leaves all-matching: the rest of the page stays ticked.
        s.toggle(0, "a");
        assert!(!s.all_matching);
        assert_eq!((s.count(137), ticked(&s)), (1, vec!["b"]));
        s.select_all_matching();
        s.set_page(&rows, false);
        assert!(s.is_empty());
        s.select_all_matching();
        s.clear();
        assert_eq!(s, Selection::default());
    }
}
