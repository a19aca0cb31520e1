//! EBCDIC (code page 037): known bytes for known characters, every character the standard
//! allows through a round trip, and image data left binary.

mod common;

use common::*;
use moneydesk_x9::*;

#[test]
fn known_characters_have_their_code_page_037_bytes() {
    for (c, byte) in [
        ('0', 0xF0),
        ('9', 0xF9),
        ('A', 0xC1),
        ('J', 0xD1),
        ('Z', 0xE9),
        ('a', 0x81),
        (' ', 0x40),
        ('/', 0x61),
        ('-', 0x60),
        ('*', 0x5C),
        ('&', 0x50),
        ('$', 0x5B),
        ('@', 0x7C),
    ] {
        assert_eq!(Encoding::Ebcdic.encode_char(c), Some(byte), "{c:?}");
        assert_eq!(Encoding::Ebcdic.decode_byte(byte), c);
        assert_eq!(Encoding::Ascii.encode_char(c), Some(c as u8));
    }
}

#[test]
fn an_ebcdic_file_starts_with_f0_f1_and_its_text_is_translated() {
    let bytes = sample(Encoding::Ebcdic);
    assert_eq!(&bytes[..4], &[0, 0, 0, 80]);
    // "0135T061000146" ...
    assert_eq!(&bytes[4..18], &[0xF0, 0xF1, 0xF3, 0xF5, 0xE3, 0xF0, 0xF6, 0xF1, 0xF0, 0xF0, 0xF0, 0xF1, 0xF4, 0xF6]);
    // The destination name "FED RESERVE" at position 37, blank-filled.
    assert_eq!(&bytes[4 + 36..4 + 36 + 4], &[0xC6, 0xC5, 0xC4, 0x40]);
    assert_eq!(Encoding::detect([bytes[4], bytes[5]]), Some(Encoding::Ebcdic));
}

#[test]
fn image_data_is_written_as_it_is_in_both_encodings() {
    let image: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
    let letters = vec![vec![vec![item(1, 5, image.clone(), b"0123 ABC".to_vec())]]];
    for encoding in [Encoding::Ascii, Encoding::Ebcdic] {
        let bytes = write(encoding, "35", &letters);
        let found = bytes.windows(image.len()).any(|w| w == image.as_slice());
        assert!(found, "{encoding:?}: the image bytes are in the file untranslated");
        let (file, problems) = read_file(&bytes);
        assert!(problems.is_empty());
        let item = file.items().next().unwrap();
        assert_eq!(item.images[0].bytes(), Some(image.as_slice()));
        assert_eq!(item.images[1].bytes(), Some(&b"0123 ABC"[..]));
    }
}

#[test]
fn every_character_the_standard_allows_round_trips_through_ebcdic() {
    let all: String = (' '..='~').collect();
    assert_eq!(all.len(), 95);
    assert!(all.chars().all(is_allowed_char));
    // 95 characters in payee names of 15, one addendum each.
    let mut it = item(1, 5, vec![], vec![]);
    it.addenda = all
        .as_bytes()
        .chunks(15)
        .map(|chunk| CheckDetailAddendumA {
            payee_name: String::from_utf8(chunk.to_vec()).unwrap().trim_end().to_owned(),
            ..it.addenda[0].clone()
        })
        .collect();
    let bytes = write(Encoding::Ebcdic, "35", &[vec![vec![it.clone()]]]);
    let (file, problems) = read_file(&bytes);
    assert!(problems.is_empty(), "{:?}", shown(&problems));
    let read: String = file.items().next().unwrap().addenda.iter().map(|a| format!("{:15}", a.payee_name)).collect();
    assert_eq!(read.trim_end(), all);
    // And none of them is written as its ASCII byte but as code page 037's.
    let ebcdic: Vec<u8> = all.chars().map(|c| Encoding::Ebcdic.encode_char(c).unwrap()).collect();
    assert!(bytes.windows(15).any(|w| w == &ebcdic[..15]));
}

#[test]
fn characters_outside_latin1_or_unprintable_are_reported_by_the_reader() {
    let mut bytes = sample(Encoding::Ebcdic);
    let number = numbers_of(&bytes, "26")[0];
    let (at, _) = frames(&bytes)[number as usize - 1];
    bytes[at + 58] = 0x15; // EBCDIC NL, in the payee name
    let (_, problems) = read_file(&bytes);
    assert_eq!(problems.len(), 1, "{:?}", shown(&problems));
    assert_eq!((problems[0].record.0, problems[0].field), (number, Some("Payee Name")));
}
