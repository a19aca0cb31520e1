//! A sample day's file shared by the tests, and helpers that read fields by NACHA position.
#![allow(dead_code)] // each test file uses a different part

use moneydesk_nacha::{AchFile, BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, Sec, Time, TransactionCode};

pub fn date(year: u16, month: u8, day: u8) -> Date {
    Date::from_ymd(year, month, day).unwrap()
}

/// Two batches, eleven records, so the file has nine padding lines:
///
/// ```text
///  1 file header
///  2 batch header   CCD, 225
///  3 entry detail   27 to 031300012, $2,500.00, with an addenda
///  4 addenda
///  5 entry detail   37 to 061036000, $0.01
///  6 batch control
///  7 batch header   PPD, 225
///  8 entry detail   27 to 231380104, $99,999,999.99
///  9 entry detail   28 (prenote) to 011000015
/// 10 batch control
/// 11 file control
/// 12-20 padding
/// ```
pub fn sample_builder() -> FileBuilder {
    let mut info = FileInfo::new("231380104", "121042882", date(2025, 10, 16));
    info.immediate_destination_name = "Federal Reserve Bank".into();
    info.immediate_origin_name = "Moneydesk".into();
    info.creation_time = Some(Time::new(13, 5).unwrap());
    info.reference_code = "DAY0001".into();
    let mut builder = FileBuilder::new(info);

    let ccd = BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", date(2025, 10, 17), "121042882");
    let mut first = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 250_000, "Acme Supplies");
    first.individual_id = "VENDOR-42".into();
    first.addenda = Some("Deposit 9F3A".into());
    let second =
        EntryInfo::new(TransactionCode::SavingsDebit, "061036000", "12345678901234567", 1, "Globex Corporation");
    builder.batch(ccd, vec![first, second]);

    let ppd = BatchInfo::new(Sec::Ppd, "Moneydesk", "1234567890", "DEPOSIT", date(2025, 10, 17), "121042882");
    let third = EntryInfo::new(TransactionCode::CheckingDebit, "231380104", "55501", 9_999_999_999, "Jane Q Public");
    let prenote = EntryInfo::new(TransactionCode::CheckingDebitPrenote, "011000015", "98765", 0, "John Doe");
    builder.batch(ppd, vec![third, prenote]);
    builder
}

pub fn sample_file() -> AchFile {
    sample_builder().build().unwrap()
}

pub fn sample_text() -> String {
    moneydesk_nacha::write(&sample_file()).unwrap()
}

/// Line `number` (1-based) of the sample file.
pub fn sample_line(number: usize) -> String {
    line(&sample_text(), number).to_string()
}

/// Line `number` (1-based) of a text.
pub fn line(text: &str, number: usize) -> &str {
    text.lines().nth(number - 1).unwrap()
}

/// Positions `from` to `to` (1-based, inclusive) of a record, as the NACHA layouts count them.
pub fn positions(record: &str, from: usize, to: usize) -> &str {
    &record[from - 1..to]
}

/// The text with positions `from..` of line `number` replaced by `value`.
pub fn with_field(text: &str, number: usize, from: usize, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[number - 1].replace_range(from - 1..from - 1 + value.len(), value);
    lines.join("\n") + "\n"
}

/// The text without line `number`.
pub fn without_line(text: &str, number: usize) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(number - 1);
    lines.join("\n") + "\n"
}
