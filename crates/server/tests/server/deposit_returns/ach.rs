//! An ACH return (R01) and a notification of change (C01) against the day's ACH file.

use super::*;

on_both_backends!(an_ach_return_and_a_notification_of_change_return_and_correct_the_pull);

/// The RDFI's return file: line 3 an R01 of `trace` for `cents`, line 7 a C01 for it.
fn ach_return_file(trace: moneydesk_nacha::TraceNumber, cents: u64) -> String {
    use moneydesk_nacha::*;
    let day = Date::from_ymd(2026, 1, 6).unwrap();
    let (us, rdfi) = ("021090028", "031300012");
    let mut builder = FileBuilder::new(FileInfo::new(us, rdfi, day));
    let entry = |amount| EntryInfo::new(TransactionCode::CheckingDebitReturn, us, "744567899", amount, "Acme Supplies");
    let r01 = ReturnOrNoc::Return(ReturnAddenda {
        return_reason_code: "R01".into(),
        original_entry_trace: trace,
        date_of_death: String::new(),
        original_receiving_dfi: 3130001,
        addenda_information: String::new(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder.return_batch(
        BatchInfo::new(Sec::Ccd, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi),
        vec![(entry(cents), r01)],
    );
    let c01 = ReturnOrNoc::Noc(NocAddenda {
        change_code: "C01".into(),
        original_entry_trace: trace,
        original_receiving_dfi: 3130001,
        corrected_data: "1918171614".into(),
        trace_number: TraceNumber { odfi: 0, sequence: 0 },
    });
    builder
        .return_batch(BatchInfo::new(Sec::Cor, "Moneydesk", "1234567890", "DEPOSIT", day, rdfi), vec![(entry(0), c01)]);
    write(&builder.build().unwrap()).unwrap()
}

async fn an_ach_return_and_a_notification_of_change_return_and_correct_the_pull(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let day = (chrono::Utc::now().with_timezone(&chrono_tz::America::New_York).date_naive()
        + chrono::Duration::days(1))
    .to_string();
    let body = json!({
        "amount": "2500.00", "bankRoutingNumber": "021090028", "bankAccountNumber": "744567899",
        "accountType": "checking", "vendorName": "Acme Supplies", "effectiveDate": day,
        "payeeAccountId": d.accounts[0].id, "payeeUserId": "usr-1",
    });
    let (status, record) = post(&d, &d.writer, paths::DEPOSITS_ELECTRONIC, &body).await;
    assert_eq!(status, 201, "{record}");
    let id = record["id"].as_i64().unwrap();
    act(&d, &d.writer, id, json!({"action": "confirm"}), 200).await;
    let r = d.server.get_auth(&format!("{}?effectiveDate={day}", paths::DEPOSITS_ACH_FILE), &d.writer).await;
    let sent_file = moneydesk_nacha::parse(&r.text().await.unwrap()).file.unwrap();
    let trace = sent_file.entries().next().unwrap().1.detail.trace_number;
    act(&d, &d.admin, id, json!({"action": "send"}), 200).await;

    let (status, result) =
        upload(&d, ach_return_file(trace, 250_000).into_bytes(), "ach-returns.txt", "text/plain").await;
    assert_eq!(status, 201, "{result}");
    assert_eq!(result["data"]["errors"], json!([]), "{result}");
    let r01 = by_record(&result, 3);
    assert_eq!((r01["state"].as_str(), r01["depositId"].as_i64()), (Some("matched"), Some(id)), "{r01}");
    assert_eq!(
        (r01["reference"].as_str(), r01["reason"].as_str()),
        (Some(trace.to_string().as_str()), Some("Insufficient Funds"))
    );
    let c01 = by_record(&result, 7);
    assert_eq!(
        (c01["state"].as_str(), c01["correctedData"].as_str()),
        (Some("corrected"), Some("1918171614")),
        "{c01}"
    );

    let after = detail(&d, id).await;
    assert_eq!(after["record"]["status"], "Returned_5");
    assert_eq!(after["record"]["fullBankAccountNumber"], "1918171614", "the payer's account corrected");
    let history = after["history"].as_array().unwrap();
    let corrected = history.iter().find(|e| e["action"] == "correct").expect("the correction is in the history");
    assert!(corrected["reason"].as_str().unwrap().contains("account number 744567899 → 1918171614"), "{corrected}");
}
