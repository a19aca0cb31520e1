//! What several of the page's tabs show alike: the sandboxed HTML preview (Compose, its bulk
//! preview, a message, a template), the inbound state badge and times (the inbound list and
//! one message), and the verdict badge and check labels (one address and a list). Here rather
//! than in one tab so the tabs import it and not each other.

use leptos::prelude::*;
use moneydesk_model::email::inbound::InboundState;
use moneydesk_model::email::validation::{CheckOutcome, Verdict};

use crate::i18n::email::text;
use crate::i18n::vocab::say;

/// The sandboxed preview of an HTML part: scripts never run and the document is of no origin.
#[component]
pub fn HtmlPreview(#[prop(into)] html: Signal<String>, title: &'static str) -> impl IntoView {
    view! { <iframe class="email-preview" sandbox="" title=title srcdoc=move || html.get()></iframe> }
}

/// An inbound message's state as a badge (`badge inbound-delivered`).
pub fn inbound_badge(s: InboundState) -> impl IntoView {
    let class = format!("badge inbound-{}", s.as_str());
    view! { <span class=class>{say(s.label())}</span> }
}

/// `2026-11-25T10:00:00.123Z` → `2026-11-25 10:00:00`.
pub fn when(t: &str) -> String {
    t.replace('T', " ").trim_end_matches('Z').split('.').next().unwrap_or(t).to_string()
}

/// A message state's badge class (`badge state-sent`).
pub fn state_class(s: moneydesk_model::email::MessageState) -> String {
    format!("badge state-{}", s.as_str())
}

/// A check outcome's badge class (`badge outcome-pass`).
pub fn outcome_class(o: CheckOutcome) -> String {
    format!("badge outcome-{}", o.as_str())
}

/// A verdict as a badge (`badge verdict-risky`).
pub fn verdict_badge(v: Verdict) -> impl IntoView {
    let class = format!("badge verdict-{}", v.as_str());
    view! { <span class=class>{say(v.label())}</span> }
}

/// What each outcome is called on screen.
pub fn outcome_label(o: CheckOutcome) -> &'static str {
    let said = &text().outcomes;
    match o {
        CheckOutcome::Pass => said[0],
        CheckOutcome::Warn => said[1],
        CheckOutcome::Fail => said[2],
        CheckOutcome::Unknown => said[3],
        CheckOutcome::Skipped => said[4],
    }
}
