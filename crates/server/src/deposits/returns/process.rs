//! A return file processed: recorded once by its SHA-256, then each item matched and recorded
//! in its own transaction with what it does — the deposit's Return (credit reversed, fees
//! charged) or the payer's corrected bank details — so an item is posted with its record or
//! not at all, and a file read again (a crash, another instance) adds only what is missing.

use moneydesk_model::deposits::{DepositAction, DepositStatus};
use moneydesk_model::events::EventType;
use moneydesk_model::ledger::{ReturnFileResult, ReturnItemState as State, ReturnSource};
use sha2::{Digest, Sha256};

use super::read::{self, Incoming};
use super::store::{self, Candidate, FileRow, NewItem, ReturnStore};
use crate::deposits::store::{apply_in, take_writers_turn, MoveError};
use crate::deposits::DepositsState;
use crate::error::Error;
use crate::storage::{events, trail};

/// Reads and processes an uploaded (or dropped-in) file: `true` with the result when it was
/// new, `false` with the first result for a file read before. 400 when it is not readable.
pub async fn upload(
    state: &DepositsState,
    bytes: &[u8],
    file_name: Option<&str>,
    actor: &str,
) -> Result<(bool, ReturnFileResult), Error> {
    let returns = ReturnStore::new(state.deposits().database().clone());
    let sha = hex::encode(Sha256::digest(bytes));
    if let Some(f) = returns.file_by_sha(&sha).await? {
        return again(state, &returns, f, bytes, actor).await;
    }
    let read = read_file(bytes, &state.config().cash_letters.origin)
        .map_err(|why| Error::bad_request(format!("The return file cannot be read: {why}")))?;
    let count = read.items.len() as i64;
    let Some(id) = returns.insert_file(read.format, file_name, &sha, actor, count, &read.errors).await? else {
        // Another request (or instance) recorded it meanwhile.
        let f = returns.file_by_sha(&sha).await?.ok_or_else(|| Error::internal("a recorded return file is gone"))?;
        return again(state, &returns, f, bytes, actor).await;
    };
    for item in &read.items {
        record(state, id, item, actor).await?;
    }
    let f = returns.file_by_sha(&sha).await?.ok_or_else(|| Error::internal("a recorded return file is gone"))?;
    Ok((true, processed(&returns, f).await?))
}

/// The file's result, told as `return_file.processed` once its items are all recorded (each
/// item's deposit told its own `deposit.returned` in the item's transaction).
async fn processed(returns: &ReturnStore, f: FileRow) -> Result<ReturnFileResult, Error> {
    let result = result(returns, f).await?;
    let mut tx = returns.database().begin().await?;
    events::append(&mut tx, EventType::ReturnFileProcessed, "return_file", result.file_id, &result).await?;
    tx.commit().await?;
    Ok(result)
}

/// A file read before: its first result, after recording any item a crash left unrecorded.
async fn again(
    state: &DepositsState,
    returns: &ReturnStore,
    f: FileRow,
    bytes: &[u8],
    actor: &str,
) -> Result<(bool, ReturnFileResult), Error> {
    trail::target("return_file", f.id);
    if (returns.items_of_file(f.id).await?.len() as i64) < f.item_count {
        if let Ok(read) = read_file(bytes, &state.config().cash_letters.origin) {
            for item in &read.items {
                record(state, f.id, item, actor).await?;
            }
            // The first reading stopped before it told the file processed.
            return Ok((false, processed(returns, f).await?));
        }
    }
    Ok((false, result(returns, f).await?))
}

async fn result(returns: &ReturnStore, f: FileRow) -> Result<ReturnFileResult, Error> {
    let items = returns.items_of_file(f.id).await?.iter().map(store::ItemRow::wire).collect();
    Ok(ReturnFileResult {
        file_id: f.id,
        format: ReturnSource::parse(&f.format).unwrap_or(ReturnSource::X9),
        errors: f.errors(),
        file_name: f.file_name,
        sha256: f.sha256,
        items,
    })
}

