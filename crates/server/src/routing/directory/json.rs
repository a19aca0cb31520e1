//! The Fed's JSON directories:
//! `{"fedACHParticipants":{"response":{...},"fedACHParticipants":[{...}]}}` and
//! `{"fedwireParticipants":{"response":{...},"fedwireParticipants":[{...}]}}`.
//! Quirks of the Fed's files: the wire settlement flag is `fundsSettlementOnlyStatus`, and some
//! ACH records spell `institutionStatusCode` as `statusCode`. Errors carry the line of the
//! record (each record is kept as raw text to know where it starts).

use moneydesk_model::routing::{AchParticipant, WireParticipant};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::validate::{validate_ach, validate_wire, RecordError};

#[derive(Deserialize)]
struct Outer<'a> {
    #[serde(rename = "fedACHParticipants", borrow, default)]
    ach: Option<Inner<'a>>,
    #[serde(rename = "fedwireParticipants", borrow, default)]
    wire: Option<Inner<'a>>,
}

#[derive(Deserialize)]
struct Inner<'a> {
    #[serde(rename = "fedACHParticipants", alias = "fedwireParticipants", borrow)]
    list: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AchJson {
    routing_number: Option<String>,
    office_code: Option<String>,
    #[serde(rename = "servicingFRBNumber", alias = "servicingFrbNumber")]
    servicing_frb_number: Option<String>,
    record_type_code: Option<String>,
    change_date: Option<String>,
    new_routing_number: Option<String>,
    customer_name: Option<String>,
    customer_address: Option<String>,
    customer_city: Option<String>,
    customer_state: Option<String>,
    customer_zip: Option<String>,
    customer_zip_ext: Option<String>,
    customer_area_code: Option<String>,
    customer_phone_prefix: Option<String>,
    customer_phone_suffix: Option<String>,
    institution_status_code: Option<String>,
    /// The quirk: some records use this name for `institutionStatusCode`.
    status_code: Option<String>,
    data_view_code: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireJson {
    routing_number: Option<String>,
    telegraphic_name: Option<String>,
    customer_name: Option<String>,
    customer_state: Option<String>,
    customer_city: Option<String>,
    funds_eligibility: Option<String>,
    #[serde(alias = "settlementOnly")]
    funds_settlement_only_status: Option<String>,
    securities_eligibility: Option<String>,
    change_date: Option<String>,
}

fn line_of(text: &str, part: &str) -> usize {
    let offset = (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize).min(text.len());
    text.as_bytes()[..offset].iter().filter(|b| **b == b'\n').count() + 1
}

/// The raw records of the list `key` ("ach" or "wire"), with their line numbers.
fn records<'a>(text: &'a str, want_ach: bool) -> Result<Vec<(usize, &'a str)>, RecordError> {
    let outer: Outer<'a> = serde_json::from_str(text)
        .map_err(|e| RecordError { line: Some(e.line()), message: format!("not a Fed JSON directory: {e}") })?;
    let (want, other, inner, has_other) = match want_ach {
        true => ("fedACHParticipants", "fedwireParticipants", outer.ach, outer.wire.is_some()),
        false => ("fedwireParticipants", "fedACHParticipants", outer.wire, outer.ach.is_some()),
    };
    let Some(inner) = inner else {
        let hint = if has_other { format!(" (it holds {other}: wrong directory?)") } else { String::new() };
        return Err(RecordError { line: None, message: format!("the JSON has no {want} object{hint}") });
    };
    if inner.list.is_empty() {
        return Err(RecordError { line: None, message: "the file holds no records".into() });
    }
    Ok(inner.list.into_iter().map(|raw| (line_of(text, raw.get()), raw.get())).collect())
}

fn field(name: &str, v: Option<String>) -> Result<String, String> {
    v.ok_or_else(|| format!("{name} is missing"))
}

/// Names, addresses and cities lose their trailing spaces, as in the fixed-width files.
fn name(field_name: &str, v: Option<String>) -> Result<String, String> {
    Ok(field(field_name, v)?.trim_end_matches(' ').to_string())
}

