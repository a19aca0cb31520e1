//! What a check deposit is checked against beyond its body (description 4.5, issue 44): the
//! accounts it names (404 when unknown, on the list's filter too), its routing number's place
//! in the FedACH directory (400), the caller's right to set the fee (403), and what a named
//! scan supplies when the request leaves it out (the MICR amount and check number).

use axum::http::StatusCode;
use moneydesk_model::accounts::Account;
use moneydesk_model::deposits::{CheckDeposit, CheckScan, MicrField};
use moneydesk_model::{FieldError, Money, RoutingNumber, Scope};

use super::store::ScanRow;
use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::Error;

/// The check deposit's decisions the description leaves open (issue 44), in the operation's
/// description.
pub(super) const CHECK_DEPOSIT_DESCRIPTION: &str = "Creates a check deposit to apply toward a managed sleeve account's balance (description 4.5). Decisions the description leaves open: `amount` is optional — without it, a deposit naming a scan (`scanId`) takes the scan's MICR amount field when the check has one printed and it was read with certainty (and it must be the amount the scan was made for); otherwise the answer is a 400 naming `amount` and saying why. With a `scanId`, `checkNumber` may be left out too: the scan's MICR check number is taken (the on-us serial, else the auxiliary on-us field), and a check whose MICR line carries none (its on-us field is all account) is deposited without one. `fee`, when sent, is what is charged, if the token holds `fees:override` (or `admin`); from any other token it is a 403 naming the field `fee`, never ignored. Left out, the fee schedule's standard fee for the amount is charged (the transfer type's when `transferType` names one of the schedule's, else EFT), priced for the deposit's parties as the fee endpoints price them: a schedule version's waiver or payer schedule applies to `payerId`, to `payeeUserId` as the fee request's `payeeId` and to `bankInfoId` as its `payeeBankId`. `bankAccountNumber` is the account as printed in the on-us field: digits with the dashes (MICR ⑉) and spaces printed between them, at most 17 characters (NACHA's DFI account number); it is kept as printed in the record, the cash letter's on-us field and any ACH file, and duplicate presentment compares its digits only. `bankRoutingNumber` must be in the FedACH directory in force (a 400 naming it otherwise). An unknown `payeeAccountId` or `payerId` is a 404 naming the field, checked before the routing number and the scan.";

/// The account `id` of the accounts collection that `field` names, or a 404 naming `field`
/// (description section 7 lists 404 for list, create and scan). `what` says what it should be.
pub async fn known_account(state: &DepositsState, field: &str, id: &str, what: &str) -> Result<Account, Error> {
    match state.accounts().get(id).await? {
        Some(account) => Ok(account),
        None => {
            let problem = format!("no {what} {id:?} in the accounts collection");
            let mut e = Error::not_found(format!("No {what} {id:?} in the accounts collection"));
            e.fields = vec![FieldError::new(field, problem)];
            Err(e)
        }
    }
}

/// The list's filter naming a payee account: a 404 when the accounts collection has no such
/// account (an empty page would read as "no deposits yet").
pub async fn known_payee_filter(state: &DepositsState, payee_account_id: Option<&str>) -> Result<(), Error> {
    match payee_account_id {
        Some(id) => known_account(state, "payeeAccountId", id, "account").await.map(drop),
        None => Ok(()),
    }
}

/// 400 naming `bankRoutingNumber` unless the FedACH directory in force lists the number: a
/// check drawn on a bank it does not list cannot be cleared.
pub fn in_fedach(state: &DepositsState, rn: &RoutingNumber) -> Result<(), Error> {
    if state.routing().current().ach(rn).is_some() {
        return Ok(());
    }
    Err(Error::field(
        "bankRoutingNumber",
        format!("{rn} is not in the FedACH directory: check the number printed on the check (GET /api/v1/cores/utility/payment/routing/ach/validate looks it up)"),
    ))
}

/// The fee to charge when the request sets one: allowed with `fees:override` (or `admin`),
/// otherwise a 403 naming `fee` (a fee never passes unnoticed).
pub fn fee_to_charge(caller: &Caller, fee: Option<Money>) -> Result<Option<Money>, Error> {
    match fee {
        Some(_) if !caller.can(Scope::FeesOverride) => {
            let mut e = Error::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                "This token lacks the fees:override scope: it may not set the fee",
            );
            e.fields = vec![FieldError::new(
                "fee",
                "setting the fee needs the fees:override (or admin) scope; leave fee out to be charged the fee schedule's",
            )];
            Err(e)
        }
        fee => Ok(fee),
    }
}

/// The scan a deposit names, or a 400 naming `scanId`.
pub async fn scan(state: &DepositsState, id: &str) -> Result<ScanRow, Error> {
    state.deposits().scan(id).await?.ok_or_else(|| Error::field("scanId", format!("no scan {id:?}")))
}

/// A deposit's amount and check number: the request's, else (with a scan) the scan's MICR
/// amount field and check number, each read with certainty; a 400 naming the field says why
/// when there is none to take. A MICR line without a check number (an on-us field that is all
/// account) gives a deposit without one.
pub fn amount_and_check_number(d: &CheckDeposit, scan: Option<&ScanRow>) -> Result<(Money, Option<String>), Error> {
    let micr = scan.and_then(|s| serde_json::from_str::<CheckScan>(&s.answer).ok()).and_then(|s| s.micr);
    let scan_id = scan.map_or("", |s| s.id.as_str());
    let no_line = |field: &str| {
        Error::field(field, format!("{field} was left out and scan {scan_id} read no MICR line: send the {field}"))
    };
    let amount = match (d.amount, &micr) {
        (Some(a), _) => a,
        (None, None) => return Err(no_line("amount")),
        (None, Some(m)) => micr_amount(m.amount.as_ref(), scan_id)?,
    };
    let check_number = match (&d.check_number, &micr) {
        (Some(n), _) => Some(n.clone()),
        (None, None) => return Err(no_line("checkNumber")),
        (None, Some(m)) => match m.check_number.as_ref().or(m.aux_on_us.as_ref()) {
            None => None,
            Some(f) if !f.uncertain && (1..=15).contains(&f.value.len()) && is_digits(&f.value) => {
                Some(f.value.clone())
            }
            Some(f) => {
                return Err(Error::field(
                    "checkNumber",
                    format!(
                        "checkNumber was left out and the MICR check number of scan {scan_id} reads {:?}, not with certainty: send the checkNumber printed on the check",
                        f.value
                    ),
                ))
            }
        },
    };
    Ok((amount, check_number))
}

fn micr_amount(field: Option<&MicrField>, scan_id: &str) -> Result<Money, Error> {
    let Some(f) = field else {
        return Err(Error::field(
            "amount",
            format!("amount was left out and the check of scan {scan_id} has no amount field in its MICR line (a bank of first deposit encodes it): send the amount"),
        ));
    };
    let read = Money::parse(&f.value).ok().filter(|m| !f.uncertain && m.decimal() > rust_decimal::Decimal::ZERO);
    read.map(Money::with_cents).ok_or_else(|| {
        Error::field(
            "amount",
            format!(
                "amount was left out and the MICR amount field of scan {scan_id} reads {:?}, not with certainty: send the amount",
                f.value
            ),
        )
    })
}

fn is_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}
