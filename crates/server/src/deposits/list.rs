//! The deposit list: its filters and sort from the query, a page of list items (each with the
//! deposit members a `fields` parameter asks for) or of whole records (the records
//! extension), and the daily totals the portal's chart draws.

use chrono::{Duration, NaiveDate, TimeZone, Utc};
use moneydesk_model::deposits::{Date, DepositDayTotal, DepositRecord, DepositStatus, ServiceType};
use moneydesk_model::{DepositListItem, Money, Page, PageRequest, Sort};
use serde::Serialize;
use serde_json::{Map, Value};

use super::record;
use super::store::{DepositRow, ListFilter};
use crate::deposits::DepositsState;
use crate::error::Error;

/// What `fields` may ask for: the deposit record's (2.5) members a list item (2.4) lacks, and
/// two the request took that no record carries (`payerType`, `source`).
pub const FIELDS: &[&str] = &[
    "id",
    "sleeveAccountId",
    "submitterId",
    "accountAsVendorId",
    "vendorEmail",
    "lastName",
    "address",
    "city",
    "state",
    "zipCode",
    "transferType",
    "paymentType",
    "scheduleDate",
    "amount",
    "feeApplied",
    "isConfirmed",
    "overnightMail",
    "status",
    "step",
    "ownerName",
    "vendor",
    "checkStub",
    "checkDate",
    "daytimePhone",
    "accountToAccountPayee",
    "completedDate",
    "contactAsVendorId",
    "ssnTaxPayerId",
    "party",
    "checkNumber",
    "payToAccount",
    "actualPickUpDate",
    "bankInfoId",
    "memo",
    "bankName",
    "firstName",
    "swiftCode",
    "destinationCountry",
    "careOf",
    "bankRoutingNumber",
    "amountType",
    "requestedPickupDate",
    "accountType",
    "fullBankAccountNumber",
    "intermediaryRoutingNumber",
    "intermediaryFinancialInstitution",
    "achBatchId",
    "payerType",
    "source",
];

/// The list item's own fields: never asked for, always there.
const ITEM_FIELDS: &[&str] =
    &["name", "serviceType", "accountNumber", "unifiedAccountId", "createdDate", "recordTypeId", "acId"];

/// The list's `fields` parameter (extension), documented with the list.
#[derive(Debug, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct ListFields {
    /// Extension: deposit members each list item carries after its own fields, comma-separated:
    /// the deposit record's (2.5) members a list item lacks (`id`, `amount`, `feeApplied`,
    /// `status`, `checkNumber`, `scheduleDate`, `checkDate`, `bankName`, `memo`, ... with the
    /// record's values and formats) and `payerType` and `source` (as the deposit was made).
    /// Without it an item is exactly the list item of 2.4. An unknown name, or one of the
    /// item's own, is a 400 naming `fields`.
    // Exactly the names of `FIELDS` (a unit test holds the two together).
    #[param(
        pattern = "^(id|sleeveAccountId|submitterId|accountAsVendorId|vendorEmail|lastName|address|city|state|zipCode|transferType|paymentType|scheduleDate|amount|feeApplied|isConfirmed|overnightMail|status|step|ownerName|vendor|checkStub|checkDate|daytimePhone|accountToAccountPayee|completedDate|contactAsVendorId|ssnTaxPayerId|party|checkNumber|payToAccount|actualPickUpDate|bankInfoId|memo|bankName|firstName|swiftCode|destinationCountry|careOf|bankRoutingNumber|amountType|requestedPickupDate|accountType|fullBankAccountNumber|intermediaryRoutingNumber|intermediaryFinancialInstitution|achBatchId|payerType|source)(,(id|sleeveAccountId|submitterId|accountAsVendorId|vendorEmail|lastName|address|city|state|zipCode|transferType|paymentType|scheduleDate|amount|feeApplied|isConfirmed|overnightMail|status|step|ownerName|vendor|checkStub|checkDate|daytimePhone|accountToAccountPayee|completedDate|contactAsVendorId|ssnTaxPayerId|party|checkNumber|payToAccount|actualPickUpDate|bankInfoId|memo|bankName|firstName|swiftCode|destinationCountry|careOf|bankRoutingNumber|amountType|requestedPickupDate|accountType|fullBankAccountNumber|intermediaryRoutingNumber|intermediaryFinancialInstitution|achBatchId|payerType|source))*$",
        example = "id,amount,feeApplied,status"
    )]
    fields: Option<String>,
}

