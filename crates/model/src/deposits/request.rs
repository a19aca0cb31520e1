//! The check deposit request (description 4.5; CONTRACT.md points 6 and 11): the field
//! table's names, the example's names as aliases, every rule checked at once so that every
//! wrong field is named. Whether the payee account exists, the images decode, the routing
//! number is in the directory, the caller may set the fee, and what a named scan supplies
//! (the amount, the check number) is the server's part; this checks what the request alone says.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{Date, Text140};
use crate::fees::Memo;
use crate::{FieldError, Money, RoutingNumber};

/// The body as sent. `amount` and `fee` are read from their JSON text (a number or a decimal
/// string), never through a float.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = CheckDepositRequest))]
pub struct CheckDepositFields {
    /// A JSON number or a decimal string, above zero, at most two decimals, at most
    /// 9,999,999,999.99. Optional, as the description says: without it, a deposit naming a
    /// `scanId` takes the scan's MICR amount field when the check has one printed and it was
    /// read with certainty (it must also be what the scan was made for); otherwise the answer is
    /// a 400 naming `amount` and saying why.
    #[serde(default, deserialize_with = "raw_text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount_schema))]
    pub amount: Option<String>,
    /// The account as printed in the check's on-us field: digits, with the dashes (the MICR
    /// dash symbol ⑉) and spaces printed between them, e.g. `1211-1234-56789`; at most 17
    /// characters (NACHA's DFI account number field), starting and ending with a digit. Kept as
    /// printed for the cash letter's on-us field (X9.100-187) and the ACH file; duplicate
    /// presentment compares its digits only.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, max_length = 17,
        pattern = "^[0-9]+([ -]+[0-9]+)*$"))]
    pub bank_account_number: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::nullable_schema))]
    pub bank_name: Option<String>,
    /// Nine digits with a valid ABA checksum, in the FedACH directory (a number the directory in
    /// force does not list is a 400 naming this field).
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, pattern = "^[0-9]{9}$"))]
    pub bank_routing_number: Option<String>,
    /// Base64 JPEG, PNG or TIFF, at least 200 × 80 pixels. Required unless `scanId` is given.
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub check_back_image: Option<String>,
    /// The date written on the check: not in the future, at most 180 days ago.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date, pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    pub check_date: Option<String>,
    /// Base64 JPEG, PNG or TIFF, at least 200 × 80 pixels. Required unless `scanId` is given.
    #[cfg_attr(feature = "openapi", schema(min_length = 1))]
    pub check_front_image: Option<String>,
    /// 1 to 15 digits. Required unless `scanId` is given: then, when left out, the scan's MICR
    /// check number (the on-us serial, else the auxiliary on-us field) is taken, and a check
    /// whose MICR line carries none (its on-us field is all account) has none.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, pattern = "^[0-9]{1,15}$"))]
    pub check_number: Option<String>,
    /// The fee to charge instead of the fee schedule's: allowed to a token with the
    /// `fees:override` scope (or `admin`); from any other token it is a 403 naming `fee`, never
    /// ignored. Left out, the schedule's standard fee for the amount is charged.
    #[serde(default, deserialize_with = "raw_text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = fee_schema))]
    pub fee: Option<String>,
    /// At most 140 characters, no control characters.
    #[cfg_attr(feature = "openapi", schema(schema_with = Memo::nullable_schema))]
    pub memo: Option<String>,
    /// An account of the accounts collection (an unknown one is a 404 naming it).
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, pattern = "\\S"))]
    pub payee_account_id: Option<String>,
    #[serde(alias = "payeeId")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, pattern = "\\S"))]
    pub payee_user_id: Option<String>,
    /// A managed sleeve account of the accounts collection, when given (an unknown one is a 404
    /// naming it).
    #[cfg_attr(feature = "openapi", schema(schema_with = payer_id_schema))]
    pub payer_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::nullable_schema))]
    pub payer_type: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::nullable_schema))]
    pub payment_type: Option<String>,
    /// When the deposit should be processed: today or later.
    #[serde(alias = "scheduledDate")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date, pattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
    pub schedule_date: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::nullable_schema))]
    pub source: Option<String>,
    /// The example's `payeeBankId`.
    #[serde(alias = "payeeBankId")]
    #[cfg_attr(feature = "openapi", schema(schema_with = bank_info_id_schema))]
    pub bank_info_id: Option<String>,
    /// Extension: a scan of this check (`POST …/smas/{smaSfid}/scan`) whose images the deposit
    /// takes instead of `checkFrontImage` and `checkBackImage` (give one or the other); the
    /// deposit is then a `Check_Scan` and keeps the scan's MICR line and G4 images.
    #[cfg_attr(feature = "openapi", schema(pattern = "^scn_[0-9a-f]{32}$"))]
    pub scan_id: Option<String>,
    /// Stored as given (the example's field; not in the field table).
    #[cfg_attr(feature = "openapi", schema(schema_with = transfer_type_schema))]
    pub transfer_type: Option<String>,
}

