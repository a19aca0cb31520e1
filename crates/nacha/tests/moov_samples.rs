//! Files written by moov-io/ach (see data/README.md) read cleanly, and writing what was read
//! gives back the same file.

use moneydesk_nacha::{parse, AchFile, Sec, ServiceClass, TransactionCode};

const PPD_DEBIT: &str = include_str!("data/moov-ppd-debit.ach");
const CCD_DEBIT: &str = include_str!("data/moov-ccd-debit.ach");
const PPD_CREDIT_ADDENDA: &str = include_str!("data/moov-ppd-credit-addenda.ach");

fn read_cleanly(text: &str) -> AchFile {
    let parsed = parse(text);
    assert_eq!(parsed.problems, []);
    parsed.file.unwrap()
}

/// moov ends the last line without a line break; ours ends every line with one.
fn assert_written_back_identically(file: &AchFile, original: &str) {
    assert_eq!(moneydesk_nacha::write(file).unwrap(), format!("{}\n", original.trim_end_matches('\n')));
}

#[test]
fn moovs_ppd_debit_reads_without_problems_and_writes_back_identically() {
    let file = read_cleanly(PPD_DEBIT);
    assert_eq!(file.header.immediate_destination, " 031300012");
    assert_eq!(file.header.immediate_origin, "0231380104", "moov's ten-digit origin");
    assert_eq!(file.header.immediate_destination_name, "Federal Reserve Bank", "lowercase is allowed in names");
    let batch = &file.batches[0];
    assert_eq!((batch.header.sec, batch.header.service_class), (Sec::Ppd, ServiceClass::DebitsOnly));
    assert_eq!(batch.header.company_entry_description, "REG.SALARY");
    let entry = &batch.entries[0].detail;
    assert_eq!(entry.transaction_code, TransactionCode::CheckingDebit);
    assert_eq!(entry.routing_number(), "231380104");
    assert_eq!(entry.amount, 200_000_000, "$2,000,000.00 in cents");
    assert_eq!(entry.individual_name, "Debit Account");
    assert_eq!(entry.trace_number.to_string(), "121042880000001");
    assert_eq!(file.control.block_count, 1);
    assert_written_back_identically(&file, PPD_DEBIT);
}

#[test]
fn moovs_ccd_debit_reads_without_problems_and_writes_back_identically() {
    let file = read_cleanly(CCD_DEBIT);
    let batch = &file.batches[0];
    assert_eq!(batch.header.sec, Sec::Ccd);
    let amounts: Vec<u64> = batch.entries.iter().map(|e| e.detail.amount).collect();
    assert_eq!(amounts, [500_000, 125]);
    assert_eq!(batch.entries[0].detail.individual_name, "Best Co. #123456789012");
    assert_eq!(batch.entries[0].detail.dfi_account_number, "744-5678-99");
    assert_eq!(batch.control.entry_hash, 46_276_020);
    assert_eq!(file.header.reference_code, "12345678");
    assert_written_back_identically(&file, CCD_DEBIT);
}

#[test]
fn moovs_ppd_entries_with_addenda_read_without_problems_and_write_back_identically() {
    let file = read_cleanly(PPD_CREDIT_ADDENDA);
    let batch = &file.batches[0];
    assert_eq!(batch.header.service_class, ServiceClass::Mixed);
    assert_eq!(batch.entries.len(), 3);
    for (i, entry) in batch.entries.iter().enumerate() {
        assert_eq!(entry.detail.transaction_code, TransactionCode::CheckingCredit);
        assert_eq!(entry.addenda.len(), 1);
        assert_eq!(entry.addenda[0].payment_related_information, "bonus pay for amazing work on #OSS");
        assert_eq!(entry.addenda[0].entry_detail_sequence_number, i as u32 + 1);
    }
    assert_eq!(file.control.total_credit, 300_000);
    assert_written_back_identically(&file, PPD_CREDIT_ADDENDA);
}

#[test]
fn where_moov_is_lax_about_check_digits_this_reader_is_not() {
    // moov's sample with the entry's check digit changed from 4 to 7.
    let text = PPD_DEBIT.replacen("627231380104", "627231380107", 1);
    let parsed = parse(&text);
    let problems: Vec<_> = parsed.problems.iter().map(|p| (p.line, p.field)).collect();
    assert_eq!(problems, [(3, "Check Digit")]);
}
