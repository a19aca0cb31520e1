//! `moneydesk-server import accounts|permissions FILE`: CSV or JSON, every record checked
//! first (errors name the line and the field), then all written in one transaction — or,
//! on any error, nothing.

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Subcommand;
use moneydesk_model::accounts::{mask_tin, Account, AccountStatus, AccountType};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::{EmailAddress, Money, RoutingNumber, Scope};
use rust_decimal::Decimal;

use super::records::{self, Format, Record};
use crate::permissions::store::NewPermission;
use crate::storage::Db;
use crate::Config;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    pub line: usize,
    pub field: Option<String>,
    pub message: String,
}

impl ImportError {
    pub fn new(line: usize, field: Option<&str>, message: impl Into<String>) -> Self {
        ImportError { line, field: field.map(str::to_string), message: message.into() }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "line {}: {field}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

#[derive(Debug)]
pub enum ImportFailure {
    /// The file has errors; nothing was written.
    Invalid(Vec<ImportError>),
    Db(sqlx::Error),
}

impl From<sqlx::Error> for ImportFailure {
    fn from(e: sqlx::Error) -> Self {
        ImportFailure::Db(e)
    }
}

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
    "billingPostalCode",
    "billingCountry",
    "mailingStreet",
    "mailingCity",
    "mailingState",
    "mailingPostalCode",
    "mailingCountry",
    "marketValue",
    "createTime",
];

/// `id` is accepted (so an exported file reads back) and ignored: the server assigns ids.
pub const PERMISSION_FIELDS: &[&str] =
    &["id", "userId", "userName", "userEmail", "companyId", "companyName", "scope", "grantedBy", "grantedAt"];

/// A record's fields, collecting errors as they are read.
struct Fields<'a> {
    rec: &'a Record,
    errors: Vec<ImportError>,
}

impl<'a> Fields<'a> {
    fn err(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(ImportError::new(self.rec.line, Some(field), message));
    }

    /// Optional text: at most `max` characters, no control characters.
    fn text(&mut self, field: &str, max: usize) -> Option<String> {
        let v = self.rec.fields.get(field)?.trim();
        if v.chars().count() > max {
            self.err(field, format!("is longer than {max} characters"));
            None
        } else if v.chars().any(char::is_control) {
            self.err(field, "contains a control character");
            None
        } else {
            Some(v.to_string())
        }
    }

    fn required(&mut self, field: &str, max: usize) -> Option<String> {
        if self.rec.bad.iter().any(|b| b == field) {
            return None;
        }
        if !self.rec.fields.contains_key(field) {
            self.err(field, "is required");
            return None;
        }
        self.text(field, max)
    }

    fn check(
        &mut self,
        field: &str,
        value: Option<String>,
        ok: impl Fn(&str) -> Result<String, String>,
    ) -> Option<String> {
        let v = value?;
        match ok(&v) {
            Ok(v) => Some(v),
            Err(m) => {
                self.err(field, m);
                None
            }
        }
    }

    fn time(&mut self, field: &str) -> Option<LocalDateTime> {
        let v = self.text(field, 40)?;
        LocalDateTime::parse(&v).map_err(|e| self.err(field, e.to_string())).ok()
    }
}

fn digits(min: usize, max: usize) -> impl Fn(&str) -> Result<String, String> {
    move |v: &str| {
        if (min..=max).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit()) {
            Ok(v.to_string())
        } else {
            Err(format!("must be {min} to {max} digits"))
        }
    }
}

fn ident(v: &str) -> Result<String, String> {
    if !v.is_empty() && v.len() <= 40 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        Ok(v.to_string())
    } else {
        Err("must be 1 to 40 letters, digits, '_' or '-'".into())
    }
}

fn email(v: &str) -> Result<String, String> {
    EmailAddress::parse(v).map(|e| e.as_str().to_string()).map_err(|e| e.to_string())
}

