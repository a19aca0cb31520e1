//! The deposit operations: create a check deposit (validation, payee, directory name, fee,
//! images, idempotency, duplicate presentment), read one, move it, list them.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use chrono::{Duration, NaiveDate, TimeZone, Utc};
use moneydesk_model::deposits::{
    CheckDeposit, CheckDepositFields, CheckImages, Date, DepositDayTotal, DepositDetail, DepositMove, DepositRecord,
    DepositStatus, ServiceType,
};
use moneydesk_model::fees::{FeeAmount, TransferType};
use moneydesk_model::{Money, Page, PageRequest, Scope, Sort};
use sha2::{Digest, Sha256};

use super::images;
use super::record::{self, today};
use super::store::{CreateError, CreateOutcome, DepositRow, IdempotencyKey, ListFilter, MoveError};
use crate::auth::Caller;
use crate::error::Error;
use crate::AppState;

/// The longest Idempotency-Key accepted.
const KEY_MAX: usize = 255;

/// Creates a check deposit: 201 with the record, or 200 with the existing one for a retry.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    headers: &HeaderMap,
    query: &[(String, String)],
    body: &Bytes,
) -> Result<(StatusCode, DepositRecord), Error> {
    let key = idempotency_key(caller, headers, body, state.config.idempotency_hours)?;
    let fields: CheckDepositFields =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let tz = state.config.business_time_zone;
    let d = fields.check(today(tz)).map_err(Error::fields)?;
    let override_reason = duplicate_override(caller, query)?;
    let mut row = new_row(state, caller, &d).await?;
    if let Some(reason) = &override_reason {
        row.presentment = None;
        row.override_reason = Some(reason.clone());
    }
    match &d.images {
        // Images last among the checks (the costliest); stored before the row that names them.
        CheckImages::Sent { front, back } => {
            let front = images::check("checkFrontImage", front)?;
            let back = images::check("checkBackImage", back)?;
            row.front_image = Some(images::store(&state.blobs, front).await?);
            row.back_image = Some(images::store(&state.blobs, back).await?);
        }
        CheckImages::Scan(id) => take_scan(state, &d, id, &mut row).await?,
    }
    let duplicate = |first: i64| {
        let mut e = Error::conflict(format!(
            "This check (routing {}, account {}, check {}, amount {}) was already deposited as deposit {first}; an admin may override with overrideDuplicate=true and overrideReason",
            d.bank_routing_number, d.bank_account_number, d.check_number, d.amount
        ));
        e.reason = "duplicate_presentment".into();
        e
    };
    created(state.deposits.create(&row, key.as_ref()).await, tz, duplicate)
}

/// What a deposit's creation answers, whatever its kind: 201 with the record, 200 with the
/// existing one for a retry, 422 for a key reused with another body, `duplicate` (the kind's own
/// sentence) for a second presentment, 409 for a scan already deposited.
pub(super) fn created(
    result: Result<CreateOutcome, CreateError>,
    tz: chrono_tz::Tz,
    duplicate: impl FnOnce(i64) -> Error,
) -> Result<(StatusCode, DepositRecord), Error> {
    match result {
        Ok(CreateOutcome::Created(r)) => Ok((StatusCode::CREATED, record::record(&r, tz))),
        Ok(CreateOutcome::Repeated(r)) => Ok((StatusCode::OK, record::record(&r, tz))),
        Err(CreateError::KeyReused(id)) => Err(Error::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "idempotency_key_reused",
            format!(
                "This Idempotency-Key was used for a different request (deposit {id}); use a new key for a new deposit"
            ),
        )),
        Err(CreateError::Duplicate(first)) => Err(duplicate(first)),
        Err(CreateError::ScanUsed(first)) => {
            let mut e = Error::conflict(format!("This scan was already deposited as deposit {first}; scan the check again only if that deposit was cancelled or rejected"));
            e.reason = "scan_already_deposited".into();
            Err(e)
        }
        Err(CreateError::Db(e)) => Err(e.into()),
    }
}

