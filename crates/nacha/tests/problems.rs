//! The reader finds each kind of problem and says where: line, record and field.

mod common;

use common::{sample_text, with_field, without_line};
use moneydesk_nacha::{parse, Problem, ProblemKind, RecordType};

/// The problems found in a text, as (line, record, field, kind).
fn found(text: &str) -> Vec<(usize, Option<RecordType>, &'static str, ProblemKind)> {
    parse(text).problems.iter().map(|p| (p.line, p.record, p.field, p.kind)).collect()
}

fn only(
    line: usize,
    record: RecordType,
    field: &'static str,
    kind: ProblemKind,
) -> Vec<(usize, Option<RecordType>, &'static str, ProblemKind)> {
    vec![(line, Some(record), field, kind)]
}

#[test]
fn a_wrong_check_digit_on_an_entry_is_reported_at_its_line() {
    // 031300012 with a 3 instead of a 2.
    let text = with_field(&sample_text(), 3, 12, "3");
    assert_eq!(found(&text), only(3, RecordType::EntryDetail, "Check Digit", ProblemKind::CheckDigit));
    let parsed = parse(&text);
    assert!(parsed.file.is_some(), "a field problem does not stop reading");
    assert!(parsed.problems[0].message.contains("03130001"), "{}", parsed.problems[0].message);
}

#[test]
fn a_wrong_check_digit_in_the_immediate_destination_is_reported() {
    let text = with_field(&sample_text(), 1, 13, "5");
    assert_eq!(found(&text), only(1, RecordType::FileHeader, "Immediate Destination", ProblemKind::CheckDigit));
}

#[test]
fn a_ten_digit_immediate_origin_is_not_taken_for_a_routing_number() {
    let text = with_field(&sample_text(), 1, 14, "1234567890");
    assert_eq!(found(&text), []);
}

#[test]
fn a_wrong_entry_hash_is_reported_in_the_batch_control() {
    let text = with_field(&sample_text(), 6, 11, "0009233602");
    assert_eq!(found(&text), only(6, RecordType::BatchControl, "Entry Hash", ProblemKind::Mismatch));
}

#[test]
fn a_wrong_entry_hash_in_the_file_control_is_reported_there() {
    let text = with_field(&sample_text(), 11, 22, "0033471613");
    assert_eq!(found(&text), only(11, RecordType::FileControl, "Entry Hash", ProblemKind::Mismatch));
}

#[test]
fn a_wrong_total_is_reported_in_the_batch_control() {
    let text = with_field(&sample_text(), 6, 21, "000000250002");
    assert_eq!(
        found(&text),
        only(6, RecordType::BatchControl, "Total Debit Entry Dollar Amount", ProblemKind::Mismatch)
    );
}

#[test]
fn a_changed_amount_shows_up_in_both_the_batch_and_the_file_totals() {
    let text = with_field(&sample_text(), 5, 30, "0000000002");
    assert_eq!(
        found(&text),
        [
            (6, Some(RecordType::BatchControl), "Total Debit Entry Dollar Amount", ProblemKind::Mismatch),
            (11, Some(RecordType::FileControl), "Total Debit Entry Dollar Amount in File", ProblemKind::Mismatch),
        ]
    );
}

#[test]
fn a_wrong_count_is_reported_in_the_file_control() {
    let text = with_field(&sample_text(), 11, 14, "00000006");
    assert_eq!(found(&text), only(11, RecordType::FileControl, "Entry/Addenda Count", ProblemKind::Mismatch));
    let text = with_field(&sample_text(), 10, 5, "000001");
    assert_eq!(found(&text), only(10, RecordType::BatchControl, "Entry/Addenda Count", ProblemKind::Mismatch));
}

#[test]
fn a_wrong_batch_or_block_count_is_reported() {
    let text = with_field(&sample_text(), 11, 2, "000003");
    assert_eq!(found(&text), only(11, RecordType::FileControl, "Batch Count", ProblemKind::Mismatch));
    let text = with_field(&sample_text(), 11, 8, "000003");
    assert_eq!(found(&text), only(11, RecordType::FileControl, "Block Count", ProblemKind::Mismatch));
}

