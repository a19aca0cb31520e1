//! A bad check digit, a wrong count and a truncated file, each refused (by the writer) or
//! reported (by the reader) with the record number; and the writer's other refusals.

mod common;

use common::*;
use moneydesk_x9::*;

fn writer_in_bundle() -> Writer<Vec<u8>> {
    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &file_header("35")).unwrap();
    w.start_cash_letter(&cash_letter_header("CL1")).unwrap();
    w.start_bundle(&bundle_header("B1")).unwrap();
    w
}

#[test]
fn the_writer_refuses_a_payor_routing_number_whose_check_digit_is_wrong() {
    let mut w = writer_in_bundle();
    let mut bad = item(1, 100, vec![1; 10], vec![2; 10]);
    bad.detail.payor_bank_check_digit = "2".into();
    let err = w.add_item(&bad).unwrap_err();
    let p = &err.problems()[0];
    assert_eq!((p.record, p.record_type.as_str()), (RecordNumber(4), "25"));
    assert_eq!(p.field, Some("Payor Bank Routing Number Check Digit"));
    assert!(p.message.contains("should be 1"), "{p}");
    // Nothing was written: the next item is record 4, and the file is valid.
    assert_eq!(w.record_count(), 3);
    w.add_item(&item(1, 100, vec![1; 10], vec![2; 10])).unwrap();
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    let (_, problems) = read_file(&w.finish(FileControl::default()).unwrap());
    assert!(problems.is_empty(), "{:?}", shown(&problems));
}

#[test]
fn the_writer_refuses_a_header_routing_number_whose_check_digit_is_wrong() {
    let mut header = file_header("03");
    header.immediate_origin_routing_number = "026073151".into();
    let Err(err) = Writer::new(Vec::new(), Encoding::Ascii, &header) else { panic!("accepted") };
    let p = &err.problems()[0];
    assert_eq!(
        (p.record, p.record_type.as_str(), p.field),
        (RecordNumber(1), "01", Some("Immediate Origin Routing Number"))
    );
}

#[test]
fn the_reader_reports_a_check_digit_made_wrong_in_the_file() {
    let mut bytes = sample(Encoding::Ebcdic);
    let number = numbers_of(&bytes, "25")[4];
    bump_digit(&mut bytes, number, 27);
    let (_, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 1, "{:?}", shown(&problems));
    let p = &problems[0];
    assert_eq!((p.record, p.record_type.as_str()), (RecordNumber(number), "25"));
    assert_eq!(p.field, Some("Payor Bank Routing Number Check Digit"));
}

#[test]
fn the_reader_reports_an_addendum_count_that_does_not_match_the_addenda() {
    let mut bytes = sample(Encoding::Ascii);
    let number = numbers_of(&bytes, "25")[0];
    bump_digit(&mut bytes, number, 78);
    let (_, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 1, "{:?}", shown(&problems));
    let p = &problems[0];
    assert_eq!((p.record, p.record_type.as_str()), (RecordNumber(number), "25"));
    assert_eq!(p.field, Some("Check Detail Record Addendum Count"));
    assert!(p.message.contains("is 2 but 1 addendum"), "{p}");
}

#[test]
fn the_reader_reports_an_image_size_that_does_not_match_the_image() {
    let mut bytes = sample(Encoding::Ascii);
    let number = numbers_of(&bytes, "50")[3];
    bump_digit(&mut bytes, number, 31);
    let (_, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 1, "{:?}", shown(&problems));
    assert_eq!((problems[0].record, problems[0].field), (RecordNumber(number), Some("Image View Data Size")));
}

#[test]
fn a_file_cut_inside_a_record_stops_the_reader_at_that_record() {
    let bytes = sample(Encoding::Ascii);
    let frames = frames(&bytes);
    // Cut in the middle of record 7 (an image view data) and inside record 9's prefix.
    for (cut, number) in [(frames[6].0 + 50, 7), (frames[8].0 - 2, 9)] {
        let mut reader = Reader::new(&bytes[..cut]);
        let err = loop {
            match reader.next_record() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("read to the end"),
                Err(e) => break e,
            }
        };
        let Error::Structure { record, message } = &err else { panic!("{err}") };
        assert_eq!(*record, RecordNumber(number), "{message}");
        assert!(reader.next_record().unwrap().is_none(), "the reader stops after a structural error");

        let (file, problems) = read_file(&bytes[..cut]);
        let last = problems.last().unwrap();
        assert_eq!(last.record, RecordNumber(number), "{last}");
        assert!(last.message.contains("the file ends inside"), "{last}");
        assert_eq!(file.items().count(), 1, "what came before the cut is kept");
    }
}