/// What becomes of an item, decided under the deposit writers' turn.
pub(super) enum Decision {
    Return(i64),
    Correct(i64, String),
    Keep(State, Option<i64>, String),
}

/// Matches one item and records it with what it does, in one transaction.
async fn record(state: &DepositsState, file_id: i64, item: &Incoming, actor: &str) -> Result<(), Error> {
    let mut tx = state.deposits().database().begin().await?;
    take_writers_turn(&mut tx).await?;
    if store::recorded(&mut tx, file_id, item.record_number).await? {
        return Ok(());
    }
    let (decision, reference) = decide(&mut tx, item).await?;
    let mut new = NewItem {
        source: item.source,
        state: State::Unmatched,
        file_id: Some(file_id),
        record_number: Some(item.record_number),
        reason_code: item.reason_code.clone(),
        reason: item.reason.clone(),
        amount_cents: item.amount_cents,
        reference,
        deposit_id: None,
        corrected_data: item.corrected_data.clone(),
        note: None,
    };
    let where_ = format!("return file {file_id}, record {}", item.record_number);
    match &decision {
        Decision::Return(id) => (new.state, new.deposit_id) = (State::Matched, Some(*id)),
        Decision::Correct(id, note) => {
            (new.state, new.deposit_id, new.note) = (State::Corrected, Some(*id), Some(note.clone()))
        }
        Decision::Keep(s, id, note) => (new.state, new.deposit_id, new.note) = (*s, *id, Some(note.clone())),
    }
    if store::insert_item(&mut tx, &new).await?.is_none() {
        return Ok(());
    }
    match decision {
        Decision::Return(id) => {
            let reason = format!("{} ({where_})", item.said());
            apply_in(&mut tx, id, DepositAction::Return, actor, Some(&reason), state.books()).await.map_err(moved)?;
        }
        Decision::Correct(id, note) => {
            let status = store::deposit(&mut tx, id).await?.map(|c| c.status).unwrap_or_default();
            let to = item.correction.clone().unwrap_or_default();
            let said = format!("{}: {note} ({where_})", item.said());
            store::correct(&mut tx, id, &status, &to, actor, &said).await?;
        }
        Decision::Keep(..) => {}
    }
    tx.commit().await?;
    Ok(())
}

/// What to do with an item, and its reference (the key that matched, or its first).
async fn decide(tx: &mut crate::storage::Tx, item: &Incoming) -> Result<(Decision, Option<String>), Error> {
    let mut reference = item.keys.first().cloned();
    let mut found: Vec<Candidate> = Vec::new();
    for key in &item.keys {
        found = match item.source {
            ReturnSource::X9 => store::by_sequence(tx, key).await?.into_iter().collect(),
            _ => store::by_trace(tx, key).await?,
        };
        if !found.is_empty() {
            reference = Some(key.clone());
            break;
        }
    }
    let keys = if item.keys.is_empty() { "(none readable)".to_string() } else { item.keys.join(" or ") };
    let what = if item.source == ReturnSource::X9 { "item sequence number" } else { "trace number" };
    if let Some(why) = &item.damaged {
        let note = format!("not posted: the file has errors in this item's records: {why}");
        return Ok((Decision::Keep(State::Unmatched, None, note), reference));
    }
    if let Some(details) = &item.correction {
        let decision = match found.as_slice() {
            [] => Decision::Keep(State::Unmatched, None, format!("no electronic deposit has the {what} {keys}")),
            [one] => Decision::Correct(one.id, changes(tx, one.id, details).await?),
            many => Decision::Keep(State::Unmatched, None, ambiguous(what, &keys, many)),
        };
        return Ok((decision, reference));
    }
    let amount = crate::deposits::money(item.amount_cents);
    let same: Vec<&Candidate> = found.iter().filter(|c| c.amount_cents == item.amount_cents).collect();
    let decision = match (found.as_slice(), same.as_slice()) {
        ([], _) => {
            let note = match item.source {
                ReturnSource::X9 => format!("no deposit went out in a cash letter with the {what} {keys}"),
                _ => format!("no electronic deposit has the {what} {keys}"),
            };
            Decision::Keep(State::Unmatched, None, note)
        }
        ([one], []) => Decision::Keep(
            State::Unmatched,
            None,
            format!(
                "the {what} {keys} is deposit {} of {}, not {amount}",
                one.id,
                crate::deposits::money(one.amount_cents)
            ),
        ),
        (many, []) => {
            Decision::Keep(State::Unmatched, None, format!("{}; none of {amount}", ambiguous(what, &keys, many)))
        }
        (_, [one]) => returnable(one),
        // Trace numbers start again each day: of several, the one still out is meant.
        (_, many) => match many.iter().filter(|c| out(c)).collect::<Vec<_>>().as_slice() {
            [one] => returnable(one),
            _ => Decision::Keep(
                State::Unmatched,
                None,
                ambiguous(what, &keys, &many.iter().map(|c| (*c).clone()).collect::<Vec<_>>()),
            ),
        },
    };
    Ok((decision, reference))
}