fn each<T, J: for<'de> Deserialize<'de>>(
    text: &str,
    want_ach: bool,
    build: impl Fn(J) -> Result<T, String>,
) -> Result<Vec<T>, RecordError> {
    let mut out = Vec::new();
    for (i, (line, raw)) in records(text, want_ach)?.into_iter().enumerate() {
        let n = i + 1;
        let json: J = serde_json::from_str(raw)
            .map_err(|e| RecordError { line: Some(line + e.line() - 1), message: format!("record {n}: {e}") })?;
        out.push(build(json).map_err(|m| RecordError { line: Some(line), message: format!("record {n}: {m}") })?);
    }
    Ok(out)
}

pub fn ach(text: &str) -> Result<Vec<AchParticipant>, RecordError> {
    each(text, true, |j: AchJson| {
        let status = match (j.institution_status_code, j.status_code) {
            (Some(a), Some(b)) if a != b => {
                return Err(format!("institutionStatusCode {a:?} and statusCode {b:?} disagree"))
            }
            (a, b) => a.or(b),
        };
        let r = AchParticipant {
            routing_number: field("routingNumber", j.routing_number)?,
            office_code: field("officeCode", j.office_code)?,
            servicing_frb_number: field("servicingFRBNumber", j.servicing_frb_number)?,
            record_type_code: field("recordTypeCode", j.record_type_code)?,
            change_date: field("changeDate", j.change_date)?,
            new_routing_number: field("newRoutingNumber", j.new_routing_number)?,
            customer_name: name("customerName", j.customer_name)?,
            customer_address: name("customerAddress", j.customer_address)?,
            customer_city: name("customerCity", j.customer_city)?,
            customer_state: field("customerState", j.customer_state)?,
            customer_zip: field("customerZip", j.customer_zip)?,
            customer_zip_ext: field("customerZipExt", j.customer_zip_ext)?,
            customer_area_code: field("customerAreaCode", j.customer_area_code)?,
            customer_phone_prefix: field("customerPhonePrefix", j.customer_phone_prefix)?,
            customer_phone_suffix: field("customerPhoneSuffix", j.customer_phone_suffix)?,
            institution_status_code: field("institutionStatusCode (or statusCode)", status)?,
            data_view_code: field("dataViewCode", j.data_view_code)?,
        };
        validate_ach(&r)?;
        Ok(r)
    })
}

pub fn wire(text: &str) -> Result<Vec<WireParticipant>, RecordError> {
    each(text, false, |j: WireJson| {
        let r = WireParticipant {
            routing_number: field("routingNumber", j.routing_number)?,
            telegraphic_name: name("telegraphicName", j.telegraphic_name)?,
            customer_name: name("customerName", j.customer_name)?,
            customer_state: field("customerState", j.customer_state)?,
            customer_city: name("customerCity", j.customer_city)?,
            funds_eligibility: field("fundsEligibility", j.funds_eligibility)?,
            // Kept exactly: "S" or a single space.
            settlement_only: field("fundsSettlementOnlyStatus", j.funds_settlement_only_status)?,
            securities_eligibility: field("securitiesEligibility", j.securities_eligibility)?,
            change_date: field("changeDate", j.change_date)?,
        };
        validate_wire(&r)?;
        Ok(r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_carry_the_record_line() {
        let text = "{\"fedwireParticipants\":{\"fedwireParticipants\":[\n{\"routingNumber\":\"011000015\",\"telegraphicName\":\"FRB-BOS\",\"customerName\":\"X\",\"customerState\":\"MA\",\"customerCity\":\"B\",\"fundsEligibility\":\"Y\",\"fundsSettlementOnlyStatus\":\" \",\"securitiesEligibility\":\"Y\",\"changeDate\":\"\"},\n{\"routingNumber\":\"011000016\"}]}}";
        let e = wire(text).unwrap_err();
        assert_eq!(e.line, Some(3));
        assert_eq!(e.message, "record 2: telegraphicName is missing");
        let e = ach(text).unwrap_err();
        assert!(e.message.contains("holds fedwireParticipants"), "{e:?}");
        let e = wire("{\"fedwireParticipants\":\n{\"fedwireParticipants\":[}").unwrap_err();
        assert_eq!(e.line, Some(2));
    }
}
