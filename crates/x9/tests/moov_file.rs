//! The reader on a real file written by another implementation (moov-io/imagecashletter's
//! test/testdata/valid-ascii.x937, in the shared test data; see shared/data/checks/SOURCE.md).

use moneydesk_x9::{read_file, Encoding, Reader, Record};

fn shared(name: &str) -> Vec<u8> {
    let path = format!("{}/../../../shared/data/checks/full/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn moovs_file_reads_without_a_single_problem() {
    let (file, problems) = read_file(&shared("01_moov_valid-ascii.x937"));
    assert!(problems.is_empty(), "{:#?}", problems.iter().map(ToString::to_string).collect::<Vec<_>>());
    assert_eq!(file.encoding, Some(Encoding::Ascii));
    assert_eq!(file.header.as_ref().unwrap().standard_level, "03");
    assert!(file.other_records.is_empty());
}

#[test]
fn its_check_detail_has_the_micr_line_of_the_check() {
    let (file, _) = read_file(&shared("01_moov_valid-ascii.x937"));
    let items: Vec<_> = file.items().collect();
    assert_eq!(items.len(), 1);
    let d = &items[0].detail;
    assert_eq!(d.payor_bank_routing_number, "12200066");
    assert_eq!(d.payor_bank_check_digit, "1");
    assert_eq!(d.payor_bank_routing(), "122000661");
    assert_eq!(d.on_us, "1211-1234-56789/", "right-justified in 20 characters in the file");
    assert_eq!(d.auxiliary_on_us, "");
    assert_eq!(d.item_amount, 10_000, "100.00");
    assert_eq!(d.ece_institution_item_sequence_number, "000000029001104");
    assert_eq!(d.addendum_count, 1);
    assert_eq!(items[0].addenda[0].bofd_routing_number, "026073150");
}

#[test]
fn its_front_image_is_byte_identical_to_the_tiff() {
    let (file, _) = read_file(&shared("01_moov_valid-ascii.x937"));
    let item = file.items().next().unwrap();
    assert_eq!(item.images.len(), 2);
    assert!(!item.images[0].is_back() && item.images[1].is_back());
    let front = item.images[0].bytes().unwrap();
    assert_eq!(front, shared("01_moov_x9_check_front.tif").as_slice());
    assert_eq!(item.images[0].detail.image_view_data_size, Some(front.len() as u32));
    assert_eq!(item.images[1].bytes().unwrap().len(), 8646);
}

#[test]
fn its_controls_match_what_it_holds() {
    let (file, _) = read_file(&shared("01_moov_valid-ascii.x937"));
    let cl = &file.cash_letters[0];
    let bundle = &cl.bundles[0];
    let bc = bundle.control.as_ref().unwrap();
    assert_eq!((bc.items_within_bundle_count, bc.bundle_total_amount, bc.micr_valid_total_amount), (1, 10_000, 10_000));
    assert_eq!(bc.images_within_bundle_count, 2);
    let clc = cl.control.as_ref().unwrap();
    assert_eq!((clc.bundle_count, clc.items_within_cash_letter_count, clc.cash_letter_total_amount), (1, 1, 10_000));
    assert_eq!(clc.settlement_date, "20201026");
    let fc = file.control.as_ref().unwrap();
    assert_eq!(
        (fc.cash_letter_count, fc.total_record_count, fc.total_item_count, fc.file_total_amount),
        (1, 12, 1, 10_000)
    );
}

#[test]
fn the_pull_reader_numbers_its_twelve_records() {
    let bytes = shared("01_moov_valid-ascii.x937");
    let mut reader = Reader::new(bytes.as_slice());
    let mut types = Vec::new();
    while let Some((n, record)) = reader.next_record().unwrap() {
        assert_eq!(n.0 as usize, types.len() + 1);
        types.push(record.record_type().to_owned());
        if let Record::ImageViewData(d) = &record {
            assert_eq!(d.cycle_number, "1");
        }
    }
    assert_eq!(types, ["01", "10", "20", "25", "26", "50", "52", "50", "52", "70", "90", "99"]);
    assert!(reader.finish().is_empty());
}

#[test]
fn written_again_it_is_the_same_file_byte_for_byte() {
    let bytes = shared("01_moov_valid-ascii.x937");
    let (file, _) = read_file(&bytes);
    let again = file.write_to(Vec::new(), Encoding::Ascii).unwrap();
    assert_eq!(again.len(), bytes.len());
    let differing: Vec<_> = (0..bytes.len()).filter(|&i| bytes[i] != again[i]).collect();
    assert!(differing.is_empty(), "bytes differ at {differing:?}");
}
