//! Accounts from a file (`moneydesk-server import accounts FILE`): every record checked,
//! then all written in one transaction, or nothing.

use moneydesk_model::accounts::{mask_tin, Account, AccountStatus, AccountType};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::{Money, RoutingNumber};
use rust_decimal::Decimal;

use super::store::AccountStore;
use crate::collections::fields::{digits, email, ident, now, Fields};
use crate::collections::records::{self, Format, ImportError, ImportFailure, Record};

pub const ACCOUNT_FIELDS: &[&str] = &[
    "id",
    "accountName",
    "accountType",
    "businessEntityType",
    "accountEmail",
    "subRoutingNumber",
    "subRoutingName",
    "parentAccountId",
    "accountNumber",
    "accountStatus",
    "tin",
    "recordTypeId",
    "billingStreet",
    "billingCity",
    "billingState",
    "billingZipcode",
    "billingCountry",
    "mailingStreet",
    "mailingCity",
    "mailingState",
    "mailingZipcode",
    "mailingCountry",
    "marketValue",
    "createTime",
];

/// Names files exported before the record took the description's spelling (2.6) may still
/// carry: each is read as its description name. Import only; the API writes only the new ones.
pub const LEGACY_ACCOUNT_FIELDS: &[(&str, &str)] =
    &[("billingPostalCode", "billingZipcode"), ("mailingPostalCode", "mailingZipcode")];

/// The names an import file may use: the record's and the legacy ones.
fn known_fields() -> Vec<&'static str> {
    ACCOUNT_FIELDS.iter().copied().chain(LEGACY_ACCOUNT_FIELDS.iter().map(|(old, _)| *old)).collect()
}

