//! The Outbox's place (the states ticked, the text, the days, the page, the message open) as
//! the URL holds it, and what the list asks the server for: pure functions of the query.

use leptos_router::params::ParamsMap;
use moneydesk_model::email::MessageState;

use crate::i18n::email::text;

/// Messages a page.
const PAGE_SIZE: &str = "25";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Place {
    pub states: Vec<MessageState>,
    pub q: String,
    /// `YYYY-MM-DD`, or empty: no bound.
    pub created_from: String,
    pub created_to: String,
    pub page: u32,
    pub message: Option<String>,
}

impl Place {
    /// The place the query names; what it does not name, or names wrong, is left out (page 1).
    pub fn from_query(q: &ParamsMap) -> Place {
        Place {
            states: q.get_all("state").unwrap_or_default().iter().filter_map(|s| s.parse().ok()).collect(),
            q: q.get_str("q").unwrap_or_default().to_string(),
            created_from: q.get_str("createdFrom").unwrap_or_default().to_string(),
            created_to: q.get_str("createdTo").unwrap_or_default().to_string(),
            page: q.get_str("page").and_then(|p| p.parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
            message: q.get_str("message").filter(|m| !m.is_empty()).map(str::to_string),
        }
    }

    /// The query naming this place (`q` always, the rest when set).
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut p = vec![("tab".to_string(), "outbox".to_string())];
        p.extend(self.states.iter().map(|s| ("state".to_string(), s.as_str().to_string())));
        p.push(("q".into(), self.q.clone()));
        for (k, v) in [("createdFrom", &self.created_from), ("createdTo", &self.created_to)] {
            if !v.is_empty() {
                p.push((k.into(), v.clone()));
            }
        }
        if self.page > 1 {
            p.push(("page".into(), self.page.to_string()));
        }
        if let Some(m) = &self.message {
            p.push(("message".into(), m.clone()));
        }
        p
    }

    /// The list's request: the filters set, the page and its size.
    pub fn filters(&self) -> Vec<(String, String)> {
        let mut filters: Vec<(String, String)> =
            self.states.iter().map(|s| ("state".to_string(), s.as_str().to_string())).collect();
        if !self.q.is_empty() {
            filters.push(("q".into(), self.q.clone()));
        }
        for (k, v) in [("createdFrom", &self.created_from), ("createdTo", &self.created_to)] {
            if !v.is_empty() {
                filters.push((k.into(), v.clone()));
            }
        }
        filters.push(("page".into(), self.page.to_string()));
        filters.push(("size".into(), PAGE_SIZE.into()));
        filters
    }

    /// The filter a bulk action sends for "all matching": the list's, without the page (the
    /// states in one comma-separated value, as the bulk filter takes them).
    pub fn bulk_filters(&self) -> Vec<(String, String)> {
        let mut filters = Vec::new();
        if !self.states.is_empty() {
            let states: Vec<&str> = self.states.iter().map(|s| s.as_str()).collect();
            filters.push(("state".to_string(), states.join(",")));
        }
        if !self.q.is_empty() {
            filters.push(("q".into(), self.q.clone()));
        }
        for (k, v) in [("createdFrom", &self.created_from), ("createdTo", &self.created_to)] {
            if !v.is_empty() {
                filters.push((k.into(), v.clone()));
            }
        }
        filters
    }

    /// State `s` ticked if it was not, else unticked; back to the first page.
    pub fn toggle(&mut self, s: MessageState) {
        if let Some(i) = self.states.iter().position(|x| *x == s) {
            self.states.remove(i);
        } else {
            self.states.push(s);
        }
        self.page = 1;
    }
}

/// `2024-05-01T10:00:00Z` as the list shows it: `2024-05-01 10:00:00`.
pub fn created(at: &str) -> String {
    at.replace('T', " ").trim_end_matches('Z').to_string()
}

/// The subject, or `(no subject)`.
pub fn subject(s: &str) -> String {
    if s.is_empty() {
        text().outbox.no_subject.to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn query(pairs: &[(&'static str, &str)]) -> ParamsMap {
        let mut q = ParamsMap::new();
        for (k, v) in pairs {
            q.insert(*k, v.to_string());
        }
        q
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[wasm_bindgen_test]
    fn the_query_reads_as_a_place_and_back() {
        let q = query(&[
            ("tab", "outbox"),
            ("state", "queued"),
            ("state", "nonsense"),
            ("state", "sent"),
            ("q", "ada"),
            ("createdTo", "2024-05-02"),
            ("page", "3"),
            ("message", "m1"),
        ]);
        let p = Place::from_query(&q);
        assert_eq!(p.states, vec![MessageState::Queued, MessageState::Sent], "an unknown state is left out");
        assert_eq!((p.page, p.message.as_deref(), p.created_from.as_str()), (3, Some("m1"), ""));
        assert_eq!(
            p.pairs(),
            pairs(&[
                ("tab", "outbox"),
                ("state", "queued"),
                ("state", "sent"),
                ("q", "ada"),
                ("createdTo", "2024-05-02"),
                ("page", "3"),
                ("message", "m1")
            ])
        );
        assert_eq!(
            p.filters(),
            pairs(&[
                ("state", "queued"),
                ("state", "sent"),
                ("q", "ada"),
                ("createdTo", "2024-05-02"),
                ("page", "3"),
                ("size", "25")
            ])
        );
    }

    #[wasm_bindgen_test]
    fn a_bulk_filter_is_the_lists_filter_without_the_page() {
        let p = Place {
            states: vec![MessageState::Failed, MessageState::Deferred],
            q: "ada".into(),
            page: 3,
            ..Default::default()
        };
        assert_eq!(p.bulk_filters(), pairs(&[("state", "failed,deferred"), ("q", "ada")]));
        assert!(Place::default().bulk_filters().is_empty());
    }

    #[wasm_bindgen_test]
    fn an_empty_query_is_the_first_page_of_everything() {
        let p = Place::from_query(&query(&[("page", "0")]));
        assert_eq!(p, Place { page: 1, ..Default::default() });
        assert_eq!(p.pairs(), pairs(&[("tab", "outbox"), ("q", "")]));
        assert_eq!(p.filters(), pairs(&[("page", "1"), ("size", "25")]));
    }

    #[wasm_bindgen_test]
    fn a_state_toggles_and_the_page_starts_over() {
        let mut p = Place { states: vec![MessageState::Queued], page: 4, ..Default::default() };
        p.toggle(MessageState::Sent);
        assert_eq!((p.states.clone(), p.page), (vec![MessageState::Queued, MessageState::Sent], 1));
        p.toggle(MessageState::Queued);
        assert_eq!(p.states, vec![MessageState::Sent]);
    }

    #[wasm_bindgen_test]
    fn rows_read_as_shown() {
        assert_eq!(created("2024-05-01T10:00:00Z"), "2024-05-01 10:00:00");
        assert_eq!(subject(""), "(no subject)");
        assert_eq!(subject("Hi"), "Hi");
    }
}