/// A list item exactly as described, followed by the members `fields` asked for.
#[derive(Debug, Serialize)]
pub struct ListEntry {
    #[serde(flatten)]
    pub item: DepositListItem,
    #[serde(flatten)]
    pub more: Map<String, Value>,
}

/// The list's filters and sort from the query: `status`, `serviceType`, `createdFrom` and
/// `createdTo` (dates, inclusive, business time zone), `payeeAccountId`, `amountMin`,
/// `amountMax`, `sort=createdDate|amount[,asc|desc]` (default `createdDate,desc`); and
/// `fields`, the members of [`FIELDS`] each item carries besides its own.
pub async fn list(state: &DepositsState, pairs: &[(String, String)]) -> Result<Page<ListEntry>, Error> {
    let asked = asked_fields(pairs)?;
    if asked.is_empty() {
        let page = list_as(state, pairs, record::list_item).await?;
        return Ok(page.map(|item| ListEntry { item, more: Map::new() }));
    }
    let page = list_as(state, pairs, |r, tz| (record::list_item(r, tz), extras(r, tz))).await?;
    Ok(page.map(|(item, all)| {
        let more = asked.iter().map(|k| (k.to_string(), all.get(*k).cloned().unwrap_or(Value::Null))).collect();
        ListEntry { item, more }
    }))
}

/// `fields=id,amount,...`: known names only, none of the item's own, at least one.
fn asked_fields(pairs: &[(String, String)]) -> Result<Vec<&'static str>, Error> {
    let mut asked = Vec::new();
    for (_, v) in pairs.iter().filter(|(k, _)| k == "fields") {
        for name in v.split(',').map(str::trim) {
            if ITEM_FIELDS.contains(&name) {
                return Err(Error::field("fields", format!("{name} is in every list item already")));
            }
            let known = FIELDS.iter().find(|f| **f == name).ok_or_else(|| {
                Error::field("fields", format!("{name:?} is not a deposit member a list item can carry"))
            })?;
            if !asked.contains(known) {
                asked.push(*known);
            }
        }
    }
    Ok(asked)
}

/// Every member `fields` can ask for, of one row.
fn extras(r: &DepositRow, tz: chrono_tz::Tz) -> Map<String, Value> {
    let mut all = match serde_json::to_value(record::record(r, tz)) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    all.insert("payerType".into(), r.payer_type.clone().into());
    all.insert("source".into(), r.source.clone().into());
    all
}

/// The filtered deposits (the list's filters; paging and sort ignored) summed per day of the
/// business time zone and status, oldest day first.
pub async fn daily_totals(state: &DepositsState, pairs: &[(String, String)]) -> Result<Vec<DepositDayTotal>, Error> {
    let (f, _) = list_filter(state, pairs)?;
    let tz = state.config().business_time_zone;
    let mut days: std::collections::BTreeMap<(String, usize), (DepositStatus, i64, i64)> = Default::default();
    for h in state.deposits().hourly_totals(&f).await? {
        let Some(status) = DepositStatus::parse(&h.status) else { continue };
        let Some(day) = record::local_day(&format!("{}:00:00Z", h.hour), tz) else { continue };
        let rank = DepositStatus::ALL.iter().position(|s| *s == status).unwrap_or(0);
        let e = days.entry((day, rank)).or_insert((status, 0, 0));
        e.1 += h.count;
        e.2 += h.amount_cents;
    }
    Ok(days
        .into_iter()
        .filter_map(|((day, _), (status, count, cents))| {
            Some(DepositDayTotal { day: Date::parse(&day).ok()?, status, count, amount: record::money(cents) })
        })
        .collect())
}

/// The same page with each deposit as its whole record (the portal's list extension).
pub async fn list_records(state: &DepositsState, pairs: &[(String, String)]) -> Result<Page<DepositRecord>, Error> {
    list_as(state, pairs, record::record).await
}

