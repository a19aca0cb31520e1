//! The fee request (description 4.1): the same fields from a JSON body or from query
//! parameters (CONTRACT.md point 5), checked at once so that every wrong field is reported.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::{FeeAmount, Memo, Rail, TransferType};
use crate::FieldError;

/// The most characters an id (payeeId, payeeBankId, payerId) may have.
pub const ID_MAX_CHARS: usize = 64;

/// The fields as sent, all optional until checked. From JSON every field is a string; the
/// amount may also be a JSON number, read from its text (never through a float). An unknown
/// field is refused: a misspelt `ammount` must not turn a quote into a schedule listing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FeeRequestFields<'a> {
    pub payee_id: Option<Cow<'a, str>>,
    pub payee_bank_id: Option<Cow<'a, str>>,
    pub payer_id: Option<Cow<'a, str>>,
    pub transfer_type: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "amount_text")]
    pub amount: Option<Cow<'a, str>>,
    pub memo: Option<Cow<'a, str>>,
}

fn amount_text<'de, 'a, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Cow<'a, str>>, D::Error> {
    let raw: Option<Box<RawValue>> = Option::deserialize(d)?;
    Ok(raw.map(|r| {
        let text = r.get().trim();
        // A JSON string: its contents (a decimal string has no escapes worth decoding; one that
        // has them is not a decimal and is refused by the amount's own check).
        match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(inner) => Cow::Owned(inner.to_string()),
            None => Cow::Owned(text.to_string()),
        }
    }))
}

impl<'a> FeeRequestFields<'a> {
    /// The fields from query parameters (already percent-decoded; borrowed where the query
    /// needed no decoding, as `form_urlencoded::parse` gives them): an unknown or repeated
    /// parameter is an error naming it, as a misspelt JSON field is.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use moneydesk_model::fees::FeeRequestFields;
    /// let q = [("transferType", "EFT"), ("amount", "5")].map(|(k, v)| (Cow::from(k), Cow::from(v)));
    /// assert_eq!(FeeRequestFields::from_pairs(q).unwrap().amount.as_deref(), Some("5"));
    /// let twice = [("amount", "5"), ("amount", "6")].map(|(k, v)| (Cow::from(k), Cow::from(v)));
    /// assert_eq!(FeeRequestFields::from_pairs(twice).unwrap_err().problem, "amount is given more than once");
    /// ```
    pub fn from_pairs(pairs: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> Result<Self, FieldError> {
        let mut f = FeeRequestFields::default();
        for (k, v) in pairs {
            let slot = match &*k {
                "payeeId" => &mut f.payee_id,
                "payeeBankId" => &mut f.payee_bank_id,
                "payerId" => &mut f.payer_id,
                "transferType" => &mut f.transfer_type,
                "amount" => &mut f.amount,
                "memo" => &mut f.memo,
                _ => {
                    return Err(FieldError::new(
                        k.to_string(),
                        format!("unknown parameter {k:?}; the fee request takes {}", FIELDS.join(", ")),
                    ))
                }
            };
            if slot.replace(v).is_some() {
                return Err(FieldError::new(k.to_string(), format!("{k} is given more than once")));
            }
        }
        Ok(f)
    }
}

/// The request's field names, as sent.
pub const FIELDS: [&str; 6] = ["payeeId", "payeeBankId", "payerId", "transferType", "amount", "memo"];

/// A checked fee request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeeRequest<'a> {
    pub transfer_type: TransferType,
    /// `None`: list the whole schedule of the transfer type.
    pub amount: Option<FeeAmount>,
    pub payee_id: Option<Cow<'a, str>>,
    pub payee_bank_id: Option<Cow<'a, str>>,
    pub payer_id: Option<Cow<'a, str>>,
    /// Checked and never priced: nothing in a fee schedule depends on a memo.
    pub memo: Option<Memo>,
}

impl FeeRequest<'_> {
    /// The ids a price may depend on (a waiver, a payer's schedule).
    pub fn parties(&self) -> super::FeeParties<'_> {
        super::FeeParties {
            payer_id: self.payer_id.as_deref(),
            payee_id: self.payee_id.as_deref(),
            payee_bank_id: self.payee_bank_id.as_deref(),
        }
    }
}

