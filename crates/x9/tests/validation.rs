//! What the reader's validation finds besides controls and check digits: record order,
//! unique ids, the links of an image to its bundle and item, and record types kept raw.

mod common;

use common::*;
use moneydesk_x9::*;

/// The file with record `number` removed.
fn without(bytes: &[u8], number: u64) -> Vec<u8> {
    let (at, len) = frames(bytes)[number as usize - 1];
    [&bytes[..at - 4], &bytes[at + len..]].concat()
}

/// The file with `record` (ASCII) inserted before record `number`.
fn with_inserted(bytes: &[u8], number: u64, record: &[u8]) -> Vec<u8> {
    let (at, _) = frames(bytes)[number as usize - 1];
    [&bytes[..at - 4], &(record.len() as u32).to_be_bytes(), record, &bytes[at - 4..]].concat()
}

fn set_byte(bytes: &mut [u8], number: u64, position: usize, value: u8) {
    let (at, _) = frames(bytes)[number as usize - 1];
    bytes[at + position - 1] = value;
}

fn has(problems: &[Problem], number: u64, record_type: &str, field: Option<&str>, words: &str) -> bool {
    problems.iter().any(|p| {
        p.record == RecordNumber(number)
            && p.record_type == record_type
            && p.field == field
            && p.message.contains(words)
    })
}

#[test]
fn a_user_record_is_kept_raw_and_only_noted() {
    let bytes = sample(Encoding::Ascii);
    let user = format!("68{:78}", "1 hello from a user record");
    let bytes = with_inserted(&bytes, 4, user.as_bytes());
    let (file, problems) = read_file(&bytes);
    // The file control's record count is now one short: the only error.
    let errors: Vec<_> = problems.iter().filter(|p| p.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", shown(&problems));
    assert_eq!(errors[0].field, Some("Total Record Count"));
    let notes: Vec<_> = problems.iter().filter(|p| !p.is_error()).collect();
    assert_eq!(notes.len(), 1);
    assert_eq!((notes[0].record, notes[0].record_type.as_str()), (RecordNumber(4), "68"));
    assert!(notes[0].to_string().starts_with("note: record 4 (type 68 user record)"), "{}", notes[0]);
    let (number, raw) = &file.other_records[0];
    assert_eq!(*number, RecordNumber(4));
    assert!(raw.text().contains("hello from a user record"));
}

#[test]
fn an_image_view_detail_without_its_data_is_reported_at_the_detail() {
    let bytes = without(&sample(Encoding::Ascii), 7);
    let (file, problems) = read_file(&bytes);
    assert!(has(&problems, 6, "50", None, "without its image view data"), "{:?}", shown(&problems));
    let item = file.items().next().unwrap();
    assert_eq!(item.images[0].data, None);
    assert!(item.images[1].data.is_some());
}

#[test]
fn an_addendum_after_the_images_is_out_of_place() {
    let bytes = sample(Encoding::Ascii);
    let (at, len) = frames(&bytes)[4];
    let addendum = bytes[at..at + len].to_vec();
    let bytes = with_inserted(&without(&bytes, 5), 8, &addendum);
    let (_, problems) = read_file(&bytes);
    assert!(has(&problems, 8, "26", None, "after the item's images"), "{:?}", shown(&problems));
}

#[test]
fn records_missing_their_control_are_reported_where_the_next_group_starts() {
    let bytes = sample(Encoding::Ascii);
    let control = numbers_of(&bytes, "70")[0];
    let (_, problems) = read_file(&without(&bytes, control));
    assert!(has(&problems, control, "20", None, "before the bundle control"), "{:?}", shown(&problems));
}

#[test]
fn duplicate_bundle_ids_cash_letter_ids_and_sequence_numbers_are_reported() {
    let clean = sample(Encoding::Ascii);
    let mut bytes = clean.clone();
    let second_bundle = numbers_of(&bytes, "20")[1];
    set_byte(&mut bytes, second_bundle, 40, b'0');
    let second_letter = numbers_of(&bytes, "10")[1];
    set_byte(&mut bytes, second_letter, 47, b'0');
    let (_, problems) = read_file(&bytes);
    assert!(has(&problems, second_bundle, "20", Some("Bundle ID"), "\"B0\" is already"), "{:?}", shown(&problems));
    assert!(
        has(&problems, second_letter, "10", Some("Cash Letter ID"), "\"CL0\" is already"),
        "{:?}",
        shown(&problems)
    );
    assert_eq!(problems.len(), 2);

    let mut bytes = clean;
    let items = numbers_of(&bytes, "25");
    bump_digit(&mut bytes, items[1], 72); // item 2's sequence number becomes item 3's
    let (_, problems) = read_file(&bytes);
    assert!(
        has(&problems, items[2], "25", Some("ECE Institution Item Sequence Number"), "already"),
        "{:?}",
        shown(&problems)
    );
    // Its images still carry number 2, which is no longer their item's.
    assert!(has(
        &problems,
        items[1] + 3,
        "52",
        Some("ECE Institution Item Sequence Number"),
        "differs from the check detail's"
    ));
}

#[test]
fn an_unknown_code_is_reported_with_its_field() {
    let mut bytes = sample(Encoding::Ascii);
    let first = numbers_of(&bytes, "25")[0];
    set_byte(&mut bytes, first, 76, b'X'); // BOFD indicator
    let (_, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].field, Some("BOFD Indicator"));
    assert!(problems[0].message.contains("'X' is not a valid code"), "{}", problems[0]);
}

#[test]
fn an_empty_input_has_no_records() {
    let (file, problems) = read_file(&[]);
    assert_eq!(file, File::default());
    assert_eq!(shown(&problems), ["error: record 1: the file holds no records"]);
}

#[test]
fn the_validator_checks_records_from_anywhere() {
    let (file, _) = read_file(&sample(Encoding::Ascii));
    let mut v = Validator::new();
    v.check(RecordNumber(1), &Record::FileHeader(file.header.clone().unwrap()));
    v.check(RecordNumber(2), &Record::FileControl(FileControl { total_record_count: 2, ..FileControl::default() }));
    assert!(v.finish().is_empty());
}
