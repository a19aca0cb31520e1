//! Return files as an RDFI sends them back: a return (addenda 99) and a notification of change
//! (addenda 98) built for a fixture, written and read back; a malformed return addenda
//! reported with its line and field.

mod common;

use common::*;
use moneydesk_nacha::*;

/// The entry we originated (a pull of $2,500.00 from 031300012), by its trace number.
const ORIGINAL: TraceNumber = TraceNumber { odfi: 12104288, sequence: 1 };

/// The RDFI's file back to us: line 3 the R01 return (4 its addenda 99), line 7 the C01
/// notification of change (8 its addenda 98).
fn return_file() -> AchFile {
    let day = date(2025, 10, 20);
    let mut builder = FileBuilder::new(FileInfo::new("121042882", "031300012", day));
    let rdfi = "031300012";
    let returned = EntryInfo::new(TransactionCode::CheckingDebitReturn, "121042882", "744567899", 250_000, "Acme");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: ORIGINAL,
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: "Not enough money".into(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    let batch = BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi);
    builder.return_batch(batch, vec![(returned, r01)]);

    let noc_entry = EntryInfo::new(TransactionCode::CheckingDebitReturn, "121042882", "744567899", 0, "Acme");
    let c01 = ReturnOrNoc::Noc(NocAddenda {
        change_code: "C01".into(),
        original_entry_trace: ORIGINAL,
        original_receiving_dfi: 3130001,
        corrected_data: "1918171614".into(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    let cor = BatchInfo::new(Sec::Cor, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi);
    builder.return_batch(cor, vec![(noc_entry, c01)]);
    builder.build().unwrap()
}

#[test]
fn a_return_and_a_notification_of_change_read_back_as_built() {
    let file = return_file();
    let text = write(&file).unwrap();
    assert_eq!(&line(&text, 4)[..6], "799R01");
    assert_eq!(&line(&text, 8)[..6], "798C01");
    let parsed = parse(&text);
    assert!(parsed.problems.is_empty(), "{:#?}", parsed.problems);
    let read = parsed.file.unwrap();
    assert_eq!(read, file);

    let returns: Vec<_> = read.returns().collect();
    assert_eq!(returns.len(), 2);
    for (entry, addenda) in &returns {
        assert_eq!(addenda.original_entry_trace(), ORIGINAL);
        assert_eq!(addenda.trace_number(), entry.detail.trace_number, "set by the builder");
    }
    let ReturnOrNoc::Return(r) = returns[0].1 else { panic!("a return first") };
    assert_eq!(return_reason(&r.return_reason_code), Some("Insufficient Funds"));
    assert_eq!(r.addenda_information, "NOT ENOUGH MONEY");
    assert_eq!(returns[0].0.detail.amount, 250_000);
    let ReturnOrNoc::Noc(noc) = returns[1].1 else { panic!("a notification of change second") };
    assert_eq!(change_code(&noc.change_code), Some("Incorrect DFI Account Number"));
    assert_eq!(noc.correction(), Correction { account_number: Some("1918171614".into()), ..Correction::default() });

    // A return of a debit counts as a debit; the notification of change carries nothing.
    assert_eq!((read.control.total_debit, read.control.total_credit), (250_000, 0));
    assert_eq!(read.control.entry_addenda_count, 4);
    assert_eq!(read.batches[1].header.sec, Sec::Cor);
}

#[test]
fn a_return_addenda_with_an_unknown_reason_code_is_reported_with_line_and_field() {
    let text = with_field(&write(&return_file()).unwrap(), 4, 4, "R99");
    let parsed = parse(&text);
    assert_eq!(parsed.problems.len(), 1, "{:#?}", parsed.problems);
    let p = &parsed.problems[0];
    assert_eq!(
        (p.line, p.record, p.field, p.kind),
        (4, Some(RecordType::Addenda), "Return Reason Code", ProblemKind::InvalidCode)
    );
    assert!(p.message.contains("R99"), "{p}");
}

#[test]
fn a_return_addenda_must_carry_its_entrys_trace_number_and_follow_a_return_entry() {
    let text = write(&return_file()).unwrap();
    let changed = with_field(&text, 4, 94, "9");
    let parsed = parse(&changed);
    let p = &parsed.problems[0];
    assert_eq!((p.line, p.field, p.kind), (4, "Trace Number", ProblemKind::Mismatch), "{:#?}", parsed.problems);

    // The return's code made a forward debit's (27): its addenda must be of type 05.
    let changed = with_field(&text, 3, 2, "27");
    let parsed = parse(&changed);
    assert!(
        parsed
            .problems
            .iter()
            .any(|p| p.line == 4 && p.field == "Addenda Type Code" && p.kind == ProblemKind::InvalidCode),
        "{:#?}",
        parsed.problems
    );
}

#[test]
fn the_builder_refuses_a_return_without_its_addenda_or_in_the_wrong_batch() {
    let day = date(2025, 10, 20);
    let batch = || BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, "031300012");
    let entry = EntryInfo::new(TransactionCode::CheckingDebitReturn, "121042882", "744567899", 100, "Acme");
    let mut builder = FileBuilder::new(FileInfo::new("121042882", "031300012", day));
    builder.batch(batch(), vec![entry.clone()]);
    assert_eq!(builder.build().unwrap_err().field, "Transaction Code");

    let noc = ReturnOrNoc::Noc(NocAddenda {
        change_code: "C01".into(),
        original_entry_trace: ORIGINAL,
        original_receiving_dfi: 3130001,
        corrected_data: "1".into(),
        trace_number: ORIGINAL,
    });
    let mut builder = FileBuilder::new(FileInfo::new("121042882", "031300012", day));
    builder.return_batch(batch(), vec![(EntryInfo { amount: 0, ..entry }, noc)]);
    assert_eq!(builder.build().unwrap_err().field, "Change Code", "a NOC belongs in a COR batch");
}

#[test]
fn corrected_data_is_read_per_change_code() {
    let noc = |code: &str, data: &str| NocAddenda {
        change_code: code.into(),
        original_entry_trace: ORIGINAL,
        original_receiving_dfi: 0,
        corrected_data: data.into(),
        trace_number: ORIGINAL,
    };
    let c = noc("C03", "031300012   744567899").correction();
    assert_eq!((c.routing_number.as_deref(), c.account_number.as_deref()), (Some("031300012"), Some("744567899")));
    let c = noc("C07", "0313000127445678990000000037").correction();
    assert_eq!(c.routing_number.as_deref(), Some("031300012"));
    assert_eq!(c.account_number.as_deref(), Some("74456789900000000"));
    assert_eq!(c.transaction_code, Some(TransactionCode::SavingsDebit));
    assert_eq!(noc("C05", "37").correction().transaction_code, Some(TransactionCode::SavingsDebit));
    let c = noc("C06", "744567899           32").correction();
    assert_eq!(
        (c.account_number.as_deref(), c.transaction_code),
        (Some("744567899"), Some(TransactionCode::SavingsCredit))
    );
    assert_eq!(noc("C02", "061036000").correction().routing_number.as_deref(), Some("061036000"));
    assert_eq!(noc("C13", "X").correction(), Correction::default());
}
