//! The deposit state machine (CONTRACT.md point 10). The description shows only a fresh
//! deposit's `status: In_Progress_1`, `step: Process_2`, `isConfirmed: false`; the rest is ours,
//! documented here and in the OpenAPI enums.
//!
//! | status          | step        | isConfirmed | meaning                                        |
//! |-----------------|-------------|-------------|------------------------------------------------|
//! | `In_Progress_1` | `Process_2` | false       | received and stored; waiting to be confirmed   |
//! | `Confirmed_2`   | `Process_3` | true        | confirmed by an operator; waiting to be sent   |
//! | `Sent_3`        | `Process_4` | true        | in a cash letter (or the day's ACH file)       |
//! | `Settled_4`     | `Process_5` | true        | funds settled into the managed sleeve account  |
//! | `Returned_5`    | `Process_5` | true        | returned unpaid after it was sent (a reason)   |
//! | `Rejected_6`    | `Process_5` | false/true  | refused before it was sent (a reason)          |
//! | `Cancelled_7`   | `Process_5` | false/true  | withdrawn before it was sent                   |
//!
//! `step` counts the processing steps: 1 submitted (the request checked), 2 to confirm, 3 to
//! send, 4 to settle, 5 done. Moves: confirm (1 → 2), send (2 → 3; the cash-letter or ACH-file
//! job does it), settle (3 → 4), return (3 or 4 → 5: a check can come back after it settled),
//! reject (1 or 2 → 6), cancel (1 or 2 → 7). Every other move is refused, naming the state and
//! the moves it allows.

use std::fmt;

use crate::vocabulary::vocabulary;

vocabulary!(
    pub enum DepositStatus {
        InProgress = "In_Progress_1" / "To confirm",
        Confirmed = "Confirmed_2" / "Confirmed",
        Sent = "Sent_3" / "Sent",
        Settled = "Settled_4" / "Settled",
        Returned = "Returned_5" / "Returned",
        Rejected = "Rejected_6" / "Rejected",
        Cancelled = "Cancelled_7" / "Cancelled",
    }
);

vocabulary!(
    /// A move of the state machine: what an operator (or the sending job) asks for.
    pub enum DepositAction {
        Confirm = "confirm",
        Send = "send",
        Settle = "settle",
        Return = "return",
        Reject = "reject",
        Cancel = "cancel",
    }
);

impl DepositStatus {
    /// The `step` that goes with the status.
    ///
    /// ```
    /// use moneydesk_model::deposits::DepositStatus;
    /// assert_eq!(DepositStatus::InProgress.step(), "Process_2");
    /// ```
    pub fn step(self) -> &'static str {
        match self {
            DepositStatus::InProgress => "Process_2",
            DepositStatus::Confirmed => "Process_3",
            DepositStatus::Sent => "Process_4",
            _ => "Process_5",
        }
    }

    /// No move leaves it.
    pub fn is_final(self) -> bool {
        self.allowed().is_empty()
    }

    /// The moves allowed from here.
    pub fn allowed(self) -> &'static [DepositAction] {
        use DepositAction::*;
        match self {
            DepositStatus::InProgress => &[Confirm, Reject, Cancel],
            DepositStatus::Confirmed => &[Send, Reject, Cancel],
            DepositStatus::Sent => &[Settle, Return],
            DepositStatus::Settled => &[Return],
            DepositStatus::Returned | DepositStatus::Rejected | DepositStatus::Cancelled => &[],
        }
    }

    /// Where `action` leads from here, or the refusal naming the state and the allowed moves.
    ///
    /// ```
    /// use moneydesk_model::deposits::{DepositAction, DepositStatus};
    /// assert_eq!(DepositStatus::InProgress.apply(DepositAction::Confirm), Ok(DepositStatus::Confirmed));
    /// let no = DepositStatus::Sent.apply(DepositAction::Cancel).unwrap_err();
    /// assert_eq!(no.to_string(), "a deposit in Sent_3 cannot be cancelled; allowed: settle, return");
    /// ```
    pub fn apply(self, action: DepositAction) -> Result<DepositStatus, IllegalMove> {
        if !self.allowed().contains(&action) {
            return Err(IllegalMove { from: self, action });
        }
        Ok(match action {
            DepositAction::Confirm => DepositStatus::Confirmed,
            DepositAction::Send => DepositStatus::Sent,
            DepositAction::Settle => DepositStatus::Settled,
            DepositAction::Return => DepositStatus::Returned,
            DepositAction::Reject => DepositStatus::Rejected,
            DepositAction::Cancel => DepositStatus::Cancelled,
        })
    }
}

impl DepositAction {
    /// Reject and return must say why (kept in the history).
    pub fn needs_reason(self) -> bool {
        matches!(self, DepositAction::Reject | DepositAction::Return)
    }

    fn past(self) -> &'static str {
        match self {
            DepositAction::Confirm => "confirmed",
            DepositAction::Send => "sent",
            DepositAction::Settle => "settled",
            DepositAction::Return => "returned",
            DepositAction::Reject => "rejected",
            DepositAction::Cancel => "cancelled",
        }
    }
}

/// A move the state machine does not allow (409).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove {
    pub from: DepositStatus,
    pub action: DepositAction,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let allowed: Vec<&str> = self.from.allowed().iter().map(|a| a.as_str()).collect();
        let allowed = if allowed.is_empty() { "none (it is final)".to_string() } else { allowed.join(", ") };
        write!(f, "a deposit in {} cannot be {}; allowed: {allowed}", self.from, self.action.past())
    }
}

impl std::error::Error for IllegalMove {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_allows_exactly_its_documented_moves() {
        use DepositAction::*;
        use DepositStatus::*;
        let table = [
            (InProgress, Confirm, Some(Confirmed)),
            (InProgress, Reject, Some(Rejected)),
            (InProgress, Cancel, Some(Cancelled)),
            (Confirmed, Send, Some(Sent)),
            (Confirmed, Reject, Some(Rejected)),
            (Confirmed, Cancel, Some(Cancelled)),
            (Sent, Settle, Some(Settled)),
            (Sent, Return, Some(Returned)),
            (Settled, Return, Some(Returned)),
        ];
        for from in DepositStatus::ALL {
            for action in DepositAction::ALL {
                let expected = table.iter().find(|(f, a, _)| *f == from && *a == action).and_then(|(_, _, to)| *to);
                assert_eq!(from.apply(action).ok(), expected, "{from} {action:?}");
            }
        }
        assert!(Returned.is_final() && Rejected.is_final() && Cancelled.is_final() && !Settled.is_final());
        assert_eq!(
            Cancelled.apply(Confirm).unwrap_err().to_string(),
            "a deposit in Cancelled_7 cannot be confirmed; allowed: none (it is final)"
        );
    }

    #[test]
    fn statuses_and_actions_read_back_from_their_spelling() {
        for s in DepositStatus::ALL {
            assert_eq!(DepositStatus::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_string(&s).unwrap(), format!("\"{s}\""));
        }
        for a in DepositAction::ALL {
            assert_eq!(DepositAction::parse(a.as_str()), Some(a));
        }
    }
}
