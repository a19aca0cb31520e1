//! What the builder takes: the facts an originator knows, as plain strings and numbers, so the
//! server can fill them from its records and the builder can name whatever it refuses.

use crate::date::{Date, Time};
use crate::records::{Sec, TransactionCode};

/// What the file header needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// Routing number (9 digits) of the bank or ACH operator receiving the file, as the ODFI
    /// specifies; written as a blank and the nine digits.
    pub immediate_destination: String,
    /// The receiving point's name (23 characters); optional.
    pub immediate_destination_name: String,
    /// The sender: the ODFI's routing number (9 digits, written after a blank) or a 10-digit
    /// number the ODFI assigned (often "1" and the company's tax ID).
    pub immediate_origin: String,
    /// The sender's name (23 characters); optional.
    pub immediate_origin_name: String,
    /// When the file was made.
    pub creation_date: Date,
    /// When the file was made; optional.
    pub creation_time: Option<Time>,
    /// A–Z or 0–9: "A" for the day's first file to a destination, "B" for the second, ….
    pub file_id_modifier: char,
    /// Eight characters for the sender's own use; optional.
    pub reference_code: String,
}

impl FileInfo {
    /// The required parts; the optional ones start blank and the modifier at "A".
    pub fn new(immediate_destination: &str, immediate_origin: &str, creation_date: Date) -> FileInfo {
        FileInfo {
            immediate_destination: immediate_destination.to_string(),
            immediate_destination_name: String::new(),
            immediate_origin: immediate_origin.to_string(),
            immediate_origin_name: String::new(),
            creation_date,
            creation_time: None,
            file_id_modifier: 'A',
            reference_code: String::new(),
        }
    }
}

/// What a batch header needs. The service class is derived from the entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchInfo {
    /// CCD to pull from a company's account, PPD from a consumer's.
    pub sec: Sec,
    /// The originator as the receiver's statement shows it (16 characters).
    pub company_name: String,
    /// For the originator's use (20 characters); optional.
    pub company_discretionary_data: String,
    /// The originator's identifier at the ODFI (10 characters).
    pub company_identification: String,
    /// Shown to the receiver (10 characters), e.g. "DEPOSIT".
    pub company_entry_description: String,
    /// A date for the receiver to read, free-form (6 characters); optional.
    pub company_descriptive_date: String,
    /// The day the entries should settle.
    pub effective_entry_date: Date,
    /// The ODFI's routing number (9 digits); its first eight go into the batch and into every
    /// trace number.
    pub odfi_routing: String,
}

impl BatchInfo {
    /// The required parts; the optional ones start blank.
    pub fn new(
        sec: Sec,
        company_name: &str,
        company_identification: &str,
        company_entry_description: &str,
        effective_entry_date: Date,
        odfi_routing: &str,
    ) -> BatchInfo {
        BatchInfo {
            sec,
            company_name: company_name.to_string(),
            company_discretionary_data: String::new(),
            company_identification: company_identification.to_string(),
            company_entry_description: company_entry_description.to_string(),
            company_descriptive_date: String::new(),
            effective_entry_date,
            odfi_routing: odfi_routing.to_string(),
        }
    }
}

/// One entry: whose account, how much, which way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    /// 27 or 37 to pull from a checking or savings account; see [`TransactionCode`].
    pub transaction_code: TransactionCode,
    /// The receiver's bank's routing number (9 digits, check digit verified).
    pub routing_number: String,
    /// The receiver's account number (17 characters).
    pub account_number: String,
    /// In cents: 1 to 9 999 999 999 ($99,999,999.99); 0 for a prenote, and only for one.
    pub amount: u64,
    /// The originator's reference for the receiver (15 characters); optional.
    pub individual_id: String,
    /// The receiver: a person for PPD, a company for CCD (22 characters).
    pub individual_name: String,
    /// For the ODFI's use (2 characters); optional.
    pub discretionary_data: String,
    /// Payment information for the receiver (80 characters), sent as an addenda record.
    pub addenda: Option<String>,
}

impl EntryInfo {
    /// The required parts; the optional ones start empty.
    pub fn new(
        transaction_code: TransactionCode,
        routing_number: &str,
        account_number: &str,
        amount: u64,
        individual_name: &str,
    ) -> EntryInfo {
        EntryInfo {
            transaction_code,
            routing_number: routing_number.to_string(),
            account_number: account_number.to_string(),
            amount,
            individual_id: String::new(),
            individual_name: individual_name.to_string(),
            discretionary_data: String::new(),
            addenda: None,
        }
    }
}
