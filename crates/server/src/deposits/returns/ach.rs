//! A NACHA return file read (`moneydesk_nacha`): each return (addenda 99) and notification of
//! change (addenda 98) as an [`Incoming`] item keyed by the trace number of the entry it
//! concerns, with the line of its entry; and the trace numbers of the day's file remembered per
//! electronic deposit, which is what a return names.

use moneydesk_model::ledger::{ReturnFileError, ReturnSource};
use moneydesk_nacha::{AchFile, Correction, Entry, Problem, ReturnOrNoc};

use super::read::{Incoming, Read};
use super::store::BankDetails;
use crate::storage::Database;

/// NACHA records are 94 characters.
const RECORD_LEN: usize = 94;

/// Whether the bytes look like a NACHA file: a first line of 94 characters starting with `1`.
pub fn looks_like(bytes: &[u8]) -> bool {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    bytes.first() == Some(&b'1') && (first.len() == RECORD_LEN || first.len() % RECORD_LEN == 0)
}

/// Reads the file; `Err` says why nothing of it could be read (the reader's fatal problem).
pub fn read(bytes: &[u8]) -> Result<Read, String> {
    let parsed = moneydesk_nacha::parse_bytes(bytes);
    let Some(file) = parsed.file.as_ref() else {
        let why = parsed.fatal().or(parsed.problems.last()).map_or_else(|| "nothing read".into(), |p| p.to_string());
        return Err(format!("not a readable NACHA file: {why}"));
    };
    let mut errors: Vec<ReturnFileError> = parsed.problems.iter().map(error_of).collect();
    let items = items(file, &parsed.problems);
    if items.is_empty() {
        errors.push(ReturnFileError {
            record_number: None,
            field: None,
            message: "the file holds no returns (addenda 99) or notifications of change (addenda 98)".into(),
        });
    }
    Ok(Read { format: ReturnSource::Ach, items, errors })
}

fn error_of(p: &Problem) -> ReturnFileError {
    let field = (!p.field.is_empty()).then(|| p.field.to_string());
    ReturnFileError { record_number: Some(p.line as i64), field, message: p.to_string() }
}

/// Every return and notification of change with the line of its entry: the file's lines are
/// its tree in order (header, then per batch its header, entries with their addenda, control).
fn items(file: &AchFile, problems: &[Problem]) -> Vec<Incoming> {
    let mut out = Vec::new();
    let mut line = 1;
    for batch in &file.batches {
        line += 1;
        for entry in &batch.entries {
            line += 1;
            for r in &entry.return_or_noc {
                out.push(incoming(entry, r, line, problems));
            }
            line += entry.addenda_count();
        }
        line += 1;
    }
    out
}

fn incoming(entry: &Entry, r: &ReturnOrNoc, line: usize, problems: &[Problem]) -> Incoming {
    let last = line + entry.addenda_count();
    let damaged: Vec<String> =
        problems.iter().filter(|p| (line..=last).contains(&p.line)).map(|p| p.to_string()).collect();
    let (reason_code, reason, corrected_data, correction) = match r {
        ReturnOrNoc::Return(a) => {
            let meaning = moneydesk_nacha::return_reason(&a.return_reason_code).map(str::to_string);
            (a.return_reason_code.clone(), meaning, None, None)
        }
        ReturnOrNoc::Noc(n) => {
            let details = details(n.correction());
            let meaning = moneydesk_nacha::change_code(&n.change_code).map(str::to_string);
            (n.change_code.clone(), meaning, Some(n.corrected_data.clone()), Some(details))
        }
    };
    Incoming {
        source: ReturnSource::Ach,
        record_number: line as i64,
        reason_code,
        reason,
        amount_cents: entry.detail.amount.min(i64::MAX as u64) as i64,
        keys: vec![r.original_entry_trace().to_string()],
        corrected_data,
        correction,
        damaged: (!damaged.is_empty()).then(|| damaged.join("; ")),
    }
}

/// What a correction changes of the deposit's bank details (a transaction code says the
/// account type).
pub fn details(c: Correction) -> BankDetails {
    BankDetails {
        routing_number: c.routing_number,
        account_number: c.account_number,
        account_type: c.transaction_code.map(|t| if t.is_savings() { "savings" } else { "checking" }.into()),
        name: c.individual_name,
    }
}

/// Remembers the trace number each electronic deposit has in the day's file (its entry's
/// identification number is `DEPOSIT{id}`): a return names the entry by it.
pub async fn remember_traces(db: &Database, file: &AchFile) -> sqlx::Result<()> {
    let traces: Vec<(i64, String)> = file
        .entries()
        .filter_map(|(_, e)| {
            let id = e.detail.individual_id.trim().strip_prefix("DEPOSIT")?.parse().ok()?;
            Some((id, e.detail.trace_number.to_string()))
        })
        .collect();
    super::store::stamp_traces(db, &traces).await
}
