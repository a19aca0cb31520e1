//! Making a cash letter: the deposits chosen and checked, the file written and stored as each
//! check's G4 sides are found or made (`writing`), then the letter recorded (and its deposits
//! sent) at once.

use axum::http::StatusCode;
use moneydesk_model::cash_letters::{CashLetter, CashLetterRequest, CashLetterSelection};
use moneydesk_model::deposits::Date;
use rand::Rng;

use super::file::{self, Letter};
use super::store::{Candidate, ItemRow, LetterRow};
use super::writing;
use crate::auth::Caller;
use crate::cash_letters::CashLettersState;
use crate::deposits::store::MoveError;
use crate::error::Error;

pub async fn make(
    state: &CashLettersState,
    caller: &Caller,
    req: &CashLetterRequest,
) -> Result<(StatusCode, CashLetter), Error> {
    let tz = state.config().business_time_zone;
    let selection = req.check().map_err(Error::fields)?;
    let today = crate::deposits::today(tz);
    let (business_date, candidates) = match &selection {
        CashLetterSelection::DueBy(day) => (*day, state.cash_letters().due_by(&day.to_string()).await?),
        CashLetterSelection::Deposits(ids) => {
            let found = state.cash_letters().named(ids).await?;
            if let Some(missing) = ids.iter().find(|id| !found.iter().any(|c| c.id == **id)) {
                return Err(Error::not_found(format!("No deposit {missing}")));
            }
            (today, found)
        }
    };
    if candidates.is_empty() {
        let mut e = Error::conflict(format!("No confirmed check deposits are due by {business_date}: nothing to send"));
        e.reason = "nothing_to_send".into();
        return Err(e);
    }
    let refusals: Vec<String> = candidates.iter().filter_map(file::refusal).collect();
    if !refusals.is_empty() {
        let mut e = Error::conflict(format!("These deposits cannot go in a cash letter: {}", refusals.join("; ")));
        e.reason = "deposits_refused".into();
        return Err(e);
    }
    let cash_letter_id = new_cash_letter_id();
    if req.preview {
        let items = preview_items(state, &candidates);
        let letter = LetterRow {
            id: 0,
            cash_letter_id,
            business_date: business_date.to_string(),
            created_at: String::new(),
            created_by: caller.token_name().to_string(),
            item_count: items.len() as i64,
            bundle_count: items.last().map_or(0, |i| i.bundle),
            total_cents: items.iter().map(|i| i.amount_cents).sum(),
            file_path: String::new(),
            file_bytes: 0,
            file_sha256: String::new(),
        };
        let mut answer = super::store::answer(&letter, &items);
        answer.created_at = None;
        (answer.file_bytes, answer.file_sha256) = (None, None);
        return Ok((StatusCode::OK, answer));
    }
    // Written, stored and recorded in a task of its own: a client that hangs up while its
    // letter is written drops this handler's future at its next await, which would leave the
    // stored file with no letter recording it (and its deposits unsent). The task runs to the
    // end either way; the letter is then in the list like any other.
    let (state, created_by) = (state.clone(), caller.token_name().to_string());
    // The write's audit recording goes along: a task-local stays behind at a spawn.
    let recording = crate::storage::trail::current();
    let made = async move { write_and_record(&state, created_by, cash_letter_id, business_date, candidates).await };
    tokio::spawn(crate::storage::trail::within(recording, made))
        .await
        .map_err(|e| Error::internal(format_args!("making the cash letter stopped: {e}")))?
}

/// Writes the letter's file, stores it and records the letter with its deposits sent, or, when
/// a deposit changed meanwhile, removes the file again.
async fn write_and_record(
    state: &CashLettersState,
    created_by: String,
    cash_letter_id: String,
    business_date: Date,
    candidates: Vec<Candidate>,
) -> Result<(StatusCode, CashLetter), Error> {
    let tz = state.config().business_time_zone;
    let now = chrono::Utc::now();
    let created_at = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let local = now.with_timezone(&tz);
    let (x9_date, creation_date, creation_time) =
        (compact(business_date), local.format("%Y%m%d").to_string(), local.format("%H%M").to_string());
    let (handle, writer_state, id_for_file) =
        (tokio::runtime::Handle::current(), state.clone(), cash_letter_id.clone());
    let (stored, items, bundles) = tokio::task::spawn_blocking(move || {
        let letter = Letter {
            config: &writer_state.config().cash_letters,
            cash_letter_id: &id_for_file,
            business_date: &x9_date,
            creation_date: &creation_date,
            creation_time: &creation_time,
        };
        writing::write_and_store(&handle, &writer_state, &letter, candidates)
    })
    .await
    .map_err(|e| Error::internal(format_args!("writing the cash letter stopped: {e}")))??;
    let mut letter = LetterRow {
        id: 0,
        cash_letter_id,
        business_date: business_date.to_string(),
        created_at,
        created_by,
        item_count: items.len() as i64,
        bundle_count: i64::from(bundles),
        total_cents: items.iter().map(|i| i.amount_cents).sum(),
        file_path: stored.path,
        file_bytes: stored.bytes as i64,
        file_sha256: stored.sha256,
    };
    letter.id = match state.cash_letters().record(&letter, &items, state.books()).await {
        Ok(id) => id,
        // A database error may have come after the commit: the file stays with what may be its letter.
        Err(MoveError::Db(e)) => return Err(Error::from(e)),
        Err(other) => {
            // Nothing was recorded, and no other letter can name this file (its bytes hold this
            // letter's random id and creation time): it goes, rather than stay unreferenced.
            let path = object_store::path::Path::from(letter.file_path.as_str());
            if let Err(e) = crate::storage::blobs::delete_if_present(&state.blobs(), &path).await {
                tracing::warn!(error = %e, %path, "removing the file of a cash letter that was not recorded");
            }
            let mut e = Error::conflict(format!(
                "A deposit changed while the cash letter was made ({other}); nothing was sent — make it again"
            ));
            e.reason = "deposits_changed".into();
            return Err(e);
        }
    };
    Ok((StatusCode::CREATED, super::store::answer(&letter, &items)))
}

/// The items a letter would have, without their images.
fn preview_items(state: &CashLettersState, candidates: &[Candidate]) -> Vec<ItemRow> {
    let per_bundle = state.config().cash_letters.bundle_items.max(1) as usize;
    candidates
        .iter()
        .enumerate()
        .map(|(i, c)| ItemRow {
            deposit_id: c.id,
            bundle: (i / per_bundle + 1) as i64,
            sequence_number: c.id.to_string(),
            routing_number: c.bank_routing_number.clone().unwrap_or_default(),
            on_us: file::on_us(c),
            amount_cents: c.amount_cents,
        })
        .collect()
}

/// 8 characters from A-Z and 0-9: the X9 cash letter id.
fn new_cash_letter_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::thread_rng();
    (0..8).map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char).collect()
}

/// `YYYYMMDD` of a date.
fn compact(d: Date) -> String {
    d.to_string().replace('-', "")
}
