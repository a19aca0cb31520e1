//! Return files: written for fixtures and read back (records 31, 32, 33, 35 typed, controls
//! computed), and a malformed return record reported with its record number and field.

mod common;

use common::*;
use moneydesk_x9::*;

/// A returned check of `amount` cents, sequence `seq`, deposited as BOFD item `bofd_seq`.
fn returned(seq: u64, amount: u64, reason: char, bofd_seq: &str) -> ReturnItem {
    let mut detail = ReturnRecord {
        on_us: "1211-1234-56789/".into(),
        item_amount: amount,
        return_reason: reason,
        forward_bundle_date: "20231229".into(),
        ece_institution_item_sequence_number: format!("{seq:015}"),
        ..ReturnRecord::default()
    };
    detail.set_payor_bank_routing("122000661");
    let addendum_a = ReturnAddendumA {
        bofd_routing_number: ORIGIN.into(),
        bofd_business_date: "20231228".into(),
        bofd_item_sequence_number: bofd_seq.into(),
        deposit_account_number_at_bofd: "000123456789".into(),
        payee_name: "ACME CORP".into(),
        ..ReturnAddendumA::default()
    };
    ReturnItem { detail, addenda_a: vec![addendum_a], ..ReturnItem::default() }
}

fn return_bundle(id: &str) -> BundleHeader {
    BundleHeader { collection_type_indicator: "03".into(), ..bundle_header(id) }
}

fn return_file(encoding: Encoding, items: &[ReturnItem]) -> Vec<u8> {
    let mut w = Writer::new(Vec::new(), encoding, &file_header("35")).unwrap();
    let header = CashLetterHeader { collection_type_indicator: "03".into(), ..cash_letter_header("RET1") };
    w.start_cash_letter(&header).unwrap();
    w.start_bundle(&return_bundle("R1")).unwrap();
    for item in items {
        w.add_return(item).unwrap();
    }
    w.finish_bundle().unwrap();
    w.finish_cash_letter(CashLetterControl::default()).unwrap();
    w.finish(FileControl::default()).unwrap()
}

fn two_returns() -> Vec<ReturnItem> {
    let mut first = returned(1, 12_345, 'A', "000000000000042");
    first.addendum_b = Some(ReturnAddendumB {
        payor_bank_name: "FIRST PAYOR BANK".into(),
        payor_bank_business_date: "20240101".into(),
        payor_account_name: "JOHN DOE".into(),
        ..ReturnAddendumB::default()
    });
    first.addenda_d = vec![
        ReturnAddendumD {
            endorsing_bank_routing_number: DEST.into(),
            endorsement_date: "20240101".into(),
            endorsing_bank_identifier: '2',
            ..ReturnAddendumD::default()
        };
        2
    ];
    first.images = vec![
        Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, false), ImageViewData::new(vec![7; 300])),
        Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, true), ImageViewData::new(vec![8; 200])),
    ];
    vec![first, returned(2, 500, 'D', "000000000000043")]
}

#[test]
fn a_return_file_of_two_items_reads_back_as_written() {
    for encoding in [Encoding::Ascii, Encoding::Ebcdic] {
        let written = two_returns();
        let bytes = return_file(encoding, &written);
        let (file, problems) = read_file(&bytes);
        assert!(problems.is_empty(), "{:?}", shown(&problems));
        assert!(file.other_records.is_empty());
        assert_eq!(file.items().count(), 0);
        let read: Vec<_> = file.return_items().collect();
        assert_eq!(read.len(), 2);
        assert_eq!((read[0].record, read[1].record), (RecordNumber(4), RecordNumber(13)));
        // What the writer sets: the addendum counts and the addenda's numbers.
        assert_eq!((read[0].detail.addendum_count, read[1].detail.addendum_count), (4, 1));
        assert_eq!(read[0].addenda_d.iter().map(|d| d.record_number).collect::<Vec<_>>(), [1, 2]);
        for (r, w) in read.iter().zip(&written) {
            let detail = ReturnRecord { addendum_count: r.detail.addendum_count, ..w.detail.clone() };
            assert_eq!(r.detail, detail);
            assert_eq!((&r.addenda_a, &r.addendum_b), (&w.addenda_a, &w.addendum_b));
            assert_eq!(r.images.len(), w.images.len());
        }
        for (i, d) in written[0].addenda_d.iter().enumerate() {
            assert_eq!(read[0].addenda_d[i], ReturnAddendumD { record_number: i as u8 + 1, ..d.clone() });
        }
        assert_eq!(read[0].detail.payor_bank_routing(), "122000661");
        assert_eq!(read[0].detail.return_reason_meaning(), Some("Not Sufficient Funds"));
        assert_eq!(read[1].addenda_a[0].bofd_item_sequence_number, "000000000000043");
        assert_eq!(read[0].images[1].bytes(), Some(&[8u8; 200][..]));

        let bundle = &file.cash_letters[0].bundles[0];
        let control = bundle.control.as_ref().unwrap();
        assert_eq!((control.items_within_bundle_count, control.bundle_total_amount), (2, 12_845));
        assert_eq!((control.micr_valid_total_amount, control.images_within_bundle_count), (0, 2));
        let fc = file.control.as_ref().unwrap();
        assert_eq!((fc.total_item_count, fc.file_total_amount, fc.total_record_count), (2, 12_845, 17));
        assert_eq!(file.write_to(Vec::new(), encoding).unwrap(), bytes, "written again, byte for byte");
    }
}