// The described short texts' schemas (`schema_with` leaves the doc comment out of the document).
#[cfg(feature = "openapi")]
fn payer_id_schema() -> utoipa::openapi::Object {
    Text140::schema_builder(true)
        .description(Some(
            "A managed sleeve account of the accounts collection, when given (an unknown one is a 404 naming it).",
        ))
        .build()
}

#[cfg(feature = "openapi")]
fn bank_info_id_schema() -> utoipa::openapi::Object {
    Text140::schema_builder(true).description(Some("The example's `payeeBankId`.")).build()
}

#[cfg(feature = "openapi")]
fn transfer_type_schema() -> utoipa::openapi::Object {
    Text140::schema_builder(true)
        .description(Some("Stored as given (the example's field; not in the field table)."))
        .build()
}

/// `amount` as the description types it (a number), or a decimal string: the pattern holds
/// for a string; a number's two decimals are the operation's rule (`multipleOf: 0.01` is not
/// exact in binary floating point, so validators disagree on it).
#[cfg(feature = "openapi")]
fn amount_schema() -> utoipa::openapi::schema::Object {
    number_or_text(r"^([1-9][0-9]{0,9}(\.[0-9]{1,2})?|0\.(0[1-9]|[1-9][0-9]?))$", true)
        .description(Some(
            "A JSON number or a decimal string, above zero, at most two decimals, at most 9,999,999,999.99. \
         Optional: without it, a deposit naming a `scanId` takes the scan's MICR amount field when the \
         check has one printed and it was read with certainty (it must also be what the scan was made \
         for); otherwise the answer is a 400 naming `amount` and saying why.",
        ))
        .build()
}

/// `fee` as the description types it (a number, zero allowed), or a decimal string.
#[cfg(feature = "openapi")]
fn fee_schema() -> utoipa::openapi::schema::Object {
    number_or_text(r"^(0|[1-9][0-9]{0,9})(\.[0-9]{1,2})?$", false)
        .description(Some(
            "A JSON number or a decimal string, zero or more, at most two decimals: the fee to charge \
         instead of the fee schedule's, allowed to a token with the `fees:override` scope (or `admin`); \
         from any other token it is a 403 naming `fee`, never ignored. Left out, the schedule's standard \
         fee for the amount is charged.",
        ))
        .build()
}

#[cfg(feature = "openapi")]
fn number_or_text(pattern: &str, above_zero: bool) -> utoipa::openapi::schema::ObjectBuilder {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let b = ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Number, Type::String, Type::Null]))
        .pattern(Some(pattern))
        .maximum(Some(9_999_999_999.99));
    match above_zero {
        true => b.exclusive_minimum(Some(0.0)),
        false => b.minimum(Some(0.0)),
    }
}

pub(super) fn raw_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let raw: Option<Box<RawValue>> = Option::deserialize(d)?;
    Ok(raw.and_then(|r| {
        let t = r.get().trim();
        if t == "null" {
            return None;
        }
        Some(t.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(t).to_string())
    }))
}

/// The request's fields that passed, ready for the server's own checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckDeposit {
    /// `None` only with a scan: the server takes the scan's MICR amount field.
    pub amount: Option<Money>,
    /// As printed (digits, dashes, spaces): see [`CheckDeposit::account_digits`].
    pub bank_account_number: String,
    pub bank_name: Option<Text140>,
    pub bank_routing_number: RoutingNumber,
    /// The images: base64 (a `data:image/...;base64,` prefix allowed), decoded by the
    /// server, or a scan's.
    pub images: CheckImages,
    pub check_date: Option<Date>,
    /// `None` only with a scan: the server takes the scan's MICR check number, if it has one.
    pub check_number: Option<String>,
    /// The fee to charge, when the caller may set it (the server checks the scope).
    pub fee: Option<Money>,
    pub memo: Option<Memo>,
    pub payee_account_id: String,
    pub payee_user_id: String,
    pub payer_id: Option<Text140>,
    pub payer_type: Option<Text140>,
    pub payment_type: Option<Text140>,
    pub schedule_date: Option<Date>,
    pub source: Option<Text140>,
    pub bank_info_id: Option<Text140>,
    pub transfer_type: Option<Text140>,
}

