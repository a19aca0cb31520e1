//! The builder refuses input that would not make a valid file, naming the input and field.

mod common;

use common::{date, sample_builder};
use moneydesk_nacha::{BatchInfo, BuildError, EntryInfo, FileBuilder, FileInfo, Location, Sec, TransactionCode};

fn build_with_entry(sec: Sec, entry: EntryInfo) -> Result<moneydesk_nacha::AchFile, BuildError> {
    let mut builder = FileBuilder::new(FileInfo::new("231380104", "121042882", date(2025, 10, 16)));
    let ok = EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "1", 1, "FIRST");
    builder.batch(
        BatchInfo::new(sec, "MONEYDESK", "1234567890", "DEPOSIT", date(2025, 10, 17), "121042882"),
        vec![ok, entry],
    );
    builder.build()
}

fn refused(sec: Sec, entry: EntryInfo) -> (Location, &'static str) {
    let error = build_with_entry(sec, entry).unwrap_err();
    (error.location, error.field)
}

const SECOND_ENTRY: Location = Location::Entry { batch: 0, entry: 1 };

fn debit() -> EntryInfo {
    EntryInfo::new(TransactionCode::CheckingDebit, "031300012", "744567899", 100, "ACME")
}

#[test]
fn a_routing_number_with_a_wrong_check_digit_is_refused() {
    let entry = EntryInfo { routing_number: "031300013".into(), ..debit() };
    let error = build_with_entry(Sec::Ccd, entry).unwrap_err();
    assert_eq!((error.location, error.field), (SECOND_ENTRY, "Receiving DFI Identification"));
    assert_eq!(
        error.to_string(),
        "batch 1, entry 2: Receiving DFI Identification: check digit of 031300013 should be 2"
    );
}

#[test]
fn a_name_too_long_for_its_field_is_refused_under_the_batchs_name_for_it() {
    let entry = EntryInfo { individual_name: "A".repeat(23), ..debit() };
    assert_eq!(refused(Sec::Ccd, entry.clone()), (SECOND_ENTRY, "Receiving Company Name"));
    assert_eq!(refused(Sec::Ppd, entry), (SECOND_ENTRY, "Individual Name"));
    assert!(build_with_entry(Sec::Ppd, EntryInfo { individual_name: "A".repeat(22), ..debit() }).is_ok());
}

#[test]
fn amounts_must_fit_ten_digits_and_be_zero_exactly_for_prenotes() {
    assert_eq!(refused(Sec::Ccd, EntryInfo { amount: 10_000_000_000, ..debit() }), (SECOND_ENTRY, "Amount"));
    assert_eq!(refused(Sec::Ccd, EntryInfo { amount: 0, ..debit() }), (SECOND_ENTRY, "Amount"));
    let prenote = EntryInfo { transaction_code: TransactionCode::SavingsDebitPrenote, amount: 5, ..debit() };
    assert_eq!(refused(Sec::Ccd, prenote.clone()), (SECOND_ENTRY, "Amount"));
    assert!(build_with_entry(Sec::Ccd, EntryInfo { amount: 0, ..prenote }).is_ok());
}

#[test]
fn required_text_must_be_present_and_printable() {
    assert_eq!(
        refused(Sec::Ccd, EntryInfo { account_number: "  ".into(), ..debit() }),
        (SECOND_ENTRY, "DFI Account Number")
    );
    assert_eq!(
        refused(Sec::Ccd, EntryInfo { individual_name: "José".into(), ..debit() }),
        (SECOND_ENTRY, "Receiving Company Name")
    );
    let addenda = EntryInfo { addenda: Some("x".repeat(81)), ..debit() };
    assert_eq!(refused(Sec::Ccd, addenda), (SECOND_ENTRY, "Payment Related Information"));
}

#[test]
fn text_is_trimmed_and_uppercased() {
    let entry = EntryInfo { individual_name: "  Acme Supplies ".into(), addenda: Some("inv 42".into()), ..debit() };
    let file = build_with_entry(Sec::Ccd, entry).unwrap();
    let built = &file.batches[0].entries[1];
    assert_eq!(built.detail.individual_name, "ACME SUPPLIES");
    assert_eq!(built.addenda[0].payment_related_information, "INV 42");
}

#[test]
fn batch_and_file_header_inputs_are_checked_too() {
    let mut builder = sample_builder();
    builder.batch(BatchInfo::new(Sec::Ppd, "MONEYDESK", "", "DEPOSIT", date(2025, 10, 17), "121042882"), vec![debit()]);
    let error = builder.build().unwrap_err();
    assert_eq!((error.location, error.field), (Location::Batch { batch: 2 }, "Company Identification"));

    let mut builder = sample_builder();
    builder
        .batch(BatchInfo::new(Sec::Ppd, "MONEYDESK", "1", "DEPOSIT", date(2025, 10, 17), "121042881"), vec![debit()]);
    assert_eq!(builder.build().unwrap_err().field, "Originating DFI Identification");

    let mut builder = sample_builder();
    builder.batch(
        BatchInfo::new(Sec::Ppd, "MONEYDESK", "1", "PAYMENT FOR", date(2025, 10, 17), "121042882"),
        vec![debit()],
    );
    assert_eq!(builder.build().unwrap_err().field, "Company Entry Description");

    let mut builder = sample_builder();
    builder.batch(BatchInfo::new(Sec::Ppd, "MONEYDESK", "1", "DEPOSIT", date(2025, 10, 17), "121042882"), vec![]);
    assert_eq!(builder.build().unwrap_err().location, Location::Batch { batch: 2 });

    for (destination, origin, field) in [
        ("23138010", "121042882", "Immediate Destination"),
        ("231380104", "12104288X", "Immediate Origin"),
        ("231380104", "121042883", "Immediate Origin"),
    ] {
        let error = FileBuilder::new(FileInfo::new(destination, origin, date(2025, 1, 1))).build().unwrap_err();
        assert_eq!((error.location, error.field), (Location::File, field));
    }
    let mut info = FileInfo::new("231380104", "121042882", date(2025, 1, 1));
    info.file_id_modifier = '#';
    assert_eq!(FileBuilder::new(info).build().unwrap_err().field, "File ID Modifier");
}

#[test]
fn a_ten_digit_immediate_origin_is_kept_as_given() {
    let file = FileBuilder::new(FileInfo::new("231380104", "1234567890", date(2025, 1, 1))).build().unwrap();
    assert_eq!(file.header.immediate_origin, "1234567890");
    assert!(moneydesk_nacha::write(&file).unwrap().starts_with("101 2313801041234567890250101"));
}

#[test]
fn a_file_with_no_batches_is_still_a_valid_file() {
    let file = FileBuilder::new(FileInfo::new("231380104", "121042882", date(2025, 1, 1))).build().unwrap();
    let text = moneydesk_nacha::write(&file).unwrap();
    assert_eq!(text.lines().count(), 10);
    assert!(moneydesk_nacha::parse(&text).is_valid());
}

#[test]
fn the_writer_refuses_a_hand_made_value_that_does_not_fit_and_names_its_line() {
    let mut file = common::sample_file();
    file.batches[1].entries[0].detail.amount = 10_000_000_000;
    let error = moneydesk_nacha::write(&file).unwrap_err();
    assert_eq!((error.line, error.field), (8, "Amount"));
    file.batches[1].entries[0].detail.amount = 1;
    file.batches[0].entries[0].detail.individual_name = "LINE\nBREAK".into();
    assert_eq!(moneydesk_nacha::write(&file).unwrap_err().line, 3);
}