/// A deposit from a scan: the scan's grayscale images, its sleeve account as the payer, and
/// the amount the scan was made for.
async fn take_scan(state: &AppState, d: &CheckDeposit, id: &str, row: &mut DepositRow) -> Result<(), Error> {
    let scan = state.deposits.scan(id).await?.ok_or_else(|| Error::field("scanId", format!("no scan {id:?}")))?;
    if scan.amount_cents != row.amount_cents {
        return Err(Error::field(
            "amount",
            format!(
                "the scan {id} was made for {}, not {}",
                Money::new(rust_decimal::Decimal::new(scan.amount_cents, 2)),
                d.amount
            ),
        ));
    }
    match &d.payer_id {
        Some(p) if *p != scan.sma_sfid => {
            return Err(Error::field(
                "payerId",
                format!("the scan {id} was made for the managed sleeve account {:?}", scan.sma_sfid),
            ))
        }
        _ => row.payer_id = Some(scan.sma_sfid.clone()),
    }
    row.service_type = ServiceType::CheckScan.as_str().into();
    row.front_image = Some(scan.front_gray);
    row.back_image = Some(scan.rear_gray);
    row.scan_id = Some(scan.id);
    Ok(())
}

/// The row of a new check deposit: the payee (and the sleeve account) from the accounts
/// collection, the bank's name from the directory when none was given, the fee quoted now.
async fn new_row(state: &AppState, caller: &Caller, d: &CheckDeposit) -> Result<DepositRow, Error> {
    let payee = state.accounts.get(&d.payee_account_id).await?.ok_or_else(|| {
        Error::field("payeeAccountId", format!("no account {:?} in the accounts collection", d.payee_account_id))
    })?;
    if let Some(payer) = &d.payer_id {
        if state.accounts.get(payer).await?.is_none() {
            return Err(Error::field(
                "payerId",
                format!("no managed sleeve account {payer:?} in the accounts collection"),
            ));
        }
    }
    let directory_name = directory_name(state, d);
    let tz = state.config.business_time_zone;
    let cents = cents_of;
    Ok(DepositRow {
        id: 0,
        service_type: ServiceType::Check.as_str().into(),
        status: DepositStatus::InProgress.as_str().into(),
        is_confirmed: 0,
        amount_cents: cents(d.amount),
        fee_cents: cents(fee_for(state, d)),
        created_at: crate::storage::now_text(),
        completed_at: None,
        schedule_date: d.schedule_date.unwrap_or_else(|| today(tz)).to_string(),
        check_date: d.check_date.map(|x| x.to_string()),
        check_number: Some(d.check_number.clone()),
        bank_routing_number: Some(d.bank_routing_number.to_string()),
        bank_account_number: Some(d.bank_account_number.clone()),
        bank_name: d.bank_name.clone().or(directory_name),
        memo: d.memo.clone(),
        payee_account_id: payee.id.clone(),
        payee_user_id: Some(d.payee_user_id.clone()),
        payee_name: Some(payee.account_name.clone()),
        payee_account_number: payee.account_number.clone(),
        payee_record_type_id: payee.record_type_id.clone(),
        payer_id: d.payer_id.clone(),
        payer_type: d.payer_type.clone(),
        payment_type: d.payment_type.clone(),
        source: d.source.clone(),
        bank_info_id: d.bank_info_id.clone(),
        transfer_type: d.transfer_type.clone(),
        submitter: caller.token_name().to_string(),
        front_image: None,
        back_image: None,
        presentment: Some(format!(
            "{}|{}|{}|{}",
            d.bank_routing_number,
            d.bank_account_number,
            d.check_number,
            cents(d.amount)
        )),
        duplicate_of: None,
        override_reason: None,
        scan_id: None,
        ach_account_type: None,
        ach_vendor_name: None,
        ach_entry_description: None,
    })
}

