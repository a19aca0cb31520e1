//! Deposits written straight to the store (no HTTP), for tests that drive the ledger through
//! the deposit store's moves.

use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_server::deposits::store::DepositRow;

/// A new deposit of `kind` to `sleeve`, In_Progress_1, with its amount and fee.
pub fn row(kind: ServiceType, sleeve: &str, amount_cents: i64, fee_cents: i64) -> DepositRow {
    DepositRow {
        id: 0,
        service_type: kind.as_str().into(),
        status: DepositStatus::InProgress.as_str().into(),
        is_confirmed: 0,
        amount_cents,
        fee_cents,
        created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        completed_at: None,
        schedule_date: "2026-11-20".into(),
        check_date: None,
        check_number: None,
        bank_routing_number: None,
        bank_account_number: None,
        bank_name: None,
        memo: None,
        payee_account_id: sleeve.into(),
        payee_user_id: None,
        payee_name: None,
        payee_account_number: None,
        payee_record_type_id: None,
        payer_id: None,
        payer_type: None,
        payment_type: None,
        source: None,
        bank_info_id: None,
        transfer_type: None,
        submitter: "test".into(),
        front_image: None,
        back_image: None,
        presentment: None,
        duplicate_of: None,
        override_reason: None,
        scan_id: None,
        ach_account_type: None,
        ach_vendor_name: None,
        ach_entry_description: None,
    }
}
