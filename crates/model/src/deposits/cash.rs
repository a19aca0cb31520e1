//! Cash deposits (description section 1 names cash as a deposit kind; extension, no endpoint is
//! described): recorded with their amount against a managed sleeve account, in the same list,
//! chart and state machine as the other kinds.

use serde::{Deserialize, Serialize};

use super::Date;
use crate::{FieldError, Money};

/// The body as sent. `amount` is read from its JSON text (a number or a decimal string).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = CashDepositRequest))]
pub struct CashDepositFields {
    /// Above zero, at most two decimals, at most 9,999,999,999.99.
    #[serde(default, deserialize_with = "super::request::raw_text")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true,
        pattern = "^([1-9][0-9]{0,9}(\\.[0-9]{1,2})?|0\\.(0[1-9]|[1-9][0-9]?))$"))]
    pub amount: Option<String>,
    /// The managed sleeve account the cash goes to (an account of the accounts collection).
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, max_length = 140,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"))]
    pub payee_account_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = String, required = true, max_length = 140,
        pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"))]
    pub payee_user_id: Option<String>,
    /// When it applies: today or later (default today).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date))]
    pub schedule_date: Option<String>,
    #[cfg_attr(feature = "openapi", schema(max_length = 140, pattern = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"))]
    pub memo: Option<String>,
}

/// A cash deposit's fields that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashDeposit {
    pub amount: Money,
    pub payee_account_id: String,
    pub payee_user_id: String,
    pub schedule_date: Option<Date>,
    pub memo: Option<String>,
}

impl CashDepositFields {
    /// Checks every field against `today`; every problem is reported, each naming its field.
    ///
    /// ```
    /// use moneydesk_model::deposits::{CashDepositFields, Date};
    /// let f = CashDepositFields { amount: Some("0".into()), payee_account_id: Some("a1".into()), ..Default::default() };
    /// let fields: Vec<String> = f.check(Date::parse("2026-11-26").unwrap()).unwrap_err().into_iter().map(|e| e.field).collect();
    /// assert_eq!(fields, ["amount", "payeeUserId"]);
    /// ```
    pub fn check(&self, today: Date) -> Result<CashDeposit, Vec<FieldError>> {
        let mut errors = Vec::new();
        let amount = match self.amount.as_deref() {
            None => {
                errors.push(FieldError::new("amount", "amount is required, like 200.00"));
                None
            }
            Some(a) => {
                super::request::money(a, "amount", true).map_err(|m| errors.push(FieldError::new("amount", m))).ok()
            }
        };
        let mut id = |v: &Option<String>, field: &str| match v.as_deref().map(str::trim) {
            Some(s) if !s.is_empty() && s.chars().count() <= 140 && !s.chars().any(char::is_control) => {
                Some(s.to_string())
            }
            Some(_) => {
                errors.push(FieldError::new(
                    field,
                    format!("{field} must be 1 to 140 characters without control characters"),
                ));
                None
            }
            None => {
                errors.push(FieldError::new(field, format!("{field} is required")));
                None
            }
        };
        let payee_account = id(&self.payee_account_id, "payeeAccountId");
        let payee_user = id(&self.payee_user_id, "payeeUserId");
        let schedule_date = self.schedule_date.as_deref().and_then(|d| match Date::parse(d) {
            Err(m) => {
                errors.push(FieldError::new("scheduleDate", format!("scheduleDate {m}")));
                None
            }
            Ok(d) if d < today => {
                errors.push(FieldError::new(
                    "scheduleDate",
                    format!("scheduleDate {d} is in the past (today is {today})"),
                ));
                None
            }
            Ok(d) => Some(d),
        });
        let memo = self.memo.as_deref().and_then(|m| match crate::fees::Memo::parse(m) {
            Ok(_) => Some(m.to_string()),
            Err(e) => {
                errors.push(FieldError::new("memo", e.to_string()));
                None
            }
        });
        match (amount, payee_account, payee_user) {
            (Some(amount), Some(payee_account_id), Some(payee_user_id)) if errors.is_empty() => {
                Ok(CashDeposit { amount, payee_account_id, payee_user_id, schedule_date, memo })
            }
            _ => Err(errors),
        }
    }
}