/// Checks one account record. A missing `id` is generated; a missing `createTime` is now.
pub fn account_from(rec: &Record, now: LocalDateTime) -> Result<Account, Vec<ImportError>> {
    let mut f = Fields { rec, errors: Vec::new() };
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
        billing_postal_code: f.text("billingPostalCode", 20),
        billing_country: f.text("billingCountry", 80),
        mailing_street: f.text("mailingStreet", 255),
        mailing_city: f.text("mailingCity", 80),
        mailing_state: f.text("mailingState", 80),
        mailing_postal_code: f.text("mailingPostalCode", 20),
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

pub fn permission_from(rec: &Record, now: LocalDateTime) -> Result<NewPermission, Vec<ImportError>> {
    let mut f = Fields { rec, errors: Vec::new() };
    let user_id = f.required("userId", 64);
    let user_name = f.required("userName", 255);
    let user_email = f.text("userEmail", 254);
    let user_email = f.check("userEmail", user_email, email);
    let company_id = f.required("companyId", 64);
    let company_name = f.required("companyName", 255);
    let scope =
        f.required("scope", 40).and_then(|v| v.parse::<Scope>().map_err(|e| f.err("scope", e.to_string())).ok());
    let granted_by = f.required("grantedBy", 255);
    let granted_at = if rec.fields.contains_key("grantedAt") { f.time("grantedAt") } else { Some(now) };
    if !f.errors.is_empty() {
        return Err(f.errors);
    }
    Ok(NewPermission {
        user_id: user_id.unwrap_or_default(),
        user_name: user_name.unwrap_or_default(),
        user_email,
        company_id: company_id.unwrap_or_default(),
        company_name: company_name.unwrap_or_default(),
        scope: scope.unwrap_or(Scope::PermissionsRead),
        granted_by: granted_by.unwrap_or_default(),
        granted_at: granted_at.unwrap_or(now),
    })
}

fn now() -> LocalDateTime {
    LocalDateTime::from_millis(chrono::Utc::now().timestamp_millis())
}

/// Checks and imports accounts; returns how many were written (all of them) or every error.
pub async fn import_accounts(db: &Db, text: &str, format: Format) -> Result<usize, ImportFailure> {
    let (records, mut errors) = records::read(text, format, ACCOUNT_FIELDS);
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
    let mut writer = db.accounts_writer().await?;
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

pub async fn import_permissions(db: &Db, text: &str, format: Format) -> Result<usize, ImportFailure> {
    let (records, mut errors) = records::read(text, format, PERMISSION_FIELDS);
    let now = now();
    let mut rows = Vec::with_capacity(records.len());
    let mut seen = std::collections::HashMap::new();
    for rec in &records {
        match permission_from(rec, now) {
            Ok(p) => {
                let key = (p.user_id.clone(), p.company_id.clone(), p.scope);
                if let Some(first) = seen.insert(key, rec.line) {
                    errors.push(ImportError::new(
                        rec.line,
                        Some("scope"),
                        format!("this user already gets {} on line {first}", p.scope),
                    ));
                }
                rows.push((rec.line, p));
            }
            Err(e) => errors.extend(e),
        }
    }
    let mut writer = db.permissions_writer().await?;
    for (line, p) in &rows {
        if writer.exists(p).await? {
            errors.push(ImportError::new(
                *line,
                Some("scope"),
                format!("{} already holds {} in {}", p.user_id, p.scope, p.company_id),
            ));
        }
    }
    if !errors.is_empty() {
        errors.sort_by_key(|e| e.line);
        return Err(ImportFailure::Invalid(errors));
    }
    let rows: Vec<NewPermission> = rows.into_iter().map(|(_, p)| p).collect();
    writer.insert(&rows).await?;
    writer.commit().await?;
    Ok(rows.len())
}

/// The `import` subcommand.
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    /// Import accounts from a CSV (header row of the API's field names) or JSON file.
    Accounts { file: PathBuf },
    /// Import company user permissions from a CSV or JSON file.
    Permissions { file: PathBuf },
}

/// At most this many errors are printed.
const SHOWN_ERRORS: usize = 50;

pub async fn run(config: Config, cmd: ImportCommand) -> anyhow::Result<()> {
    let (what, file) = match &cmd {
        ImportCommand::Accounts { file } => ("accounts", file),
        ImportCommand::Permissions { file } => ("permissions", file),
    };
    let text = read_text(file)?;
    let format = Format::detect(file, &text);
    std::fs::create_dir_all(&config.data_dir)
        .with_context(|| format!("creating data dir {}", config.data_dir.display()))?;
    let db = Db::open(&config.database_url).await?;
    let result = match cmd {
        ImportCommand::Accounts { .. } => import_accounts(&db, &text, format).await,
        ImportCommand::Permissions { .. } => import_permissions(&db, &text, format).await,
    };
    match result {
        Ok(n) => {
            println!("Imported {n} {what} from {}", file.display());
            Ok(())
        }
        Err(ImportFailure::Invalid(errors)) => {
            for e in errors.iter().take(SHOWN_ERRORS) {
                eprintln!("{}:{}", file.display(), e.to_string().trim_start_matches("line "));
            }
            if errors.len() > SHOWN_ERRORS {
                eprintln!("... and {} more", errors.len() - SHOWN_ERRORS);
            }
            anyhow::bail!("nothing was imported: {} error(s) in {}", errors.len(), file.display())
        }
        Err(ImportFailure::Db(e)) => Err(anyhow::Error::new(e).context("nothing was imported: database error")),
    }
}

fn read_text(file: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    String::from_utf8(bytes)
        .map_err(|e| anyhow::anyhow!("{} is not UTF-8 text (byte {})", file.display(), e.utf8_error().valid_up_to()))
}
