//! Any file the builder makes reads back as the same file, with no problems; damage anywhere
//! is reported or kept exactly, never silently lost; and no input makes the reader panic.

use moneydesk_nacha::{
    check_digit, parse, write_with, BatchInfo, Date, EntryInfo, FileBuilder, FileInfo, LineEnding, Sec, Time,
    TransactionCode,
};
use proptest::prelude::*;

fn routing() -> impl Strategy<Value = String> {
    (0u32..100_000_000).prop_map(|dfi| format!("{dfi:08}{}", check_digit(dfi)))
}

/// Text of up to `max` characters, lowercase included (the builder uppercases it).
fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[A-Za-z0-9 .,&/#*'-]{{0,{max}}}")).unwrap()
}

/// Text that is not blank once trimmed.
fn required(max: usize) -> impl Strategy<Value = String> {
    (proptest::string::string_regex("[A-Za-z0-9]").unwrap(), text(max - 1)).prop_map(|(first, rest)| first + &rest)
}

fn date() -> impl Strategy<Value = Date> {
    (2000u16..=2099, 1u8..=12, 1u8..=28).prop_map(|(y, m, d)| Date::from_ymd(y, m, d).unwrap())
}

fn entry() -> impl Strategy<Value = EntryInfo> {
    (
        proptest::sample::select(TransactionCode::ALL.to_vec()),
        routing(),
        required(17),
        1u64..=9_999_999_999,
        text(15),
        required(22),
        text(2),
        proptest::option::of(text(80)),
    )
        .prop_map(|(code, routing, account, amount, id, name, discretionary, addenda)| EntryInfo {
            transaction_code: code,
            routing_number: routing,
            account_number: account,
            amount: if code.is_prenote() { 0 } else { amount },
            individual_id: id,
            individual_name: name,
            discretionary_data: discretionary,
            addenda,
        })
}

fn batch() -> impl Strategy<Value = (BatchInfo, Vec<EntryInfo>)> {
    let info = (
        prop_oneof![Just(Sec::Ccd), Just(Sec::Ppd)],
        required(16),
        text(20),
        required(10),
        required(10),
        text(6),
        date(),
        routing(),
    )
        .prop_map(|(sec, name, discretionary, id, description, descriptive_date, effective, odfi)| BatchInfo {
            sec,
            company_name: name,
            company_discretionary_data: discretionary,
            company_identification: id,
            company_entry_description: description,
            company_descriptive_date: descriptive_date,
            effective_entry_date: effective,
            odfi_routing: odfi,
        });
    (info, proptest::collection::vec(entry(), 1..8))
}

fn file_info() -> impl Strategy<Value = FileInfo> {
    let origin = prop_oneof![routing(), "[0-9]{10}"];
    let time = proptest::option::of((0u8..24, 0u8..60).prop_map(|(h, m)| Time::new(h, m).unwrap()));
    let modifier = proptest::sample::select(('A'..='Z').chain('0'..='9').collect::<Vec<_>>());
    (routing(), text(23), origin, text(23), date(), time, modifier, text(8)).prop_map(
        |(destination, destination_name, origin, origin_name, created, time, modifier, reference)| FileInfo {
            immediate_destination: destination,
            immediate_destination_name: destination_name,
            immediate_origin: origin,
            immediate_origin_name: origin_name,
            creation_date: created,
            creation_time: time,
            file_id_modifier: modifier,
            reference_code: reference,
        },
    )
}

fn built_file() -> impl Strategy<Value = moneydesk_nacha::AchFile> {
    (file_info(), proptest::collection::vec(batch(), 0..4), 1u32..1_000_000).prop_map(|(info, batches, first)| {
        let mut builder = FileBuilder::new(info);
        builder.first_trace_sequence(first);
        for (batch, entries) in batches {
            builder.batch(batch, entries);
        }
        builder.build().unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_built_file_written_and_read_back_is_the_same_file_without_problems(
        file in built_file(),
        crlf in any::<bool>(),
    ) {
        let ending = if crlf { LineEnding::CrLf } else { LineEnding::Lf };
        let text = write_with(&file, ending).unwrap();
        prop_assert_eq!(text.len() % (if crlf { 96 } else { 95 }) , 0);
        prop_assert_eq!((text.len() / if crlf { 96 } else { 95 }) % 10, 0);
        let parsed = parse(&text);
        prop_assert_eq!(&parsed.problems, &vec![]);
        prop_assert_eq!(parsed.file.as_ref(), Some(&file));
        prop_assert_eq!(write_with(parsed.file.as_ref().unwrap(), ending).unwrap(), text);
    }

    #[test]
    fn changing_any_one_character_is_either_reported_or_kept_exactly(
        file in built_file(),
        position in any::<proptest::sample::Index>(),
        replacement in proptest::char::range(' ', '~'),
    ) {
        let text = moneydesk_nacha::write(&file).unwrap();
        let mut chars: Vec<char> = text.chars().collect();
        let at = position.index(chars.len());
        prop_assume!(chars[at] != '\n');
        chars[at] = replacement;
        let damaged: String = chars.into_iter().collect();
        let parsed = parse(&damaged);
        // A change nothing can object to (in free text, say) must at least not be lost.
        if parsed.problems.is_empty() {
            prop_assert_eq!(moneydesk_nacha::write(parsed.file.as_ref().unwrap()).unwrap(), damaged);
        }
    }

    #[test]
    fn arbitrary_input_never_panics(input in "(?s).{0,400}") {
        let _ = parse(&input);
    }
}