#[test]
fn the_records_of_a_return_file_come_in_the_standards_order() {
    let bytes = return_file(Encoding::Ascii, &two_returns());
    let mut reader = Reader::new(bytes.as_slice());
    let mut types = Vec::new();
    while let Some((_, record)) = reader.next_record().unwrap() {
        types.push(record.record_type().to_owned());
    }
    let expected =
        ["01", "10", "20", "31", "32", "33", "35", "35", "50", "52", "50", "52", "31", "32", "70", "90", "99"];
    assert_eq!(types, expected);
}

#[test]
fn a_malformed_return_record_is_reported_with_its_number_and_field() {
    let mut bytes = return_file(Encoding::Ascii, &two_returns());
    let second = numbers_of(&bytes, "31")[1];
    let (at, _) = frames(&bytes)[second as usize - 1];
    bytes[at + 41] = b'0'; // position 42: the return reason, '0' is no code
    bytes[at + 50] = b'3'; // positions 46-53: the forward bundle date's month becomes 13
    let (file, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 2, "{:?}", shown(&problems));
    let field = |name: &str| problems.iter().find(|p| p.field == Some(name)).unwrap_or_else(|| panic!("{name}"));
    let reason = field("Return Reason");
    assert_eq!((reason.record, reason.record_type.as_str()), (RecordNumber(second), "31"));
    assert!(reason.message.contains("'0'"), "{reason}");
    assert_eq!(field("Forward Bundle Date").record, RecordNumber(second));
    // The item is still read, as it stands.
    assert_eq!(file.return_items().nth(1).unwrap().detail.return_reason, '0');
}

#[test]
fn the_writer_refuses_a_return_outside_a_return_bundle_and_a_bad_reason() {
    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &file_header("35")).unwrap();
    w.start_cash_letter(&cash_letter_header("CL1")).unwrap();
    w.start_bundle(&bundle_header("B1")).unwrap();
    let err = w.add_return(&returned(1, 100, 'A', "1")).unwrap_err();
    assert!(err.problems()[0].message.contains("collection type \"01\""), "{err}");

    let mut w = Writer::new(Vec::new(), Encoding::Ascii, &file_header("35")).unwrap();
    let header = CashLetterHeader { collection_type_indicator: "03".into(), ..cash_letter_header("RET1") };
    w.start_cash_letter(&header).unwrap();
    w.start_bundle(&return_bundle("R1")).unwrap();
    let err = w.add_return(&returned(1, 100, '*', "1")).unwrap_err();
    let p = &err.problems()[0];
    assert_eq!((p.record, p.record_type.as_str(), p.field), (RecordNumber(4), "31", Some("Return Reason")));
}

#[test]
fn a_return_addendum_after_a_check_detail_is_out_of_place() {
    let mut bytes = write(Encoding::Ascii, "35", &[vec![vec![item(1, 100, vec![1; 10], vec![2; 10])]]]);
    let addendum = numbers_of(&bytes, "26")[0];
    let (at, _) = frames(&bytes)[addendum as usize - 1];
    bytes[at..at + 2].copy_from_slice(b"32"); // same layout, wrong item
    let (_, problems) = read_file(&bytes);
    let out_of_place = problems.iter().find(|p| p.record == RecordNumber(addendum) && p.field.is_none());
    assert!(out_of_place.is_some_and(|p| p.message.contains("after a check detail")), "{:?}", shown(&problems));
}

#[test]
fn every_return_reason_has_its_meaning() {
    assert_eq!(return_reason("A"), Some("Not Sufficient Funds"));
    assert_eq!(return_reason("Z"), Some("Forgery"));
    assert_eq!(return_reason("0"), None);
    assert!(RETURN_REASONS.iter().all(|(code, meaning)| code.len() == 1 && !meaning.is_empty()));
}
