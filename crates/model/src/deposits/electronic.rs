//! Electronic deposits (description section 1: "an ACH pull from the vendor's bank into the
//! managed sleeve account"; extension, no endpoint is described): an ACH debit of the vendor's
//! account, with the check deposit's state machine, idempotency and duplicate rules. The
//! server writes the day's pulls as a NACHA file (CCD entries, transaction code 27 or 37).

use serde::{Deserialize, Serialize};

use super::{Date, Text140};
use crate::fees::Memo;
use crate::vocabulary::vocabulary;
use crate::{FieldError, Money, RoutingNumber};

vocabulary!(
    /// The vendor's account type: which debit transaction code its entry carries.
    pub enum AchAccountType {
        /// Transaction code 27.
        Checking = "checking",
        /// Transaction code 37.
        Savings = "savings",
    }
);

/// The body as sent. `amount` is read from its JSON text (a number or a decimal string).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = ElectronicDepositRequest))]
pub struct ElectronicDepositFields {
    /// Above zero, at most two decimals, at most 99,999,999.99 (an ACH entry's ten digits).
    #[serde(default, deserialize_with = "super::request::raw_text")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true,
        pattern = "^([1-9][0-9]{0,7}(\\.[0-9]{1,2})?|0\\.(0[1-9]|[1-9][0-9]?))$"))]
    pub amount: Option<String>,
    /// The vendor's bank: nine digits with a valid ABA checksum, in the FedACH directory.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, pattern = "^[0-9]{9}$"))]
    pub bank_routing_number: Option<String>,
    /// The vendor's account at that bank.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, pattern = "^[0-9]{1,17}$"))]
    pub bank_account_number: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = AchAccountType, required = true))]
    pub account_type: Option<String>,
    /// The vendor's name as the entry carries it: 1 to 22 characters.
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, min_length = 1, max_length = 22, pattern = "^[ -~]*[!-~][ -~]*$"))]
    pub vendor_name: Option<String>,
    /// What the vendor's statement shows: 1 to 10 characters (default `DEPOSIT`).
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 10, pattern = "^[ -~]*[!-~][ -~]*$"))]
    pub company_entry_description: Option<String>,
    /// When the money moves: today or later (business time zone).
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, format = Date))]
    pub effective_date: Option<String>,
    /// The managed sleeve account the money goes to (an account of the accounts collection).
    #[cfg_attr(feature = "openapi", schema(schema_with = payee_account_id_schema, required = true))]
    pub payee_account_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::schema, required = true))]
    pub payee_user_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Memo::nullable_schema))]
    pub memo: Option<String>,
}

// `schema_with` leaves the doc comment out of the document.
#[cfg(feature = "openapi")]
fn payee_account_id_schema() -> utoipa::openapi::Object {
    Text140::schema_builder(false)
        .description(Some("The managed sleeve account the money goes to (an account of the accounts collection)."))
        .build()
}

/// An electronic deposit's fields that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElectronicDeposit {
    pub amount: Money,
    pub bank_routing_number: RoutingNumber,
    pub bank_account_number: String,
    pub account_type: AchAccountType,
    pub vendor_name: String,
    pub company_entry_description: String,
    pub effective_date: Date,
    /// As given, without the whitespace around it.
    pub payee_account_id: Text140,
    pub payee_user_id: Text140,
    pub memo: Option<Memo>,
}

/// The largest amount one ACH entry carries: ten digits of cents.
const MAX_INTEGER_DIGITS: usize = 8;

