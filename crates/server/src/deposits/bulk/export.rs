//! The export's CSV: one line per deposit record (2.5), its members in the record's order
//! under their description names, the header line also when nothing was selected.
//!
//! Written from each record's JSON, member by member as serialized (an amount keeps its
//! exact text, `125.50`: the csv crate's serializer cannot write the raw number money is).

use std::fmt;
use std::sync::OnceLock;

use moneydesk_model::deposits::DepositRecord;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::error::Error;

/// The records as CSV (quoted where needed), the header first.
pub fn csv(records: &[DepositRecord]) -> Result<Vec<u8>, Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header()?).map_err(Error::internal)?;
    for r in records {
        let members = members(r)?;
        w.write_record(members.0.iter().map(|(_, v)| cell(v))).map_err(Error::internal)?;
    }
    w.into_inner().map_err(Error::internal)
}

/// A member's JSON as a cell: text unquoted, `null` empty, numbers and booleans as written.
/// Text a spreadsheet would run as a formula (a leading `= + - @`, tab or carriage return: a
/// memo is anyone's words) is defused with a `'`, as the portal's own CSV downloads do.
fn cell(raw: &RawValue) -> String {
    match raw.get() {
        "null" => String::new(),
        t if t.starts_with('"') => {
            let text = serde_json::from_str::<String>(t).unwrap_or_default();
            match text.as_bytes().first() {
                Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{text}"),
                _ => text,
            }
        }
        t => t.to_string(),
    }
}

/// A JSON object's members in the order written.
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = Members;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(entry) = map.next_entry::<String, Box<RawValue>>()? {
                    members.push(entry);
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(Ordered)
    }
}

fn members(r: &DepositRecord) -> Result<Members, Error> {
    let text = serde_json::to_string(r).map_err(Error::internal)?;
    serde_json::from_str(&text).map_err(Error::internal)
}

/// The record's member names in its order, read once from a sample record.
fn header() -> Result<&'static [String], Error> {
    static HEADER: OnceLock<Vec<String>> = OnceLock::new();
    if let Some(h) = HEADER.get() {
        return Ok(h);
    }
    let sample: DepositRecord = serde_json::from_value(serde_json::json!({
        "id": 1, "scheduleDate": "2026-01-02", "createdDate": "", "amount": 0, "feeApplied": 0,
        "isConfirmed": false, "overnightMail": false, "status": "In_Progress_1", "step": "Process_2"
    }))
    .map_err(Error::internal)?;
    let names = members(&sample)?.0.into_iter().map(|(k, _)| k).collect();
    Ok(HEADER.get_or_init(|| names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_the_records_names_in_order_even_with_no_records() {
        let text = String::from_utf8(csv(&[]).unwrap()).unwrap();
        let names: Vec<&str> = text.trim_end().split(',').collect();
        assert_eq!(names[..3], ["id", "acId", "name"], "the record's order: {text}");
        assert!(names.contains(&"amount") && names.contains(&"status") && names.contains(&"checkNumber"), "{text}");
    }

    #[test]
    fn a_record_is_one_line_of_its_members_amounts_exact_and_nulls_empty() {
        let record: DepositRecord = serde_json::from_str(
            r#"{"id":7,"name":"Smith, Jones LLC","memo":"=HYPERLINK(1)","scheduleDate":"2026-01-02","createdDate":"x","amount":"1250.50","feeApplied":"0.25","isConfirmed":true,"overnightMail":false,"status":"Confirmed_2","step":"Process_3"}"#,
        )
        .unwrap();
        let text = String::from_utf8(csv(&[record]).unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        let row = reader.records().next().unwrap().unwrap();
        let get = |name: &str| &row[header.iter().position(|h| h == name).unwrap()];
        assert_eq!((get("id"), get("name"), get("amount")), ("7", "Smith, Jones LLC", "1250.50"));
        assert_eq!((get("isConfirmed"), get("status"), get("bankName")), ("true", "Confirmed_2", ""));
        assert_eq!(get("memo"), "'=HYPERLINK(1)", "a formula is defused");
        assert_eq!(row.len(), header.len());
    }
}
