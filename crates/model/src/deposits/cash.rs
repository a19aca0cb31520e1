//! Cash deposits (description section 1 names cash as a deposit kind; extension, no endpoint is
//! described): recorded with their amount against a managed sleeve account, in the same list,
//! chart and state machine as the other kinds.

use serde::{Deserialize, Serialize};

use super::{Date, Text140};
use crate::fees::Memo;
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
    #[cfg_attr(feature = "openapi", schema(schema_with = payee_account_id_schema, required = true))]
    pub payee_account_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Text140::schema, required = true))]
    pub payee_user_id: Option<String>,
    /// When it applies: today or later (default today).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = Date))]
    pub schedule_date: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = Memo::nullable_schema))]
    pub memo: Option<String>,
}

// `schema_with` leaves the doc comment out of the document.
#[cfg(feature = "openapi")]
fn payee_account_id_schema() -> utoipa::openapi::Object {
    Text140::schema_builder(false)
        .description(Some("The managed sleeve account the cash goes to (an account of the accounts collection)."))
        .build()
}

/// A cash deposit's fields that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashDeposit {
    pub amount: Money,
    /// As given, without the whitespace around it.
    pub payee_account_id: Text140,
    pub payee_user_id: Text140,
    pub schedule_date: Option<Date>,
    pub memo: Option<Memo>,
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
        let mut id = |v: &Option<String>, field: &str| match v.as_deref() {
            Some(s) => Text140::parse_field(field, s.trim()).map_err(|e| errors.push(e)).ok(),
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
        let memo = self
            .memo
            .as_deref()
            .and_then(|m| Memo::parse(m).map_err(|e| errors.push(FieldError::new("memo", e.to_string()))).ok());
        match (amount, payee_account, payee_user) {
            (Some(amount), Some(payee_account_id), Some(payee_user_id)) if errors.is_empty() => {
                Ok(CashDeposit { amount, payee_account_id, payee_user_id, schedule_date, memo })
            }
            _ => Err(errors),
        }
    }
}