/// Where a deposit's images come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckImages {
    /// Sent with the request (base64).
    Sent { front: String, back: String },
    /// A scan's, by its id.
    Scan(String),
}

/// A check older than this many days is stale (UCC 4-404: a bank need not pay it).
pub const STALE_AFTER_DAYS: i64 = 180;
/// The largest amount a deposit may have: 9,999,999,999.99.
pub const MAX_AMOUNT_INTEGER_DIGITS: usize = 10;
/// The most characters of `bankAccountNumber`: NACHA's DFI account number field (X9.100-187's
/// on-us field has 20, with room for the on-us symbol and a serial).
const MAX_ACCOUNT_CHARS: usize = 17;

impl CheckDeposit {
    /// The account's digits alone (dashes and spaces are print, not part of the number): what
    /// duplicate presentment compares.
    pub fn account_digits(&self) -> String {
        account_digits(&self.bank_account_number)
    }
}

/// The digits of an account as printed.
fn account_digits(printed: &str) -> String {
    printed.chars().filter(char::is_ascii_digit).collect()
}

/// The on-us account rule: digits, dashes and spaces, a digit first and last (the document's
/// pattern `^[0-9]+([ -]+[0-9]+)*$`), at most [`MAX_ACCOUNT_CHARS`] characters.
fn on_us_account(v: &str, field: &str) -> Result<(), String> {
    let b = v.as_bytes();
    let chars_ok = b.iter().all(|c| c.is_ascii_digit() || *c == b'-' || *c == b' ');
    let ends_ok = b.first().is_some_and(u8::is_ascii_digit) && b.last().is_some_and(u8::is_ascii_digit);
    if !chars_ok || !ends_ok {
        return Err(format!(
            "{field} must be the account as printed: digits, with dashes or spaces between them (like 1211-1234-56789), got {v:?}"
        ));
    }
    if v.len() > MAX_ACCOUNT_CHARS {
        return Err(format!("{field} must be at most {MAX_ACCOUNT_CHARS} characters, got {}", v.len()));
    }
    Ok(())
}

impl CheckDepositFields {
    /// Checks every field against `today` (the business time zone's date); every problem is
    /// reported, each naming its field.
    pub fn check(&self, today: Date) -> Result<CheckDeposit, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut err = |field: &str, m: String| errors.push(FieldError::new(field, m));

        let amount = match self.amount.as_deref() {
            // With a scan, the server takes its MICR amount field (or says why it cannot).
            None if self.scan_id.is_some() => None,
            None => {
                err(
                    "amount",
                    "amount is required without a scanId: the amount of the check, like 125.00 (with a scanId, the scan's MICR amount field is taken when the check has one)".into(),
                );
                None
            }
            Some(a) => money(a, "amount", true).map_err(|m| err("amount", m)).ok(),
        };
        let fee = self.fee.as_deref().and_then(|f| money(f, "fee", false).map_err(|m| err("fee", m)).ok());
        let routing = match required(&self.bank_routing_number, "bankRoutingNumber", &mut err) {
            Some(r) => {
                RoutingNumber::parse(r).map_err(|e| err("bankRoutingNumber", format!("bankRoutingNumber: {e}"))).ok()
            }
            None => None,
        };
        let account = required(&self.bank_account_number, "bankAccountNumber", &mut err)
            .filter(|a| on_us_account(a, "bankAccountNumber").map_err(|m| err("bankAccountNumber", m)).is_ok())
            .map(str::to_string);
        let check_number = match (&self.check_number, &self.scan_id) {
            // With a scan, the server takes its MICR check number.
            (None, Some(_)) => None,
            _ => required(&self.check_number, "checkNumber", &mut err)
                .filter(|n| digits(n, 1, 15, "checkNumber", &mut err))
                .map(str::to_string),
        };
        let images = match (&self.scan_id, &self.check_front_image, &self.check_back_image) {
            (Some(id), None, None) => {
                let ok = id.len() == 36
                    && id.starts_with("scn_")
                    && id[4..].bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
                if !ok {
                    err("scanId", format!("scanId must be a scan's id like scn_ and 32 hex digits, got {id:?}"));
                }
                ok.then(|| CheckImages::Scan(id.clone()))
            }
            (Some(_), _, _) => {
                err("scanId", "give scanId or checkFrontImage and checkBackImage, not both".into());
                None
            }
            (None, _, _) => {
                let front = required(&self.check_front_image, "checkFrontImage", &mut err).map(str::to_string);
                let back = required(&self.check_back_image, "checkBackImage", &mut err).map(str::to_string);
                front.zip(back).map(|(front, back)| CheckImages::Sent { front, back })
            }
        };
        let payee_account = required(&self.payee_account_id, "payeeAccountId", &mut err).map(str::to_string);
        let payee_user = required(&self.payee_user_id, "payeeUserId", &mut err).map(str::to_string);