/// Whether a deposit is out (sent or settled): what a return can take back.
fn out(c: &Candidate) -> bool {
    c.status == DepositStatus::Sent.as_str() || c.status == DepositStatus::Settled.as_str()
}

/// A matched deposit's fate: returned, already returned (`duplicate`), or not returnable.
pub(super) fn returnable(c: &Candidate) -> Decision {
    let (sent, settled) = (DepositStatus::Sent.as_str(), DepositStatus::Settled.as_str());
    if c.status == DepositStatus::Returned.as_str() {
        return Decision::Keep(State::Duplicate, Some(c.id), format!("deposit {} was already returned", c.id));
    }
    if !out(c) {
        let note = format!("deposit {} is {}: only a {sent} or {settled} deposit can be returned", c.id, c.status);
        return Decision::Keep(State::Unmatched, Some(c.id), note);
    }
    Decision::Return(c.id)
}

fn ambiguous(what: &str, keys: &str, many: &[Candidate]) -> String {
    let ids: Vec<String> = many.iter().map(|c| c.id.to_string()).collect();
    format!("the {what} {keys} fits deposits {}: match it by hand", ids.join(", "))
}

/// What a correction changes on the deposit, said ("account 744567899 → 1918171614").
async fn changes(tx: &mut crate::storage::Tx, id: i64, to: &store::BankDetails) -> Result<String, Error> {
    let now = store::bank_details(tx, id).await?.unwrap_or_default();
    let mut said = Vec::new();
    for (name, from, to) in [
        ("routing number", &now.routing_number, &to.routing_number),
        ("account number", &now.account_number, &to.account_number),
        ("account type", &now.account_type, &to.account_type),
        ("name", &now.name, &to.name),
    ] {
        if let Some(to) = to {
            said.push(format!("{name} {} → {to}", from.as_deref().unwrap_or("(none)")));
        }
    }
    Ok(if said.is_empty() { "nothing this server keeps changes".into() } else { said.join(", ") })
}

/// A deposit move's error as the API answers it.
pub(super) fn moved(e: MoveError) -> Error {
    match e {
        MoveError::NotFound(id) => Error::not_found(format!("No deposit {id}")),
        MoveError::Illegal(e) => {
            let mut err = Error::conflict(e.to_string());
            err.reason = "illegal_transition".into();
            err
        }
        MoveError::Db(e) => e.into(),
    }
}

/// Reads the file as X9 or ACH, as its first bytes say; `Err` says why it is neither.
fn read_file(bytes: &[u8], x9_origin: &str) -> Result<read::Read, String> {
    if bytes.is_empty() {
        return Err("the file is empty".into());
    }
    if super::x9::looks_like(bytes) {
        return super::x9::read(bytes, x9_origin);
    }
    if super::ach::looks_like(bytes) {
        return super::ach::read(bytes);
    }
    Err("it is neither an X9.100-187 file (a 4-byte record length, then a file header of type 01) nor a NACHA file \
         (94-character lines, the first a file header starting with 1)"
        .into())
}
