//! A return file read, whatever its format: X9.100-187 (binary, ASCII or EBCDIC) or NACHA
//! (94-character lines). What each item says, before it is matched.

use moneydesk_model::ledger::{ReturnFileError, ReturnSource};

use super::store::BankDetails;

/// One item of a file, as read.
#[derive(Debug, Clone)]
pub struct Incoming {
    pub source: ReturnSource,
    /// Its record (X9 record 31) or line (the ACH entry's).
    pub record_number: i64,
    pub reason_code: String,
    pub reason: Option<String>,
    pub amount_cents: i64,
    /// What it may name its deposit by, in turn: sequence numbers (X9), the original entry's
    /// trace number (ACH). The first is its reference unless another one matched.
    pub keys: Vec<String>,
    /// A notification of change: the data as sent, and what it corrects.
    pub corrected_data: Option<String>,
    pub correction: Option<BankDetails>,
    /// The reader's errors in its own records: such an item is never posted.
    pub damaged: Option<String>,
}

impl Incoming {
    /// The code and its meaning, as a reason says them.
    pub fn said(&self) -> String {
        match &self.reason {
            Some(meaning) => format!("{} {meaning}", self.reason_code),
            None => format!("{} (an unknown code)", self.reason_code),
        }
    }
}

/// What a file came to.
#[derive(Debug, Clone)]
pub struct Read {
    pub format: ReturnSource,
    pub items: Vec<Incoming>,
    pub errors: Vec<ReturnFileError>,
}

/// The meaning of a return reason an operator gives: an X9 return reason (`A`–`Z`, `1`–`9`)
/// or a NACHA return reason code (`R01`…); `None` for any other.
pub fn reason_meaning(code: &str) -> Option<&'static str> {
    moneydesk_x9::return_reason(code).or_else(|| moneydesk_nacha::return_reason(code))
}