#[test]
fn a_short_line_stops_reading_and_keeps_what_was_found_before_it() {
    let text = with_field(&sample_text(), 3, 30, "00000A0000");
    let mut lines: Vec<&str> = text.lines().collect();
    lines[4] = &lines[4][..93];
    let parsed = parse(&(lines.join("\n") + "\n"));
    assert_eq!(parsed.file, None);
    let problems: Vec<_> = parsed.problems.iter().map(|p| (p.line, p.field, p.kind)).collect();
    assert_eq!(problems, [(3, "Amount", ProblemKind::NotNumeric), (5, "Record Length", ProblemKind::LineLength)]);
    assert_eq!(parsed.fatal().map(|p| p.line), Some(5));
    assert_eq!(parsed.problems[1].record, Some(RecordType::EntryDetail));
    assert!(parsed.problems[1].message.contains("93"));
}

#[test]
fn a_long_line_stops_reading_too() {
    let text = sample_text().replacen('\n', " \n", 1);
    assert_eq!(found(&text), only(1, RecordType::FileHeader, "Record Length", ProblemKind::LineLength));
}

#[test]
fn a_bad_transaction_code_is_reported_once_without_knock_on_totals() {
    let text = with_field(&sample_text(), 5, 2, "25");
    assert_eq!(found(&text), only(5, RecordType::EntryDetail, "Transaction Code", ProblemKind::InvalidCode));
}

#[test]
fn a_credit_in_a_debits_only_batch_is_not_allowed() {
    let text = with_field(&sample_text(), 3, 2, "22");
    let problems = found(&text);
    assert!(problems.contains(&(3, Some(RecordType::EntryDetail), "Transaction Code", ProblemKind::NotAllowed)));
    // The credit also leaves the batch's stated totals wrong.
    assert!(problems.contains(&(
        6,
        Some(RecordType::BatchControl),
        "Total Credit Entry Dollar Amount",
        ProblemKind::Mismatch
    )));
}

#[test]
fn a_prenote_with_an_amount_is_not_allowed() {
    let text = with_field(&sample_text(), 9, 30, "0000000001");
    assert!(found(&text).contains(&(9, Some(RecordType::EntryDetail), "Amount", ProblemKind::NotAllowed)));
}

#[test]
fn a_non_numeric_amount_is_reported_once() {
    let text = with_field(&sample_text(), 5, 30, "00000000X1");
    assert_eq!(found(&text), only(5, RecordType::EntryDetail, "Amount", ProblemKind::NotNumeric));
}

#[test]
fn an_impossible_date_is_reported() {
    let text = with_field(&sample_text(), 2, 70, "251317");
    assert_eq!(found(&text), only(2, RecordType::BatchHeader, "Effective Entry Date", ProblemKind::InvalidDate));
    let text = with_field(&sample_text(), 1, 30, "2461");
    assert_eq!(found(&text), only(1, RecordType::FileHeader, "File Creation Time", ProblemKind::InvalidDate));
}

#[test]
fn the_file_header_constants_are_checked() {
    for (at, value, field) in [
        (2, "02", "Priority Code"),
        (35, "095", "Record Size"),
        (38, "20", "Blocking Factor"),
        (40, "2", "Format Code"),
        (34, "a", "File ID Modifier"),
    ] {
        let text = with_field(&sample_text(), 1, at, value);
        assert_eq!(found(&text), only(1, RecordType::FileHeader, field, ProblemKind::InvalidCode), "{field}");
    }
}

#[test]
fn only_ccd_and_ppd_in_uppercase_are_accepted() {
    for sec in ["WEB", "ccd"] {
        let text = with_field(&sample_text(), 2, 51, sec);
        assert_eq!(
            found(&text),
            only(2, RecordType::BatchHeader, "Standard Entry Class Code", ProblemKind::InvalidCode)
        );
    }
}

