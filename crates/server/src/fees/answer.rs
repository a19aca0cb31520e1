//! A quote's JSON, written from pieces rendered once per schedule version.
//!
//! A quote's answer is `{"status":"success","data":[...]}` with one `FeeEntry` per fee type, and
//! everything in an entry but its amount is known when the version is loaded: the fee type and
//! the tier's description, escaped once here instead of by serde on every request. Measured
//! in-process (`STACK_PROFILE=quote` of benches/http_stack.rs, `perf record`): serde's
//! envelope, map and string escaping were a quarter of the whole app's time per quote.
//!
//! The bytes are exactly serde's (`FeeSuccess<FeeEntry>` through `serde_json::to_vec`): the
//! tests below compare them for every tier of the default schedule at many amounts.

use std::io::Write;

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::Response;
use moneydesk_model::fees::{FeeAmount, FeeSchedule, TransferType};

const HEAD: &[u8] = br#"{"status":"success","data":["#;
const TAIL: &[u8] = b"]}";

/// One tier's entry around its amount: `{"fee_type":"…","fee_amount":` and
/// `,"description":"…"}`.
#[derive(Debug, Clone)]
pub struct EntryJson {
    before_amount: Box<str>,
    after_amount: Box<str>,
}

/// Each tier's pieces, in the schedule's tier order.
pub fn pieces(schedule: &FeeSchedule, descriptions: &[String]) -> Vec<EntryJson> {
    schedule
        .tiers
        .iter()
        .zip(descriptions)
        .map(|(t, d)| EntryJson {
            before_amount: format!(r#"{{"fee_type":{},"fee_amount":"#, json_string(&t.fee_type)).into(),
            after_amount: format!(r#","description":{}}}"#, json_string(d)).into(),
        })
        .collect()
}

fn json_string(s: &str) -> String {
    // A `&str` always serializes; the fallback is unreachable and still valid JSON.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The quote for `amount`: one entry per fee type for the tier the amount falls in (the
/// schedule's validation guarantees exactly one per fee type), as a ready response.
pub fn quote(schedule: &FeeSchedule, pieces: &[EntryJson], transfer_type: TransferType, amount: FeeAmount) -> Response {
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(HEAD);
    let tiers = schedule.tiers.iter().zip(pieces);
    for (i, (tier, json)) in
        tiers.filter(|(t, _)| t.transfer_type == transfer_type && t.contains(amount.decimal())).enumerate()
    {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(json.before_amount.as_bytes());
        // The decimal's own text, as `Money`'s Serialize writes it (a JSON number token); a
        // Vec never refuses a write.
        let _ = write!(out, "{}", tier.fee_for(amount).decimal());
        out.extend_from_slice(json.after_amount.as_bytes());
    }
    out.extend_from_slice(TAIL);
    let mut response = Response::new(Body::from(out));
    // Room for every header the answer leaves with, in one allocation instead of a grow: the
    // rate limit's three, the frame's three (`http::finish`) and axum's Content-Length. (With
    // room for 4, the frame's headers grew the map: a reallocation and rehash per quote.)
    response.headers_mut().reserve(8);
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fees::default_schedule;
    use moneydesk_model::fees::{FeeEntry, Rail};
    use moneydesk_model::FeeSuccess;

    async fn body(r: Response) -> Vec<u8> {
        axum::body::to_bytes(r.into_body(), usize::MAX).await.unwrap().to_vec()
    }

    #[tokio::test]
    async fn a_quote_is_byte_for_byte_what_serde_writes_for_every_transfer_type_and_tier_edge() {
        let mut schedule = default_schedule().unwrap();
        // A fee type and a description that need escaping prove the pieces escape them.
        schedule.tiers[0].fee_type = "standard \"next-day\" \\ é".into();
        let descriptions: Vec<String> = schedule.tiers.iter().map(|t| t.description()).collect();
        let pieces = pieces(&schedule, &descriptions);
        let mut amounts: Vec<String> =
            ["0.01", "0.99", "1", "5000.00", "999999999999999.99"].map(String::from).to_vec();
        for t in &schedule.tiers {
            for edge in [Some(t.from.decimal()), t.to.map(|m| m.decimal())].into_iter().flatten() {
                for delta in ["-0.01", "0", "0.01"] {
                    let a = edge + delta.parse::<rust_decimal::Decimal>().unwrap();
                    if a > rust_decimal::Decimal::ZERO {
                        amounts.push(a.to_string());
                    }
                }
            }
        }
        let mut compared = 0;
        for rail in [Rail::Ach, Rail::Wire] {
            for &transfer_type in rail.transfer_types() {
                for text in &amounts {
                    let amount = FeeAmount::parse(text).unwrap();
                    let expected: Vec<FeeEntry> = schedule
                        .tiers
                        .iter()
                        .zip(&descriptions)
                        .filter(|(t, _)| t.transfer_type == transfer_type && t.contains(amount.decimal()))
                        .map(|(t, d)| FeeEntry {
                            fee_type: t.fee_type.clone(),
                            fee_amount: t.fee_for(amount),
                            description: d.clone(),
                        })
                        .collect();
                    assert!(!expected.is_empty(), "{transfer_type:?} {text} falls in no tier");
                    let serde = serde_json::to_vec(&FeeSuccess::new(expected)).unwrap();
                    let ours = body(quote(&schedule, &pieces, transfer_type, amount)).await;
                    assert_eq!(
                        String::from_utf8(ours).unwrap(),
                        String::from_utf8(serde).unwrap(),
                        "{transfer_type:?} {text}"
                    );
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "only {compared} quotes compared");
    }
}
