//! Cash deposits (extension): the amount recorded against a managed sleeve account, with the
//! check deposit's `Idempotency-Key` and state machine. Cash has no instrument to present
//! twice, so there is no duplicate rule.

use axum::http::{HeaderMap, StatusCode};
use moneydesk_model::deposits::{CashDepositFields, DepositRecord, DepositStatus, ServiceType};
use moneydesk_model::fees::TransferType;

use super::handlers::{cents_of, created, idempotency_key, standard_fee};
use super::record::today;
use super::store::DepositRow;
use crate::auth::Caller;
use crate::deposits::DepositsState;
use crate::error::Error;

/// Records a cash deposit: 201 with the record, or 200 with the existing one for a retry.
pub async fn create(
    state: &DepositsState,
    caller: &Caller,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<(StatusCode, DepositRecord), Error> {
    let key = idempotency_key(caller, headers, body, state.config().idempotency_hours)?;
    let fields: CashDepositFields =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let tz = state.config().business_time_zone;
    let d = fields.check(today(tz)).map_err(Error::fields)?;
    let payee = state.accounts().get(d.payee_account_id.as_str()).await?.ok_or_else(|| {
        Error::field(
            "payeeAccountId",
            format!("no managed sleeve account {:?} in the accounts collection", d.payee_account_id.as_str()),
        )
    })?;
    let row = DepositRow {
        id: 0,
        service_type: ServiceType::Cash.as_str().into(),
        status: DepositStatus::InProgress.as_str().into(),
        is_confirmed: 0,
        amount_cents: cents_of(d.amount),
        fee_cents: cents_of(standard_fee(state, d.amount, TransferType::Eft)),
        created_at: crate::storage::time::now_text(),
        completed_at: None,
        schedule_date: d.schedule_date.unwrap_or_else(|| today(tz)).to_string(),
        check_date: None,
        check_number: None,
        bank_routing_number: None,
        bank_account_number: None,
        bank_name: None,
        memo: d.memo.clone().map(String::from),
        payee_account_id: payee.id.clone(),
        payee_user_id: Some(d.payee_user_id.to_string()),
        payee_name: Some(payee.account_name.clone()),
        payee_account_number: payee.account_number.clone(),
        payee_record_type_id: payee.record_type_id.clone(),
        payer_id: Some(payee.id.clone()),
        payer_type: None,
        payment_type: Some("Cash".into()),
        source: Some("cash".into()),
        bank_info_id: None,
        transfer_type: None,
        submitter: caller.token_name().to_string(),
        front_image: None,
        back_image: None,
        presentment: None,
        duplicate_of: None,
        override_reason: None,
        scan_id: None,
        ach_account_type: None,
        ach_vendor_name: None,
        ach_entry_description: None,
    };
    // Cash has no presentment: a duplicate cannot arise.
    created(state.deposits().create_in_zone(&row, key.as_ref(), tz).await, tz, |id| {
        Error::conflict(format!("deposit {id} conflicts with this one"))
    })
}
