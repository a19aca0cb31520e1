//! Every count and total of every control record, tampered with in a written file, is
//! reported by the reader as one problem naming the record number, the type and the field.

mod common;

use common::*;
use moneydesk_x9::{read_file, Encoding, RecordNumber, Severity};

/// (record type, field, 1-based position of the field's last digit)
const CONTROL_FIELDS: &[(&str, &str, usize)] = &[
    ("70", "Items Within Bundle Count", 6),
    ("70", "Bundle Total Amount", 18),
    ("70", "MICR Valid Total Amount", 30),
    ("70", "Images Within Bundle Count", 35),
    ("90", "Cash Letter Bundle Count", 8),
    ("90", "Items Within Cash Letter Count", 16),
    ("90", "Cash Letter Total Amount", 30),
    ("90", "Images Within Cash Letter Count", 39),
    ("99", "Cash Letter Count", 8),
    ("99", "Total Record Count", 16),
    ("99", "Total Item Count", 24),
    ("99", "File Total Amount", 40),
];

#[test]
fn the_untampered_file_has_no_problem() {
    for encoding in [Encoding::Ascii, Encoding::Ebcdic] {
        let (file, problems) = read_file(&sample(encoding));
        assert!(problems.is_empty(), "{:?}", shown(&problems));
        assert_eq!(file.items().count(), 12);
    }
}

#[test]
fn each_tampered_control_total_is_reported_with_its_record_type_and_field() {
    for encoding in [Encoding::Ascii, Encoding::Ebcdic] {
        let clean = sample(encoding);
        let mut checked = 0;
        for &(record_type, field, position) in CONTROL_FIELDS {
            let numbers = numbers_of(&clean, record_type);
            assert!(!numbers.is_empty());
            for number in numbers {
                let mut bytes = clean.clone();
                bump_digit(&mut bytes, number, position);
                let (_, problems) = read_file(&bytes);
                assert_eq!(problems.len(), 1, "{encoding:?} {field} of record {number}: {:?}", shown(&problems));
                let p = &problems[0];
                assert_eq!(p.severity, Severity::Error);
                assert_eq!(p.record, RecordNumber(number), "{p}");
                assert_eq!(p.record_type, record_type, "{p}");
                assert_eq!(p.field, Some(field), "{p}");
                checked += 1;
            }
        }
        // 4 bundle controls × 4 fields, 2 cash letter controls × 4, 1 file control × 4.
        assert_eq!(checked, 16 + 8 + 4);
    }
}

#[test]
fn the_message_says_what_the_control_states_and_what_is_there() {
    let mut bytes = sample(Encoding::Ascii);
    let number = numbers_of(&bytes, "99")[0];
    bump_digit(&mut bytes, number, 40);
    let (_, problems) = read_file(&bytes);
    // Six items of 1,000..6,000 and six of 7,000..12,000 cents: 78,000.
    assert_eq!(
        problems[0].to_string(),
        format!("error: record {number} (type 99 file control), field \"File Total Amount\": is 78001 but there are 78000 (the sum of the file's item amounts)")
    );
}