/// The directory's name for the routing number (FedACH first), when it lists it.
pub fn directory_name(state: &AppState, d: &CheckDeposit) -> Option<String> {
    directory_name_of(state, &d.bank_routing_number)
}

/// The directory's name for a routing number (FedACH first), when it lists it.
pub fn directory_name_of(state: &AppState, rn: &moneydesk_model::RoutingNumber) -> Option<String> {
    let dir = state.routing.current();
    dir.ach(rn)
        .map(|a| a.customer_name.trim().to_string())
        .or_else(|| dir.wire(rn).map(|w| w.customer_name.trim().to_string()))
}

/// The standard fee of the schedule in force for the amount: for the request's transfer type
/// when it names one of the schedule's, else standard ACH (EFT), how a deposited check clears.
fn fee_for(state: &AppState, d: &CheckDeposit) -> Money {
    let transfer_type = d.transfer_type.as_deref().and_then(TransferType::parse).unwrap_or(TransferType::Eft);
    standard_fee(state, d.amount, transfer_type)
}

/// Money as integer cents (amounts are checked to two decimals first).
pub(crate) fn cents_of(m: Money) -> i64 {
    (m.with_cents().decimal() * rust_decimal::Decimal::ONE_HUNDRED).trunc().to_string().parse::<i64>().unwrap_or(0)
}

/// The standard fee of the schedule in force for `amount` and `transfer_type`.
pub(super) fn standard_fee(state: &AppState, amount: Money, transfer_type: TransferType) -> Money {
    let Ok(amount) = FeeAmount::parse(&amount.to_string()) else { return Money::ZERO };
    let Some(version) = state.fees.versions.in_force(Utc::now()) else { return Money::ZERO };
    let quotes = version.schedule.quote(transfer_type, amount);
    let standard = quotes.iter().find(|q| q.entry.fee_type == "standard").or(quotes.first());
    standard.map_or(Money::ZERO, |q| q.entry.fee_amount)
}

/// The request's `Idempotency-Key`, remembered for `hours`.
pub(super) fn idempotency_key(
    caller: &Caller,
    headers: &HeaderMap,
    body: &[u8],
    hours: u32,
) -> Result<Option<IdempotencyKey>, Error> {
    let Some(v) = headers.get("idempotency-key") else { return Ok(None) };
    let key = v.to_str().map_err(|_| Error::field("Idempotency-Key", "must be visible ASCII"))?.trim();
    if key.is_empty() || key.len() > KEY_MAX {
        return Err(Error::field("Idempotency-Key", format!("must be 1 to {KEY_MAX} characters")));
    }
    let window = chrono::Duration::hours(i64::from(hours));
    Ok(Some(IdempotencyKey {
        token_id: caller.token_id(),
        key: key.to_string(),
        request_hash: hex::encode(Sha256::digest(body)),
        expired_before: (Utc::now() - window).to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    }))
}

/// `overrideDuplicate=true&overrideReason=...`: an admin deposits a check again on purpose.
fn duplicate_override(caller: &Caller, query: &[(String, String)]) -> Result<Option<String>, Error> {
    let get = |k: &str| query.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string());
    // A reason is checked whenever given, so a wrong one never passes unnoticed.
    let reason = match get("overrideReason") {
        Some(r) if r.is_empty() || r.chars().count() > 500 || r.chars().any(char::is_control) => {
            return Err(Error::field("overrideReason", "must be 1 to 500 characters without control characters"))
        }
        r => r,
    };
    match get("overrideDuplicate").as_deref() {
        None | Some("false") => Ok(None),
        Some("true") => {
            caller.require(Scope::Admin)?;
            match reason {
                Some(reason) => Ok(Some(reason)),
                None => Err(Error::field(
                    "overrideReason",
                    "an override of a duplicate needs a reason (1 to 500 characters)",
                )),
            }
        }
        Some(other) => Err(Error::field("overrideDuplicate", format!("must be true or false, got {other:?}"))),
    }
}