impl<'a> FeeRequestFields<'a> {
    /// Checks every field for one rail; every problem is reported, each naming its field.
    ///
    /// `transferType` is required (a quote for a transfer type the caller did not mean would
    /// be a wrong price, so none is assumed); `amount` is optional (without it the answer is
    /// the transfer type's whole schedule); ids, when given, are 1 to 64 printable characters.
    ///
    /// ```
    /// use moneydesk_model::fees::{FeeRequestFields, Rail, TransferType};
    /// let fields = FeeRequestFields { transfer_type: Some("EFT".into()), amount: Some("12.50".into()), ..Default::default() };
    /// let request = fields.check(Rail::Ach).unwrap();
    /// assert_eq!(request.transfer_type, TransferType::Eft);
    /// let errors = FeeRequestFields { amount: Some("0".into()), ..Default::default() }.check(Rail::Ach).unwrap_err();
    /// assert_eq!(errors[0].field, "transferType");
    /// assert_eq!(errors[1].problem, "amount must be greater than zero");
    /// ```
    pub fn check(&self, rail: Rail) -> Result<FeeRequest<'a>, Vec<FieldError>> {
        let mut errors = Vec::new();
        let transfer_type = match self.transfer_type.as_deref() {
            None | Some("") => {
                let allowed = rail.transfer_types().iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
                errors.push(FieldError::new("transferType", format!("transferType is required: one of {allowed}")));
                None
            }
            Some(t) => {
                TransferType::parse_for(rail, t).map_err(|m| errors.push(FieldError::new("transferType", m))).ok()
            }
        };
        let amount = match self.amount.as_deref() {
            None => Some(None),
            Some(a) => match FeeAmount::parse(a) {
                Ok(a) => Some(Some(a)),
                Err(e) => {
                    errors.push(FieldError::new("amount", e.to_string()));
                    None
                }
            },
        };
        let memo = match self.memo.as_deref() {
            None => Some(None),
            Some(m) => match Memo::parse(m) {
                Ok(m) => Some(Some(m)),
                Err(e) => {
                    errors.push(FieldError::new("memo", e.to_string()));
                    None
                }
            },
        };
        for (field, value) in
            [("payeeId", &self.payee_id), ("payeeBankId", &self.payee_bank_id), ("payerId", &self.payer_id)]
        {
            if let Some(v) = value {
                if let Some(problem) = id_problem(v) {
                    errors.push(FieldError::new(field, format!("{field} {problem}")));
                }
            }
        }
        match (transfer_type, amount, memo) {
            (Some(transfer_type), Some(amount), Some(memo)) if errors.is_empty() => Ok(FeeRequest {
                transfer_type,
                amount,
                payee_id: self.payee_id.clone(),
                payee_bank_id: self.payee_bank_id.clone(),
                payer_id: self.payer_id.clone(),
                memo,
            }),
            _ => Err(errors),
        }
    }
}

/// What is wrong with an id (payeeId, payeeBankId, payerId; a schedule's payer_id), if anything.
pub(super) fn id_problem(v: &str) -> Option<String> {
    let n = v.chars().count();
    if v.trim().is_empty() {
        Some("must not be empty when given".into())
    } else if n > ID_MAX_CHARS {
        Some(format!("has {n} characters; at most {ID_MAX_CHARS} are allowed"))
    } else if v.trim() != v {
        Some("has spaces around it".into())
    } else if v.chars().any(char::is_control) {
        Some("has a control character".into())
    } else {
        None
    }
}

/// Field errors as the fee error body's one `message`: `amount: …; memo: …`.
pub fn message_of(errors: &[FieldError]) -> String {
    errors.iter().map(|e| format!("{}: {}", e.field, e.problem)).collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_json(body: &str) -> FeeRequestFields<'_> {
        serde_json::from_str(body).unwrap()
    }

    #[test]
    fn the_amount_reads_from_a_json_string_or_number_by_its_text() {
        assert_eq!(from_json(r#"{"amount":"100.10"}"#).amount.as_deref(), Some("100.10"));
        assert_eq!(from_json(r#"{"amount":100.10}"#).amount.as_deref(), Some("100.10"));
        let exp = from_json(r#"{"transferType":"EFT","amount":1e3}"#).check(Rail::Ach).unwrap_err();
        assert_eq!(exp[0].field, "amount");
        assert!(exp[0].problem.contains("plain decimal"), "{exp:?}");
    }

    #[test]
    fn every_wrong_field_is_named_at_once() {
        let fields = FeeRequestFields {
            payee_id: Some("".into()),
            payee_bank_id: Some("x".repeat(65).into()),
            payer_id: Some(" p1".into()),
            transfer_type: Some("SWIFT".into()),
            amount: Some("-5".into()),
            memo: Some("line\nbreak".into()),
        };
        let errors = fields.check(Rail::Wire).unwrap_err();
        let named: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(named, ["transferType", "amount", "memo", "payeeId", "payeeBankId", "payerId"]);
        assert_eq!(
            message_of(&errors[..1]),
            "transferType: transferType \"SWIFT\" is not known; use one of DOMESTIC_WIRE, INTERNATIONAL_WIRE"
        );
    }

    #[test]
    fn a_misspelt_field_is_refused_and_a_missing_amount_asks_for_the_schedule() {
        let err = serde_json::from_str::<FeeRequestFields>(r#"{"transferType":"EFT","ammount":"5"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `ammount`"), "{err}");
        let r = from_json(r#"{"transferType":"DOMESTIC_WIRE"}"#).check(Rail::Wire).unwrap();
        assert_eq!(r.amount, None);
    }
}
