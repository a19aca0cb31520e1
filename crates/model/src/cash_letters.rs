//! Image cash letters (extension; description section 1 names "generating an image cash letter
//! (ICL)" as a deposit kind and shows no endpoint): the confirmed check deposits of a business
//! day gathered into an X9.100-187 file, each deposit then "sent in a cash letter".

use serde::{Deserialize, Serialize};

use crate::deposits::Date;
use crate::{FieldError, Money};

/// What a cash letter is made of: the confirmed check deposits due by a business day, or the
/// deposits named (each must be confirmed). One or the other.
fn whole_numbers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    let raw: Option<Vec<serde_json::Number>> = Option::deserialize(d)?;
    raw.map(|ns| {
        ns.into_iter()
            .map(|n| {
                n.as_i64()
                    .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15).map(|f| f as i64))
                    .ok_or_else(|| serde::de::Error::custom(format!("depositIds: {n} is not a deposit id")))
            })
            .collect()
    })
    .transpose()
}

/// (Documented by hand below: one of the two, which a derived schema cannot say.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CashLetterRequest {
    /// Every confirmed `Check` and `Check_Scan` deposit scheduled on or before this day
    /// (`YYYY-MM-DD`, the business time zone) and not yet sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub business_date: Option<String>,
    /// These deposits only (1 to 10,000 ids, each a confirmed check deposit). JSON numbers
    /// with a zero fraction (`7.0`) are integers too, as JSON Schema counts them.
    #[serde(default, deserialize_with = "whole_numbers", skip_serializing_if = "Option::is_none")]
    pub deposit_ids: Option<Vec<i64>>,
    /// Only say what the cash letter would hold (items and totals); nothing is written.
    #[serde(default)]
    pub preview: bool,
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for CashLetterRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{
            ArrayBuilder, KnownFormat, ObjectBuilder, OneOfBuilder, SchemaFormat, SchemaType, Type,
        };
        let preview = || {
            ObjectBuilder::new()
                .schema_type(SchemaType::Type(Type::Boolean))
                .description(Some("Only say what the cash letter would hold (items and totals); nothing is written."))
        };
        let by_date = ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Object))
            .title(Some("Due by a business day"))
            .property(
                "businessDate",
                ObjectBuilder::new()
                    .schema_type(SchemaType::Type(Type::String))
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
                    .description(Some("Every confirmed Check and Check_Scan deposit scheduled on or before this day (business time zone) and not yet sent")),
            )
            .required("businessDate")
            .property("preview", preview())
            .additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)));
        let named = ObjectBuilder::new()
            .schema_type(SchemaType::Type(Type::Object))
            .title(Some("The deposits named"))
            .property(
                "depositIds",
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(SchemaType::Type(Type::Integer))
                            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                            .minimum(Some(1)),
                    )
                    .min_items(Some(1))
                    .max_items(Some(MAX_NAMED_DEPOSITS))
                    .description(Some("These deposits only, each a confirmed check deposit")),
            )
            .required("depositIds")
            .property("preview", preview())
            .additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)));
        OneOfBuilder::new().item(by_date).item(named).into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for CashLetterRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        "CashLetterRequest".into()
    }
}

/// A request that passed its own checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CashLetterSelection {
    DueBy(Date),
    Deposits(Vec<i64>),
}

/// The most deposits one request may name.
pub const MAX_NAMED_DEPOSITS: usize = 10_000;

impl CashLetterRequest {
    /// ```
    /// use moneydesk_model::cash_letters::{CashLetterRequest, CashLetterSelection};
    /// let r = CashLetterRequest { deposit_ids: Some(vec![3, 1, 3]), ..Default::default() };
    /// assert_eq!(r.check().unwrap(), CashLetterSelection::Deposits(vec![1, 3]));
    /// assert_eq!(CashLetterRequest::default().check().unwrap_err()[0].field, "businessDate");
    /// ```
    pub fn check(&self) -> Result<CashLetterSelection, Vec<FieldError>> {
        match (&self.business_date, &self.deposit_ids) {
            (Some(d), None) => Date::parse(d)
                .map(CashLetterSelection::DueBy)
                .map_err(|m| vec![FieldError::new("businessDate", format!("businessDate {m}"))]),
            (None, Some(ids)) => {
                if ids.is_empty() || ids.len() > MAX_NAMED_DEPOSITS {
                    return Err(vec![FieldError::new(
                        "depositIds",
                        format!("depositIds must name 1 to {MAX_NAMED_DEPOSITS} deposits, got {}", ids.len()),
                    )]);
                }
                if let Some(bad) = ids.iter().find(|i| **i < 1) {
                    return Err(vec![FieldError::new("depositIds", format!("{bad} is not a deposit id"))]);
                }
                let mut ids = ids.clone();
                ids.sort_unstable();
                ids.dedup();
                Ok(CashLetterSelection::Deposits(ids))
            }
            (Some(_), Some(_)) => {
                Err(vec![FieldError::new("businessDate", "give businessDate or depositIds, not both")])
            }
            (None, None) => Err(vec![FieldError::new(
                "businessDate",
                "businessDate (the confirmed deposits due by that day) or depositIds is required",
            )]),
        }
    }
}

/// A cash letter as made (or, for a preview, as it would be).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CashLetter {
    /// 0 in a preview.
    pub id: i64,
    /// The X9 cash letter id (type 10, 8 characters).
    pub cash_letter_id: String,
    /// `YYYY-MM-DD`.
    #[cfg_attr(feature = "openapi", schema(format = Date))]
    pub business_date: String,
    /// When it was made, RFC 3339 UTC; `null` in a preview.
    pub created_at: Option<String>,
    pub created_by: Option<String>,
    pub item_count: u64,
    pub bundle_count: u64,
    /// The sum of the items; exactly two decimals.
    pub total_amount: Money,
    /// The file's size and SHA-256 (hex); `null` in a preview.
    pub file_bytes: Option<u64>,
    pub file_sha256: Option<String>,
    /// The items, in the file's order (in a list: empty).
    pub items: Vec<CashLetterItem>,
}

/// One check of a cash letter: its deposit and its X9 check detail fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CashLetterItem {
    pub deposit_id: i64,
    /// 1-based bundle number within the cash letter.
    pub bundle: u32,
    /// The ECE institution item sequence number (unique in the file).
    pub sequence_number: String,
    /// Nine digits: the payor bank's routing number with its check digit.
    pub routing_number: String,
    /// The on-us field as X9 writes it (`/` for ⑈, `-` for ⑉).
    pub on_us: String,
    pub amount: Money,
}
