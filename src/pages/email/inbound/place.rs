//! The tab's place in the URL (the domain filtered on, the message open) and what it says, as
//! pure functions.

use moneydesk_model::email::inbound::{InboundRoute, InboundState};

use crate::i18n::{email::text, fill};

/// The query for the messages of `domain` (all when empty), `open` shown.
pub fn pairs(domain: String, open: Option<String>) -> Vec<(String, String)> {
    let mut p = vec![("tab".to_string(), "inbound".to_string()), ("domain".into(), domain)];
    p.extend(open.map(|o| ("inbound".to_string(), o)));
    p
}

/// The messages' heading: `Messages received for in.bank.example`.
pub fn title(domain: &str) -> String {
    match domain {
        "" => text().inbound.title.to_string(),
        d => fill(text().inbound.title_for, &[d]),
    }
}

/// Whether a message in `state` may still change (the list asks again while one is shown).
pub fn in_flight(state: InboundState) -> bool {
    matches!(state, InboundState::Pending | InboundState::Delivering)
}

/// A new route's domain and URL as typed, trimmed; both are needed.
pub fn new_route(domain: &str, url: &str) -> Result<(String, String), String> {
    let (d, u) = (domain.trim().to_string(), url.trim().to_string());
    if d.is_empty() || u.is_empty() {
        return Err(text().inbound.route_needed.into());
    }
    Ok((d, u))
}

/// The record the domain publishes: `in.bank.example MX 10 mx.moneydesk.test`.
pub fn mx_record(route: &InboundRoute) -> String {
    format!("{} MX 10 {}", route.domain, route.mx_host)
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

    #[wasm_bindgen_test]
    fn the_place_names_the_domain_and_the_message_open() {
        let p = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(pairs(String::new(), None), vec![p("tab", "inbound"), p("domain", "")]);
        assert_eq!(
            pairs("in.bank.example".into(), Some("im_1".into())),
            vec![p("tab", "inbound"), p("domain", "in.bank.example"), p("inbound", "im_1")]
        );
        assert_eq!(title(""), "Messages received");
        assert_eq!(title("in.bank.example"), "Messages received for in.bank.example");
    }

    #[wasm_bindgen_test]
    fn only_a_message_on_its_way_is_in_flight() {
        assert!(in_flight(InboundState::Pending) && in_flight(InboundState::Delivering));
        assert!(!in_flight(InboundState::Delivered) && !in_flight(InboundState::Failed));
    }

    #[wasm_bindgen_test]
    fn a_new_route_needs_both_fields_trimmed() {
        assert_eq!(
            new_route(" in.bank.example ", "https://h.example/in "),
            Ok(("in.bank.example".to_string(), "https://h.example/in".to_string()))
        );
        assert!(new_route("in.bank.example", "  ").unwrap_err().starts_with("Type the domain"));
        assert!(new_route("", "https://h.example/in").is_err());
    }

    #[wasm_bindgen_test]
    fn a_route_and_a_message_read_as_shown() {
        let route = InboundRoute {
            domain: "in.bank.example".into(),
            url: "https://h.example/in".into(),
            mx_host: "mx.moneydesk.test".into(),
            secret_hint: "abcd".into(),
            created_at: String::new(),
            secret_rotated_at: String::new(),
            received: 0,
            failed: 0,
        };
        assert_eq!(mx_record(&route), "in.bank.example MX 10 mx.moneydesk.test");
        assert_eq!(subject(""), "(no subject)");
        assert_eq!(subject("Statement ready"), "Statement ready");
    }
}