pub async fn detail(state: &AppState, id: i64) -> Result<DepositDetail, Error> {
    let (row, events) =
        state.deposits.with_history(id).await?.ok_or_else(|| Error::not_found(format!("No deposit {id}")))?;
    let history = events.into_iter().map(record::event).collect();
    let tz = state.config.business_time_zone;
    let rec = record::record(&row, tz);
    let directory_bank_name = row.bank_routing_number.as_deref().and_then(|rn| {
        let rn = moneydesk_model::RoutingNumber::parse(rn).ok()?;
        let dir = state.routing.current();
        dir.ach(&rn)
            .map(|a| a.customer_name.trim().to_string())
            .or_else(|| dir.wire(&rn).map(|w| w.customer_name.trim().to_string()))
    });
    Ok(DepositDetail {
        allowed_actions: rec.status.allowed().to_vec(),
        record: rec,
        service_type: ServiceType::parse(&row.service_type).unwrap_or(ServiceType::Check),
        history,
        directory_bank_name,
        duplicate_of: row.duplicate_of,
        override_reason: row.override_reason,
    })
}

/// A move: confirm, reject, cancel and return with `deposits:write`; send and settle (the
/// cash-letter and settlement jobs' moves) with `admin`. Reject and return need a reason.
pub async fn apply(state: &AppState, caller: &Caller, id: i64, m: DepositMove) -> Result<DepositDetail, Error> {
    use moneydesk_model::deposits::DepositAction::*;
    if matches!(m.action, Send | Settle) {
        caller.require(Scope::Admin)?;
    }
    let reason = m.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    if m.action.needs_reason() && reason.is_none() {
        return Err(Error::field("reason", format!("a {} needs a reason", m.action.as_str())));
    }
    if reason.is_some_and(|r| r.chars().count() > 500 || r.chars().any(char::is_control)) {
        return Err(Error::field("reason", "at most 500 characters, no control characters"));
    }
    match state.deposits.apply(id, m.action, caller.token_name(), reason).await {
        Ok(_) => detail(state, id).await,
        Err(MoveError::NotFound(id)) => Err(Error::not_found(format!("No deposit {id}"))),
        Err(MoveError::Illegal(e)) => {
            let mut err = Error::conflict(e.to_string());
            err.reason = "illegal_transition".into();
            Err(err)
        }
        Err(MoveError::Db(e)) => Err(e.into()),
    }
}

/// The list's filters and sort from the query: `status`, `serviceType`, `createdFrom` and
/// `createdTo` (dates, inclusive, business time zone), `payeeAccountId`, `amountMin`,
/// `amountMax`, `sort=createdDate|amount[,asc|desc]` (default `createdDate,desc`).
pub async fn list(
    state: &AppState,
    pairs: &[(String, String)],
) -> Result<Page<moneydesk_model::DepositListItem>, Error> {
    list_as(state, pairs, record::list_item).await
}

/// The filtered deposits (the list's filters; paging and sort ignored) summed per day of the
/// business time zone and status, oldest day first.
pub async fn daily_totals(state: &AppState, pairs: &[(String, String)]) -> Result<Vec<DepositDayTotal>, Error> {
    let (f, _) = list_filter(state, pairs)?;
    let tz = state.config.business_time_zone;
    let mut days: std::collections::BTreeMap<(String, usize), (DepositStatus, i64, i64)> = Default::default();
    for h in state.deposits.hourly_totals(&f).await? {
        let Some(status) = DepositStatus::parse(&h.status) else { continue };
        let Some(day) = record::local_day(&format!("{}:00:00Z", h.hour), tz) else { continue };
        let rank = DepositStatus::ALL.iter().position(|s| *s == status).unwrap_or(0);
        let e = days.entry((day, rank)).or_insert((status, 0, 0));
        e.1 += h.count;
        e.2 += h.amount_cents;
    }
    Ok(days
        .into_iter()
        .filter_map(|((day, _), (status, count, cents))| {
            Some(DepositDayTotal { day: Date::parse(&day).ok()?, status, count, amount: record::money(cents) })
        })
        .collect())
}