#[test]
fn service_class_codes_other_than_200_220_225_are_refused() {
    let text = with_field(&with_field(&sample_text(), 2, 2, "280"), 6, 2, "280");
    let problems = found(&text);
    assert!(problems.contains(&(2, Some(RecordType::BatchHeader), "Service Class Code", ProblemKind::InvalidCode)));
    assert!(problems.contains(&(6, Some(RecordType::BatchControl), "Service Class Code", ProblemKind::InvalidCode)));
    assert_eq!(problems.len(), 2);
}

#[test]
fn a_batch_control_that_does_not_repeat_its_header_is_reported() {
    let text = with_field(&sample_text(), 6, 45, "1234567891");
    assert_eq!(found(&text), only(6, RecordType::BatchControl, "Company Identification", ProblemKind::Mismatch));
    let text = with_field(&sample_text(), 6, 88, "0000009");
    assert_eq!(found(&text), only(6, RecordType::BatchControl, "Batch Number", ProblemKind::Mismatch));
}

#[test]
fn an_addenda_indicator_that_disagrees_with_the_records_is_reported() {
    let text = with_field(&sample_text(), 3, 79, "0");
    assert_eq!(found(&text), only(3, RecordType::EntryDetail, "Addenda Record Indicator", ProblemKind::Mismatch));
    let text = with_field(&sample_text(), 5, 79, "1");
    assert_eq!(found(&text), only(5, RecordType::EntryDetail, "Addenda Record Indicator", ProblemKind::Mismatch));
}

#[test]
fn addenda_sequence_numbers_must_match_their_entry() {
    let text = with_field(&sample_text(), 4, 88, "0000002");
    assert_eq!(found(&text), only(4, RecordType::Addenda, "Entry Detail Sequence Number", ProblemKind::Mismatch));
    let text = with_field(&sample_text(), 4, 84, "0002");
    assert_eq!(found(&text), only(4, RecordType::Addenda, "Addenda Sequence Number", ProblemKind::Sequence));
    let text = with_field(&sample_text(), 4, 2, "99");
    assert_eq!(found(&text), only(4, RecordType::Addenda, "Addenda Type Code", ProblemKind::InvalidCode));
}

#[test]
fn trace_numbers_must_start_with_the_odfi_ascend_and_be_unique() {
    let text = with_field(&sample_text(), 8, 80, "031300010000003");
    assert_eq!(found(&text), only(8, RecordType::EntryDetail, "Trace Number", ProblemKind::Mismatch));
    // Line 5 reuses line 3's trace number.
    let text = with_field(&sample_text(), 5, 80, "121042880000001");
    assert_eq!(found(&text), only(5, RecordType::EntryDetail, "Trace Number", ProblemKind::Sequence));
    // Line 9 goes backwards (and so does the batch's order).
    let text = with_field(&sample_text(), 9, 80, "121042880000000");
    assert_eq!(found(&text), only(9, RecordType::EntryDetail, "Trace Number", ProblemKind::Sequence));
}

#[test]
fn batch_numbers_must_ascend() {
    let text = with_field(&with_field(&sample_text(), 7, 88, "0000001"), 10, 88, "0000001");
    assert_eq!(found(&text), only(7, RecordType::BatchHeader, "Batch Number", ProblemKind::Sequence));
}

#[test]
fn required_fields_must_not_be_blank() {
    let text = with_field(&sample_text(), 8, 55, &" ".repeat(22));
    assert_eq!(found(&text), only(8, RecordType::EntryDetail, "Individual Name", ProblemKind::Missing));
    let text = with_field(&sample_text(), 3, 55, &" ".repeat(22));
    assert_eq!(found(&text), only(3, RecordType::EntryDetail, "Receiving Company Name", ProblemKind::Missing));
}