async fn list_as<T>(
    state: &DepositsState,
    pairs: &[(String, String)],
    item: fn(&DepositRow, chrono_tz::Tz) -> T,
) -> Result<Page<T>, Error> {
    let page = PageRequest::from_query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| Error::field(e.param(), e.to_string()))?;
    let tz = state.config().business_time_zone;
    let (f, sorted) = list_filter(state, pairs)?;
    // An unknown payee account is a 404 (description section 7), not an empty page.
    super::check::known_payee_filter(state, f.payee_account_id.as_deref()).await?;
    let offset = page.offset().min(i64::MAX as u64) as i64;
    let (total, rows) = state.deposits().list(&f, offset, i64::from(page.size)).await?;
    let items = rows.iter().map(|r| item(r, tz)).collect();
    Ok(Page::build(page, total as u64, items, if sorted { Sort::SORTED } else { Sort::UNSORTED }))
}

/// The list's filters and sort from the query (and whether a sort was asked for).
pub(super) fn list_filter(state: &DepositsState, pairs: &[(String, String)]) -> Result<(ListFilter, bool), Error> {
    let tz = state.config().business_time_zone;
    // A filter given empty is refused, not ignored: the document states each one's form.
    let get = |k: &str| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim());
    let mut f = ListFilter { desc: true, ..Default::default() };
    if let Some(s) = get("status") {
        f.status = Some(
            DepositStatus::parse(s)
                .ok_or_else(|| Error::field("status", format!("unknown status {s:?}")))?
                .as_str()
                .into(),
        );
    }
    if let Some(s) = get("serviceType") {
        f.service_type = Some(
            ServiceType::parse(s)
                .ok_or_else(|| Error::field("serviceType", format!("unknown service type {s:?}")))?
                .as_str()
                .into(),
        );
    }
    let day_start = |field: &str, s: &str, next: bool| -> Result<String, Error> {
        let d = NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map_err(|_| Error::field(field, format!("{s:?} is not a date like 2026-11-24")))?;
        let d = if next { d + Duration::days(1) } else { d };
        let local = tz.from_local_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default()).earliest();
        let utc = local
            .map(|t| t.with_timezone(&Utc))
            .ok_or_else(|| Error::field(field, "not a time in the business time zone"))?;
        Ok(utc.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
    };
    if let Some(s) = get("createdFrom") {
        f.created_from = Some(day_start("createdFrom", s, false)?);
    }
    if let Some(s) = get("createdTo") {
        f.created_to = Some(day_start("createdTo", s, true)?);
    }
    f.payee_account_id = match get("payeeAccountId") {
        Some("") => return Err(Error::field("payeeAccountId", "must not be empty")),
        p => p.map(str::to_string),
    };
    let cents = |field: &str, s: &str| -> Result<i64, Error> {
        let m = Money::parse(s).and_then(|m| m.check_amount(2)).map_err(|e| Error::field(field, e.to_string()))?;
        Ok((m.decimal() * rust_decimal::Decimal::ONE_HUNDRED).trunc().to_string().parse().unwrap_or(i64::MAX))
    };
    f.amount_min_cents = get("amountMin").map(|s| cents("amountMin", s)).transpose()?;
    f.amount_max_cents = get("amountMax").map(|s| cents("amountMax", s)).transpose()?;
    let mut sorted = false;
    if let Some(s) = get("sort") {
        let (key, dir) = s.split_once(',').unwrap_or((s, "desc"));
        f.sort_amount = match key {
            "createdDate" => false,
            "amount" => true,
            other => return Err(Error::field("sort", format!("cannot sort by {other:?}; use createdDate or amount"))),
        };
        f.desc = match dir {
            "desc" => true,
            "asc" => false,
            other => return Err(Error::field("sort", format!("direction {other:?}: use asc or desc"))),
        };
        sorted = true;
    }
    Ok((f, sorted))
}

#[cfg(test)]
mod tests {
    /// The document's pattern for `fields` names exactly the members of `FIELDS`.
    #[test]
    fn the_documented_pattern_is_the_list_of_fields() {
        let doc = serde_json::to_value(crate::http::openapi_doc()).unwrap();
        let params = doc["paths"][moneydesk_model::paths::DEPOSITS]["get"]["parameters"].as_array().unwrap().clone();
        let fields = params.iter().find(|p| p["name"] == "fields").expect("the fields parameter");
        let alternatives = super::FIELDS.join("|");
        assert_eq!(fields["schema"]["pattern"], format!("^({alternatives})(,({alternatives}))*$"));
    }
}