/// The name `rec` gives the field `name` under: the legacy one when the file uses it (so an
/// error names the file's column), else the description's.
fn name_in(rec: &Record, name: &'static str) -> &'static str {
    LEGACY_ACCOUNT_FIELDS
        .iter()
        .find(|(old, new)| *new == name && (rec.fields.contains_key(*old) || rec.bad.iter().any(|b| b == old)))
        .map_or(name, |(old, _)| old)
}

/// `id` is accepted (so an exported file reads back) and ignored: the server assigns ids.
/// Checks one account record. A missing `id` is generated; a missing `createTime` is now.
pub fn account_from(rec: &Record, now: LocalDateTime) -> Result<Account, Vec<ImportError>> {
    let mut f = Fields { rec, errors: Vec::new() };
    for (old, new) in LEGACY_ACCOUNT_FIELDS {
        if rec.fields.contains_key(*old) && rec.fields.contains_key(*new) {
            f.err(old, format!("{new} is given too; give one of them"));
        }
    }
    let id = f.text("id", 40);
    let id = f.check("id", id, ident);
    let account_name = f.required("accountName", 255);
    let account_type = f.required("accountType", 40).and_then(|v| {
        AccountType::parse(&v).or_else(|| {
            f.err("accountType", format!("unknown account type {v:?}; one of {}", AccountType::known()));
            None
        })
    });
    let account_status = f.required("accountStatus", 40).and_then(|v| {
        AccountStatus::parse(&v).or_else(|| {
            f.err("accountStatus", format!("unknown account status {v:?}; one of {}", AccountStatus::known()));
            None
        })
    });
    let account_email = f.text("accountEmail", 254);
    let account_email = f.check("accountEmail", account_email, email);
    let sub_routing_number = f.text("subRoutingNumber", 9);
    let sub_routing_number = f.check("subRoutingNumber", sub_routing_number, |v| {
        RoutingNumber::parse(v).map(|_| v.to_string()).map_err(|e| e.to_string())
    });
    let parent_account_id = f.text("parentAccountId", 40);
    let parent_account_id = f.check("parentAccountId", parent_account_id, ident);
    let account_number = f.text("accountNumber", 17);
    let account_number = f.check("accountNumber", account_number, digits(4, 17));
    // The full TIN is masked on the way in and never stored; an already masked one is kept.
    let tin = f.text("tin", 20);
    let tin = f.check("tin", tin, |v| {
        let n = v.chars().filter(|c| c.is_ascii_digit()).count();
        if v.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '*' || c == ' ') && (4..=9).contains(&n) {
            mask_tin(v).ok_or_else(|| "has no digits".to_string())
        } else {
            Err("must be a 9-digit TIN (dashes allowed) or a masked one like *****1234".into())
        }
    });
    let record_type_id = f.text("recordTypeId", 18);
    let record_type_id = f.check("recordTypeId", record_type_id, ident);
    let market_value = f.text("marketValue", 40).and_then(|v| match Money::parse(&v) {
        Ok(m) if m.decimal().scale() > 4 => {
            f.err("marketValue", "has more than 4 decimal places");
            None
        }
        Ok(m) if m.decimal().abs() >= Decimal::from(100_000_000_000_000i64) => {
            f.err("marketValue", "is too large");
            None
        }
        Ok(m) => Some(m.decimal()),
        Err(e) => {
            f.err("marketValue", e.to_string());
            None
        }
    });
    let create_time = if rec.fields.contains_key("createTime") { f.time("createTime") } else { Some(now) };
    let account = Account {
        id: id.clone().unwrap_or_default(),
        account_name: account_name.unwrap_or_default(),
        account_type: account_type.unwrap_or(AccountType::ApiCustomer),
        business_entity_type: f.text("businessEntityType", 40),
        account_email,
        sub_routing_number,
        sub_routing_name: f.text("subRoutingName", 255),
        parent_account_id,
        account_number,
        account_status: account_status.unwrap_or(AccountStatus::Pending),
        tin,
        record_type_id,
        billing_street: f.text("billingStreet", 255),
        billing_city: f.text("billingCity", 80),
        billing_state: f.text("billingState", 80),
        billing_zipcode: f.text(name_in(rec, "billingZipcode"), 20),
        billing_country: f.text("billingCountry", 80),
        mailing_street: f.text("mailingStreet", 255),
        mailing_city: f.text("mailingCity", 80),
        mailing_state: f.text("mailingState", 80),
        mailing_zipcode: f.text(name_in(rec, "mailingZipcode"), 20),
        mailing_country: f.text("mailingCountry", 80),
        market_value,
        create_time: create_time.unwrap_or(now),
    };
    if !f.errors.is_empty() {
        return Err(f.errors);
    }
    let mut account = account;
    if id.is_none() {
        // Like the description's ids: creation milliseconds and five letters.
        let letters: String = (0..5).map(|_| char::from(b'a' + rand::random::<u8>() % 26)).collect();
        account.id = format!("{}{letters}", account.create_time.millis());
    }
    Ok(account)
}

/// Checks and imports accounts; returns how many were written (all of them) or every error.
pub async fn import_accounts(store: &AccountStore, text: &str, format: Format) -> Result<usize, ImportFailure> {
    let (records, mut errors) = records::read(text, format, &known_fields());
    let now = now();
    let mut accounts = Vec::with_capacity(records.len());
    let mut seen = std::collections::HashMap::new();
    for rec in &records {
        match account_from(rec, now) {
            Ok(a) => {
                if let Some(first) = seen.insert(a.id.clone(), rec.line) {
                    errors.push(ImportError::new(
                        rec.line,
                        Some("id"),
                        format!("{} is already used on line {first}", a.id),
                    ));
                }
                accounts.push((rec.line, a));
            }
            Err(e) => errors.extend(e),
        }
    }
    let mut writer = store.writer().await?;
    let ids: Vec<&str> = accounts.iter().map(|(_, a)| a.id.as_str()).collect();
    for id in writer.existing_ids(&ids).await? {
        let line = seen.get(&id).copied().unwrap_or(0);
        errors.push(ImportError::new(line, Some("id"), format!("an account with id {id} already exists")));
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(ImportFailure::Invalid(errors));
    }
    let accounts: Vec<Account> = accounts.into_iter().map(|(_, a)| a).collect();
    writer.insert(&accounts).await?;
    writer.commit().await?;
    Ok(accounts.len())
}
