//! The six record types and the coded values they carry. Each record module holds the record's
//! struct, its field layout, and how to write and read it; checks that need more than one
//! field or record live in `validate`.

mod addenda;
mod batch_control;
mod batch_header;
mod entry_detail;
mod file_control;
mod file_header;
mod return_addenda;

use std::fmt;

pub use crate::record_type::RecordType;
pub use addenda::Addenda;
pub use batch_control::BatchControl;
pub use batch_header::BatchHeader;
pub use entry_detail::EntryDetail;
pub use file_control::FileControl;
pub use file_header::FileHeader;
pub use return_addenda::{Correction, NocAddenda, ReturnAddenda, ReturnOrNoc};

pub(crate) use addenda::fields as addenda_fields;
pub(crate) use batch_control::fields as batch_control_fields;
pub(crate) use batch_header::fields as batch_header_fields;
pub(crate) use entry_detail::{fields as entry_fields, names_for as entry_field_names};
pub(crate) use file_control::fields as file_control_fields;
pub(crate) use file_header::fields as file_header_fields;
pub(crate) use return_addenda::fields as return_addenda_fields;

/// Service class code of a batch: which directions of money it may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServiceClass {
    /// 200: debits and credits.
    Mixed,
    /// 220: credits only.
    CreditsOnly,
    /// 225: debits only (a batch of pulls).
    DebitsOnly,
}

impl ServiceClass {
    /// The three-digit code.
    pub fn code(self) -> u16 {
        match self {
            ServiceClass::Mixed => 200,
            ServiceClass::CreditsOnly => 220,
            ServiceClass::DebitsOnly => 225,
        }
    }

    /// The service class for a code, if it is one of 200, 220, 225.
    pub fn from_code(code: u16) -> Option<ServiceClass> {
        match code {
            200 => Some(ServiceClass::Mixed),
            220 => Some(ServiceClass::CreditsOnly),
            225 => Some(ServiceClass::DebitsOnly),
            _ => None,
        }
    }

    /// Whether an entry with this transaction code may be in a batch of this class.
    pub fn allows(self, code: TransactionCode) -> bool {
        match self {
            ServiceClass::Mixed => true,
            ServiceClass::CreditsOnly => code.is_credit(),
            ServiceClass::DebitsOnly => code.is_debit(),
        }
    }
}

/// Standard entry class code of a batch: the two this crate's users originate, and COR, the
/// class of the notifications of change an RDFI sends back about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sec {
    /// Corporate Credit or Debit: the receiver's account is a company's (or other
    /// organisation's). Use it to pull from a vendor's business account. In CCD entries the
    /// 15-character field is the "Identification Number" and the 22-character one the
    /// "Receiving Company Name".
    Ccd,
    /// Prearranged Payment and Deposit: the receiver's account is a consumer's (a person's),
    /// with their written authorisation for debits. In PPD entries the fields are the
    /// "Individual Identification Number" and the "Individual Name".
    Ppd,
    /// Automated Notification of Change: entries (codes 21, 26, 31, 36, zero amount) with a
    /// type 98 addenda telling the originator what to correct. Returns keep the original's
    /// class (CCD or PPD) and carry a type 99 addenda.
    Cor,
}

impl Sec {
    /// The three letters in the batch header.
    pub fn code(self) -> &'static str {
        match self {
            Sec::Ccd => "CCD",
            Sec::Ppd => "PPD",
            Sec::Cor => "COR",
        }
    }

    /// The SEC for its three (uppercase) letters, if supported.
    pub fn from_code(code: &str) -> Option<Sec> {
        match code {
            "CCD" => Some(Sec::Ccd),
            "PPD" => Some(Sec::Ppd),
            "COR" => Some(Sec::Cor),
            _ => None,
        }
    }
}

/// Transaction code of an entry: account type, direction, and whether it is a prenote (a
/// zero-amount test entry that checks the account before real entries follow).
///
/// The server originates 27 and 37 (debits, i.e. pulls); the others are accepted on read and
/// write because they are standard for CCD and PPD batches. Codes 21, 26, 31 and 36 are those
/// of the returns and notifications of change an RDFI sends back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransactionCode {
    /// 22: credit to a checking account.
    CheckingCredit,
    /// 23: prenote of a credit to a checking account.
    CheckingCreditPrenote,
    /// 27: debit from a checking account.
    CheckingDebit,
    /// 28: prenote of a debit from a checking account.
    CheckingDebitPrenote,
    /// 32: credit to a savings account.
    SavingsCredit,
    /// 33: prenote of a credit to a savings account.
    SavingsCreditPrenote,
    /// 37: debit from a savings account.
    SavingsDebit,
    /// 38: prenote of a debit from a savings account.
    SavingsDebitPrenote,
    /// 21: return or notification of change of a credit to a checking account (22, 23).
    CheckingCreditReturn,
    /// 26: return or notification of change of a debit from a checking account (27, 28).
    CheckingDebitReturn,
    /// 31: return or notification of change of a credit to a savings account (32, 33).
    SavingsCreditReturn,
    /// 36: return or notification of change of a debit from a savings account (37, 38).
    SavingsDebitReturn,
}

impl TransactionCode {
    /// Every code of a forward entry (what an originator sends).
    pub const ALL: [TransactionCode; 8] = [
        TransactionCode::CheckingCredit,
        TransactionCode::CheckingCreditPrenote,
        TransactionCode::CheckingDebit,
        TransactionCode::CheckingDebitPrenote,
        TransactionCode::SavingsCredit,
        TransactionCode::SavingsCreditPrenote,
        TransactionCode::SavingsDebit,
        TransactionCode::SavingsDebitPrenote,
    ];

