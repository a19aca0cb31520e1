//! Deposits to write in the tests: headers with valid routing numbers and dates, items with
//! their images, and helpers to find and tamper with records in written bytes.
#![allow(dead_code)]

use moneydesk_x9::*;

pub const DEST: &str = "061000146";
pub const ORIGIN: &str = "026073150";
pub const DATE: &str = "20240102";

pub fn file_header(level: &str) -> FileHeader {
    FileHeader {
        standard_level: level.into(),
        immediate_destination_routing_number: DEST.into(),
        immediate_origin_routing_number: ORIGIN.into(),
        file_creation_date: DATE.into(),
        file_creation_time: "0930".into(),
        immediate_destination_name: "FED RESERVE".into(),
        immediate_origin_name: "MONEYDESK BANK".into(),
        country_code: "US".into(),
        ..FileHeader::default()
    }
}

pub fn cash_letter_header(id: &str) -> CashLetterHeader {
    CashLetterHeader {
        destination_routing_number: DEST.into(),
        ece_institution_routing_number: ORIGIN.into(),
        cash_letter_business_date: DATE.into(),
        cash_letter_creation_date: DATE.into(),
        cash_letter_creation_time: "0930".into(),
        cash_letter_id: id.into(),
        originator_contact_name: "OPS DESK".into(),
        originator_contact_phone_number: "2125550100".into(),
        ..CashLetterHeader::default()
    }
}

pub fn bundle_header(id: &str) -> BundleHeader {
    BundleHeader {
        destination_routing_number: DEST.into(),
        ece_institution_routing_number: ORIGIN.into(),
        bundle_business_date: DATE.into(),
        bundle_creation_date: DATE.into(),
        bundle_id: id.into(),
        bundle_sequence_number: "0001".into(),
        cycle_number: "01".into(),
        ..BundleHeader::default()
    }
}

/// A routing number with a valid check digit from eight digits.
pub fn routing(first8: &str) -> String {
    format!("{first8}{}", aba_check_digit(first8).unwrap())
}

/// An item of `amount` cents with a front and a back image of the given bytes.
pub fn item(sequence: u64, amount: u64, front: Vec<u8>, back: Vec<u8>) -> Item {
    let mut detail = CheckDetail {
        on_us: format!("{:08}/", sequence % 100_000_000),
        item_amount: amount,
        ece_institution_item_sequence_number: format!("{sequence:015}"),
        ..CheckDetail::default()
    };
    detail.set_payor_bank_routing("122000661");
    let addendum = CheckDetailAddendumA {
        bofd_routing_number: ORIGIN.into(),
        bofd_business_date: DATE.into(),
        bofd_item_sequence_number: format!("{sequence:015}"),
        payee_name: "ACME CORP".into(),
        ..CheckDetailAddendumA::default()
    };
    let images = vec![
        Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, false), ImageViewData::new(front)),
        Image::new(ImageViewDetail::g4_tiff(ORIGIN, DATE, true), ImageViewData::new(back)),
    ];
    Item { detail, addenda: vec![addendum], images, ..Item::default() }
}

/// Writes cash letters of bundles of items.
pub fn write(encoding: Encoding, level: &str, cash_letters: &[Vec<Vec<Item>>]) -> Vec<u8> {
    let mut w = Writer::new(Vec::new(), encoding, &file_header(level)).unwrap();
    for (c, bundles) in cash_letters.iter().enumerate() {
        w.start_cash_letter(&cash_letter_header(&format!("CL{c}"))).unwrap();
        for (b, items) in bundles.iter().enumerate() {
            w.start_bundle(&bundle_header(&format!("B{b}"))).unwrap();
            for item in items {
                w.add_item(item).unwrap();
            }
            w.finish_bundle().unwrap();
        }
        let control = CashLetterControl { ece_institution_name: "MONEYDESK".into(), ..CashLetterControl::default() };
        w.finish_cash_letter(control).unwrap();
    }
    w.finish(FileControl::default()).unwrap()
}

/// Two cash letters of two bundles of three items, each with a front and a back.
pub fn sample(encoding: Encoding) -> Vec<u8> {
    let mut seq = 0;
    let letters: Vec<Vec<Vec<Item>>> = (0..2)
        .map(|_| {
            (0..2)
                .map(|_| {
                    (0..3)
                        .map(|_| {
                            seq += 1;
                            item(seq, 1_000 * seq, vec![seq as u8; 300], vec![0x40; 200])
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    write(encoding, "35", &letters)
}

/// (offset of the record after its length prefix, length) of every record.
pub fn frames(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 4 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        out.push((at + 4, len));
        at += 4 + len;
    }
    out
}

/// The 1-based numbers of the records of a type (ASCII type bytes, or EBCDIC).
pub fn numbers_of(bytes: &[u8], record_type: &str) -> Vec<u64> {
    let t = record_type.as_bytes();
    let ebcdic = [0xF0 + (t[0] - b'0'), 0xF0 + (t[1] - b'0')];
    frames(bytes)
        .iter()
        .enumerate()
        .filter(|(_, &(at, _))| bytes[at..at + 2] == *t || bytes[at..at + 2] == ebcdic)
        .map(|(i, _)| i as u64 + 1)
        .collect()
}

/// Adds one to the digit at 1-based `position` of record `number` (9 becomes 0), in ASCII
/// or EBCDIC.
pub fn bump_digit(bytes: &mut [u8], number: u64, position: usize) {
    let (at, _) = frames(bytes)[number as usize - 1];
    let b = &mut bytes[at + position - 1];
    *b = match *b {
        b'0'..=b'8' | 0xF0..=0xF8 => *b + 1,
        b'9' => b'0',
        0xF9 => 0xF0,
        other => panic!("not a digit: {other:#x}"),
    };
}

/// Problems as text, for failure messages.
pub fn shown(problems: &[Problem]) -> Vec<String> {
    problems.iter().map(ToString::to_string).collect()
}
