//! What a deposit's change tells, in the change's own transaction: its event
//! (`deposit.<what happened>`, with the deposit record as the deposit endpoints answer it, read
//! back in the transaction so it is the state the change leaves) and what its audit record
//! notes (`storage::trail`).

use chrono_tz::Tz;
use moneydesk_model::deposits::DepositAction;
use moneydesk_model::events::EventType;

use super::{DepositRow, COLUMNS};
use crate::storage::{events, trail, Sql, Tx};

/// The event a move makes.
pub(crate) fn event_of(action: DepositAction) -> EventType {
    match action {
        DepositAction::Confirm => EventType::DepositConfirmed,
        DepositAction::Send => EventType::DepositSent,
        DepositAction::Settle => EventType::DepositSettled,
        DepositAction::Return => EventType::DepositReturned,
        DepositAction::Reject => EventType::DepositRejected,
        DepositAction::Cancel => EventType::DepositCancelled,
    }
}

/// Appends the event `kind` of deposit `id` to `tx`, with the record as it stands in `tx`.
pub(crate) async fn announce(tx: &mut Tx, id: i64, kind: EventType, tz: Tz) -> sqlx::Result<()> {
    let q = Sql::new(tx.dialect(), &format!("SELECT {COLUMNS} FROM deposits WHERE id = ?")).arg(id);
    let row: DepositRow = tx.exec().row(&q).await?.ok_or(sqlx::Error::RowNotFound)?;
    let record = crate::deposits::record::record(&row, tz);
    events::append(tx, kind, "deposit", id, &record).await.map(drop)
}

/// Notes a move on the open audit record: the deposit and its status before and after.
pub(crate) fn note_move(id: i64, from: &str, to: &str) {
    trail::target("deposit", id);
    trail::change("status", Some(from), Some(to));
}

/// Notes a creation on the open audit record: what the new deposit is (never its images).
pub(crate) fn note_created(id: i64, row: &DepositRow) {
    trail::target("deposit", id);
    trail::change("status", None::<&str>, Some(&row.status));
    trail::change("serviceType", None::<&str>, Some(&row.service_type));
    trail::change("amount", None::<&str>, Some(crate::deposits::money(row.amount_cents)));
    trail::change("payeeAccountId", None::<&str>, Some(&row.payee_account_id));
}
