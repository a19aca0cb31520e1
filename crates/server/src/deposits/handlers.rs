//! The deposit operations: create a check deposit (validation, payee, directory, fee, the
//! scan's MICR fields, images, idempotency, duplicate presentment), read one, move it. The
//! list is `list.rs`; what a check deposit is checked against beyond its body is `check.rs`.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use chrono::Utc;
use moneydesk_model::accounts::Account;
use moneydesk_model::deposits::{
    CheckDeposit, CheckDepositFields, CheckImages, DepositDetail, DepositMove, DepositRecord, DepositStatus,
    ServiceType,
};
use moneydesk_model::fees::{FeeAmount, FeeParties, TransferType};
use moneydesk_model::{Money, Scope};
use sha2::{Digest, Sha256};

use super::check::{self, amount_and_check_number};
use super::images;
use super::record::{self, today};
use super::store::{CreateError, CreateOutcome, DepositRow, IdempotencyKey, MoveError, ScanRow};
use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::Error;

/// Creates a check deposit: 201 with the record, or 200 with the existing one for a retry.
pub async fn create(
    state: &DepositsState,
    caller: &Caller,
    headers: &HeaderMap,
    query: &[(String, String)],
    body: &Bytes,
) -> Result<(StatusCode, DepositRecord), Error> {
    let key = idempotency_key(caller, headers, body, state.config().idempotency_hours)?;
    let fields: CheckDepositFields =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let tz = state.config().business_time_zone;
    let d = fields.check(today(tz)).map_err(Error::fields)?;
    let fee = check::fee_to_charge(caller, d.fee)?;
    let override_reason = duplicate_override(caller, query)?;
    let payee = check::known_account(state, "payeeAccountId", &d.payee_account_id, "account").await?;
    if let Some(payer) = &d.payer_id {
        check::known_account(state, "payerId", payer.as_str(), "managed sleeve account").await?;
    }
    check::in_fedach(state, &d.bank_routing_number)?;
    let scan = match &d.images {
        CheckImages::Scan(id) => Some(check::scan(state, id).await?),
        CheckImages::Sent { .. } => None,
    };
    let (amount, check_number) = amount_and_check_number(&d, scan.as_ref())?;
    let fee = fee.unwrap_or_else(|| fee_for(state, &d, amount));
    let mut row = new_row(state, caller, &d, payee, Facts { amount, check_number: check_number.clone(), fee });
    if let Some(reason) = &override_reason {
        row.presentment = None;
        row.override_reason = Some(reason.clone());
    }
    match (&d.images, scan) {
        (_, Some(scan)) => take_scan(&d, scan, &mut row)?,
        // Images last among the checks (the costliest); stored before the row that names them.
        (CheckImages::Sent { front, back }, None) => {
            let front = images::check("checkFrontImage", front)?;
            let back = images::check("checkBackImage", back)?;
            row.front_image = Some(images::store(&state.blobs(), front).await?);
            row.back_image = Some(images::store(&state.blobs(), back).await?);
        }
        (CheckImages::Scan(id), None) => return Err(Error::internal(format_args!("scan {id} was not read"))),
    }
    let duplicate = |first: i64| {
        let mut e = Error::conflict(format!(
            "This check (routing {}, account {}, check {}, amount {amount}) was already deposited as deposit {first}; an admin may override with overrideDuplicate=true and overrideReason",
            d.bank_routing_number, d.bank_account_number, check_number.as_deref().unwrap_or("none")
        ));
        e.reason = "duplicate_presentment".into();
        e
    };
    created(state.deposits().create_in_zone(&row, key.as_ref(), tz).await, tz, duplicate)
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
fn take_scan(d: &CheckDeposit, scan: ScanRow, row: &mut DepositRow) -> Result<(), Error> {
    let id = scan.id.as_str();
    if scan.amount_cents != row.amount_cents {
        let made_for = Money::new(rust_decimal::Decimal::new(scan.amount_cents, 2));
        let deposited = Money::new(rust_decimal::Decimal::new(row.amount_cents, 2));
        let problem = match d.amount {
            Some(_) => format!("the scan {id} was made for {made_for}, not {deposited}"),
            None => format!("amount was left out and the check's MICR amount field reads {deposited}, but the scan {id} was made for {made_for}"),
        };
        return Err(Error::field("amount", problem));
    }
    match &d.payer_id {
        Some(p) if p.as_str() != scan.sma_sfid => {
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

/// What a check deposit's row takes besides its request: the amount and check number (the
/// request's or its scan's) and the fee to charge.
struct Facts {
    amount: Money,
    check_number: Option<String>,
    fee: Money,
}

/// The row of a new check deposit: the payee from the accounts collection, the bank's name
/// from the directory when none was given.
fn new_row(state: &DepositsState, caller: &Caller, d: &CheckDeposit, payee: Account, f: Facts) -> DepositRow {
    let directory_name = directory_name(state, d);
    let tz = state.config().business_time_zone;
    let cents = cents_of;
    DepositRow {
        id: 0,
        service_type: ServiceType::Check.as_str().into(),
        status: DepositStatus::InProgress.as_str().into(),
        is_confirmed: 0,
        amount_cents: cents(f.amount),
        fee_cents: cents(f.fee),
        created_at: crate::storage::time::now_text(),
        completed_at: None,
        schedule_date: d.schedule_date.unwrap_or_else(|| today(tz)).to_string(),
        check_date: d.check_date.map(|x| x.to_string()),
        check_number: f.check_number.clone(),
        bank_routing_number: Some(d.bank_routing_number.to_string()),
        bank_account_number: Some(d.bank_account_number.clone()),
        bank_name: d.bank_name.clone().map(String::from).or(directory_name),
        memo: d.memo.clone().map(String::from),
        payee_account_id: payee.id.clone(),
        payee_user_id: Some(d.payee_user_id.clone()),
        payee_name: Some(payee.account_name.clone()),
        payee_account_number: payee.account_number.clone(),
        payee_record_type_id: payee.record_type_id.clone(),
        payer_id: d.payer_id.clone().map(String::from),
        payer_type: d.payer_type.clone().map(String::from),
        payment_type: d.payment_type.clone().map(String::from),
        source: d.source.clone().map(String::from),
        bank_info_id: d.bank_info_id.clone().map(String::from),
        transfer_type: d.transfer_type.clone().map(String::from),
        submitter: caller.token_name().to_string(),
        front_image: None,
        back_image: None,
        // The account's digits only: `1211-1234-56789` and `1211 1234 56789` are one account.
        presentment: Some(format!(
            "{}|{}|{}|{}",
            d.bank_routing_number,
            d.account_digits(),
            f.check_number.as_deref().unwrap_or_default(),
            cents(f.amount)
        )),
        duplicate_of: None,
        override_reason: None,
        scan_id: None,
        ach_account_type: None,
        ach_vendor_name: None,
        ach_entry_description: None,
    }
}

/// The directory's name for the routing number (FedACH first), when it lists it.
pub fn directory_name(state: &DepositsState, d: &CheckDeposit) -> Option<String> {
    directory_name_of(state, &d.bank_routing_number)
}

/// The directory's name for a routing number (FedACH first), when it lists it.
pub fn directory_name_of(state: &DepositsState, rn: &moneydesk_model::RoutingNumber) -> Option<String> {
    let dir = state.routing().current();
    dir.ach(rn)
        .map(|a| a.customer_name.trim().to_string())
        .or_else(|| dir.wire(rn).map(|w| w.customer_name.trim().to_string()))
}

/// The standard fee of the schedule in force for the amount: for the request's transfer type
/// when it names one of the schedule's, else standard ACH (EFT), how a deposited check clears;
/// priced for the deposit's parties as the fee API prices them (a waiver, a payer's own
/// schedule), its names mapped as CONTRACT.md point 6 aliases them: `payeeId` → `payeeUserId`,
/// `payeeBankId` → `bankInfoId`.
fn fee_for(state: &DepositsState, d: &CheckDeposit, amount: Money) -> Money {
    let transfer_type =
        d.transfer_type.as_ref().and_then(|t| TransferType::parse(t.as_str())).unwrap_or(TransferType::Eft);
    let parties = FeeParties {
        payer_id: d.payer_id.as_ref().map(|p| p.as_str()),
        payee_id: Some(d.payee_user_id.as_str()),
        payee_bank_id: d.bank_info_id.as_ref().map(|b| b.as_str()),
    };
    standard_fee_for(state, amount, transfer_type, &parties)
}

/// Money as integer cents (amounts are checked to two decimals first).
pub(crate) fn cents_of(m: Money) -> i64 {
    (m.with_cents().decimal() * rust_decimal::Decimal::ONE_HUNDRED).trunc().to_string().parse::<i64>().unwrap_or(0)
}

/// The standard fee of the schedule in force for `amount` and `transfer_type`.
pub(super) fn standard_fee(state: &DepositsState, amount: Money, transfer_type: TransferType) -> Money {
    standard_fee_for(state, amount, transfer_type, &FeeParties::default())
}

/// The same, for these parties.
fn standard_fee_for(
    state: &DepositsState,
    amount: Money,
    transfer_type: TransferType,
    parties: &FeeParties<'_>,
) -> Money {
    let Ok(amount) = FeeAmount::parse(&amount.to_string()) else { return Money::ZERO };
    let Some(version) = state.fees().versions.in_force(Utc::now()) else { return Money::ZERO };
    let (entries, _) = version.schedule.quote_for(parties, transfer_type, amount);
    let standard = entries.iter().find(|e| e.fee_type == "standard").or(entries.first());
    standard.map_or(Money::ZERO, |e| e.fee_amount)
}

/// The request's `Idempotency-Key`, remembered for `hours`.
pub(super) fn idempotency_key(
    caller: &Caller,
    headers: &HeaderMap,
    body: &[u8],
    hours: u32,
) -> Result<Option<IdempotencyKey>, Error> {
    let Some(key) = crate::http::extract::idempotency_key(headers)? else { return Ok(None) };
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

pub async fn detail(state: &DepositsState, id: i64) -> Result<DepositDetail, Error> {
    let (row, events) =
        state.deposits().with_history(id).await?.ok_or_else(|| Error::not_found(format!("No deposit {id}")))?;
    let history = events.into_iter().map(record::event).collect();
    let tz = state.config().business_time_zone;
    let rec = record::record(&row, tz);
    let directory_bank_name = row.bank_routing_number.as_deref().and_then(|rn| {
        let rn = moneydesk_model::RoutingNumber::parse(rn).ok()?;
        let dir = state.routing().current();
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
pub async fn apply(state: &DepositsState, caller: &Caller, id: i64, m: DepositMove) -> Result<DepositDetail, Error> {
    use moneydesk_model::deposits::DepositAction::*;
    if matches!(m.action, Send | Settle) {
        caller.require(Scope::Admin)?;
    }
    let reason = m.reason.as_deref().map(str::trim).filter(|r| !r.is_empty());
    if m.action.needs_reason() && reason.is_none() && m.reason_code.is_none() {
        return Err(Error::field("reason", format!("a {} needs a reason", m.action.as_str())));
    }
    if reason.is_some_and(|r| r.chars().count() > 500 || r.chars().any(char::is_control)) {
        return Err(Error::field("reason", "at most 500 characters, no control characters"));
    }
    let moved = match m.reason_code.as_deref() {
        // A return with its code: recorded as an operator's returned item in the same move.
        Some(code) if m.action == Return => {
            let said = format!("{} {}", code.trim(), super::returns::reason_code(code)?);
            let said = reason.map_or(said.clone(), |r| format!("{said}: {r}"));
            super::returns::operator_return(state, caller, id, code, &said).await
        }
        Some(_) => return Err(Error::field("reasonCode", "a reason code goes with a return only")),
        None => state.deposits().apply(id, m.action, caller.token_name(), reason, state.books()).await.map(drop),
    };
    match moved {
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
