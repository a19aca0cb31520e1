//! The builder computes the controls: counts, entry hashes, totals, service classes, blocking.

mod common;

use common::{date, line, positions, sample_file, sample_text};
use moneydesk_nacha::{BatchInfo, EntryInfo, FileBuilder, FileInfo, Sec, ServiceClass, TransactionCode};

fn one_batch(entries: Vec<EntryInfo>) -> FileBuilder {
    let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date(2025, 10, 16)));
    let batch = BatchInfo::new(Sec::Ccd, "MONEYDESK", "1234567890", "DEPOSIT", date(2025, 10, 17), "121042882");
    builder.batch(batch, entries);
    builder
}

fn debit(routing: &str, amount: u64) -> EntryInfo {
    EntryInfo::new(TransactionCode::CheckingDebit, routing, "123", amount, "VENDOR")
}

#[test]
fn the_entry_hash_is_the_sum_of_the_receiving_dfi_identifications() {
    let file = sample_file();
    assert_eq!(file.batches[0].control.entry_hash, 3_130_001 + 6_103_600);
    assert_eq!(file.batches[1].control.entry_hash, 23_138_010 + 1_100_001);
    assert_eq!(file.control.entry_hash, 33_471_612);
}

#[test]
fn an_entry_hash_over_ten_digits_keeps_its_last_ten() {
    // 101 entries to DFI 99999999 add up to 10 099 999 899: eleven digits.
    let entries = (0..101).map(|_| debit("999999992", 100)).collect();
    let file = one_batch(entries).build().unwrap();
    assert_eq!(file.batches[0].control.entry_hash, 99_999_899);
    assert_eq!(file.control.entry_hash, 99_999_899);
    let text = moneydesk_nacha::write(&file).unwrap();
    assert_eq!(positions(line(&text, 104), 11, 20), "0099999899", "batch control");
    assert_eq!(positions(line(&text, 105), 22, 31), "0099999899", "file control");
    assert!(moneydesk_nacha::parse(&text).is_valid());
}

#[test]
fn totals_add_debits_and_credits_separately_and_prenotes_add_nothing() {
    let file = sample_file();
    assert_eq!((file.batches[0].control.total_debit, file.batches[0].control.total_credit), (250_001, 0));
    assert_eq!((file.batches[1].control.total_debit, file.batches[1].control.total_credit), (9_999_999_999, 0));
    assert_eq!((file.control.total_debit, file.control.total_credit), (10_000_250_000, 0));
}

#[test]
fn counts_include_addenda_and_the_file_counts_batches_and_blocks() {
    let file = sample_file();
    assert_eq!(file.batches[0].control.entry_addenda_count, 3);
    assert_eq!(file.batches[1].control.entry_addenda_count, 2);
    assert_eq!(file.control.entry_addenda_count, 5);
    assert_eq!(file.control.batch_count, 2);
    assert_eq!(file.control.block_count, 2);
}

#[test]
fn the_service_class_follows_the_directions_in_the_batch() {
    let debits = one_batch(vec![debit("031300012", 5)]).build().unwrap();
    assert_eq!(debits.batches[0].header.service_class, ServiceClass::DebitsOnly);
    let credit = EntryInfo::new(TransactionCode::SavingsCredit, "031300012", "9", 7, "VENDOR");
    let credits = one_batch(vec![credit.clone()]).build().unwrap();
    assert_eq!(credits.batches[0].header.service_class, ServiceClass::CreditsOnly);
    let mixed = one_batch(vec![debit("031300012", 5), credit]).build().unwrap();
    let batch = &mixed.batches[0];
    assert_eq!((batch.header.service_class, batch.control.service_class), (ServiceClass::Mixed, ServiceClass::Mixed));
    assert_eq!((batch.control.total_debit, batch.control.total_credit), (5, 7));
}

#[test]
fn the_file_is_padded_with_lines_of_94_nines_to_a_multiple_of_ten() {
    let text = sample_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20);
    assert!(lines[11..].iter().all(|l| *l == "9".repeat(94)), "lines 12-20 are padding");
    assert!(lines[10].starts_with('9') && lines[10] != "9".repeat(94), "line 11 is the file control");
}

#[test]
fn a_file_of_exactly_ten_records_has_no_padding_and_one_block() {
    // 1 file header + batch header + 6 entries + batch control + file control = 10.
    let file = one_batch((0..6).map(|_| debit("031300012", 5)).collect()).build().unwrap();
    assert_eq!(file.control.block_count, 1);
    let text = moneydesk_nacha::write(&file).unwrap();
    assert_eq!(text.lines().count(), 10);
    assert!(line(&text, 10).starts_with("9000001000001"));
}

#[test]
fn eleven_records_take_two_blocks() {
    let file = one_batch((0..7).map(|_| debit("031300012", 5)).collect()).build().unwrap();
    assert_eq!(file.control.block_count, 2);
    assert_eq!(moneydesk_nacha::write(&file).unwrap().lines().count(), 20);
}

#[test]
fn trace_numbers_run_across_batches_from_the_chosen_start() {
    let mut builder = common::sample_builder();
    builder.first_trace_sequence(500);
    let file = builder.build().unwrap();
    let traces: Vec<String> = file.entries().map(|(_, e)| e.detail.trace_number.to_string()).collect();
    assert_eq!(traces, ["121042880000500", "121042880000501", "121042880000502", "121042880000503"]);
    assert_eq!(file.batches[0].entries[0].addenda[0].entry_detail_sequence_number, 500);
}

#[test]
fn a_built_file_passes_validation() {
    assert_eq!(moneydesk_nacha::validate(&sample_file()), []);
    assert!(moneydesk_nacha::parse(&sample_text()).is_valid());
}
