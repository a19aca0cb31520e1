//! Checks every record read from either format, naming the field and the value that is wrong.

use chrono::NaiveDate;
use moneydesk_model::routing::{AchParticipant, WireParticipant};
use moneydesk_model::RoutingNumber;

/// What is wrong, and where (1-based line; `None` when it concerns the whole file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    pub line: Option<usize>,
    pub message: String,
}

impl RecordError {
    pub(super) fn at(line: usize, message: impl Into<String>) -> Self {
        RecordError { line: Some(line), message: message.into() }
    }
    pub(super) fn file(message: impl Into<String>) -> Self {
        RecordError { line: None, message: message.into() }
    }
}

fn routing(field: &str, v: &str) -> Result<(), String> {
    RoutingNumber::parse(v).map(|_| ()).map_err(|e| format!("{field} {v:?}: {e}"))
}

fn digits(field: &str, v: &str, n: usize, blank_ok: bool) -> Result<(), String> {
    if (v.len() == n && v.bytes().all(|b| b.is_ascii_digit())) || (blank_ok && v.trim().is_empty()) {
        return Ok(());
    }
    let blank = if blank_ok { " or blank" } else { "" };
    Err(format!("{field} {v:?}: must be {n} digits{blank}"))
}

fn one_of(field: &str, v: &str, allowed: &[&str]) -> Result<(), String> {
    if allowed.contains(&v) {
        return Ok(());
    }
    let list: Vec<String> = allowed.iter().map(|a| format!("{a:?}")).collect();
    Err(format!("{field} {v:?}: must be one of {}", list.join(", ")))
}

fn not_blank(field: &str, v: &str) -> Result<(), String> {
    if v.trim().is_empty() {
        return Err(format!("{field} is blank"));
    }
    Ok(())
}

/// ACH MMDDYY as a date (YY from 70 on is 19YY: the directory holds dates from the 1980s).
pub fn ach_date(v: &str) -> Option<NaiveDate> {
    if v.len() != 6 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (m, d, y): (u32, u32, i32) = (v[0..2].parse().ok()?, v[2..4].parse().ok()?, v[4..6].parse().ok()?);
    NaiveDate::from_ymd_opt(if y >= 70 { 1900 + y } else { 2000 + y }, m, d)
}

/// Wire YYYYMMDD as a date; `None` for a blank one.
pub fn wire_date(v: &str) -> Option<NaiveDate> {
    if v.len() != 8 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    NaiveDate::parse_from_str(v, "%Y%m%d").ok()
}

pub fn validate_ach(r: &AchParticipant) -> Result<(), String> {
    routing("routingNumber", &r.routing_number)?;
    one_of("officeCode", &r.office_code, &["O", "B"])?;
    digits("servicingFRBNumber", &r.servicing_frb_number, 9, false)?;
    one_of("recordTypeCode", &r.record_type_code, &["0", "1", "2"])?;
    if ach_date(&r.change_date).is_none() {
        return Err(format!("changeDate {:?}: must be a date written MMDDYY", r.change_date));
    }
    digits("newRoutingNumber", &r.new_routing_number, 9, false)?;
    if r.record_type_code == "2" {
        routing("newRoutingNumber", &r.new_routing_number)?;
    }
    not_blank("customerName", &r.customer_name)?;
    digits("customerZip", &r.customer_zip, 5, false)?;
    digits("customerZipExt", &r.customer_zip_ext, 4, true)?;
    digits("customerAreaCode", &r.customer_area_code, 3, true)?;
    digits("customerPhonePrefix", &r.customer_phone_prefix, 3, true)?;
    digits("customerPhoneSuffix", &r.customer_phone_suffix, 4, true)?;
    digits("institutionStatusCode", &r.institution_status_code, 1, false)?;
    digits("dataViewCode", &r.data_view_code, 1, false)?;
    if r.customer_state.len() != 2 {
        return Err(format!("customerState {:?}: must be 2 characters", r.customer_state));
    }
    Ok(())
}

pub fn validate_wire(r: &WireParticipant) -> Result<(), String> {
    routing("routingNumber", &r.routing_number)?;
    not_blank("customerName", &r.customer_name)?;
    one_of("fundsEligibility", &r.funds_eligibility, &["Y", "N"])?;
    one_of("settlementOnly", &r.settlement_only, &["S", " "])?;
    one_of("securitiesEligibility", &r.securities_eligibility, &["Y", "N"])?;
    if !r.change_date.trim().is_empty() && wire_date(&r.change_date).is_none() {
        return Err(format!("changeDate {:?}: must be a date written YYYYMMDD, or blank", r.change_date));
    }
    if r.customer_state.len() != 2 {
        return Err(format!("customerState {:?}: must be 2 characters", r.customer_state));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(ach_date("122415"), NaiveDate::from_ymd_opt(2015, 12, 24));
        assert_eq!(ach_date("010199"), NaiveDate::from_ymd_opt(1999, 1, 1));
        assert_eq!(ach_date("133115"), None);
        assert_eq!(wire_date("20181203"), NaiveDate::from_ymd_opt(2018, 12, 3));
        assert_eq!(wire_date("        "), None);
    }
}
