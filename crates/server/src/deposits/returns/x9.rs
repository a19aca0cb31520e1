//! An X9.100-187 return file read (`moneydesk_x9`): each returned item (record 31 with its
//! addenda) as an [`Incoming`] item keyed by the sequence number our cash letter gave the
//! check, and every problem the reader reported.

use moneydesk_model::ledger::{ReturnFileError, ReturnSource};
use moneydesk_x9::{Problem, ReturnItem, Severity};

use super::read::{Incoming, Read};

/// Whether the bytes look like an X9 file: a 4-byte record length, then a file header
/// (type `01` in ASCII or EBCDIC).
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.len() >= 6 && (&bytes[4..6] == b"01" || bytes[4..6] == [0xF0, 0xF1])
}

/// Reads the file; `Err` says why nothing of it could be read. `origin` is our routing number
/// as the bank of first deposit (the cash letters' origin).
pub fn read(bytes: &[u8], origin: &str) -> Result<Read, String> {
    let (file, problems) = moneydesk_x9::read_file(bytes);
    if file.header.is_none() {
        let why = problems.first().map_or_else(|| "no file header (type 01)".to_string(), |p| p.to_string());
        return Err(format!("not an X9.100-187 file: {why}"));
    }
    let mut errors: Vec<ReturnFileError> = problems.iter().map(error_of).collect();
    let items: Vec<Incoming> = file.return_items().map(|r| incoming(r, origin, &problems)).collect();
    if items.is_empty() {
        errors.push(ReturnFileError {
            record_number: None,
            field: None,
            message: "the file holds no returned items (records 31 in a return bundle)".into(),
        });
    }
    Ok(Read { format: ReturnSource::X9, items, errors })
}

fn error_of(p: &Problem) -> ReturnFileError {
    let mut message = p.message.clone();
    if p.severity == Severity::Note {
        message = format!("note: {message}");
    }
    if !p.record_type.is_empty() {
        message = format!("type {} ({}): {message}", p.record_type, moneydesk_x9::type_name(&p.record_type));
    }
    ReturnFileError {
        record_number: (p.record.0 > 0).then_some(p.record.0 as i64),
        field: p.field.map(str::to_string),
        message,
    }
}

/// One returned item. Its key: the BOFD item sequence number of its return addendum A from us
/// (what our cash letter wrote as the item's sequence number); without one, the return
/// record's own ECE institution item sequence number. Never both: the returning bank's own
/// numbers must not meet our deposits' by chance.
fn incoming(r: &ReturnItem, origin: &str, problems: &[Problem]) -> Incoming {
    let ours = r.addenda_a.iter().find(|a| a.bofd_routing_number == origin);
    let key = match ours {
        Some(a) => a.bofd_item_sequence_number.as_str(),
        None => r.detail.ece_institution_item_sequence_number.as_str(),
    };
    let keys: Vec<String> = sequence(key).into_iter().collect();
    let code = r.detail.return_reason.to_string();
    let first = r.record.0;
    let last = first + (r.addenda_a.len() + usize::from(r.addendum_b.is_some()) + r.addenda_d.len()) as u64;
    let damaged: Vec<String> = problems
        .iter()
        .filter(|p| p.is_error() && (first..=last).contains(&p.record.0))
        .map(|p| p.to_string())
        .collect();
    Incoming {
        source: ReturnSource::X9,
        record_number: first as i64,
        reason: moneydesk_x9::return_reason(&code).map(str::to_string),
        reason_code: code,
        amount_cents: r.detail.item_amount.min(i64::MAX as u64) as i64,
        keys,
        corrected_data: None,
        correction: None,
        damaged: (!damaged.is_empty()).then(|| damaged.join("; ")),
    }
}

/// A sequence number as the cash letter records it: digits without leading zeros.
fn sequence(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = t.trim_start_matches('0');
    Some(if t.is_empty() { "0".into() } else { t.into() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_sequence_number_loses_its_zero_fill() {
        assert_eq!(super::sequence("000000000000042").as_deref(), Some("42"));
        assert_eq!(super::sequence(" 7 ").as_deref(), Some("7"));
        assert_eq!(super::sequence("12A"), None);
        assert_eq!(super::sequence(""), None);
    }
}