impl ElectronicDepositFields {
    /// Checks every field against `today`; every problem is reported, each naming its field.
    ///
    /// ```
    /// use moneydesk_model::deposits::{Date, ElectronicDepositFields};
    /// let f = ElectronicDepositFields { amount: Some("100000000.00".into()), ..Default::default() };
    /// let errors = f.check(Date::parse("2026-11-26").unwrap()).unwrap_err();
    /// assert!(errors.iter().any(|e| e.field == "amount" && e.problem.contains("99,999,999.99")));
    /// assert!(errors.iter().any(|e| e.field == "effectiveDate"));
    /// ```
    pub fn check(&self, today: Date) -> Result<ElectronicDeposit, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut err = |field: &str, m: String| errors.push(FieldError::new(field, m));
        let text = |v: &Option<String>, field: &str, max: usize, err: &mut dyn FnMut(&str, String)| -> Option<String> {
            match v.as_deref().map(str::trim) {
                None => {
                    err(field, format!("{field} is required"));
                    None
                }
                Some(s)
                    if s.is_empty() || s.chars().count() > max || !s.bytes().all(|b| (b' '..=b'~').contains(&b)) =>
                {
                    err(field, format!("{field} must be 1 to {max} printable ASCII characters"));
                    None
                }
                Some(s) => Some(s.to_string()),
            }
        };
        let amount = match self.amount.as_deref() {
            None => {
                err("amount", "amount is required, like 1250.00".into());
                None
            }
            Some(a) => match super::request::money(a, "amount", true) {
                Ok(m) if m.decimal().trunc().abs().to_string().trim_start_matches('0').len() > MAX_INTEGER_DIGITS => {
                    err("amount", "amount is too large for one ACH entry: at most 99,999,999.99".into());
                    None
                }
                Ok(m) => Some(m),
                Err(m) => {
                    err("amount", m);
                    None
                }
            },
        };
        let routing = match self.bank_routing_number.as_deref() {
            None => {
                err("bankRoutingNumber", "bankRoutingNumber is required".into());
                None
            }
            Some(r) => {
                RoutingNumber::parse(r).map_err(|e| err("bankRoutingNumber", format!("bankRoutingNumber: {e}"))).ok()
            }
        };
        let account = match self.bank_account_number.as_deref() {
            Some(a) if (1..=17).contains(&a.len()) && a.bytes().all(|b| b.is_ascii_digit()) => Some(a.to_string()),
            Some(a) => {
                err("bankAccountNumber", format!("bankAccountNumber must be 1 to 17 digits, got {a:?}"));
                None
            }
            None => {
                err("bankAccountNumber", "bankAccountNumber is required".into());
                None
            }
        };
        let account_type = match self.account_type.as_deref() {
            Some(t) => AchAccountType::parse(t).or_else(|| {
                err("accountType", format!("accountType must be checking or savings, got {t:?}"));
                None
            }),
            None => {
                err("accountType", "accountType is required: checking or savings".into());
                None
            }
        };
        let vendor_name = text(&self.vendor_name, "vendorName", 22, &mut err);
        let description = match &self.company_entry_description {
            None => Some("DEPOSIT".to_string()),
            some => text(some, "companyEntryDescription", 10, &mut err),
        };
        let effective_date = match self.effective_date.as_deref() {
            None => {
                err("effectiveDate", "effectiveDate is required: when the money moves, today or later".into());
                None
            }
            Some(d) => match Date::parse(d) {
                Err(m) => {
                    err("effectiveDate", format!("effectiveDate {m}"));
                    None
                }
                Ok(d) if d < today => {
                    err("effectiveDate", format!("effectiveDate {d} is in the past (today is {today})"));
                    None
                }
                Ok(d) => Some(d),
            },
        };
        // Ids, not written in the ACH file: any short text.
        let id = |v: &Option<String>, field: &str, err: &mut dyn FnMut(&str, String)| match v.as_deref() {
            Some(s) => Text140::parse_field(field, s.trim()).map_err(|e| err(field, e.problem)).ok(),
            None => {
                err(field, format!("{field} is required"));
                None
            }
        };
        let payee_account = id(&self.payee_account_id, "payeeAccountId", &mut err);
        let payee_user = id(&self.payee_user_id, "payeeUserId", &mut err);
        let memo = self.memo.as_deref().and_then(|m| Memo::parse(m).map_err(|e| err("memo", e.to_string())).ok());
        match (
            amount,
            routing,
            account,
            account_type,
            vendor_name,
            description,
            effective_date,
            payee_account,
            payee_user,
        ) {
            (Some(amount), Some(r), Some(a), Some(t), Some(v), Some(c), Some(e), Some(p), Some(u))
                if errors.is_empty() =>
            {
                Ok(ElectronicDeposit {
                    amount,
                    bank_routing_number: r,
                    bank_account_number: a,
                    account_type: t,
                    vendor_name: v,
                    company_entry_description: c,
                    effective_date: e,
                    payee_account_id: p,
                    payee_user_id: u,
                    memo,
                })
            }
            _ => Err(errors),
        }
    }
}
