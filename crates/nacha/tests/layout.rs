//! Every field of a written file sits at its NACHA position, justified and filled by the rules.

mod common;

use common::{positions, sample_line, sample_text};
use moneydesk_nacha::LineEnding;

#[test]
fn every_line_is_94_characters_and_ends_with_a_line_feed() {
    let text = sample_text();
    assert!(text.ends_with('\n') && !text.contains('\r'));
    assert!(text.split_terminator('\n').all(|l| l.len() == 94));
}

#[test]
fn crlf_line_endings_are_available_and_change_nothing_else() {
    let file = common::sample_file();
    let crlf = moneydesk_nacha::write_with(&file, LineEnding::CrLf).unwrap();
    assert_eq!(crlf, sample_text().replace('\n', "\r\n"));
}

#[test]
fn the_file_header_has_its_constants_the_destination_and_origin_after_a_blank_and_the_creation_stamp() {
    let header = &sample_line(1);
    assert_eq!(positions(header, 1, 1), "1");
    assert_eq!(positions(header, 2, 3), "01", "priority code");
    assert_eq!(positions(header, 4, 13), " 231380104", "immediate destination");
    assert_eq!(positions(header, 14, 23), " 121042882", "immediate origin");
    assert_eq!(positions(header, 24, 29), "251016", "file creation date");
    assert_eq!(positions(header, 30, 33), "1305", "file creation time");
    assert_eq!(positions(header, 34, 34), "A", "file ID modifier");
    assert_eq!(positions(header, 35, 37), "094", "record size");
    assert_eq!(positions(header, 38, 39), "10", "blocking factor");
    assert_eq!(positions(header, 40, 40), "1", "format code");
    assert_eq!(positions(header, 41, 63), "FEDERAL RESERVE BANK   ", "destination name, uppercased");
    assert_eq!(positions(header, 64, 86), "MONEYDESK              ", "origin name");
    assert_eq!(positions(header, 87, 94), "DAY0001 ", "reference code");
}

#[test]
fn the_batch_header_carries_the_originator_the_sec_code_and_the_effective_date() {
    let header = &sample_line(2);
    assert_eq!(positions(header, 1, 1), "5");
    assert_eq!(positions(header, 2, 4), "225", "service class: debits only");
    assert_eq!(positions(header, 5, 20), "MONEYDESK       ", "company name");
    assert_eq!(positions(header, 21, 40), " ".repeat(20), "company discretionary data");
    assert_eq!(positions(header, 41, 50), "1234567890", "company identification");
    assert_eq!(positions(header, 51, 53), "CCD", "standard entry class");
    assert_eq!(positions(header, 54, 63), "DEPOSIT   ", "company entry description");
    assert_eq!(positions(header, 64, 69), "      ", "company descriptive date");
    assert_eq!(positions(header, 70, 75), "251017", "effective entry date");
    assert_eq!(positions(header, 76, 78), "   ", "settlement date, left to the ACH operator");
    assert_eq!(positions(header, 79, 79), "1", "originator status code");
    assert_eq!(positions(header, 80, 87), "12104288", "originating DFI");
    assert_eq!(positions(header, 88, 94), "0000001", "batch number");
    assert_eq!(positions(&sample_line(7), 51, 53), "PPD");
    assert_eq!(positions(&sample_line(7), 88, 94), "0000002");
}

#[test]
fn the_entry_detail_puts_code_routing_account_amount_names_and_trace_at_their_positions() {
    let entry = &sample_line(3);
    assert_eq!(positions(entry, 1, 1), "6");
    assert_eq!(positions(entry, 2, 3), "27", "transaction code: checking debit");
    assert_eq!(positions(entry, 4, 11), "03130001", "receiving DFI identification, leading zero kept");
    assert_eq!(positions(entry, 12, 12), "2", "check digit");
    assert_eq!(positions(entry, 13, 29), "744567899        ", "account, left-justified");
    assert_eq!(positions(entry, 30, 39), "0000250000", "amount in cents, zero-filled");
    assert_eq!(positions(entry, 40, 54), "VENDOR-42      ", "identification number");
    assert_eq!(positions(entry, 55, 76), "ACME SUPPLIES         ", "receiving company name");
    assert_eq!(positions(entry, 77, 78), "  ", "discretionary data");
    assert_eq!(positions(entry, 79, 79), "1", "addenda record indicator");
    assert_eq!(positions(entry, 80, 94), "121042880000001", "trace number: ODFI and sequence");

    let savings = &sample_line(5);
    assert_eq!(positions(savings, 2, 3), "37", "savings debit");
    assert_eq!(positions(savings, 13, 29), "12345678901234567", "a 17-character account fills the field");
    assert_eq!(positions(savings, 30, 39), "0000000001");
    assert_eq!(positions(savings, 79, 79), "0");
    assert_eq!(positions(savings, 80, 94), "121042880000002");

    let largest = &sample_line(8);
    assert_eq!(positions(largest, 30, 39), "9999999999", "the largest entry amount");
    let prenote = &sample_line(9);
    assert_eq!(positions(prenote, 2, 3), "28");
    assert_eq!(positions(prenote, 30, 39), "0000000000");
}

#[test]
fn the_addenda_carries_type_05_the_text_and_both_sequence_numbers() {
    let addenda = &sample_line(4);
    assert_eq!(positions(addenda, 1, 3), "705");
    assert_eq!(positions(addenda, 4, 83), format!("{:80}", "DEPOSIT 9F3A"));
    assert_eq!(positions(addenda, 84, 87), "0001", "addenda sequence number");
    assert_eq!(positions(addenda, 88, 94), "0000001", "entry detail sequence number = its trace's last 7");
}

#[test]
fn the_batch_control_repeats_the_header_and_carries_count_hash_and_totals() {
    let control = &sample_line(6);
    assert_eq!(positions(control, 1, 1), "8");
    assert_eq!(positions(control, 2, 4), "225");
    assert_eq!(positions(control, 5, 10), "000003", "two entries and one addenda");
    assert_eq!(positions(control, 11, 20), "0009233601", "03130001 + 06103600");
    assert_eq!(positions(control, 21, 32), "000000250001", "total debit");
    assert_eq!(positions(control, 33, 44), "000000000000", "total credit");
    assert_eq!(positions(control, 45, 54), "1234567890");
    assert_eq!(positions(control, 55, 73), " ".repeat(19), "message authentication code");
    assert_eq!(positions(control, 74, 79), " ".repeat(6), "reserved");
    assert_eq!(positions(control, 80, 87), "12104288");
    assert_eq!(positions(control, 88, 94), "0000001");
}

#[test]
fn the_file_control_carries_batch_and_block_counts_the_hash_and_the_totals() {
    let control = &sample_line(11);
    assert_eq!(positions(control, 1, 1), "9");
    assert_eq!(positions(control, 2, 7), "000002", "batch count");
    assert_eq!(positions(control, 8, 13), "000002", "block count");
    assert_eq!(positions(control, 14, 21), "00000005", "entry/addenda count");
    assert_eq!(positions(control, 22, 31), "0033471612", "entry hash");
    assert_eq!(positions(control, 32, 43), "010000250000", "total debit: $100,002,500.00");
    assert_eq!(positions(control, 44, 55), "000000000000", "total credit");
    assert_eq!(positions(control, 56, 94), " ".repeat(39), "reserved");
}