    /// The codes of returns and notifications of change (what an RDFI sends back).
    pub const RETURNS: [TransactionCode; 4] = [
        TransactionCode::CheckingCreditReturn,
        TransactionCode::CheckingDebitReturn,
        TransactionCode::SavingsCreditReturn,
        TransactionCode::SavingsDebitReturn,
    ];

    /// The two-digit code.
    pub fn code(self) -> u8 {
        match self {
            TransactionCode::CheckingCredit => 22,
            TransactionCode::CheckingCreditPrenote => 23,
            TransactionCode::CheckingDebit => 27,
            TransactionCode::CheckingDebitPrenote => 28,
            TransactionCode::SavingsCredit => 32,
            TransactionCode::SavingsCreditPrenote => 33,
            TransactionCode::SavingsDebit => 37,
            TransactionCode::SavingsDebitPrenote => 38,
            TransactionCode::CheckingCreditReturn => 21,
            TransactionCode::CheckingDebitReturn => 26,
            TransactionCode::SavingsCreditReturn => 31,
            TransactionCode::SavingsDebitReturn => 36,
        }
    }

    /// The transaction code for a number, if supported.
    pub fn from_code(code: u8) -> Option<TransactionCode> {
        TransactionCode::ALL.into_iter().chain(TransactionCode::RETURNS).find(|t| t.code() == code)
    }

    /// Money (or, for a prenote, a future entry) leaves the receiver's account. Returns of
    /// debits (26, 36) count as debits in the controls, as NACHA files total them.
    pub fn is_debit(self) -> bool {
        matches!(self.code() % 10, 6..=8)
    }

    /// A return or notification of change (21, 26, 31, 36): it carries a type 99 or 98
    /// addenda.
    pub fn is_return(self) -> bool {
        matches!(self.code() % 10, 1 | 6)
    }

    /// Money (or, for a prenote, a future entry) goes into the receiver's account.
    pub fn is_credit(self) -> bool {
        !self.is_debit()
    }

    /// A prenote: must carry a zero amount.
    pub fn is_prenote(self) -> bool {
        matches!(self.code() % 10, 3 | 8)
    }

    /// Whether the receiver's account is a savings account (else checking).
    pub fn is_savings(self) -> bool {
        self.code() / 10 == 3
    }
}

/// The trace number of an entry: the ODFI's eight-digit identification and a seven-digit
/// sequence number. It identifies the entry in returns and notifications of change, so it is
/// unique within the file and ascending within a batch.
///
/// ```
/// use moneydesk_nacha::TraceNumber;
/// let trace = TraceNumber { odfi: 3130001, sequence: 42 };
/// assert_eq!(trace.to_string(), "031300010000042");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TraceNumber {
    /// The originating DFI identification (first eight digits of the ODFI's routing number).
    pub odfi: u32,
    /// The entry's sequence number (seven digits).
    pub sequence: u32,
}

impl fmt::Display for TraceNumber {
    /// The fifteen digits as in the record.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:08}{:07}", self.odfi, self.sequence)
    }
}

/// Service class code (batch header and batch control); a placeholder when it is not one.
pub(crate) fn read_service_class(r: &mut crate::field::RecordReader<'_>, f: crate::field::Field) -> ServiceClass {
    let raw = r.raw(f);
    let code = raw.bytes().all(|b| b.is_ascii_digit()).then(|| raw.parse().ok()).flatten();
    match code.and_then(ServiceClass::from_code) {
        Some(class) => class,
        None => {
            let message = format!("must be 200, 220 or 225, found {raw:?}");
            r.fail(f, crate::error::ProblemKind::InvalidCode, message);
            ServiceClass::Mixed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_record_layout_covers_positions_1_to_94_without_gaps_or_overlaps() {
        let layouts: [(&str, &[crate::field::Field]); 8] = [
            ("file header", &file_header_fields::ALL),
            ("batch header", &batch_header_fields::ALL),
            ("entry detail", &entry_fields::ALL),
            ("addenda", &addenda_fields::ALL),
            ("return addenda", &return_addenda_fields::RETURN),
            ("notification of change addenda", &return_addenda_fields::CHANGE),
            ("batch control", &batch_control_fields::ALL),
            ("file control", &file_control_fields::ALL),
        ];
        for (record, fields) in layouts {
            let mut next = 1;
            for field in fields {
                assert_eq!(field.start, next, "{record}: {} should start at {next}", field.name);
                next += field.len;
            }
            assert_eq!(next, 95, "{record} should end at position 94");
        }
    }

    #[test]
    fn transaction_codes_know_their_direction_and_account() {
        use TransactionCode::*;
        assert!(CheckingDebit.is_debit() && !CheckingDebit.is_prenote() && !CheckingDebit.is_savings());
        assert!(SavingsDebitPrenote.is_debit() && SavingsDebitPrenote.is_prenote() && SavingsDebitPrenote.is_savings());
        assert!(CheckingCredit.is_credit() && CheckingCreditPrenote.is_prenote());
        for code in TransactionCode::ALL {
            assert_eq!(TransactionCode::from_code(code.code()), Some(code));
        }
        assert_eq!(TransactionCode::from_code(25), None);
        assert!(CheckingDebitReturn.is_debit() && CheckingDebitReturn.is_return() && !CheckingDebit.is_return());
        assert!(SavingsCreditReturn.is_credit() && SavingsCreditReturn.is_savings());
        for code in TransactionCode::RETURNS {
            assert_eq!(TransactionCode::from_code(code.code()), Some(code));
        }
    }
}
