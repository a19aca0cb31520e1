//! The rule of the deposit requests' short texts (bank name, payer and payee ids, payment and
//! transfer types, source): 1 to 140 characters, not blank, no control character. The memo's
//! rule (blank allowed) is [`crate::fees::Memo`]'s.

use std::fmt;

use crate::FieldError;

/// A short text of a deposit request: 1 to [`Text140::MAX_CHARS`] characters, not only
/// whitespace, none of them a control character: [`Text140::PATTERN`]. Kept as given.
///
/// ```
/// use moneydesk_model::deposits::Text140;
/// assert_eq!(Text140::parse("sma-1").unwrap().as_str(), "sma-1");
/// assert_eq!(Text140::parse(" Main Street Bank ").unwrap().as_str(), " Main Street Bank ");
/// assert!(Text140::parse(" ").is_err());
/// assert!(Text140::parse("a\u{7}b").is_err());
/// assert!(Text140::parse(&"é".repeat(141)).is_err());
/// let e = Text140::parse_field("payerId", "").unwrap_err();
/// assert_eq!((e.field.as_str(), e.problem.as_str()), ("payerId", "payerId must be 1 to 140 characters without control characters"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Text140(String);

/// Why a text is not a [`Text140`]; the field's name goes before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be 1 to 140 characters without control characters")]
pub struct Text140Error;

impl Text140 {
    /// The most characters (Unicode scalar values, as JSON Schema's `maxLength` counts).
    pub const MAX_CHARS: usize = 140;
    /// What [`Text140::parse`] accepts besides the length, as the OpenAPI document's `pattern`:
    /// no C0 or C1 control character, and one character that is not whitespace.
    pub const PATTERN: &'static str = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$";

    pub fn parse(s: &str) -> Result<Text140, Text140Error> {
        let ok = !s.trim().is_empty() && s.chars().count() <= Self::MAX_CHARS && !s.chars().any(char::is_control);
        ok.then(|| Text140(s.to_string())).ok_or(Text140Error)
    }

    /// [`Text140::parse`], the error naming `field`.
    pub fn parse_field(field: &str, s: &str) -> Result<Text140, FieldError> {
        Text140::parse(s).map_err(|e| FieldError::new(field, format!("{field} {e}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<Text140> for String {
    fn from(t: Text140) -> String {
        t.0
    }
}

impl fmt::Display for Text140 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The OpenAPI schemas of a field that holds one, named by the fields' `schema_with` (utoipa's
/// `pattern` and `max_length` take only literals, so the rule could not be named there).
#[cfg(feature = "openapi")]
impl Text140 {
    /// A string with the rule, `null` allowed when `nullable`; the caller adds a description.
    pub fn schema_builder(nullable: bool) -> utoipa::openapi::ObjectBuilder {
        use utoipa::openapi::schema::{SchemaType, Type};
        let schema_type =
            if nullable { SchemaType::from_iter([Type::String, Type::Null]) } else { Type::String.into() };
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(schema_type)
            .min_length(Some(1))
            .max_length(Some(Self::MAX_CHARS))
            .pattern(Some(Self::PATTERN))
    }

    /// A required field's schema.
    pub fn schema() -> utoipa::openapi::Object {
        Self::schema_builder(false).build()
    }

    /// An optional field's schema.
    pub fn nullable_schema() -> utoipa::openapi::Object {
        Self::schema_builder(true).build()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_limits_are_140_characters_of_any_script_and_one_that_is_not_blank() {
        assert!(Text140::parse(&"é".repeat(140)).is_ok());
        for bad in ["", " ", "\u{a0}\t", "a\u{0}", "a\u{85}b", "tab\there"] {
            assert_eq!(Text140::parse(bad), Err(Text140Error), "{bad:?}");
        }
    }

    proptest! {
        /// The OpenAPI pattern and length and the parser accept exactly the same texts.
        #[test]
        fn the_documented_pattern_is_what_the_parser_accepts(s in "[ a\u{0}\u{7f}\u{85}\u{a0}\u{3000}é]{0,3}") {
            let pattern = regex::Regex::new(Text140::PATTERN).unwrap();
            let documented = pattern.is_match(&s) && (1..=Text140::MAX_CHARS).contains(&s.chars().count());
            prop_assert_eq!(documented, Text140::parse(&s).is_ok(), "{:?}", s);
        }
    }
}
