//! Electronic deposits (ACH pulls, extension): created with the check deposit's idempotency
//! and duplicate rules and state machine, the vendor's bank checked against the FedACH
//! directory; and the NACHA file of a day's pulls (`moneydesk_nacha`): one CCD batch per entry
//! description, each pull a debit of the vendor's account (27 checking, 37 savings).

use axum::http::{HeaderMap, StatusCode};
use chrono::{Timelike, Utc};
use moneydesk_model::deposits::{
    AchAccountType, Date, DepositRecord, DepositStatus, ElectronicDepositFields, ServiceType,
};
use moneydesk_model::events::EventType;
use moneydesk_model::fees::TransferType;
use moneydesk_nacha::{BatchInfo, EntryInfo, FileBuilder, FileInfo, Sec, TransactionCode};

use super::handlers::{cents_of, created, directory_name_of, idempotency_key, standard_fee};
use super::record::today;
use super::store::DepositRow;
use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::Error;
use crate::storage::{events, trail};

/// Creates an electronic deposit: 201 with the record, or 200 with the existing one for a retry.
pub async fn create(
    state: &DepositsState,
    caller: &Caller,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(StatusCode, DepositRecord), Error> {
    let key = idempotency_key(caller, headers, body, state.config().idempotency_hours)?;
    let fields: ElectronicDepositFields =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let tz = state.config().business_time_zone;
    let d = fields.check(today(tz)).map_err(Error::fields)?;
    let rn = &d.bank_routing_number;
    if state.routing().current().ach(rn).is_none() {
        // CONTRACT.md point 9: a routing number the directory does not list is a 404.
        let why = format!("{rn} is not a bank in the FedACH directory: an ACH pull cannot reach it");
        let mut e = Error::not_found(format!("bankRoutingNumber: {why}"));
        e.fields.push(moneydesk_model::FieldError::new("bankRoutingNumber", why));
        return Err(e);
    }
    let payee = state.accounts().get(d.payee_account_id.as_str()).await?.ok_or_else(|| {
        Error::field(
            "payeeAccountId",
            format!("no managed sleeve account {:?} in the accounts collection", d.payee_account_id.as_str()),
        )
    })?;
    let cents = cents_of(d.amount);
    let row = DepositRow {
        id: 0,
        service_type: ServiceType::ElectronicDeposit.as_str().into(),
        status: DepositStatus::InProgress.as_str().into(),
        is_confirmed: 0,
        amount_cents: cents,
        fee_cents: cents_of(standard_fee(state, d.amount, TransferType::Eft)),
        created_at: crate::storage::time::now_text(),
        completed_at: None,
        schedule_date: d.effective_date.to_string(),
        check_date: None,
        check_number: None,
        bank_routing_number: Some(rn.to_string()),
        bank_account_number: Some(d.bank_account_number.clone()),
        bank_name: directory_name_of(state, rn),
        memo: d.memo.clone().map(String::from),
        payee_account_id: payee.id.clone(),
        payee_user_id: Some(d.payee_user_id.to_string()),
        payee_name: Some(payee.account_name.clone()),
        payee_account_number: payee.account_number.clone(),
        payee_record_type_id: payee.record_type_id.clone(),
        payer_id: Some(payee.id.clone()),
        payer_type: None,
        payment_type: Some("ACH".into()),
        source: Some("ach-pull".into()),
        bank_info_id: None,
        transfer_type: Some(TransferType::Eft.to_string()),
        submitter: caller.token_name().to_string(),
        front_image: None,
        back_image: None,
        // The same pull twice (vendor account, amount, day) is the electronic duplicate.
        presentment: Some(format!("ach|{rn}|{}|{cents}|{}", d.bank_account_number, d.effective_date)),
        duplicate_of: None,
        override_reason: None,
        scan_id: None,
        ach_account_type: Some(d.account_type.as_str().into()),
        ach_vendor_name: Some(d.vendor_name.clone()),
        ach_entry_description: Some(d.company_entry_description.clone()),
    };
    let duplicate = |first: i64| {
        let mut e = Error::conflict(format!(
            "This pull (routing {rn}, account {}, amount {}, effective {}) was already made as deposit {first}",
            d.bank_account_number, d.amount, d.effective_date
        ));
        e.reason = "duplicate_presentment".into();
        e
    };
    created(state.deposits().create_in_zone(&row, key.as_ref(), tz).await, tz, duplicate)
}

/// The NACHA file of the pulls effective on `day` (`YYYY-MM-DD`), as text.
pub async fn ach_file(state: &DepositsState, day: &str) -> Result<String, Error> {
    let effective = Date::parse(day).map_err(|m| Error::field("effectiveDate", format!("effectiveDate {m}")))?;
    let rows = state.deposits().electronic_on(&effective.to_string()).await?;
    if rows.is_empty() {
        return Err(Error::not_found(format!("No electronic deposits are effective on {effective}")));
    }
    let (file, text) = build(state, effective, &rows)?;
    super::returns::remember_traces(state.deposits().database(), &file).await?;
    Ok(text)
}

/// Sends the day's file: its confirmed pulls move to Sent_3 (the books post them to ACH
/// clearing) in one transaction, by `actor`, with the `ach_file.created` event (and each
/// deposit's `deposit.sent`); the file of those pulls, as text.
pub async fn send_day(state: &DepositsState, day: &str, actor: &str) -> Result<String, Error> {
    let effective = Date::parse(day).map_err(|m| Error::field("effectiveDate", format!("effectiveDate {m}")))?;
    let rows = state.deposits().electronic_on(&effective.to_string()).await?;
    let confirmed = DepositStatus::Confirmed.as_str();
    let sent: Vec<DepositRow> = rows.into_iter().filter(|r| r.status == confirmed).collect();
    let ids: Vec<i64> = sent.iter().map(|r| r.id).collect();
    if ids.is_empty() {
        return Err(Error::not_found(format!("No confirmed electronic deposits are effective on {effective}")));
    }
    // Written before the move, so that the event carries the file the answer is.
    let (file, text) = build(state, effective, &sent)?;
    let mut tx = state.deposits().database().begin().await?;
    let counted = super::store::take_writers_turn(&mut tx).await?;
    let reason = format!("in the ACH file of {effective}");
    match super::store::send_all(&mut tx, &ids, counted, actor, &reason, state.books()).await {
        Ok(()) => {}
        Err(super::store::MoveError::Db(e)) => return Err(e.into()),
        Err(e) => return Err(Error::conflict(format!("the day's ACH file was sent meanwhile: {e}"))),
    }
    let listed: Vec<String> = ids.iter().map(i64::to_string).collect();
    trail::target("ach_file", effective);
    trail::change("deposits", None::<&str>, Some(listed.join(", ")));
    trail::change("status", Some(confirmed), Some(DepositStatus::Sent.as_str()));
    let total: i64 = sent.iter().map(|r| r.amount_cents).sum();
    let data = serde_json::json!({
        "effectiveDate": effective.to_string(),
        "depositIds": ids,
        "entryCount": ids.len(),
        "totalAmount": super::money(total),
        "file": text,
    });
    events::append(&mut tx, EventType::AchFileCreated, "ach_file", effective, &data).await?;
    tx.commit().await?;
    super::returns::remember_traces(state.deposits().database(), &file).await?;
    Ok(text)
}

/// The NACHA file of `rows` effective on `effective`, and its text.
fn build(
    state: &DepositsState,
    effective: Date,
    rows: &[DepositRow],
) -> Result<(moneydesk_nacha::AchFile, String), Error> {
    let cfg = &state.config().ach;
    let nacha_date = |d: Date| {
        moneydesk_nacha::Date::from_ymd(d.year(), d.month(), d.day())
            .map_err(|e| Error::field("effectiveDate", format!("{d} cannot be written in an ACH file: {e}")))
    };
    let now = Utc::now().with_timezone(&state.config().business_time_zone);
    let mut info = FileInfo::new(&cfg.destination, &cfg.odfi, nacha_date(today(state.config().business_time_zone))?);
    info.immediate_origin_name = cfg.company_name.clone();
    info.creation_time = moneydesk_nacha::Time::new(now.hour() as u8, now.minute() as u8).ok();
    let mut builder = FileBuilder::new(info);
    let mut descriptions: Vec<String> = rows.iter().filter_map(|r| r.ach_entry_description.clone()).collect();
    descriptions.sort();
    descriptions.dedup();
    for description in descriptions {
        let batch = BatchInfo::new(
            Sec::Ccd,
            &cfg.company_name,
            &cfg.company_id,
            &description,
            nacha_date(effective)?,
            &cfg.odfi,
        );
        let entries = rows
            .iter()
            .filter(|r| r.ach_entry_description.as_deref() == Some(description.as_str()))
            .map(|r| {
                let code = match r.ach_account_type.as_deref().and_then(AchAccountType::parse) {
                    Some(AchAccountType::Savings) => TransactionCode::SavingsDebit,
                    _ => TransactionCode::CheckingDebit,
                };
                let mut entry = EntryInfo::new(
                    code,
                    r.bank_routing_number.as_deref().unwrap_or_default(),
                    r.bank_account_number.as_deref().unwrap_or_default(),
                    r.amount_cents.max(0) as u64,
                    r.ach_vendor_name.as_deref().unwrap_or_default(),
                );
                entry.individual_id = format!("DEPOSIT{}", r.id);
                entry
            })
            .collect();
        builder.batch(batch, entries);
    }
    let file = builder.build().map_err(|e| Error::internal(format_args!("the day's ACH file does not build: {e}")))?;
    let text = moneydesk_nacha::write(&file)
        .map_err(|e| Error::internal(format_args!("the day's ACH file does not write: {e}")))?;
    Ok((file, text))
}
