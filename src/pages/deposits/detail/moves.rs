//! The drawer's moves: their signals (`Moves`, shared by the drawer's parts) and, as pure
//! functions, which moves a user is offered, what a click does now (ask for a reason, wait for
//! one, or apply), and the words shown.

use leptos::prelude::*;
use moneydesk_model::deposits::{DepositAction, DepositEvent, DepositStatus, ServiceType};
use moneydesk_model::Money;

use crate::api::ApiError;
use crate::format::format_money;
use crate::i18n::{deposits::text, fill, vocab::say};

/// The move waiting for its reason, the reason typed, a move on its way, and its refusal.
#[derive(Clone, Copy)]
pub struct Moves {
    pub asking: RwSignal<Option<DepositAction>>,
    pub reason: RwSignal<String>,
    pub busy: RwSignal<bool>,
    pub failed: RwSignal<Option<ApiError>>,
}

impl Moves {
    pub fn new() -> Self {
        Moves {
            asking: RwSignal::new(None),
            reason: RwSignal::new(String::new()),
            busy: RwSignal::new(false),
            failed: RwSignal::new(None),
        }
    }

    /// A move made: nothing waits for a reason any more.
    pub fn done(&self) {
        self.asking.set(None);
        self.reason.set(String::new());
    }
}

/// What a click on a move does now.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Reject and return first ask why.
    Ask,
    /// Asked, but no reason typed yet.
    Wait,
    /// Made, with the reason typed (if any).
    Apply(Option<String>),
}

/// The step for `action` while `asking` waits for a reason and `reason` is typed.
pub fn step(action: DepositAction, asking: Option<DepositAction>, reason: &str) -> Step {
    if action.needs_reason() && asking != Some(action) {
        return Step::Ask;
    }
    match Some(reason.trim().to_string()).filter(|r| !r.is_empty()) {
        None if action.needs_reason() => Step::Wait,
        why => Step::Apply(why),
    }
}

/// The moves offered: send and settle (the jobs' moves) to an admin, the others to a writer.
pub fn offered(allowed: &[DepositAction], admin: bool, writer: bool) -> Vec<DepositAction> {
    allowed
        .iter()
        .copied()
        .filter(|a| if matches!(a, DepositAction::Send | DepositAction::Settle) { admin } else { writer })
        .collect()
}

pub fn button_text(a: DepositAction) -> &'static str {
    let b = &text().detail.buttons;
    match a {
        DepositAction::Confirm => b[0],
        DepositAction::Send => b[1],
        DepositAction::Settle => b[2],
        DepositAction::Return => b[3],
        DepositAction::Reject => b[4],
        DepositAction::Cancel => b[5],
    }
}

/// The moves that undo a deposit, shown as dangerous.
pub fn undoes(a: DepositAction) -> bool {
    matches!(a, DepositAction::Reject | DepositAction::Return | DepositAction::Cancel)
}

/// The question over the reason's field.
pub fn reason_label(a: DepositAction) -> String {
    let t = &text().detail;
    (if a == DepositAction::Return { t.why_returned } else { t.why_rejected }).to_string()
}

/// `Check · $1,250.00 · fee $2.00 · To confirm`.
pub fn summary(kind: ServiceType, amount: &Money, fee: &Money, status: DepositStatus) -> String {
    let money = |m: &Money| format_money(&m.to_string()).unwrap_or_else(|| m.to_string());
    fill(text().detail.summary, &[say(kind.label()), &money(amount), &money(fee), say(status.label())])
}

/// `Rejected by ops`.
pub fn what(e: &DepositEvent) -> String {
    fill(text().detail.what, &[say(e.to_status.label()), &e.actor])
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn reject_and_return_ask_why_before_they_are_made() {
        use DepositAction::*;
        assert_eq!(step(Reject, None, ""), Step::Ask);
        assert_eq!(step(Reject, Some(Return), "x"), Step::Ask, "another move's question");
        assert_eq!(step(Reject, Some(Reject), "  "), Step::Wait);
        assert_eq!(step(Reject, Some(Reject), " Signature missing "), Step::Apply(Some("Signature missing".into())));
        assert_eq!(step(Confirm, None, ""), Step::Apply(None));
        assert_eq!(step(Cancel, Some(Reject), "typed"), Step::Apply(Some("typed".into())));
    }

    #[wasm_bindgen_test]
    fn the_jobs_moves_are_offered_to_an_admin_only() {
        use DepositAction::*;
        let allowed = [Send, Reject, Cancel];
        assert_eq!(offered(&allowed, false, true), [Reject, Cancel]);
        assert_eq!(offered(&allowed, true, false), [Send]);
        assert_eq!(offered(&allowed, true, true), allowed);
        assert!(offered(&allowed, false, false).is_empty());
    }

    #[wasm_bindgen_test]
    fn the_words_shown() {
        assert_eq!(button_text(DepositAction::Reject).trim_end_matches('…'), "Reject");
        assert!(undoes(DepositAction::Cancel) && !undoes(DepositAction::Settle));
        assert_eq!(reason_label(DepositAction::Return), "Why is the deposit returned?");
        assert_eq!(reason_label(DepositAction::Reject), "Why is the deposit rejected?");
        let (amount, fee) = (Money::parse("1250.00").unwrap(), Money::parse("2.00").unwrap());
        assert_eq!(
            summary(ServiceType::Check, &amount, &fee, DepositStatus::InProgress),
            "Check · $1,250.00 · fee $2.00 · To confirm"
        );
        let e = DepositEvent {
            at: "2026-11-04T15:05:00Z".into(),
            actor: "ops".into(),
            action: "reject".into(),
            from_status: Some(DepositStatus::InProgress),
            to_status: DepositStatus::Rejected,
            reason: Some("Signature missing".into()),
        };
        assert_eq!(what(&e), "Rejected by ops");
    }
}