        let check_date = self.check_date.as_deref().and_then(|d| match Date::parse(d) {
            Err(m) => {
                err("checkDate", format!("checkDate {m}"));
                None
            }
            Ok(d) if d > today => {
                err(
                    "checkDate",
                    format!(
                        "checkDate {d} is in the future (today is {today}): a postdated check cannot be deposited yet"
                    ),
                );
                None
            }
            Ok(d) if today.days_since(d) > STALE_AFTER_DAYS => {
                err("checkDate", format!("checkDate {d} is more than {STALE_AFTER_DAYS} days ago: the check is stale"));
                None
            }
            Ok(d) => Some(d),
        });
        let schedule_date = self.schedule_date.as_deref().and_then(|d| match Date::parse(d) {
            Err(m) => {
                err("scheduleDate", format!("scheduleDate {m}"));
                None
            }
            Ok(d) if d < today => {
                err("scheduleDate", format!("scheduleDate {d} is in the past (today is {today})"));
                None
            }
            Ok(d) => Some(d),
        });
        let memo = self.memo.as_deref().and_then(|m| Memo::parse(m).map_err(|e| err("memo", e.to_string())).ok());
        let mut text = |field: &str, value: &Option<String>| {
            value.as_deref().and_then(|v| Text140::parse_field(field, v).map_err(|e| errors.push(e)).ok())
        };
        let bank_name = text("bankName", &self.bank_name);
        let payer_id = text("payerId", &self.payer_id);
        let payer_type = text("payerType", &self.payer_type);
        let payment_type = text("paymentType", &self.payment_type);
        let source = text("source", &self.source);
        let bank_info_id = text("bankInfoId", &self.bank_info_id);
        let transfer_type = text("transferType", &self.transfer_type);
        if !errors.is_empty() {
            return Err(errors);
        }
        let (Some(bank_routing_number), Some(bank_account_number)) = (routing, account) else {
            return Err(errors);
        };
        let (Some(images), Some(payee_account_id), Some(payee_user_id)) = (images, payee_account, payee_user) else {
            return Err(errors);
        };
        Ok(CheckDeposit {
            amount,
            bank_account_number,
            bank_name,
            bank_routing_number,
            images,
            check_date,
            check_number,
            fee,
            memo,
            payee_account_id,
            payee_user_id,
            payer_id,
            payer_type,
            payment_type,
            schedule_date,
            source,
            bank_info_id,
            transfer_type,
        })
    }
}

fn required<'a>(v: &'a Option<String>, field: &str, err: &mut impl FnMut(&str, String)) -> Option<&'a str> {
    match v.as_deref() {
        Some(s) if !s.trim().is_empty() => Some(s),
        Some(_) => {
            err(field, format!("{field} must not be empty"));
            None
        }
        None => {
            err(field, format!("{field} is required"));
            None
        }
    }
}

fn digits(v: &str, min: usize, max: usize, field: &str, err: &mut impl FnMut(&str, String)) -> bool {
    let ok = (min..=max).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        err(field, format!("{field} must be {min} to {max} digits, got {v:?}"));
    }
    ok
}

/// A positive (or, for the fee, non-negative) amount with at most 2 decimals and at most 10
/// integer digits, exactly as written.
pub(super) fn money(text: &str, field: &str, positive: bool) -> Result<Money, String> {
    if text.contains(['e', 'E']) {
        return Err(format!("{field} must be a plain decimal like 125.00, got {text}"));
    }
    let m = Money::parse(text).and_then(|m| m.check_amount(2)).map_err(|e| format!("{field}: {e}"))?;
    let int_digits = m.decimal().trunc().abs().to_string().trim_start_matches('0').len();
    if int_digits > MAX_AMOUNT_INTEGER_DIGITS {
        return Err(format!("{field} is too large: at most 9,999,999,999.99"));
    }
    if positive && m.decimal().is_zero() {
        return Err(format!("{field} must be greater than zero"));
    }
    Ok(m.with_cents())
}

#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
