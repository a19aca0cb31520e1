//! Look up one routing number: checked as it is typed (no request until it is valid), then
//! its FedACH and Fedwire records side by side. The number lives in the URL.

use leptos::prelude::*;
use moneydesk_model::routing::{RoutingNumber, RoutingNumberError};

use super::format::{district, problem};
use super::records::Records;
use super::url::UrlState;
use crate::i18n::fill;
use crate::i18n::routing::text;

/// What the input says now: nothing typed, still typing (only digits, too few), wrong, valid.
#[derive(Clone, Debug, PartialEq)]
enum Check {
    Empty,
    Typing(String),
    Wrong(String),
    Valid(RoutingNumber),
}

fn check(raw: &str) -> Check {
    let t = raw.trim();
    if t.is_empty() {
        return Check::Empty;
    }
    // A letter is wrong at once, whatever the length (the model names the length first).
    if let Some((i, found)) = t.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
        return Check::Wrong(problem(&RoutingNumberError::NotDigit { found, position: i + 1 }));
    }
    match RoutingNumber::parse(t) {
        Ok(n) => Check::Valid(n),
        Err(e @ RoutingNumberError::Length(n)) if n < 9 => Check::Typing(problem(&e)),
        Err(e) => Check::Wrong(problem(&e)),
    }
}

#[component]
pub fn LookupTab(url: UrlState) -> impl IntoView {
    let typed = RwSignal::new(url.get_untracked("number"));
    // Back/forward or a followed link: the URL's number wins.
    Effect::new(move |_| {
        let n = url.get("number");
        if n.trim() != typed.with_untracked(|t| t.trim().to_string()) {
            typed.set(n);
        }
    });
    let state = Memo::new(move |_| typed.with(|t| check(t)));
    let valid = Memo::new(move |_| match state.get() {
        Check::Valid(n) => Some(n),
        _ => None,
    });

    let on_input = move |ev| {
        let v = event_target_value(&ev);
        typed.set(v.clone());
        // Keep a looked-up number in the history; replace the entry while typing.
        let replace = RoutingNumber::parse(url.get_untracked("number").trim()).is_err();
        url.set(&[("number", Some(v))], replace);
    };

    let t = text();
    let message = move || match state.get() {
        Check::Empty => ("routing-message", t.nine_digits.to_string()),
        Check::Typing(m) => ("routing-message", m),
        Check::Wrong(m) => ("routing-message error", m),
        Check::Valid(n) => {
            let d = n.digits();
            let place = district(d[0] * 10 + d[1]).map(|p| fill(t.issued_under, &[&p])).unwrap_or_default();
            ("routing-message ok", fill(t.valid_checksum, &[&place]))
        }
    };

    view! {
        <form class="routing-lookup" on:submit=|ev| ev.prevent_default()>
            <label for="routing-number">{t.routing_number}</label>
            <input
                id="routing-number"
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                placeholder=t.number_example
                aria-describedby="routing-number-message"
                aria-invalid=move || matches!(state.get(), Check::Wrong(_)).to_string()
                prop:value=move || typed.get()
                on:input=on_input
            />
            <p
                id="routing-number-message"
                data-testid="routing-number-message"
                class=move || message().0
                aria-live="polite"
            >
                {move || message().1}
            </p>
        </form>
        {move || valid.get().map(|n| view! { <Records number=n.to_string()/> })}
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_input_is_checked_before_any_request() {
        assert_eq!(check("  "), Check::Empty);
        assert!(matches!(check("0110"), Check::Typing(m) if m.contains("this has 4")));
        assert!(matches!(check("0110000155"), Check::Wrong(m) if m.starts_with("Too long")));
        assert!(matches!(check("011000017"), Check::Wrong(m) if m.contains("should be 5, not 7")));
        assert!(matches!(check("01100001x"), Check::Wrong(m) if m.contains("position 9")));
        assert!(matches!(check("01a"), Check::Wrong(m) if m.contains("“a” at position 3")));
        assert_eq!(check(" 011000015 "), Check::Valid(RoutingNumber::parse("011000015").unwrap()));
    }
}
