//! The chart of accounts, in one place. Each managed sleeve account has three ledger accounts
//! (`sma:{accountId}:pending|posted|held`); the bank has one of each other kind
//! (`bank:{kind}`). What each kind means, and so what posts what:
//!
//! | move                     | entries (Dr debit, Cr credit; A amount, F fee, R returned-item fee) |
//! |--------------------------|-------------------------------------------------------------|
//! | check/ACH confirmed      | Dr bank:items_in_process A, Cr sma:pending A; Dr sma:pending F, Cr bank:fee_income_pending F; Dr sma:held A−F, Cr bank:holds A−F |
//! | cash confirmed           | Dr bank:cash_vault A, Cr sma:posted A; Dr sma:posted F, Cr bank:fee_income F |
//! | hold tranche released    | Cr sma:held x, Dr bank:holds x                               |
//! | sent (cash letter / ACH) | Dr bank:clearing_x9 or clearing_ach A, Cr bank:items_in_process A |
//! | settled                  | Dr sma:pending A−F, Cr sma:posted A−F; Dr bank:fee_income_pending F, Cr bank:fee_income F; Dr bank:settlement A, Cr the clearing account A |
//! | returned                 | every net the deposit left reversed (its holds still held released), the fee F kept (Dr sma:posted F, Cr bank:fee_income F) and R charged (Dr sma:posted R, Cr bank:fee_income R) |
//! | rejected / cancelled     | every net the deposit left reversed (naming the confirmation) |
//! | opening balance          | Cr sma:posted value, Dr bank:opening_balances value           |
//! | manual adjustment        | the two accounts the admin names                             |
//!
//! Balances of a sleeve account: posted = posted; pending = posted + pending; held = the held
//! account (debit-normal); available = pending − held.

use moneydesk_model::ledger::LedgerAccountKind;

/// A ledger account's code.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(String);

impl Code {
    /// A sleeve account's ledger account of `kind` (pending, posted or held).
    pub fn sleeve(account_id: &str, kind: LedgerAccountKind) -> Code {
        debug_assert!(kind.is_sleeve());
        Code(format!("sma:{account_id}:{}", kind.as_str()))
    }

    /// The bank's ledger account of `kind`.
    pub fn bank(kind: LedgerAccountKind) -> Code {
        debug_assert!(!kind.is_sleeve());
        Code(format!("bank:{}", kind.as_str()))
    }

    /// Reads a code as written by [`Code::sleeve`] or [`Code::bank`]: its owner (the sleeve
    /// account) and kind.
    ///
    /// ```
    /// use moneydesk_server::ledger::chart::Code;
    /// use moneydesk_model::ledger::LedgerAccountKind;
    /// let c = Code::parse("sma:001A:posted").unwrap();
    /// assert_eq!(c.owner_and_kind(), (Some("001A"), LedgerAccountKind::Posted));
    /// assert!(Code::parse("bank:posted").is_err() && Code::parse("sma:x:fee_income").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Code, String> {
        let bad = || {
            format!("{text:?} is not a ledger account: use sma:{{accountId}}:pending|posted|held or bank:{{kind}} (kinds: {})", LedgerAccountKind::known())
        };
        if let Some(rest) = text.strip_prefix("sma:") {
            let (owner, kind) = rest.rsplit_once(':').ok_or_else(bad)?;
            let kind = LedgerAccountKind::parse(kind).filter(|k| k.is_sleeve()).ok_or_else(bad)?;
            let bad_char = |c: char| c == ':' || c.is_control() || c.is_whitespace();
            if owner.is_empty() || owner.chars().count() > 64 || owner.chars().any(bad_char) {
                return Err(bad());
            }
            return Ok(Code::sleeve(owner, kind));
        }
        let kind = text.strip_prefix("bank:").and_then(LedgerAccountKind::parse).filter(|k| !k.is_sleeve());
        kind.map(Code::bank).ok_or_else(bad)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The sleeve account it belongs to (none for the bank's) and its kind.
    pub fn owner_and_kind(&self) -> (Option<&str>, LedgerAccountKind) {
        if let Some(rest) = self.0.strip_prefix("sma:") {
            let (owner, kind) = rest.rsplit_once(':').unwrap_or((rest, "posted"));
            (Some(owner), LedgerAccountKind::parse(kind).unwrap_or(LedgerAccountKind::Posted))
        } else {
            let kind = self.0.strip_prefix("bank:").and_then(LedgerAccountKind::parse);
            (None, kind.unwrap_or(LedgerAccountKind::Adjustments))
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The clearing account of a deposit kind's rail (checks go out in image cash letters,
/// electronic deposits in the day's ACH file); cash does not clear.
pub fn clearing(service_type: &str) -> Option<LedgerAccountKind> {
    match service_type {
        "Cash" => None,
        "Electronic_Deposit" => Some(LedgerAccountKind::ClearingAch),
        _ => Some(LedgerAccountKind::ClearingX9),
    }
}
