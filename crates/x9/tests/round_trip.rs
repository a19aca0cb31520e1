//! Whatever the writer writes, the reader reads back identically, in ASCII and in EBCDIC:
//! generated deposits (random items, amounts, MICR fields, addenda, image bytes of random
//! sizes) in random cash letters and bundles.

mod common;

use common::*;
use moneydesk_x9::*;
use proptest::prelude::*;

fn text(pattern: &'static str) -> impl Strategy<Value = String> {
    // Left-justified fields come back without trailing blanks (they are the fill).
    pattern.prop_map(|s: String| s.trim_end().to_owned())
}

fn image() -> impl Strategy<Value = Image> {
    (any::<bool>(), prop::collection::vec(any::<u8>(), 0..3000), "[0-9]{8}").prop_map(|(back, bytes, creator)| {
        Image::new(ImageViewDetail::g4_tiff(&routing(&creator), DATE, back), ImageViewData::new(bytes))
    })
}

fn addendum() -> impl Strategy<Value = CheckDetailAddendumA> {
    (text("[ -~]{0,18}"), text("[ -~]{0,15}"), text("[ -~]{0,5}"), prop::sample::select(vec!['Y', 'N'])).prop_map(
        |(account, payee, branch, truncated)| CheckDetailAddendumA {
            bofd_routing_number: ORIGIN.into(),
            bofd_business_date: DATE.into(),
            bofd_item_sequence_number: "000000000000001".into(),
            deposit_account_number_at_bofd: account,
            payee_name: payee,
            bofd_deposit_branch: branch,
            truncation_indicator: truncated,
            ..CheckDetailAddendumA::default()
        },
    )
}

fn item() -> impl Strategy<Value = Item> {
    (
        0..=MAX_ITEM_AMOUNT,
        "[0-9]{8}",
        "[0-9/-][0-9 /*-]{0,19}",
        prop_oneof![Just(String::new()), "[0-9][0-9 /-]{0,14}"],
        prop::sample::select(vec![' ', '1', '2', '3', '4']),
        prop::collection::vec(addendum(), 0..3),
        prop::collection::vec(image(), 0..3),
    )
        .prop_map(|(amount, routing8, on_us, aux, micr, addenda, images)| {
            let mut detail = CheckDetail {
                item_amount: amount,
                on_us,
                auxiliary_on_us: aux,
                micr_valid_indicator: micr,
                ..CheckDetail::default()
            };
            detail.set_payor_bank_routing(&routing(&routing8));
            Item { detail, addenda, images, ..Item::default() }
        })
}

/// Cash letters of bundles of items, with unique item sequence numbers.
fn deposit() -> impl Strategy<Value = Vec<Vec<Vec<Item>>>> {
    let bundle = prop::collection::vec(item(), 0..5);
    let letter = prop::collection::vec(bundle, 0..3);
    (prop::collection::vec(letter, 1..3), 1u64..1_000_000_000_000).prop_map(|(mut letters, start)| {
        let mut seq = start;
        for item in letters.iter_mut().flatten().flatten() {
            seq += 1 + seq % 7;
            item.detail.ece_institution_item_sequence_number = format!("{seq:015}");
        }
        letters
    })
}

/// The item as read back: with the fields the writer sets.
fn as_written(item: &Item) -> Item {
    let mut item = item.clone();
    item.detail.addendum_count = item.addenda.len() as u8;
    for (i, a) in item.addenda.iter_mut().enumerate() {
        a.record_number = i as u8 + 1;
    }
    for image in &mut item.images {
        let data = image.data.as_mut().unwrap();
        image.detail.image_view_data_size = Some(data.image_data.len() as u32);
        data.ece_institution_routing_number = ORIGIN.into();
        data.bundle_business_date = DATE.into();
        data.cycle_number = "01".into();
        data.ece_institution_item_sequence_number = item.detail.ece_institution_item_sequence_number.clone();
    }
    item
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_written_deposit_reads_back_identically(
        letters in deposit(),
        ebcdic in any::<bool>(),
        legacy in any::<bool>(),
    ) {
        let encoding = if ebcdic { Encoding::Ebcdic } else { Encoding::Ascii };
        let level = if legacy { "03" } else { "35" };
        let bytes = write(encoding, level, &letters);
        let (file, problems) = read_file(&bytes);
        prop_assert!(problems.is_empty(), "{:?}", shown(&problems));
        prop_assert_eq!(file.encoding, Some(encoding));
        prop_assert_eq!(file.header.as_ref(), Some(&file_header(level)));
        prop_assert_eq!(file.cash_letters.len(), letters.len());
        let (mut count, mut total) = (0, 0);
        for (c, (read, written)) in file.cash_letters.iter().zip(&letters).enumerate() {
            prop_assert_eq!(&read.header, &cash_letter_header(&format!("CL{c}")));
            prop_assert_eq!(read.bundles.len(), written.len());
            for (b, (read, written)) in read.bundles.iter().zip(written).enumerate() {
                prop_assert_eq!(&read.header, &bundle_header(&format!("B{b}")));
                prop_assert_eq!(read.items.len(), written.len());
                for (read, written) in read.items.iter().zip(written) {
                    let read = Item { record: RecordNumber::default(), ..read.clone() };
                    prop_assert_eq!(read, as_written(written));
                    count += 1;
                    total += written.detail.item_amount;
                }
            }
        }
        let control = file.control.clone().unwrap();
        prop_assert_eq!((control.total_item_count, control.file_total_amount), (count, total));

        // Written again in the other encoding, the file reads back the same.
        let other = if ebcdic { Encoding::Ascii } else { Encoding::Ebcdic };
        let again = file.write_to(Vec::new(), other).unwrap();
        let (file_again, problems) = read_file(&again);
        prop_assert!(problems.is_empty());
        prop_assert_eq!(file_again.cash_letters, file.cash_letters);
    }
}
