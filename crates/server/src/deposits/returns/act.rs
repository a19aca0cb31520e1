//! An operator's acts: an unmatched item matched to a deposit by hand (the deposit returned,
//! or its bank details corrected, as a file's match would) or dismissed with a note; and a
//! deposit's Return with a reason code, recorded as an operator's returned item.

use moneydesk_model::deposits::DepositAction;
use moneydesk_model::ledger::{ReturnAction, ReturnItem, ReturnItemState as State, ReturnSource};

use super::process::{moved, returnable, Decision};
use super::read::reason_meaning;
use super::store::{self, NewItem};
use crate::auth::Caller;
use crate::deposits::store::{apply_in, take_writers_turn, MoveError};
use crate::deposits::DepositsState;
use crate::error::Error;
use crate::storage::trail;

/// `match` (with `depositId`) or `dismiss` (with a `note`) an unmatched item; the item after.
pub async fn act(state: &DepositsState, caller: &Caller, id: i64, a: &ReturnAction) -> Result<ReturnItem, Error> {
    let note = a.note.as_deref().map(str::trim).filter(|n| !n.is_empty());
    if note.is_some_and(|n| n.chars().count() > 500 || n.chars().any(char::is_control)) {
        return Err(Error::field("note", "at most 500 characters, no control characters"));
    }
    let deposit = match (a.action.as_str(), a.deposit_id, note) {
        ("match", Some(d), _) => Some(d),
        ("match", None, _) => return Err(Error::field("depositId", "a match names the deposit (depositId)")),
        ("dismiss", None, Some(_)) => None,
        ("dismiss", Some(_), _) => return Err(Error::field("depositId", "a dismissal names no deposit")),
        ("dismiss", None, None) => return Err(Error::field("note", "a dismissal needs a note saying why")),
        (other, ..) => return Err(Error::field("action", format!("must be match or dismiss, got {other:?}"))),
    };
    let db = state.deposits().database();
    let mut tx = db.begin().await?;
    take_writers_turn(&mut tx).await?;
    let item = store::item_in(&mut tx, id).await?.ok_or_else(|| Error::not_found(format!("No returned item {id}")))?;
    if item.state != State::Unmatched.as_str() {
        let mut e = Error::conflict(format!(
            "returned item {id} is {}: only an unmatched item can be matched or dismissed",
            item.state
        ));
        e.reason = "not_unmatched".into();
        return Err(e);
    }
    // The item is the target, whatever its match moves.
    trail::target("return_item", id);
    match deposit {
        None => {
            store::settle_item(&mut tx, id, State::Dismissed, None, note).await?;
            trail::change("state", Some(&item.state), Some(State::Dismissed.as_str()));
        }
        Some(d) => {
            match_by_hand(state, caller, &mut tx, &item, d, note).await?;
            trail::change("state", Some(&item.state), Some(State::Resolved.as_str()));
            trail::change("depositId", None::<&str>, Some(d));
        }
    }
    tx.commit().await?;
    let returns = store::ReturnStore::new(db.clone());
    let row = returns.item(id).await?.ok_or_else(|| Error::not_found(format!("No returned item {id}")))?;
    Ok(row.wire())
}

/// The item's deposit returned (or, for a notification of change, corrected) by hand.
async fn match_by_hand(
    state: &DepositsState,
    caller: &Caller,
    tx: &mut crate::storage::Tx,
    item: &store::ItemRow,
    deposit: i64,
    note: Option<&str>,
) -> Result<(), Error> {
    let c = store::deposit(tx, deposit).await?.ok_or_else(|| Error::not_found(format!("No deposit {deposit}")))?;
    let meaning = item.reason.as_deref().unwrap_or("(an unknown code)");
    let where_ = match (item.file_id, item.record_number) {
        (Some(f), Some(r)) => format!("return file {f}, record {r}; matched by hand"),
        _ => "matched by hand".into(),
    };
    if let Some(data) = item.corrected_data.as_deref() {
        let noc = moneydesk_nacha::NocAddenda {
            change_code: item.reason_code.clone(),
            original_entry_trace: moneydesk_nacha::TraceNumber { odfi: 0, sequence: 0 },
            original_receiving_dfi: 0,
            corrected_data: data.to_string(),
            trace_number: moneydesk_nacha::TraceNumber { odfi: 0, sequence: 0 },
        };
        let to = super::ach::details(noc.correction());
        let said = format!("{} {meaning} ({where_})", item.reason_code);
        store::correct(tx, deposit, &c.status, &to, caller.token_name(), &said).await?;
        store::settle_item(tx, item.id, State::Resolved, Some(deposit), note).await?;
        return Ok(());
    }
    if c.amount_cents != item.amount_cents {
        return Err(Error::conflict(format!(
            "deposit {deposit} is of {}, the returned item of {}: a return reverses the whole deposit",
            crate::deposits::money(c.amount_cents),
            crate::deposits::money(item.amount_cents)
        )));
    }
    match returnable(&c) {
        Decision::Return(_) => {}
        Decision::Keep(_, _, why) => return Err(Error::conflict(why)),
        Decision::Correct(..) => {}
    }
    store::settle_item(tx, item.id, State::Resolved, Some(deposit), note).await?;
    let reason = format!("{} {meaning} ({where_})", item.reason_code);
    apply_in(tx, deposit, DepositAction::Return, caller.token_name(), Some(&reason), state.books()).await.map_err(moved)
}

/// The operator's reason code checked: its meaning, or a 400 naming it.
pub fn reason_code(code: &str) -> Result<&'static str, Error> {
    reason_meaning(code.trim()).ok_or_else(|| {
        Error::field(
            "reasonCode",
            format!("{code:?} is neither an X9 return reason (A–Z, 1–9) nor a NACHA return reason code (R01…)"),
        )
    })
}

/// An operator's Return with a reason code: the move and its returned item (source
/// `operator`, state `matched`) commit together.
pub async fn operator_return(
    state: &DepositsState,
    caller: &Caller,
    id: i64,
    code: &str,
    reason: &str,
) -> Result<(), MoveError> {
    let code = code.trim();
    let mut tx = state.deposits().database().begin().await?;
    take_writers_turn(&mut tx).await?;
    let c = store::deposit(&mut tx, id).await?.ok_or(MoveError::NotFound(id))?;
    let item = NewItem {
        source: ReturnSource::Operator,
        state: State::Matched,
        file_id: None,
        record_number: None,
        reason_code: code.to_string(),
        reason: reason_meaning(code).map(str::to_string),
        amount_cents: c.amount_cents,
        reference: None,
        deposit_id: Some(id),
        corrected_data: None,
        note: Some(reason.to_string()),
    };
    store::insert_item(&mut tx, &item).await?;
    apply_in(&mut tx, id, DepositAction::Return, caller.token_name(), Some(reason), state.books()).await?;
    tx.commit().await?;
    Ok(())
}