#[test]
fn a_file_cut_between_records_lacks_its_controls() {
    let bytes = sample(Encoding::Ascii);
    let (at, _) = frames(&bytes)[10];
    let (_, problems) = read_file(&bytes[..at - 4]);
    let last = problems.last().unwrap();
    assert_eq!(last.record, RecordNumber(11));
    assert!(last.message.contains("without a file control"), "{last}");
}

#[test]
fn a_length_prefix_no_record_can_have_is_a_structural_error() {
    let mut bytes = sample(Encoding::Ascii);
    let (at, _) = frames(&bytes)[2];
    bytes[at - 4] = 0x7F;
    let (_, problems) = read_file(&bytes);
    let last = problems.last().unwrap();
    assert_eq!(last.record, RecordNumber(3));
    assert!(last.message.contains("more than any X9 record"), "{last}");
}

#[test]
fn a_file_that_is_not_x9_is_refused_at_record_1() {
    let (file, problems) = read_file(b"\0\0\0\x04%PDF");
    assert_eq!(file.header, None);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].record, RecordNumber(1));
    assert!(problems[0].message.contains("not an X9 file"));
}

#[test]
fn the_writer_refuses_duplicate_ids() {
    let mut w = writer_in_bundle();
    w.add_item(&item(7, 100, vec![1], vec![2])).unwrap();
    let err = w.add_item(&item(7, 200, vec![1], vec![2])).unwrap_err();
    assert_eq!(err.problems()[0].field, Some("ECE Institution Item Sequence Number"));
    w.finish_bundle().unwrap();
    let err = w.start_bundle(&bundle_header("B1")).unwrap_err();
    assert_eq!(err.problems()[0].field, Some("Bundle ID"));
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    let err = w.start_cash_letter(&cash_letter_header("CL1")).unwrap_err();
    assert_eq!((err.problems()[0].record, err.problems()[0].field), (RecordNumber(12), Some("Cash Letter ID")));
}

#[test]
fn the_writer_refuses_calls_out_of_order() {
    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &file_header("35")).unwrap();
    assert!(matches!(w.add_item(&item(1, 1, vec![], vec![])), Err(Error::Order(_))));
    assert!(matches!(w.start_bundle(&bundle_header("B")), Err(Error::Order(_))));
    w.start_cash_letter(&cash_letter_header("C")).unwrap();
    assert!(matches!(w.finish_bundle(), Err(Error::Order(_))));
    assert!(matches!(w.finish(FileControl::default()), Err(Error::Order(_))));
}

#[test]
fn the_writer_refuses_an_amount_too_large_and_characters_outside_the_standard() {
    let mut w = writer_in_bundle();
    let big = item(1, MAX_ITEM_AMOUNT + 1, vec![], vec![]);
    assert_eq!(w.add_item(&big).unwrap_err().problems()[0].field, Some("Item Amount"));
    let mut accented = item(2, 1, vec![], vec![]);
    accented.addenda[0].payee_name = "CAFÉ".into();
    let err = w.add_item(&accented).unwrap_err();
    assert_eq!((err.problems()[0].record, err.problems()[0].field), (RecordNumber(5), Some("Payee Name")));
    let mut letters = item(3, 1, vec![], vec![]);
    letters.detail.on_us = "12AB/".into();
    assert_eq!(w.add_item(&letters).unwrap_err().problems()[0].field, Some("On-Us"));
}

#[test]
fn the_writer_refuses_image_data_that_contradicts_its_bundle() {
    let mut w = writer_in_bundle();
    let mut it = item(1, 1, vec![1], vec![2]);
    it.images[1].data.as_mut().unwrap().cycle_number = "77".into();
    let err = w.add_item(&it).unwrap_err();
    let p = &err.problems()[0];
    assert_eq!((p.record, p.record_type.as_str(), p.field), (RecordNumber(9), "52", Some("Cycle Number")));
}

#[test]
fn the_writer_refuses_more_addenda_a_than_one_digit_numbers() {
    let mut w = writer_in_bundle();
    let mut it = item(1, 1, vec![1], vec![2]);
    it.addenda = vec![it.addenda[0].clone(); 10];
    let err = w.add_item(&it).unwrap_err();
    assert_eq!(err.problems()[0].field, Some("Check Detail Record Addendum Count"));
    it.addenda.truncate(9);
    w.add_item(&it).unwrap();
}
