//! NACHA ACH files: a builder and writer for the day's file of pulls, and a reader that
//! checks every field and every control and reports each problem with its line.
//!
//! Pure Rust with no I/O of its own (text in, text out; `Read`/`Write` adapters), so the server
//! and the portal (wasm32) share it.
//!
//! # Writing the day's file
//!
//! The server turns each deposit into an entry pulling money from the vendor's account
//! ([`TransactionCode::CheckingDebit`] 27 or [`TransactionCode::SavingsDebit`] 37), groups them
//! into batches (one per company identification, SEC code and effective date), and lets
//! [`FileBuilder`] compute everything derived:
//!
//! ```
//! use moneydesk_nacha::{BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};
//!
//! let today = Date::from_ymd(2025, 10, 16).unwrap();
//! let tomorrow = Date::from_ymd(2025, 10, 17).unwrap();
//! // Destination: the ODFI's (or its ACH operator's) routing number; origin: ours at the ODFI.
//! let mut info = FileInfo::new("231380104", "121042882", today);
//! info.immediate_destination_name = "FEDERAL RESERVE BANK".into();
//! info.immediate_origin_name = "MONEYDESK".into();
//! let mut builder = FileBuilder::new(info);
//!
//! // CCD: the vendors' accounts are business accounts (PPD would be for consumers').
//! let batch = BatchInfo::new(Sec::Ccd, "MONEYDESK", "1234567890", "DEPOSIT", tomorrow, "121042882");
//! let mut pull = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 250_000, "ACME SUPPLIES");
//! pull.individual_id = "VENDOR-42".into();
//! pull.addenda = Some("DEPOSIT 9F3A SLEEVE 7".into());
//! builder.batch(batch, vec![pull]);
//!
//! let file = builder.build().unwrap(); // or a BuildError naming the input and field
//! let text = moneydesk_nacha::write(&file).unwrap();
//! assert!(text.starts_with("101 231380104 121042882251016"));
//! ```
//!
//! # Reading a file (the portal)
//!
//! ```
//! # let text = "";
//! let parsed = moneydesk_nacha::parse(text);
//! for problem in &parsed.problems {
//!     // problem.line, problem.record, problem.field, problem.kind, problem.message
//!     println!("{problem}");
//! }
//! if let Some(file) = &parsed.file {
//!     for (batch, entry) in file.entries() {
//!         println!("{} {} {}", batch.header.company_name, entry.detail.individual_name, entry.detail.amount);
//!     }
//! }
//! # assert!(parsed.file.is_none() && parsed.problems.len() == 1);
//! ```
//!
//! # Conventions
//!
//! - Amounts are integer cents (`u64`): at most 10 digits in an entry ($99,999,999.99) and 12
//!   in the controls. Dates are [`Date`] (YYMMDD, 2000–2099) and [`Time`] (HHMM).
//! - The writer ends every record, the last included, with "\n" by default or "\r\n"
//!   ([`LineEnding`]); the reader accepts either, a missing final line ending, and files with
//!   no line breaks at all.
//! - [`write()`] returns a `Result` because the model's fields are public: a hand-made value that
//!   does not fit its field is refused (naming line and field) rather than truncated or allowed
//!   to shift the fields after it. Files from the builder, or read without problems, always fit.
//! - The builder uppercases text (banks commonly require it); the reader accepts lowercase in
//!   free-text fields, as the NACHA rules do, and requires uppercase in coded ones (file ID
//!   modifier, SEC code).
//! - Stricter than moov-io/ach, the reference Go implementation: routing number check digits are
//!   verified (receiving DFI, and the immediate destination and origin when they are routing
//!   numbers, i.e. a blank and nine digits), trace numbers must start with the batch's ODFI,
//!   ascend within a batch and be unique in the file, and blocking is checked.
//! - Only CCD and PPD batches with transaction codes 22, 23, 27, 28, 32, 33, 37, 38 and addenda
//!   type 05 are supported for originating; other SEC codes are reported as problems.
//! - Return files are read (and, for test fixtures, built): returns keep the original's SEC
//!   code and carry transaction code 21, 26, 31 or 36 with an addenda type 99
//!   ([`ReturnAddenda`], reason [`RETURN_REASON_CODES`]); notifications of change come in COR
//!   batches with an addenda type 98 ([`NocAddenda`], [`CHANGE_CODES`]). [`AchFile::returns`]
//!   lists them with the trace number of the entry they concern.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod aba;
mod builder;
mod codes;
mod date;
mod error;
mod field;
mod input;
mod model;
mod reader;
mod record_type;
mod records;
mod validate;
mod writer;

pub use aba::{check_digit, RoutingError, RoutingNumber};
pub use builder::FileBuilder;
pub use codes::{change_code, return_reason, CHANGE_CODES, RETURN_REASON_CODES};
pub use date::{Date, DateError, Time};
pub use error::{BuildError, Location, Problem, ProblemKind, WriteError};
pub use input::{BatchInfo, EntryInfo, FileInfo};
pub use model::{AchFile, Batch, Entry, BLOCKING_FACTOR};
pub use reader::{parse, parse_bytes, read, Parsed};
pub use records::{
    Addenda, BatchControl, BatchHeader, Correction, EntryDetail, FileControl, FileHeader, NocAddenda, RecordType,
    ReturnAddenda, ReturnOrNoc, Sec, ServiceClass, TraceNumber, TransactionCode,
};
pub use validate::validate;
pub use writer::{write, write_to, write_with, LineEnding};