/// The same page with each deposit as its whole record (the portal's list extension).
pub async fn list_records(state: &AppState, pairs: &[(String, String)]) -> Result<Page<DepositRecord>, Error> {
    list_as(state, pairs, record::record).await
}

async fn list_as<T>(
    state: &AppState,
    pairs: &[(String, String)],
    item: fn(&DepositRow, chrono_tz::Tz) -> T,
) -> Result<Page<T>, Error> {
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let tz = state.config.business_time_zone;
    let (f, sorted) = list_filter(state, pairs)?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = state.deposits.list(&f, offset, i64::from(page.size)).await?;
    let items = rows.iter().map(|r| item(r, tz)).collect();
    Ok(Page::build(page, total as u64, items, if sorted { Sort::SORTED } else { Sort::UNSORTED }))
}

/// The list's filters and sort from the query (and whether a sort was asked for).
fn list_filter(state: &AppState, pairs: &[(String, String)]) -> Result<(ListFilter, bool), Error> {
    let tz = state.config.business_time_zone;
    // A filter given empty is refused, not ignored: the document states each one's form.
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim());
    let mut f = ListFilter { desc: true, ..Default::default() };
    if let Some(s) = get("status") {
        f.status = Some(
            DepositStatus::parse(s)
                .ok_or_else(|| Error::field("status", format!("unknown status {s:?}")))?
                .as_str()
                .into(),
        );
    }
    if let Some(s) = get("serviceType") {
        f.service_type = Some(
            ServiceType::parse(s)
                .ok_or_else(|| Error::field("serviceType", format!("unknown service type {s:?}")))?
                .as_str()
                .into(),
        );
    }
    let day_start = |field: &str, s: &str, next: bool| -> Result<String, Error> {
        let d = NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map_err(|_| Error::field(field, format!("{s:?} is not a date like 2026-11-24")))?;
        let d = if next { d + Duration::days(1) } else { d };
        let local = tz.from_local_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default()).earliest();
        let utc = local
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(|| Error::field(field, "not a time in the business time zone"))?;
        Ok(utc.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    };
    if let Some(s) = get("createdFrom") {
        f.created_from = Some(day_start("createdFrom", s, false)?);
    }
    if let Some(s) = get("createdTo") {
        f.created_to = Some(day_start("createdTo", s, true)?);
    }
    f.payee_account_id = match get("payeeAccountId") {
        Some("") => return Err(Error::field("payeeAccountId", "must not be empty")),
        p => p.map(str::to_string),
    };
    let cents = |field: &str, s: &str| -> Result<i64, Error> {
        let m = Money::parse(s).and_then(|m| m.check_amount(2)).map_err(|e| Error::field(field, e.to_string()))?;
        Ok((m.decimal() * rust_decimal::Decimal::ONE_HUNDRED).trunc().to_string().parse().unwrap_or(i64::MAX))
    };
    f.amount_min_cents = get("amountMin").map(|s| cents("amountMin", s)).transpose()?;
    f.amount_max_cents = get("amountMax").map(|s| cents("amountMax", s)).transpose()?;
    let mut sorted = false;
    if let Some(s) = get("sort") {
        let (key, dir) = s.split_once(',').unwrap_or((s, "desc"));
        f.sort_amount = match key {
            "createdDate" => false,
            "amount" => true,
            other => return Err(Error::field("sort", format!("cannot sort by {other:?}; use createdDate or amount"))),
        };
        f.desc = match dir {
            "desc" => true,
            "asc" => false,
            other => return Err(Error::field("sort", format!("direction {other:?}: use asc or desc"))),
        };
        sorted = true;
    }
    Ok((f, sorted))
}