#[test]
fn characters_outside_printable_ascii_are_reported_in_their_field() {
    let text = sample_text().replacen("ACME SUPPLIES", "ACME SUPPLIÉS", 1);
    // É is one character (two bytes): the line is still 94 characters long.
    assert_eq!(common::line(&text, 3).chars().count(), 94);
    assert_eq!(found(&text), only(3, RecordType::EntryDetail, "Receiving Company Name", ProblemKind::Character));
    let text = sample_text().replacen("ACME SUPPLIES", "ACME\tSUPPLIES", 1);
    assert_eq!(found(&text), only(3, RecordType::EntryDetail, "Receiving Company Name", ProblemKind::Character));
}

#[test]
fn lines_that_are_not_padding_after_the_file_control_are_a_blocking_problem() {
    let text = with_field(&sample_text(), 15, 40, "8");
    assert_eq!(found(&text), only(15, RecordType::Padding, "Padding", ProblemKind::Blocking));
}

#[test]
fn a_file_that_is_not_a_multiple_of_ten_lines_is_a_blocking_problem() {
    let text = without_line(&sample_text(), 20);
    assert_eq!(found(&text), only(19, RecordType::Padding, "Padding", ProblemKind::Blocking));
}

#[test]
fn an_unknown_record_type_stops_reading() {
    let text = with_field(&sample_text(), 7, 1, "4");
    let parsed = parse(&text);
    assert_eq!(parsed.file, None);
    assert_eq!(found(&text), [(7, None, "Record Type Code", ProblemKind::Structure)]);
}

#[test]
fn records_out_of_order_stop_reading() {
    // Without its batch header, batch 2's first entry follows a batch control.
    assert_eq!(
        found(&without_line(&sample_text(), 7)),
        only(7, RecordType::EntryDetail, "Record Type Code", ProblemKind::Structure)
    );
    // Without batch 2's control, the file control comes inside a batch.
    assert_eq!(
        found(&without_line(&sample_text(), 10)),
        only(10, RecordType::FileControl, "Record Type Code", ProblemKind::Structure)
    );
    // An addenda right after a batch header has no entry to belong to.
    let text = with_field(&sample_text(), 8, 1, "705");
    assert!(found(&text).contains(&(8, Some(RecordType::Addenda), "Record Type Code", ProblemKind::Structure)));
    // No file header at all.
    assert_eq!(
        found(&without_line(&sample_text(), 1)),
        only(1, RecordType::BatchHeader, "Record Type Code", ProblemKind::Structure)
    );
}

#[test]
fn a_file_that_ends_early_stops_reading() {
    let first_six: String = sample_text().lines().take(6).map(|l| format!("{l}\n")).collect();
    assert_eq!(found(&first_six)[0].3, ProblemKind::Structure);
    assert_eq!(found("")[0].3, ProblemKind::Structure);
}

#[test]
fn all_problems_are_collected_in_line_order() {
    let text = with_field(&sample_text(), 11, 2, "000009");
    let text = with_field(&text, 3, 12, "9");
    let text = with_field(&text, 2, 70, "259999");
    let lines: Vec<usize> = parse(&text).problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, [2, 3, 11]);
}

#[test]
fn a_problem_reads_as_a_sentence_with_line_record_and_field() {
    let problem: Problem = parse(&with_field(&sample_text(), 6, 11, "0009233602")).problems.remove(0);
    assert_eq!(
        problem.to_string(),
        "line 6 (batch control), Entry Hash: is 9233602, but the sum of the batch's receiving DFI \
         identifications (last ten digits) is 9233601"
    );
}

#[test]
fn crlf_no_final_line_ending_and_no_line_breaks_at_all_read_the_same() {
    let text = sample_text();
    let expected = parse(&text);
    assert!(expected.is_valid());
    assert_eq!(parse(&text.replace('\n', "\r\n")), expected);
    assert_eq!(parse(text.trim_end()), expected);
    assert_eq!(parse(&text.replace('\n', "")), expected);
    assert_eq!(moneydesk_nacha::read(text.as_bytes()).unwrap(), expected);
}
