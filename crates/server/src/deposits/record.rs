//! From a stored row to what the API answers: the deposit record (2.5), the list item (2.4),
//! and the detail extension; times in the business time zone (CONTRACT.md point 14).

use chrono::{DateTime, Datelike, Timelike, Utc};
use chrono_tz::Tz;
use moneydesk_model::deposits::{
    created_date_text, list_created_date_text, Date, DepositEvent, DepositRecord, DepositStatus, ServiceType,
};
use moneydesk_model::{DepositListItem, Money};
use rust_decimal::Decimal;

use super::store::{DepositRow, EventRow};

/// Cents as money with two decimals.
pub fn money(cents: i64) -> Money {
    Money::new(Decimal::new(cents, 2))
}

/// The local date and time of an RFC 3339 UTC text.
fn local(utc: &str, tz: Tz) -> Option<(Date, u32, u32, u32)> {
    let t = DateTime::parse_from_rfc3339(utc).ok()?.with_timezone(&Utc).with_timezone(&tz);
    let d = Date::new(u16::try_from(t.year()).ok()?, t.month() as u8, t.day() as u8)?;
    Some((d, t.hour(), t.minute(), t.second()))
}

/// The business day (`YYYY-MM-DD`) of an RFC 3339 UTC time.
pub fn local_day(utc: &str, tz: Tz) -> Option<String> {
    local(utc, tz).map(|(d, ..)| d.to_string())
}

/// `Nov 04,2026 03:05 PM` for a stored UTC time.
pub fn created_text(utc: &str, tz: Tz) -> String {
    match local(utc, tz) {
        Some((d, h, m, _)) => created_date_text(d, h as u8, m as u8),
        None => utc.to_string(),
    }
}

/// Today's date in the business time zone.
pub fn today(tz: Tz) -> Date {
    let t = Utc::now().with_timezone(&tz);
    Date::new(t.year() as u16, t.month() as u8, t.day() as u8).expect("a calendar day")
}

pub fn record(r: &DepositRow, tz: Tz) -> DepositRecord {
    let status = DepositStatus::parse(&r.status).unwrap_or(DepositStatus::InProgress);
    let date = |s: &Option<String>| s.as_deref().and_then(|d| Date::parse(d).ok());
    DepositRecord {
        id: r.id,
        ac_id: Some(r.payee_account_id.clone()),
        name: r.payee_name.clone(),
        account_number: r.payee_account_number.clone(),
        record_type_id: r.payee_record_type_id.clone(),
        sleeve_account_id: r.payer_id.clone(),
        submitter_id: Some(r.submitter.clone()),
        account_as_vendor_id: None,
        vendor_email: None,
        last_name: None,
        address: None,
        city: None,
        state: None,
        zip_code: None,
        transfer_type: r.transfer_type.clone(),
        payment_type: r.payment_type.clone(),
        schedule_date: Date::parse(&r.schedule_date).unwrap_or_else(|_| today(tz)),
        created_date: created_text(&r.created_at, tz),
        amount: money(r.amount_cents),
        fee_applied: money(r.fee_cents),
        is_confirmed: r.is_confirmed != 0,
        overnight_mail: false,
        status,
        step: status.step().to_string(),
        owner_name: None,
        vendor: None,
        check_stub: None,
        check_date: date(&r.check_date),
        daytime_phone: None,
        account_to_account_payee: None,
        completed_date: r.completed_at.as_deref().map(|t| created_text(t, tz)),
        contact_as_vendor_id: None,
        ssn_tax_payer_id: None,
        party: None,
        check_number: r.check_number.clone(),
        pay_to_account: None,
        actual_pick_up_date: None,
        bank_info_id: r.bank_info_id.clone(),
        memo: r.memo.clone(),
        bank_name: r.bank_name.clone(),
        first_name: None,
        swift_code: None,
        destination_country: None,
        care_of: None,
        bank_routing_number: r.bank_routing_number.clone(),
        amount_type: None,
        requested_pickup_date: None,
        account_type: None,
        full_bank_account_number: r.bank_account_number.clone(),
        intermediary_routing_number: None,
        intermediary_financial_institution: None,
        ach_batch_id: None,
    }
}

pub fn list_item(r: &DepositRow, tz: Tz) -> DepositListItem {
    let created = match local(&r.created_at, tz) {
        Some((d, h, m, s)) => list_created_date_text(d, h as u8, m as u8, s as u8),
        None => r.created_at.clone(),
    };
    DepositListItem {
        name: r.payee_name.clone().unwrap_or_default(),
        service_type: ServiceType::parse(&r.service_type).map(|t| t.as_str().to_string()),
        account_number: r.payee_account_number.clone().unwrap_or_default(),
        unified_account_id: r.payee_account_id.clone(),
        created_date: created,
        record_type_id: r.payee_record_type_id.clone().unwrap_or_default(),
        ac_id: r.payee_account_id.clone(),
    }
}

pub fn event(e: EventRow) -> DepositEvent {
    DepositEvent {
        at: e.at,
        actor: e.actor,
        action: e.action,
        from_status: e.from_status.as_deref().and_then(DepositStatus::parse),
        to_status: DepositStatus::parse(&e.to_status).unwrap_or(DepositStatus::InProgress),
        reason: e.reason,
    }
}
